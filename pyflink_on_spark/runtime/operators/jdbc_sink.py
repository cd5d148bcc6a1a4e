"""The JDBC sink's writer task: each record, converted to the sink's row type, is added to the
batch of codecs.jdbc.writer.JdbcBatchWriter (flushed by size, by interval on processing time,
at each micro-batch checkpoint and at the end of input: Flink flushes the JDBC sink's batch
at each checkpoint). Nothing leaves the task."""
from __future__ import annotations

from pyflink_on_spark.codecs.jdbc.drivers import driver_for
from pyflink_on_spark.codecs.jdbc.writer import JdbcBatchWriter
from pyflink_on_spark.runtime.operators.writer_sink import WriterSinkOperator
from pyflink_on_spark.specs.sinks import JdbcSinkSpec


class JdbcSinkOperator(WriterSinkOperator):
    has_timers = True   # batch_interval_ms flushes on processing time

    def __init__(self, spec: JdbcSinkSpec) -> None:
        super().__init__(spec)

    def make_writer(self) -> JdbcBatchWriter:
        spec = self.spec
        return JdbcBatchWriter(spec.sql, driver_for(spec.url, spec.user_name, spec.password),
                               spec.batch_size, spec.batch_interval_ms, spec.max_retries,
                               clock=self.task.clock, sql_types=spec.sql_types)

    def write(self, value) -> None:
        self.writer.add(tuple(value))
