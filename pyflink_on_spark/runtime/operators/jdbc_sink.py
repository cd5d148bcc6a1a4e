"""The JDBC sink's writer task: each record, converted to the sink's row type, is added to the
batch of codecs.jdbc.writer.JdbcBatchWriter (flushed by size, by interval on processing time,
at each micro-batch checkpoint and at the end of input). Nothing leaves the task."""
from __future__ import annotations

from pyflink_on_spark.codecs.jdbc.drivers import driver_for
from pyflink_on_spark.codecs.jdbc.writer import JdbcBatchWriter
from pyflink_on_spark.runtime.operators.base import Operator
from pyflink_on_spark.specs.sinks import JdbcSinkSpec


class JdbcSinkOperator(Operator):
    has_timers = True   # batch_interval_ms flushes on processing time

    def __init__(self, spec: JdbcSinkSpec) -> None:
        super().__init__()
        self.spec = spec
        self.writer = None

    def open(self) -> None:
        spec = self.spec
        writer = JdbcBatchWriter(spec.sql, driver_for(spec.url, spec.user_name, spec.password),
                                 spec.batch_size, spec.batch_interval_ms, spec.max_retries,
                                 clock=self.task.clock, sql_types=spec.sql_types)
        self._run(writer.open)
        self.writer = writer
        self._convert = spec.converter

    def _run(self, action, *args) -> None:
        try:
            action(*args)
        except Exception as e:
            raise self.user_error(e) from None

    def process_element(self, value, timestamp) -> None:
        try:
            if self._convert is not None:
                value = self._convert(value)
            self.writer.add(tuple(value))
        except Exception as e:
            raise self.user_error(e) from None

    def process_watermark(self, watermark: int) -> None:
        self.current_watermark = watermark

    def advance_processing_time(self, now: int) -> None:
        self._run(self.writer.flush_if_due, now)

    def flush(self) -> None:
        """Flink flushes the batch at each checkpoint (and at the end of input)."""
        self._run(self.writer.flush)

    def end_input(self) -> None:
        self.flush()

    def end_batch(self, now: int) -> None:
        self.flush()   # Flink flushes the JDBC sink's batch at each checkpoint

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
