"""The Elasticsearch sink's writer task: each record, converted to the stream's declared type,
becomes a bulk action (codecs.elasticsearch.actions) buffered in codecs.elasticsearch.bulk's
BulkWriter, sent by count and size, by interval on processing time, at each micro-batch
checkpoint and at the end of input. Nothing leaves the task."""
from __future__ import annotations

from pyflink_on_spark.codecs.elasticsearch.actions import encode_action
from pyflink_on_spark.codecs.elasticsearch.bulk import BulkWriter
from pyflink_on_spark.runtime.operators.base import Operator
from pyflink_on_spark.specs.sinks import ElasticsearchSinkSpec


class ElasticsearchSinkOperator(Operator):
    has_timers = True   # set_bulk_flush_interval sends on processing time

    def __init__(self, spec: ElasticsearchSinkSpec) -> None:
        super().__init__()
        self.spec = spec
        self.writer = None

    def open(self) -> None:
        self.writer = BulkWriter(self.spec.bulk, clock=self.task.clock)
        self._convert = self.spec.converter
        self._emitter = self.spec.emitter

    def _run(self, action, *args) -> None:
        try:
            action(*args)
        except Exception as e:
            raise self.user_error(e) from None

    def process_element(self, value, timestamp) -> None:
        try:
            if self._convert is not None:
                value = self._convert(value)
            self.writer.add(*encode_action(self._emitter, value))
        except Exception as e:
            raise self.user_error(e) from None

    def process_watermark(self, watermark: int) -> None:
        self.current_watermark = watermark

    def advance_processing_time(self, now: int) -> None:
        self._run(self.writer.flush_if_due, now)

    def flush(self) -> None:
        """Flink's writer waits for every pending action at each checkpoint (AT_LEAST_ONCE).
        The shim sends them at each micro-batch's end with NONE too: a subtask's buffer is not
        part of its snapshot and need not outlive the batch's task, and what a live Flink
        writer would still send must not be dropped without a failure."""
        self._run(self.writer.flush)

    def end_input(self) -> None:
        self.flush()   # flush(endOfInput=true)

    def end_batch(self, now: int) -> None:
        self.flush()

    def close(self) -> None:
        if self.writer is not None:
            writer, self.writer = self.writer, None
            writer.close()
