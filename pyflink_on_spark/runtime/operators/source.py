"""The source primitive: reads the splits assigned to this subtask and emits their records
(with the source's WatermarkStrategy applied, as from_source does in Flink).

Splits an executor reads with their records' own timestamps (Kafka partitions:
specs.sources.SplitStarted / SplitRecords / SplitFinished) get Flink's per-split watermarks:
each record carries its split's timestamp (the strategy's timestamp assigner, if any, gets
it as the record timestamp), each split has its own generator, and the source emits the
minimum over its splits that are not idle (runtime/watermarks.SplitWatermarks)."""
from __future__ import annotations

from itertools import islice
from typing import Iterator, Optional

from pyflink_on_spark.runtime.fed_watermarks import FedWatermark, FedWatermarks
from pyflink_on_spark.runtime.operators.timestamps import TimestampsAndWatermarksOperator
from pyflink_on_spark.runtime.watermarks import MIN_WATERMARK, SplitWatermarks
from pyflink_on_spark.specs.sources import (RecordChunks, SplitFinished, SplitRecords,
                                            SplitStarted, WatermarkMark)


# records between two progress reports of a split being read (a split may be endless)
PROGRESS_RECORDS = 1024
_NOTHING = object()


class SourceOperator(TimestampsAndWatermarksOperator):
    """`reader(split)` yields the split's records. The watermark strategy may be None
    (from_collection: records carry no timestamp)."""

    def __init__(self, reader, watermark_strategy=None) -> None:
        super().__init__(watermark_strategy)
        self.reader = reader
        # the records read (Flink's numRecordsIn of a source), counted per chunk or slice
        self.records_read = 0

    def prepare(self) -> None:
        """A source keeps its own record paths (read_split): no loop fused with its exit's
        (TimestampsAndWatermarksOperator.prepare)."""

    def open(self) -> None:
        super().open()
        self.splits = SplitWatermarks(self.strategy)
        self._clock = self.task.clock
        # a table source's: its streams' watermarks (runtime/fed_watermarks.py)
        self.fed: Optional[FedWatermarks] = None

    def process_split(self, split) -> None:
        """Reads the whole split at once (the direct runner, tests)."""
        for _ in self.read_split(split):
            pass

    def read_split(self, split) -> Iterator[None]:
        """Reads `split`, pausing (a yield) after every PROGRESS_RECORDS records, so that
        the task can send on what they produced before it reads on: one split of a number
        sequence or a generator may hold millions of records, and held whole it took the
        memory of all their output (a Python worker grew ~10 MB per million records)."""
        if isinstance(split, SplitRecords):
            # a chunk of records an executor read (Kafka, files): already bounded
            self._process_split_records(split)
            return
        if isinstance(split, SplitStarted):
            self.splits.add(split.split, self._clock(), split.ends)
            return
        if isinstance(split, SplitFinished):
            self.splits.finish(split.split)
            return
        if isinstance(split, FedWatermark):
            if self.fed is None:
                self.fed = FedWatermarks(split.channels)
            advanced = self.fed.on_watermark(split)
            if advanced is not None:
                self._emit(advanced)
            return
        process = self.process_element
        if self._extract is None and not self._every:
            # nothing to stamp and no watermark to generate: records go straight on
            process = self.output.collect
        progress = self.task.progress if self.task is not None else None
        records = self.call_user(self.reader, split)
        if isinstance(records, RecordChunks):
            # a split read in parts (a file): each part goes on before the next is read
            for chunk in records.chunks:
                yield from self._read_records(chunk, process, progress)
            return
        yield from self._read_records(records, process, progress)

    def _read_records(self, records, process, progress) -> Iterator[None]:
        """read_split's records, pausing after every PROGRESS_RECORDS of them."""
        if process is self.output.collect and isinstance(records, (list, range, tuple)):
            # a split held in memory: slices of it go on through collect_many
            collect_many = self.output.collect_many
            self.records_read += len(records)
            for start in range(0, len(records), PROGRESS_RECORDS):
                collect_many(records[start:start + PROGRESS_RECORDS], None)
                if progress is not None:
                    progress()
                yield
            return
        # a sized chunk (a file's) is counted at once; a reader's generator round by round,
        # enumerate counting in C (~15 ns a record), its records still going on as read
        sized = isinstance(records, (list, range, tuple))
        if sized:
            self.records_read += len(records)
        records = iter(records)
        # PROGRESS_RECORDS at a time, so that no count is kept per record
        while True:
            value = _NOTHING
            if sized:
                for value in islice(records, PROGRESS_RECORDS):
                    process(value, None)
            else:
                read = 0
                for read, value in enumerate(islice(records, PROGRESS_RECORDS), 1):
                    process(value, None)
                self.records_read += read
            if value is _NOTHING:
                return
            if progress is not None:
                progress()
            yield

    def _process_split_records(self, chunk: SplitRecords) -> None:
        now = self._clock()
        generator = self.splits.on_records(chunk.split, now)
        watermarks = generator.enabled
        extract = self._extract
        collect = self.output.collect
        every = self._every
        progress = self.task.progress if self.task is not None else None
        count = 0
        self.records_read += len(chunk.values)
        for value, timestamp in zip(chunk.values, chunk.timestamps):
            if extract is not None:
                try:
                    timestamp = extract(value, MIN_WATERMARK if timestamp is None else timestamp)
                except Exception as e:
                    raise self.user_error(e) from None
            if watermarks and timestamp is not None:
                generator.on_event(timestamp)
            collect(value, timestamp)
            count += 1
            if every:
                self._count += 1
                if self._count >= every:
                    self._count = 0
                    self.emit_periodic(now)
            if count == PROGRESS_RECORDS and progress is not None:
                progress()
                count = 0

    def emit_periodic(self, now: int) -> None:
        if not self.splits.generators:
            super().emit_periodic(now)
            return
        watermark = self.splits.combined(now)
        if watermark is not None:
            self._emit(watermark)

    def all_splits_idle(self, now: int) -> Optional[bool]:
        """Whether every split of the subtask is idle at `now`; None without splits."""
        if not self.splits.generators:
            return None
        return self.splits.all_idle(now)

    # -- the checkpoint lifecycle (base.py) ------------------------------------------------------

    def snapshot_state(self, context) -> dict:
        snap = super().snapshot_state(context)
        if self.splits.generators:
            snap["generator"]["splits"] = self.splits.export()
        if self.fed is not None:
            snap["fed_watermarks"] = self.fed.export()
        return snap

    def restore_state(self, parts, context) -> None:
        super().restore_state(parts, context)
        own = [s["generator"] for old, s in parts
               if old == context.subtask and "generator" in s]
        if len(parts) == 1 and own and "splits" in own[0]:
            # the same subtask reads the same Kafka partitions again; after rescaling the
            # partitions move, and each registers anew with its next records
            self.splits.restore(own[0]["splits"])
        fed = [s["fed_watermarks"] for _, s in parts if "fed_watermarks" in s]
        if fed:
            # every table source subtask is fed the same watermarks: any one's will do
            self.fed = FedWatermarks(len(fed[0]["marks"]))
            self.fed.restore(fed[0])

    def output_idle(self, now: int, last_input_time) -> bool:
        """A subtask reading splits (Kafka partitions) is idle when each of its splits is."""
        splits_idle = self.all_splits_idle(now)
        if splits_idle is not None:
            return splits_idle
        return super().output_idle(now, last_input_time)


class EventScriptSourceOperator(SourceOperator):
    """A test's scripted source (specs.sources.EventScriptSourceSpec): each record with its
    own timestamp, each watermark where the script puts it."""

    def __init__(self) -> None:
        super().__init__(reader=None, watermark_strategy=None)

    def read_split(self, split) -> Iterator[None]:
        """The script is read in one step (a test's few events)."""
        collect = self.output.collect
        for event in split:
            if isinstance(event, WatermarkMark):
                self._emit(event.timestamp)
            else:
                collect(event.value, event.timestamp)
        return iter(())
