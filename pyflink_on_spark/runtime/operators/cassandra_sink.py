"""The Cassandra sink's writer task: each record, converted to the stream's declared type (a
Row or a tuple), has its fields written with the sink's prepared query by
codecs.cassandra.writer.CassandraWriter (asynchronously, a bounded number in flight), which
is flushed at the end of input and of each micro-batch. Nothing leaves the task."""
from __future__ import annotations

from pyflink_on_spark.codecs.cassandra.writer import CassandraWriter
from pyflink_on_spark.runtime.operators.writer_sink import WriterSinkOperator
from pyflink_on_spark.specs.sinks import CassandraSinkSpec


class CassandraSinkOperator(WriterSinkOperator):

    def __init__(self, spec: CassandraSinkSpec) -> None:
        super().__init__(spec)

    def make_writer(self) -> CassandraWriter:
        spec = self.spec
        return CassandraWriter(spec.query, spec.host, spec.port, spec.max_concurrent_requests,
                               spec.max_concurrent_requests_timeout_ms,
                               spec.ignore_null_fields, spec.field_classes)

    def write(self, value) -> None:
        self.writer.write(tuple(value))

    def close_writer(self, writer: CassandraWriter) -> None:
        # end_input / end_batch flushed what this subtask wrote; a task that failed leaves
        # its writes in flight behind (its retry writes them again)
        writer.abort()
