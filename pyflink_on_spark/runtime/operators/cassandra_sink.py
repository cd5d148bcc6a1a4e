"""The Cassandra sink's writer task: each record, converted to the stream's declared type (a
Row or a tuple), has its fields written with the sink's prepared query by
codecs.cassandra.writer.CassandraWriter (asynchronously, a bounded number in flight), which
is flushed at the end of input and of each micro-batch. Nothing leaves the task."""
from __future__ import annotations

from typing import Optional

from pyflink_on_spark.codecs.cassandra.writer import CassandraWriter
from pyflink_on_spark.runtime.operators.base import Operator
from pyflink_on_spark.specs.sinks import CassandraSinkSpec


class CassandraSinkOperator(Operator):

    def __init__(self, spec: CassandraSinkSpec) -> None:
        super().__init__()
        self.spec = spec
        self.writer: Optional[CassandraWriter] = None
        self._convert = spec.converter

    def open(self) -> None:
        spec = self.spec
        writer = CassandraWriter(spec.query, spec.host, spec.port,
                                 spec.max_concurrent_requests,
                                 spec.max_concurrent_requests_timeout_ms,
                                 spec.ignore_null_fields, spec.field_classes)
        self._run(writer.open)
        self.writer = writer

    def _run(self, action, *args) -> None:
        """The writer's errors fail the job with their own message, as the JDBC sink's do."""
        try:
            action(*args)
        except Exception as e:
            raise self.user_error(e) from None

    def process_element(self, value, timestamp) -> None:
        try:
            if self._convert is not None:
                value = self._convert(value)
            self.writer.write(tuple(value))
        except Exception as e:
            raise self.user_error(e) from None

    def process_watermark(self, watermark: int) -> None:
        self.current_watermark = watermark

    def flush(self) -> None:
        """Flink's sink flushes at each checkpoint (and when it closes at the end of input)."""
        self._run(self.writer.flush)

    def end_input(self) -> None:
        self.flush()

    def end_batch(self, now: int) -> None:
        self.flush()   # the batch's records are in Cassandra before the batch is done

    def close(self) -> None:
        # end_input / end_batch flushed what this subtask wrote; a task that failed leaves
        # its writes in flight behind (its retry writes them again)
        if self.writer is not None:
            writer, self.writer = self.writer, None
            writer.abort()
