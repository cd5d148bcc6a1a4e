"""The Elasticsearch sink's writer task: each record, converted to the stream's declared type,
becomes a bulk action (codecs.elasticsearch.actions) buffered in codecs.elasticsearch.bulk's
BulkWriter, sent by count and size, by interval on processing time, at each micro-batch
checkpoint and at the end of input (Flink: flush(endOfInput=true)). Nothing leaves the task.

Flink's writer waits for every pending action at each checkpoint (AT_LEAST_ONCE). The shim
sends them at each micro-batch's end with NONE too: a subtask's buffer is not part of its
snapshot and need not outlive the batch's task, and what a live Flink writer would still send
must not be dropped without a failure."""
from __future__ import annotations

from pyflink_on_spark.codecs.elasticsearch.actions import encode_action
from pyflink_on_spark.codecs.elasticsearch.bulk import BulkWriter
from pyflink_on_spark.runtime.operators.writer_sink import WriterSinkOperator
from pyflink_on_spark.specs.sinks import ElasticsearchSinkSpec


class ElasticsearchSinkOperator(WriterSinkOperator):
    has_timers = True   # set_bulk_flush_interval sends on processing time

    def __init__(self, spec: ElasticsearchSinkSpec) -> None:
        super().__init__(spec)
        self._emitter = spec.emitter

    def make_writer(self) -> BulkWriter:
        return BulkWriter(self.spec.bulk, clock=self.task.clock)

    def write(self, value) -> None:
        self.writer.add(*encode_action(self._emitter, value))
