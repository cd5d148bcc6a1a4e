"""JdbcSink.sink against a real PostgreSQL server (the session's `postgres` fixture): the
program's own upsert statement in batches inside the Spark tasks, Flink's field types, retries
of a transient failure, and a failing statement that fails the job naming statement and record
while what Flink's at-least-once sink would have flushed before stays."""
import datetime
import decimal
import sys

import cloudpickle
import psycopg
import pytest

from pyflink_on_spark.codecs.jdbc.drivers import postgresql_settings
from pyflink_on_spark.common import Row
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.jdbc import (JdbcConnectionOptions,
                                                         JdbcExecutionOptions, JdbcSink)
from pyflink_on_spark.runtime.errors import JobExecutionError

# the key selector below ships by value: Spark's workers cannot import this test module
cloudpickle.register_pickle_by_value(sys.modules[__name__])

ROW = Types.ROW_NAMED(["id", "name", "amount", "price", "day", "at", "raw", "ok"],
                      [Types.INT(), Types.STRING(), Types.DOUBLE(), Types.BIG_DEC(),
                       Types.SQL_DATE(), Types.SQL_TIMESTAMP(),
                       Types.PRIMITIVE_ARRAY(Types.BYTE()), Types.BOOLEAN()])


def _sql(url, *statements, fetch=None):
    with psycopg.connect(**postgresql_settings(url), autocommit=True) as connection:
        for statement in statements:
            connection.execute(statement)
        if fetch is not None:
            return connection.execute(fetch).fetchall()


def _options(url):
    return JdbcConnectionOptions.JdbcConnectionOptionsBuilder().with_url(url) \
        .with_driver_name("org.postgresql.Driver").build()


def _record(i, name, amount=1.0):
    return Row(i, name, amount, decimal.Decimal("%d.25" % i), datetime.date(2024, 1, i),
               datetime.datetime(2024, 1, i, 12, 30, 15, 250000), bytes([i, 255]), i % 2 == 0)


def test_upsert_sink_writes_flink_types_in_batches(spark, postgres):
    _sql(postgres, "DROP TABLE IF EXISTS upserts",
         "CREATE TABLE upserts (id int PRIMARY KEY, name text, amount double precision, "
         "price numeric(10, 2), day date, at timestamp, raw bytea, ok boolean, "
         "updates int DEFAULT 0)")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    records = [_record(i, "v%d" % i) for i in range(1, 6)] + \
        [_record(2, "second", 2.5), _record(4, None, 4.5)]
    # one source subtask, then by key: each key's records reach one sink subtask in order
    env.from_collection(records, type_info=ROW).set_parallelism(1) \
        .key_by(lambda r: r[0], key_type=Types.INT()).add_sink(JdbcSink.sink(
        "INSERT INTO upserts (id, name, amount, price, day, at, raw, ok) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
        "name = EXCLUDED.name, amount = upserts.amount + EXCLUDED.amount, "
        "updates = upserts.updates + 1",
        ROW, _options(postgres),
        JdbcExecutionOptions.builder().with_batch_size(2).with_batch_interval_ms(200)
        .with_max_retries(0).build()))
    env.execute("jdbc upsert")
    rows = _sql(postgres, fetch="SELECT id, name, amount, price, day, at, raw, ok, updates "
                                "FROM upserts ORDER BY id")
    assert rows == [
        (1, "v1", 1.0, decimal.Decimal("1.25"), datetime.date(2024, 1, 1),
         datetime.datetime(2024, 1, 1, 12, 30, 15, 250000), bytes([1, 255]), False, 0),
        (2, "second", 3.5, decimal.Decimal("2.25"), datetime.date(2024, 1, 2),
         datetime.datetime(2024, 1, 2, 12, 30, 15, 250000), bytes([2, 255]), True, 1),
        (3, "v3", 1.0, decimal.Decimal("3.25"), datetime.date(2024, 1, 3),
         datetime.datetime(2024, 1, 3, 12, 30, 15, 250000), bytes([3, 255]), False, 0),
        (4, None, 5.5, decimal.Decimal("4.25"), datetime.date(2024, 1, 4),
         datetime.datetime(2024, 1, 4, 12, 30, 15, 250000), bytes([4, 255]), True, 1),
        (5, "v5", 1.0, decimal.Decimal("5.25"), datetime.date(2024, 1, 5),
         datetime.datetime(2024, 1, 5, 12, 30, 15, 250000), bytes([5, 255]), False, 0),
    ]


def _flaky_table(url, table, failures):
    """A table whose trigger fails the first `failures` statements (a sequence counts them:
    sequences are not rolled back, so a retry sees the next number)."""
    _sql(url, "DROP TABLE IF EXISTS %s" % table, "DROP SEQUENCE IF EXISTS %s_calls" % table,
         "CREATE SEQUENCE %s_calls" % table,
         "CREATE TABLE %s (id int PRIMARY KEY, name text CHECK (name <> 'bad'))" % table,
         "CREATE OR REPLACE FUNCTION %s_flaky() RETURNS trigger AS $$ BEGIN "
         "IF nextval('%s_calls') <= %d THEN RAISE EXCEPTION 'transient failure %%', NEW.id; "
         "END IF; RETURN NEW; END $$ LANGUAGE plpgsql" % (table, table, failures),
         "CREATE TRIGGER %s_flaky BEFORE INSERT ON %s FOR EACH ROW EXECUTE FUNCTION %s_flaky()"
         % (table, table, table))


def _write(url, table, names, batch_size, max_retries):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    row = Types.ROW_NAMED(["id", "name"], [Types.INT(), Types.STRING()])
    env.from_collection([Row(i, n) for i, n in enumerate(names, 1)], type_info=row) \
        .add_sink(JdbcSink.sink(
            "INSERT INTO %s (id, name) VALUES (?, ?) ON CONFLICT (id) DO NOTHING" % table,
            row, _options(url),
            JdbcExecutionOptions.builder().with_batch_size(batch_size)
            .with_max_retries(max_retries).build()))
    env.execute("jdbc " + table)


def test_a_transient_failure_is_retried_per_with_max_retries(spark, postgres):
    _flaky_table(postgres, "retried", failures=1)
    _write(postgres, "retried", ["a", "b", "c"], batch_size=10, max_retries=1)
    assert _sql(postgres, fetch="SELECT id, name FROM retried ORDER BY id") == \
        [(1, "a"), (2, "b"), (3, "c")]
    # the first attempt's first statement failed; the retry ran the whole batch again
    assert _sql(postgres, fetch="SELECT last_value FROM retried_calls") == [(4,)]


def test_a_failing_statement_fails_the_job_naming_statement_and_record(spark, postgres):
    _flaky_table(postgres, "failing", failures=0)
    with pytest.raises(JobExecutionError) as error:
        _write(postgres, "failing", ["a", "b", "c", "bad", "e"], batch_size=2, max_retries=0)
    text = str(error.value)
    assert "INSERT INTO failing (id, name) VALUES (?, ?)" in text
    assert "(4, 'bad')" in text
    assert "failing_name_check" in text           # PostgreSQL's own message
    # batches flushed before the failing one stay (Flink's at-least-once sink); the failing
    # batch (c, bad) was one transaction and left nothing; e was never flushed
    assert _sql(postgres, fetch="SELECT id, name FROM failing ORDER BY id") == \
        [(1, "a"), (2, "b")]
