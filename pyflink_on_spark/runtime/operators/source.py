"""The source primitive: reads the splits assigned to this subtask and emits their records
(with the source's WatermarkStrategy applied, as from_source does in Flink)."""
from __future__ import annotations

from pyflink_on_spark.runtime.operators.timestamps import TimestampsAndWatermarksOperator
from pyflink_on_spark.specs.sources import WatermarkMark


# records between two progress reports of a split being read (a split may be endless)
PROGRESS_RECORDS = 1024


class SourceOperator(TimestampsAndWatermarksOperator):
    """`reader(split)` yields the split's records. The watermark strategy may be None
    (from_collection: records carry no timestamp)."""

    def __init__(self, reader, watermark_strategy=None) -> None:
        super().__init__(watermark_strategy)
        self.reader = reader

    def process_split(self, split) -> None:
        process = self.process_element
        if self._extract is None and not self._every:
            # nothing to stamp and no watermark to generate: records go straight on
            process = self.output.collect
        progress = self.task.progress if self.task is not None else None
        records = self.call_user(self.reader, split)
        count = 0
        for value in records:
            process(value, None)
            count += 1
            if count == PROGRESS_RECORDS and progress is not None:
                progress()
                count = 0


class EventScriptSourceOperator(SourceOperator):
    """A test's scripted source (specs.sources.EventScriptSourceSpec): each record with its
    own timestamp, each watermark where the script puts it."""

    def __init__(self) -> None:
        super().__init__(reader=None, watermark_strategy=None)

    def process_split(self, split) -> None:
        collect = self.output.collect
        for event in split:
            if isinstance(event, WatermarkMark):
                self._emit(event.timestamp)
            else:
                collect(event.value, event.timestamp)
