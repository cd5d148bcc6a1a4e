"""The Cassandra writer on its own: the bound on writes in flight (Flink's
set_max_concurrent_requests) and its timeout message, a write failure kept and raised at the
next write or flush, null fields left unset; against the test node (the `cassandra` fixture)
and, for what needs writes held in flight, a session that holds them."""
import socket
import threading
import time

import pytest
from cassandra.cluster import Cluster
from cassandra.query import UNSET_VALUE

from pyflink_on_spark.codecs.cassandra.writer import CassandraWriteError, CassandraWriter

QUERY = "INSERT INTO writer_test.t (id, name) VALUES (?, ?)"


class _HeldFuture:
    """A response that arrives when the test says so."""

    def __init__(self):
        self.callbacks = None

    def add_callbacks(self, callback, errback, errback_args=()):
        self.callbacks = (callback, errback, errback_args)

    def succeed(self):
        self.callbacks[0](None)

    def fail(self, error):
        callback, errback, args = self.callbacks
        errback(error, *args)


class _HeldSession:
    def __init__(self):
        self.futures = []

    def execute_async(self, bound):
        self.futures.append(_HeldFuture())
        return self.futures[-1]


class _Prepared:
    def __init__(self):
        self.bound = []

    def bind(self, values):
        self.bound.append(values)
        return values


def _held_writer(**options):
    writer = CassandraWriter(QUERY, "127.0.0.1", 9042, **options)
    writer.session, writer.prepared = _HeldSession(), _Prepared()
    return writer


def test_a_write_waits_for_a_free_slot_and_times_out_as_flink_says():
    writer = _held_writer(max_concurrent_requests=2, max_concurrent_requests_timeout_ms=1500)
    writer.write((1, "a"))
    writer.write((2, "b"))
    started = time.monotonic()
    with pytest.raises(CassandraWriteError,
                       match=r"^Failed to acquire 1 out of 2 permits to send value in "
                             r"PT1\.5S\.$"):
        writer.write((3, "c"))
    assert 1.4 < time.monotonic() - started < 5
    # a response frees a slot for the waiting write
    threading.Timer(0.2, writer.session.futures[0].succeed).start()
    writer.write((3, "c"))
    assert len(writer.session.futures) == 3
    with pytest.raises(CassandraWriteError, match="Failed to acquire 2 out of 2 permits"):
        writer.flush()   # two still in flight
    for future in writer.session.futures[1:]:
        future.succeed()
    writer.flush()


def test_a_failed_write_is_raised_at_the_next_write_once():
    writer = _held_writer()
    writer.write((1, "a"))
    writer.write((2, "b"))
    writer.session.futures[1].fail(RuntimeError("write timeout"))
    writer.session.futures[0].fail(RuntimeError("second failure"))
    with pytest.raises(CassandraWriteError) as error:
        writer.write((3, "c"))
    assert str(error.value) == ("CassandraSink: error while sending value (2, 'b') with query "
                                "%r to 127.0.0.1:9042: RuntimeError: write timeout" % QUERY)
    writer.flush()   # Flink keeps only the first failure; it was raised


def test_a_node_lost_mid_job_says_what_to_check():
    from cassandra.cluster import NoHostAvailable
    writer = _held_writer()
    writer.write((1, "a"))
    writer.session.futures[0].fail(NoHostAvailable(
        "Unable to complete the operation against any hosts", {}))
    with pytest.raises(CassandraWriteError) as error:
        writer.flush()
    assert str(error.value) == (
        "CassandraSink: error while sending value (1, 'a') with query %r to 127.0.0.1:9042: "
        "NoHostAvailable: ('Unable to complete the operation against any hosts', {}). The "
        "connection to Cassandra at 127.0.0.1:9042 was lost or timed out: check that the node "
        "is still running and reachable" % QUERY)


def test_ignored_null_fields_are_bound_unset():
    writer = _held_writer(ignore_null_fields=True)
    writer.write((1, None))
    assert writer.prepared.bound == [[1, UNSET_VALUE]]
    plain = _held_writer()
    plain.write((1, None))
    assert plain.prepared.bound == [[1, None]]


def test_a_node_that_never_answers_fails_the_open_within_its_connect_timeout():
    with socket.socket() as silent:            # accepts connections, never speaks CQL
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        writer = CassandraWriter(QUERY, "127.0.0.1", port)
        started = time.monotonic()
        with pytest.raises(CassandraWriteError) as error:
            writer.open()
    assert time.monotonic() - started < 15
    assert str(error.value).startswith(
        "CassandraSink could not connect to Cassandra at 127.0.0.1:%d: Timed out creating "
        "connection (5.0 seconds). Check that Cassandra is running there" % port)


def test_writes_in_flight_stay_within_the_bound_on_a_real_node(cassandra):
    host, port = cassandra.rsplit(":", 1)
    cluster = Cluster([host], port=int(port))
    session = cluster.connect()
    try:
        session.execute("CREATE KEYSPACE IF NOT EXISTS writer_test WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        session.execute("DROP TABLE IF EXISTS writer_test.t")
        session.execute("CREATE TABLE writer_test.t (id int PRIMARY KEY, name text)")
        writer = CassandraWriter(QUERY, host, int(port), max_concurrent_requests=3)
        writer.open()
        peak = []
        execute = writer.session.execute_async

        def counting(bound):
            peak.append(writer.in_flight)
            return execute(bound)
        writer.session.execute_async = counting
        for i in range(200):
            writer.write((i, "n%d" % i))
        writer.close()
        assert max(peak) == 3       # the bound was reached and never passed
        assert session.execute("SELECT count(*) FROM writer_test.t").one()[0] == 200
    finally:
        cluster.shutdown()


def test_fields_the_java_driver_cannot_bind_to_their_column_are_refused_as_flink_does():
    from pyflink_on_spark.codecs.cassandra.java_codecs import java_class, refused_fields
    classes = [java_class("Ljava.lang.Integer;"), java_class("Ljava.lang.Long;"),
               java_class("Ljava.lang.String;"), java_class("Ljava.lang.Double;"),
               java_class("[B"), java_class("Ljava.sql.Timestamp;")]
    assert classes[:2] == ["java.lang.Integer", "java.lang.Long"] and classes[4] == "[B"
    assert refused_fields(classes[:4] + [None, classes[5]],
                          ["int", "bigint", "varchar", "double", "blob", "timestamp"]) == ()
    assert refused_fields(classes, ["bigint", "int", "uuid", "list<double>", "blob",
                                    "date"]) == (
        (0, "Codec not found for requested operation: [bigint <-> java.lang.Integer]"),
        (1, "Codec not found for requested operation: [int <-> java.lang.Long]"),
        (2, "Codec not found for requested operation: [uuid <-> java.lang.String]"),
        (4, "Codec not found for requested operation: [blob <-> [B]"),
        (5, "Codec not found for requested operation: [date <-> java.sql.Timestamp]"))
    assert refused_fields(["[Ljava.lang.Integer;", "java.util.List"],
                          ["list<int>", "list<int>"]) == (
        (0, "Codec not found for requested operation: [list<int> <-> [Ljava.lang.Integer;]"),)
    writer = _held_writer(field_classes=classes[:2])
    writer._refused = refused_fields(classes[:2], ["int", "int"])
    writer.write((1, None))            # a null is bound without a codec
    with pytest.raises(CassandraWriteError, match=r"could not bind the record \(1, 5\) to "
                       r"its query .*: Codec not found for requested operation: "
                       r"\[int <-> java.lang.Long\]$"):
        writer.write((1, 5))
