"""The Cassandra sink's asynchronous writer, as Flink's CassandraSinkBase runs a row or tuple
sink (flink-connector-cassandra):

- open: one session per subtask to the sink's host:port, the query prepared once;
- write: the record's fields bound to the query's `?` markers in order (with
  enable_ignore_null_fields, a None field is left unset instead of writing a tombstone), sent
  with execute_async; at most `max_concurrent_requests` are in flight (Flink's semaphore):
  a write waits for a free slot, for at most the configured timeout when one is set;
- a failed write is kept and raised at the next write, flush or close (Flink's
  checkAsyncErrors), as its default failure handler does: the job fails;
- flush (each micro-batch's end, the end of input, close): waits until every write in flight
  is acknowledged. That is Flink's at-least-once sink: a retried task writes its records
  again, which an upsert (Cassandra's INSERT is one) makes idempotent.

Errors name the host:port or the query, and say what to check; the driver's own logging
(tracebacks of each failed connection attempt) is quieted unless the program configured the
"cassandra" logger itself.
"""
from __future__ import annotations

import importlib
import logging
import threading
from typing import Any, Optional, Sequence, Tuple

from pyflink_on_spark.codecs.cassandra.java_codecs import refused_fields
from pyflink_on_spark.common._java_text import java_duration_str

# how long the driver tries to reach the node when the sink opens (per attempt); an
# unreachable host fails the task within that
CONNECT_TIMEOUT_S = 5.0
# Flink's default permit: Integer.MAX_VALUE requests in flight
UNBOUNDED = 2 ** 31 - 1
SINK_NAME = "CassandraSink"


class CassandraWriteError(RuntimeError):
    """The sink could not connect, prepare its query or write a record."""


def require_cassandra_driver() -> None:
    try:
        importlib.import_module("cassandra.cluster")
    except ImportError:
        raise ImportError("%s writes with the cassandra-driver package in the sink's tasks: "
                          "pip install 'pyflink-on-spark[cassandra]' (or cassandra-driver)"
                          % SINK_NAME) from None


def quiet_driver_logging() -> None:
    """The driver logs a WARNING with a traceback for each failed connection attempt and an
    ERROR for the control connection: what it says reaches the job's error instead. A level
    the program set on the "cassandra" logger is kept."""
    logger = logging.getLogger("cassandra")
    if logger.level == logging.NOTSET:
        logger.setLevel(logging.CRITICAL)


class CassandraWriter:
    """Writes records (sequences of field values) with one prepared query."""

    def __init__(self, query: str, host: str, port: int,
                 max_concurrent_requests: int = UNBOUNDED,
                 max_concurrent_requests_timeout_ms: Optional[int] = None,
                 ignore_null_fields: bool = False,
                 field_classes: Sequence[Optional[str]] = ()) -> None:
        self.query = query
        self.host = host
        self.port = port
        self.max_concurrent_requests = max_concurrent_requests
        self.timeout_ms = max_concurrent_requests_timeout_ms
        self.ignore_null_fields = ignore_null_fields
        self.field_classes = tuple(field_classes)
        # (field index, message) of fields the Java driver cannot bind to their column
        self._refused: Tuple[Tuple[int, str], ...] = ()
        self.cluster = None
        self.session = None
        self.prepared = None
        self._done = threading.Condition()
        self._in_flight = 0
        self._failure: Optional[CassandraWriteError] = None

    @property
    def address(self) -> str:
        return "%s:%d" % (self.host, self.port)

    @property
    def in_flight(self) -> int:
        """Writes sent and not acknowledged yet."""
        return self._in_flight

    def open(self) -> None:
        require_cassandra_driver()
        quiet_driver_logging()
        from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile
        from cassandra.policies import DCAwareRoundRobinPolicy, TokenAwarePolicy
        profile = ExecutionProfile(load_balancing_policy=TokenAwarePolicy(
            DCAwareRoundRobinPolicy()))
        cluster = Cluster([self.host], port=self.port, connect_timeout=CONNECT_TIMEOUT_S,
                          control_connection_timeout=CONNECT_TIMEOUT_S,
                          execution_profiles={EXEC_PROFILE_DEFAULT: profile})
        try:
            session = cluster.connect()
        except Exception as e:
            cluster.shutdown()
            raise CassandraWriteError(
                "%s could not connect to Cassandra at %s: %s. Check that Cassandra is running "
                "there and that its native transport (CQL, native_transport_port) listens on "
                "that address and port (set_host(host, port))."
                % (SINK_NAME, self.address, _driver_message(e, self.address))) from None
        try:
            prepared = session.prepare(self.query)
        except Exception as e:
            cluster.shutdown()
            raise CassandraWriteError("%s could not prepare its query %r on %s: %s"
                                      % (SINK_NAME, self.query, self.address,
                                         _driver_message(e, self.address))) from None
        self.cluster, self.session, self.prepared = cluster, session, prepared
        self._refused = refused_fields(self.field_classes,
                                       [c.type.cql_parameterized_type()
                                        for c in prepared.column_metadata])

    def write(self, fields: Sequence[Any]) -> None:
        self._raise_failure()
        bound = self._bind(fields)
        self._acquire()
        try:
            future = self.session.execute_async(bound)
        except BaseException:
            self._release()
            raise
        future.add_callbacks(self._sent, self._not_sent,
                             errback_args=(tuple(fields),))

    def _bind(self, fields: Sequence[Any]):
        for index, message in self._refused:   # Flink's Java driver has no codec for these
            if index < len(fields) and fields[index] is not None:
                raise CassandraWriteError("%s could not bind the record %r to its query %r: %s"
                                          % (SINK_NAME, tuple(fields), self.query, message))
        values = list(fields)
        if self.ignore_null_fields:
            from cassandra.query import UNSET_VALUE
            values = [UNSET_VALUE if v is None else v for v in values]
        try:
            return self.prepared.bind(values)
        except Exception as e:
            raise CassandraWriteError("%s could not bind the record %r to its query %r: %s: %s"
                                      % (SINK_NAME, tuple(fields), self.query,
                                         type(e).__name__, e)) from None

    def _acquire(self) -> None:
        with self._done:
            if not self._done.wait_for(lambda: self._in_flight < self.max_concurrent_requests,
                                       self._timeout_s()):
                raise self._permit_timeout(1)
            self._in_flight += 1

    def _timeout_s(self) -> Optional[float]:
        return None if self.timeout_ms is None else self.timeout_ms / 1000.0

    def _permit_timeout(self, permits: int) -> CassandraWriteError:
        # Flink's java.util.concurrent.TimeoutException, the timeout as a java.time.Duration
        # (the text of flink-connector-cassandra's source, CassandraSinkBase.tryAcquire; not
        # provoked on PyFlink: its Java driver needs a node slower than the timeout)
        waited = self.timeout_ms or 0
        return CassandraWriteError(
            "Failed to acquire %d out of %d permits to send value in %s."
            % (permits, self.max_concurrent_requests,
               java_duration_str(waited // 1000, waited % 1000 * 1_000_000)))

    def _release(self) -> None:
        with self._done:
            self._in_flight -= 1
            self._done.notify_all()

    def _sent(self, _result) -> None:
        self._release()

    def _not_sent(self, error: BaseException, fields: tuple) -> None:
        with self._done:
            if self._failure is None:   # Flink keeps the first (throwable.compareAndSet)
                self._failure = CassandraWriteError(
                    "%s: error while sending value %r with query %r to %s: %s%s"
                    % (SINK_NAME, fields, self.query, self.address,
                       _driver_message(error, self.address), _connection_hint(error,
                                                                             self.address)))
        self._release()

    def _raise_failure(self) -> None:
        with self._done:
            failure, self._failure = self._failure, None
        if failure is not None:
            raise failure

    def flush(self) -> None:
        """Waits until every write sent so far is acknowledged; raises the first failure."""
        self._raise_failure()
        with self._done:
            if not self._done.wait_for(lambda: self._in_flight == 0, self._timeout_s()):
                # Flink's flush acquires every permit
                raise self._permit_timeout(self.max_concurrent_requests) from None
        self._raise_failure()

    def close(self) -> None:
        """Flushes (raising a failure) and ends the session in every case."""
        try:
            if self.session is not None:
                self.flush()
        finally:
            cluster, self.cluster, self.session = self.cluster, None, None
            if cluster is not None:
                cluster.shutdown()

    def abort(self) -> None:
        """Ends the session without waiting for writes in flight (the task failed)."""
        cluster, self.cluster, self.session = self.cluster, None, None
        if cluster is not None:
            cluster.shutdown()


def _connection_hint(error: BaseException, address: str) -> str:
    """What to check when the node went away or stopped answering mid-job."""
    from cassandra import OperationTimedOut
    from cassandra.cluster import NoHostAvailable
    from cassandra.connection import ConnectionException
    if isinstance(error, (NoHostAvailable, ConnectionException, OperationTimedOut)):
        return (". The connection to Cassandra at %s was lost or timed out: check that the "
                "node is still running and reachable" % address)
    return ""


def _driver_message(error: BaseException, address: str) -> str:
    """The driver's error in one line: NoHostAvailable's per-host errors (just the error when
    it is the sink's one host), else its text."""
    per_host = getattr(error, "errors", None)
    if isinstance(per_host, dict) and per_host:
        if list(per_host) == [address]:
            return _one_line(per_host[address])
        return "; ".join("%s: %s" % (host, _one_line(e)) for host, e in per_host.items())
    return "%s: %s" % (type(error).__name__, _one_line(error))


def _one_line(error: Any) -> str:
    # OperationTimedOut says "errors=<why>, last_host=None": its `errors` is the why
    why = getattr(error, "errors", None)
    text = (why if isinstance(why, str) and why else str(error)).strip()
    return " ".join(text.split()) if text else type(error).__name__
