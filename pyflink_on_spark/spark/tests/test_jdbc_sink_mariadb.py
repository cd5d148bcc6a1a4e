"""JdbcSink.sink against a real MariaDB server (the session's `mariadb` fixture) through PyMySQL:
the program's own upsert statement (INSERT ... ON DUPLICATE KEY UPDATE) in batches inside the
Spark tasks, Flink's field types as the server stores them, retries of a transient failure,
and a failing statement that fails the job naming statement and record while what Flink's
at-least-once sink would have flushed before stays."""
import datetime
import decimal
import sys

import cloudpickle
import pymysql
import pytest

from pyflink_on_spark.codecs.jdbc.mysql import mysql_settings
from pyflink_on_spark.common import Row
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.jdbc import (JdbcConnectionOptions,
                                                         JdbcExecutionOptions, JdbcSink)
from pyflink_on_spark.runtime.errors import JobExecutionError

# the key selector below ships by value: Spark's workers cannot import this test module
cloudpickle.register_pickle_by_value(sys.modules[__name__])

ROW = Types.ROW_NAMED(["id", "name", "amount", "ratio", "price", "day", "at", "raw", "ok"],
                      [Types.INT(), Types.STRING(), Types.DOUBLE(), Types.FLOAT(),
                       Types.BIG_DEC(), Types.SQL_DATE(), Types.SQL_TIMESTAMP(),
                       Types.PRIMITIVE_ARRAY(Types.BYTE()), Types.BOOLEAN()])


def _sql(url, *statements, fetch=None):
    settings = mysql_settings(url)
    host, port = settings.hosts[0]
    connection = pymysql.connect(**dict(settings.connect_kwargs(host, port), autocommit=True))
    try:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
            if fetch is not None:
                cursor.execute(fetch)
                return [tuple(row) for row in cursor.fetchall()]
    finally:
        connection.close()


def _options(url):
    return JdbcConnectionOptions.JdbcConnectionOptionsBuilder().with_url(url) \
        .with_driver_name("org.mariadb.jdbc.Driver").build()


def _record(i, name, amount=1.0):
    return Row(i, name, amount, i / 3, decimal.Decimal("%d.25" % i), datetime.date(2024, 1, i),
               datetime.datetime(2024, 1, i, 12, 30, 15, 250000), bytes([i, 255]), i % 2 == 0)


def test_upsert_sink_writes_flink_types_in_batches(spark, mariadb):
    _sql(mariadb, "DROP TABLE IF EXISTS upserts",
         "CREATE TABLE upserts (id int PRIMARY KEY, name varchar(40), amount double, "
         "ratio double, price decimal(10, 2), day date, at datetime(6), raw varbinary(8), "
         "ok boolean, updates int DEFAULT 0)")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    records = [_record(i, "v%d" % i) for i in range(1, 6)] + \
        [_record(2, "second", 2.5), _record(4, None, 4.5)]
    # one source subtask, then by key: each key's records reach one sink subtask in order
    env.from_collection(records, type_info=ROW).set_parallelism(1) \
        .key_by(lambda r: r[0], key_type=Types.INT()).add_sink(JdbcSink.sink(
        "INSERT INTO upserts (id, name, amount, ratio, price, day, at, raw, ok) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE "
        "name = VALUES(name), amount = amount + VALUES(amount), updates = updates + 1",
        ROW, _options(mariadb),
        JdbcExecutionOptions.builder().with_batch_size(2).with_batch_interval_ms(200)
        .with_max_retries(0).build()))
    env.execute("jdbc upsert")
    rows = _sql(mariadb, fetch="SELECT id, name, amount, ratio, price, day, at, raw, ok, "
                               "updates FROM upserts ORDER BY id")

    def stored(i, name, amount, updates):
        # a FLOAT field reaches a DOUBLE column as Connector/J sends it, Java's Float.toString
        # (PyFlink 1.20.5 with MariaDB Connector/J 3.5.7: compat case jdbc/mariadb_upsert)
        ratio = {1: 0.33333334, 2: 0.6666667, 3: 1.0, 4: 1.3333334, 5: 1.6666666}[i]
        return (i, name, amount, ratio, decimal.Decimal("%d.25" % i), datetime.date(2024, 1, i),
                datetime.datetime(2024, 1, i, 12, 30, 15, 250000), bytes([i, 255]),
                int(i % 2 == 0), updates)

    assert rows == [stored(1, "v1", 1.0, 0), stored(2, "second", 3.5, 1),
                    stored(3, "v3", 1.0, 0), stored(4, None, 5.5, 1), stored(5, "v5", 1.0, 0)]


def _flaky_table(url, table, failures):
    """A table whose trigger fails the first `failures` rows (a sequence counts them:
    sequences are not rolled back, so a retry sees the next number)."""
    _sql(url, "DROP TABLE IF EXISTS %s" % table, "DROP SEQUENCE IF EXISTS %s_calls" % table,
         "CREATE SEQUENCE %s_calls NOCACHE" % table,
         "CREATE TABLE %s (id int PRIMARY KEY, name varchar(20), "
         "CONSTRAINT %s_name_check CHECK (name <> 'bad'))" % (table, table),
         "CREATE TRIGGER %s_flaky BEFORE INSERT ON %s FOR EACH ROW BEGIN "
         "IF NEXTVAL(%s_calls) <= %d THEN SIGNAL SQLSTATE '45000' "
         "SET MESSAGE_TEXT = 'transient failure'; END IF; END" % (table, table, table, failures))


def _write(url, table, names, batch_size, max_retries):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    row = Types.ROW_NAMED(["id", "name"], [Types.INT(), Types.STRING()])
    env.from_collection([Row(i, n) for i, n in enumerate(names, 1)], type_info=row) \
        .add_sink(JdbcSink.sink(
            "INSERT INTO %s (id, name) VALUES (?, ?) ON DUPLICATE KEY UPDATE id = id" % table,
            row, _options(url),
            JdbcExecutionOptions.builder().with_batch_size(batch_size)
            .with_max_retries(max_retries).build()))
    env.execute("jdbc " + table)


def _calls(url, table):
    return _sql(url, fetch="SELECT next_not_cached_value - 1 FROM %s_calls" % table)[0][0]


def test_a_transient_failure_is_retried_per_with_max_retries(spark, mariadb):
    _flaky_table(mariadb, "retried", failures=1)
    _write(mariadb, "retried", ["a", "b", "c"], batch_size=10, max_retries=1)
    assert _sql(mariadb, fetch="SELECT id, name FROM retried ORDER BY id") == \
        [(1, "a"), (2, "b"), (3, "c")]
    # the first attempt's first row failed; the retry ran the whole batch again
    assert _calls(mariadb, "retried") == 4


def test_a_failing_statement_fails_the_job_naming_statement_and_record(spark, mariadb):
    _flaky_table(mariadb, "failing", failures=0)
    with pytest.raises(JobExecutionError) as error:
        _write(mariadb, "failing", ["a", "b", "c", "bad", "e"], batch_size=2, max_retries=0)
    text = str(error.value)
    assert "INSERT INTO failing (id, name) VALUES (?, ?)" in text
    assert "(4, 'bad')" in text
    assert "failing_name_check" in text           # MariaDB's own message
    # batches flushed before the failing one stay (Flink's at-least-once sink); the failing
    # batch (c, bad) was one transaction and left nothing; e was never flushed
    assert _sql(mariadb, fetch="SELECT id, name FROM failing ORDER BY id") == \
        [(1, "a"), (2, "b")]
