"""The JDBC batching writer on SQLite: flush by size, by interval and on demand; retries of
the whole batch; each batch one transaction; the final error names statement, record and the
driver's message. (The same writer against PostgreSQL: spark/tests/test_jdbc_sink_postgres.py.)"""
import dataclasses
import datetime
import decimal
import sqlite3

import pytest

from pyflink_on_spark.codecs.jdbc.drivers import driver_for
from pyflink_on_spark.codecs.jdbc.writer import JdbcBatchWriter, JdbcWriteError


def _table(path):
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT CHECK (v <> 'bad'))")
    connection.commit()
    connection.close()
    return lambda: sqlite3.connect(path).execute("SELECT id, v FROM t ORDER BY id").fetchall()


def _writer(path, batch_size=2, interval=0, retries=0, driver=None, clock=lambda: 0,
            sleeps=None):
    writer = JdbcBatchWriter("INSERT INTO t (id, v) VALUES (?, ?)",
                             driver or driver_for("jdbc:sqlite:%s" % path), batch_size,
                             interval, retries, clock=clock,
                             sleep=(sleeps.append if sleeps is not None else lambda s: None))
    writer.open()
    return writer


def test_batches_flush_at_batch_size_and_on_flush(tmp_path):
    rows = _table(tmp_path / "db")
    writer = _writer(tmp_path / "db", batch_size=2)
    writer.add((1, "a"))
    assert rows() == [] and writer.pending == 1
    writer.add((2, "b"))
    assert rows() == [(1, "a"), (2, "b")] and writer.pending == 0
    writer.add((3, "c"))
    writer.flush()
    assert rows() == [(1, "a"), (2, "b"), (3, "c")]
    writer.close()


def test_interval_flush_when_due(tmp_path):
    rows = _table(tmp_path / "db")
    now = [0]
    writer = _writer(tmp_path / "db", batch_size=100, interval=50, clock=lambda: now[0])
    writer.add((1, "a"))
    writer.flush_if_due(49)
    assert rows() == []
    writer.flush_if_due(50)
    assert rows() == [(1, "a")]
    writer.close()


def test_failing_batch_is_rolled_back_and_the_error_names_statement_and_record(tmp_path):
    rows = _table(tmp_path / "db")
    sleeps = []
    writer = _writer(tmp_path / "db", batch_size=2, retries=2, sleeps=sleeps)
    writer.add((1, "a"))
    writer.add((2, "b"))
    writer.add((3, "ok"))
    with pytest.raises(JdbcWriteError) as error:
        writer.add((4, "bad"))
    text = str(error.value)
    assert "after 3 attempts (with_max_retries(2))" in text
    assert "(4, 'bad')" in text
    assert "INSERT INTO t (id, v) VALUES (?, ?)" in text
    assert "CHECK constraint failed" in text
    assert sleeps == [0, 1]                 # Flink sleeps i seconds before attempt i+1
    assert rows() == [(1, "a"), (2, "b")]   # the failed batch left nothing
    writer.close()


def test_a_transient_failure_is_retried_with_the_whole_batch(tmp_path):
    rows = _table(tmp_path / "db")
    real = driver_for("jdbc:sqlite:%s" % (tmp_path / "db"))
    failures = [1]

    class FlakyCursor:
        def __init__(self, cursor):
            self._cursor = cursor

        def executemany(self, statement, batch):
            self._cursor.executemany(statement, batch[:1])   # half the batch, then fail
            if failures[0]:
                failures[0] -= 1
                raise sqlite3.OperationalError("database is locked")
            self._cursor.executemany(statement, batch[1:])

        def close(self):
            self._cursor.close()

    flaky = dataclasses.replace(real, cursor=lambda c: FlakyCursor(real.cursor(c)))
    writer = _writer(tmp_path / "db", batch_size=2, retries=1, driver=flaky)
    writer.add((1, "a"))
    writer.add((2, "b"))
    assert rows() == [(1, "a"), (2, "b")]    # the half-written first attempt was rolled back
    writer.close()


def test_sqlite_stores_decimals_dates_and_times_as_text(tmp_path):
    path = tmp_path / "db"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE v (d, day, at, t)")
    connection.commit()
    writer = JdbcBatchWriter("INSERT INTO v VALUES (?, ?, ?, ?)",
                             driver_for("jdbc:sqlite:%s" % path), 10, 0, 0)
    writer.open()
    writer.add((decimal.Decimal("1.50"), datetime.date(2024, 2, 29),
                datetime.datetime(2024, 2, 29, 13, 5, 7, 120000), datetime.time(1, 2, 3)))
    writer.flush()
    writer.close()
    assert connection.execute("SELECT * FROM v").fetchall() == [
        ("1.50", "2024-02-29", "2024-02-29 13:05:07.120000", "01:02:03")]
