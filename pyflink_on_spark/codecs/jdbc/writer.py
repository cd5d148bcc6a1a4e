"""The JDBC sink's batching writer, as Flink's JdbcOutputFormat runs a JdbcSink.sink:

- records are added to a batch; the batch is flushed when it holds `batch_size` records, when
  `batch_interval_ms` passed since the last flush (the owner calls `flush_if_due`), and at the
  end of input or of each checkpoint (the owner calls `flush`);
- a failed flush is retried up to `max_retries` times, sleeping i seconds before attempt i+1
  and reconnecting when the connection broke, the whole batch each time;
- one flush is one transaction (PgJDBC sends a batch as one implicit transaction: a failing
  statement aborts the whole batch), so a batch is written entirely or not at all; what was
  flushed before stays. That is Flink's at-least-once sink: after a failure, the batches
  flushed so far are in the database and the retried task writes its records again (an
  upsert statement makes that idempotent).

The final error names the statement, the record that fails (found by running the batch's
records one by one in a transaction that is rolled back) and the driver's message.
"""
from __future__ import annotations

import time
from typing import Any, Callable, List, Optional, Sequence, Tuple

from pyflink_on_spark.codecs.jdbc.drivers import Driver, adapt_row
from pyflink_on_spark.codecs.jdbc.statements import convert_placeholders


class JdbcWriteError(RuntimeError):
    """A batch could not be written after its retries."""


class JdbcBatchWriter:
    def __init__(self, sql: str, driver: Driver, batch_size: int, batch_interval_ms: int,
                 max_retries: int, clock: Callable[[], int] = lambda: int(time.time() * 1000),
                 sleep: Callable[[float], None] = time.sleep,
                 sql_types: Sequence[str] = ()) -> None:
        self.sql = sql
        self.driver = driver
        self.sql_types = tuple(sql_types)     # Flink's JDBC type of each field (parameters.py)
        self.statement, self.parameter_count = convert_placeholders(sql, driver.paramstyle,
                                                                    driver.dialect)
        self.batch_size = batch_size
        self.batch_interval_ms = batch_interval_ms
        self.max_retries = max_retries
        self._clock = clock
        self._sleep = sleep
        self._connection = None
        self._batch: List[Tuple[Any, ...]] = []
        self._last_flush = 0
        # Flink schedules interval flushes only when batches are not flushed per record
        self._timed = batch_interval_ms != 0 and batch_size != 1

    def open(self) -> None:
        try:
            self._connection = self.driver.connect()
        except Exception as e:
            raise JdbcWriteError(self._connect_failure(e)) from None
        self._last_flush = self._clock()

    def _connect_failure(self, error: BaseException) -> str:
        driver = self.driver
        said = " ".join(str(error).split())        # the driver's text on one line
        if not driver.target or not isinstance(error, driver.connect_errors):
            return "JdbcSink: unable to open the JDBC writer (%s): %s: %s" \
                % (driver.name, type(error).__name__, said)
        return ("JdbcSink: unable to open the JDBC writer: cannot connect to the database at "
                "%s (%s): %s: %s: %s\n  Check that the database server is running and accepts "
                "connections on %s from the Spark executors (host, port, firewall), and the "
                "URL's database, user and password; the URL's connectTimeout bounds the wait "
                "for each host." % (driver.target, driver.url, driver.name,
                                    type(error).__name__, said, driver.target))

    def add(self, values: Sequence[Any]) -> None:
        self._batch.append(adapt_row(self.driver, values, self.sql_types))
        if 0 < self.batch_size <= len(self._batch):
            self.flush()

    def flush_if_due(self, now: int) -> None:
        if self._timed and now - self._last_flush >= self.batch_interval_ms:
            self.flush()

    @property
    def pending(self) -> int:
        return len(self._batch)

    def flush(self) -> None:
        self._last_flush = self._clock()
        if not self._batch:
            return
        attempt = 0
        while True:
            try:
                self._execute(self._batch)
                self._batch = []
                return
            except self.driver.errors as e:
                self._rollback()
                if attempt >= self.max_retries:
                    raise self._failure(e, attempt + 1) from None
                self._reconnect_if_broken()
                self._sleep(attempt)       # Flink: Thread.sleep(1000 * i)
                attempt += 1

    def close(self) -> None:
        """Closes the connection; records not flushed are dropped (the owner flushes at the
        end of input: after a failure, the task's retry writes them again)."""
        self._batch = []
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.close()
            except Exception:
                pass

    # ------------------------------------------------------------------------------ internals

    def _execute(self, rows: List[Tuple[Any, ...]]) -> None:
        cursor = self.driver.cursor(self._connection)
        try:
            cursor.executemany(self.statement, rows)
        finally:
            cursor.close()
        self._connection.commit()

    def _rollback(self) -> None:
        try:
            self._connection.rollback()
        except Exception:
            pass

    def _broken(self) -> bool:
        connection = self._connection
        # psycopg: closed / broken; PyMySQL: open is False once its socket is gone
        return bool(getattr(connection, "closed", False) or getattr(connection, "broken", False)
                    or getattr(connection, "open", True) is False)

    def _reconnect_if_broken(self) -> None:
        connection = self._connection
        if self._broken():
            try:
                connection.close()
            except Exception:
                pass
            self.open()

    def _failing_row(self) -> Optional[Tuple[Any, BaseException]]:
        """(the first entry of the batch its statement fails for, the driver's error), found
        in one transaction that is rolled back; None when every record passes alone."""
        try:
            cursor = self.driver.cursor(self._connection)
            try:
                for entry in self._batch:
                    try:
                        self._execute_one(cursor, entry)
                    except self.driver.errors as e:
                        return entry, e
            finally:
                cursor.close()
                self._rollback()
        except Exception:
            return None
        return None

    def _execute_one(self, cursor, entry) -> None:
        """One entry of the batch alone (the search for the failing one)."""
        cursor.execute(self.statement, entry)

    def _row_of(self, entry) -> Tuple[Any, ...]:
        """The record an entry of the batch writes."""
        return entry

    def _sql_of(self, entry) -> str:
        """The statement an entry of the batch runs (as the user wrote it)."""
        return self.sql

    def _failure(self, error: BaseException, attempts: int) -> JdbcWriteError:
        tried = "after %d attempt%s (with_max_retries(%d))" % (
            attempts, "" if attempts == 1 else "s", self.max_retries)
        if self._broken() and self.driver.target:
            # the database went away (or dropped the connection): no record is to blame
            return JdbcWriteError(
                "JdbcSink: writing records to JDBC failed %s: the connection to the database "
                "at %s broke (%s: %s: %s)\n  Check that the database server at %s is still "
                "running and reachable from the Spark executors (its log says why it closed "
                "the connection); with_max_retries reconnects and writes the batch again."
                % (tried, self.driver.target, self.driver.name, type(error).__name__,
                   " ".join(str(error).split()), self.driver.target))
        found = self._failing_row()
        sql = self.sql
        if found is not None:
            entry, error = found
            record = "the record %r" % (self._row_of(entry),)
            sql = self._sql_of(entry)
        else:
            record = "a batch of %d records (each passes alone: the failure comes from the " \
                     "batch as a whole, e.g. two records with the same key)" % len(self._batch)
        return JdbcWriteError(
            "JdbcSink: writing records to JDBC failed %s for %s\n  statement: %s\n  %s: %s: %s"
            % (tried, record, sql, self.driver.name, type(error).__name__,
               str(error).strip()))
