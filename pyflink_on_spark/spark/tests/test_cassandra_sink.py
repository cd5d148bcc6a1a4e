"""CassandraSink against a real Cassandra node (the session's `cassandra` fixture): rows and
tuples written from the sink's Spark tasks and read back, an upsert written twice stays one
row, ignored null fields stay unset, and a failing query, a query that does not prepare and
a node that is down each fail the job with one clear error."""
import datetime
import sys
import time

import cloudpickle
import pytest
from cassandra.cluster import Cluster

from pyflink_on_spark.common import Row
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.cassandra import CassandraSink
from pyflink_on_spark.runtime.errors import JobExecutionError

ROW = Types.ROW_NAMED(["id", "name", "amount", "big", "ok", "at"],
                      [Types.INT(), Types.STRING(), Types.DOUBLE(), Types.LONG(),
                       Types.BOOLEAN(), Types.SQL_TIMESTAMP()])
TUPLE = Types.TUPLE([Types.INT(), Types.STRING(), Types.DOUBLE(), Types.LONG(),
                     Types.BOOLEAN(), Types.SQL_TIMESTAMP()])
# the unbounded job's map ships by value: Spark's workers cannot import this test module
cloudpickle.register_pickle_by_value(sys.modules[__name__])

INSERT = "INSERT INTO sink_test.%s (id, name, amount, big, ok, at) VALUES (?, ?, ?, ?, ?, ?)"


@pytest.fixture(scope="module")
def cql(cassandra):
    """A session to the test node with the keyspace sink_test; (session, host, port)."""
    host, port = cassandra.rsplit(":", 1)
    cluster = Cluster([host], port=int(port))
    session = cluster.connect()
    session.execute("CREATE KEYSPACE IF NOT EXISTS sink_test WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    try:
        yield session, host, int(port)
    finally:
        cluster.shutdown()


def _table(session, name):
    session.execute("DROP TABLE IF EXISTS sink_test.%s" % name)
    session.execute("CREATE TABLE sink_test.%s (id int PRIMARY KEY, name text, amount double, "
                    "big bigint, ok boolean, at timestamp)" % name)


def _rows(session, table):
    return sorted(tuple(r) for r in session.execute(
        "SELECT id, name, amount, big, ok, at FROM sink_test.%s" % table))


def _at(i):
    return datetime.datetime(2024, 1, i + 1, 12, 30, 15, 250000)


def _sink(stream, table, host, port):
    return CassandraSink.add_sink(stream).set_query(INSERT % table).set_host(host, port)


def test_rows_and_tuples_are_written_and_read_back(spark, cql):
    session, host, port = cql
    _table(session, "rows")
    _table(session, "tuples")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    records = [(i, "v%d" % i, i / 4, 2 ** 40 + i, i % 2 == 0, _at(i)) for i in range(8)]
    rows = env.from_collection([Row(*r) for r in records], type_info=ROW)
    _sink(rows, "rows", host, port).set_max_concurrent_requests(2).build()
    tuples = env.from_collection(records, type_info=TUPLE)
    _sink(tuples, "tuples", host, port).build().name("tuples to Cassandra")
    env.execute("cassandra rows and tuples")
    assert _rows(session, "rows") == records
    assert _rows(session, "tuples") == records


def test_an_upsert_written_twice_stays_one_row(spark, cql):
    session, host, port = cql
    _table(session, "upserts")
    for run in range(2):   # the job again, as a retried task writes its records again
        env = StreamExecutionEnvironment.get_execution_environment()
        env.set_parallelism(1)
        rows = env.from_collection([Row(1, "first", 1.0, 1, True, _at(0)),
                                    Row(2, "other", 2.0, 2, False, _at(1))], type_info=ROW)
        _sink(rows, "upserts", host, port).build()
        env.execute("cassandra upsert %d" % run)
    assert _rows(session, "upserts") == [(1, "first", 1.0, 1, True, _at(0)),
                                         (2, "other", 2.0, 2, False, _at(1))]


def test_ignored_null_fields_leave_the_columns_as_they_were(spark, cql):
    session, host, port = cql
    _table(session, "nulls")
    session.execute("INSERT INTO sink_test.nulls (id, name, amount) VALUES (1, 'kept', 1.5)")
    session.execute("INSERT INTO sink_test.nulls (id, name, amount) VALUES (2, 'gone', 2.5)")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    _sink(env.from_collection([Row(1, None, 9.0, None, None, None)], type_info=ROW),
          "nulls", host, port).enable_ignore_null_fields().build()
    _sink(env.from_collection([Row(2, None, 9.0, None, None, None)], type_info=ROW),
          "nulls", host, port).build()
    env.execute("cassandra null fields")
    assert _rows(session, "nulls") == [(1, "kept", 9.0, None, None, None),
                                       (2, None, 9.0, None, None, None)]


def test_a_failing_write_fails_the_job_naming_query_and_record(spark, cql):
    session, host, port = cql
    _table(session, "failing")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    rows = env.from_collection([Row(1, "a", 1.0, 1, True, _at(0)),
                                Row(None, "no key", 2.0, 2, True, _at(1))], type_info=ROW)
    _sink(rows, "failing", host, port).build()
    with pytest.raises(JobExecutionError) as error:
        env.execute("cassandra failing write")
    text = str(error.value)
    assert INSERT % "failing" in text
    assert "(None, 'no key', 2.0, 2, True," in text
    assert "Invalid null value in condition for column id" in text   # Cassandra's message
    assert len(text.splitlines()) <= 3


def test_a_field_type_flinks_driver_cannot_bind_to_its_column_fails_as_on_flink(spark, cql):
    session, host, port = cql
    session.execute("DROP TABLE IF EXISTS sink_test.ints")
    session.execute("CREATE TABLE sink_test.ints (id int PRIMARY KEY, v int)")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    rows = env.from_collection([Row(1, 5)], type_info=Types.ROW([Types.INT(), Types.LONG()]))
    CassandraSink.add_sink(rows).set_query("INSERT INTO sink_test.ints (id, v) VALUES (?, ?)") \
        .set_host(host, port).build()
    with pytest.raises(JobExecutionError,
                       match=r"Codec not found for requested operation: "
                             r"\[int <-> java.lang.Long\]"):   # PyFlink's message
        env.execute("cassandra long into int")
    assert list(session.execute("SELECT * FROM sink_test.ints")) == []


def test_a_query_that_does_not_prepare_fails_the_job_naming_it(spark, cql):
    _, host, port = cql
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    rows = env.from_collection([Row(1, "a", 1.0, 1, True, _at(0))], type_info=ROW)
    _sink(rows, "no_such_table", host, port).build()
    with pytest.raises(JobExecutionError) as error:
        env.execute("cassandra unknown table")
    text = str(error.value)
    assert "could not prepare its query %r" % (INSERT % "no_such_table") in text
    assert "no_such_table" in text.split("on %s:%d: " % (host, port), 1)[1]


def test_a_node_that_is_down_fails_the_job_in_seconds_naming_host_and_port(spark, capfd):
    import socket
    with socket.socket() as s:          # a loopback port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    rows = env.from_collection([Row(1, "a", 1.0, 1, True, _at(0))], type_info=ROW)
    _sink(rows, "down", "127.0.0.1", port).build()
    capfd.readouterr()
    started = time.monotonic()
    with pytest.raises(JobExecutionError) as error:
        env.execute("cassandra down")
    took = time.monotonic() - started
    text = str(error.value)
    assert "CassandraSink could not connect to Cassandra at 127.0.0.1:%d" % port in text
    assert "Connection refused" in text and "Check that Cassandra is running" in text
    assert len(text.splitlines()) <= 3
    assert took < 30
    # the driver's own logging (a traceback per connection attempt) stays quiet
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err and "cassandra.cluster" not in out + err


def test_an_unbounded_job_writes_each_micro_batch(spark, cql, tmp_path):
    import os
    from pyflink_on_spark.common import Duration, WatermarkStrategy
    from pyflink_on_spark.datastream.connectors.file_system import FileSource, StreamFormat
    session, host, port = cql
    _table(session, "streamed")
    in_dir = str(tmp_path / "in")
    os.makedirs(in_dir)
    with open(os.path.join(in_dir, "a.txt"), "w") as f:
        f.write("1\n2\n")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), in_dir) \
        .monitor_continuously(Duration.of_millis(200)).build()
    rows = env.from_source(source, WatermarkStrategy.no_watermarks(), "files").map(
        lambda line: Row(int(line), "v" + line, 0.5, 1, True, _at(0)), output_type=ROW)
    _sink(rows, "streamed", host, port).build()
    client = env.execute_async("cassandra unbounded")

    def wait_for_ids(ids, timeout=120):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if [r[0] for r in _rows(session, "streamed")] == ids:
                return
            time.sleep(0.3)
        raise AssertionError("rows %s never appeared" % ids)
    try:
        wait_for_ids([1, 2])
        with open(os.path.join(in_dir, ".b.tmp"), "w") as f:
            f.write("3\n")
        os.rename(os.path.join(in_dir, ".b.tmp"), os.path.join(in_dir, "b.txt"))
        wait_for_ids([1, 2, 3])
    finally:
        client.cancel().result()
