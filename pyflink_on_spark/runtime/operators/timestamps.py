"""assign_timestamps_and_watermarks: sets record timestamps and generates watermarks."""
from __future__ import annotations

from pyflink_on_spark.runtime.operators.base import Operator
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK, MIN_WATERMARK
from pyflink_on_spark.runtime.watermarks import PERIODIC_EVERY_RECORDS, generator_for


class TimestampsAndWatermarksOperator(Operator):
    def __init__(self, watermark_strategy) -> None:
        super().__init__()
        self.strategy = watermark_strategy

    def open(self) -> None:
        assigner = getattr(self.strategy, "_timestamp_assigner", None)
        self._extract = assigner.extract_timestamp if assigner is not None else None
        self._generator = generator_for(self.strategy)
        periodic = self.task.auto_watermark_interval > 0 and self._generator.enabled
        self._every = PERIODIC_EVERY_RECORDS if periodic else 0
        self._count = 0
        self._emitted = MIN_WATERMARK

    def process_element(self, value, timestamp) -> None:
        if self._extract is not None:
            # inline rather than call_user: the per-record path
            try:
                timestamp = self._extract(
                    value, MIN_WATERMARK if timestamp is None else timestamp)
            except Exception as e:
                raise self.user_error(e) from None
        if timestamp is not None:
            self._generator.on_event(timestamp)
        self.output.collect(value, timestamp)
        if self._every:
            self._count += 1
            if self._count >= self._every:
                self._count = 0
                self._emit(self._generator.current())

    def emit_periodic(self, now: int) -> None:
        """A periodic watermark emission (the end of a micro-batch): the current watermark.
        `now` is the task's processing time (sources with splits judge idleness by it)."""
        self._emit(self._generator.current())

    def _emit(self, watermark: int) -> None:
        if watermark > self._emitted:
            self._emitted = watermark
            self.current_watermark = watermark
            self.output.emit_watermark(watermark)

    def process_watermark(self, watermark: int) -> None:
        # Upstream watermarks are replaced by this operator's own, except the final one.
        if watermark == MAX_WATERMARK:
            self._emit(MAX_WATERMARK)
