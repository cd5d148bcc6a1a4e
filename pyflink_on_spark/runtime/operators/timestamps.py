"""assign_timestamps_and_watermarks: sets record timestamps and generates watermarks."""
from __future__ import annotations

from pyflink_on_spark.runtime.operators.base import Operator
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK, MIN_WATERMARK
from pyflink_on_spark.runtime.watermarks import PERIODIC_EVERY_RECORDS, generator_for


class TimestampsAndWatermarksOperator(Operator):
    def __init__(self, watermark_strategy) -> None:
        super().__init__()
        self.strategy = watermark_strategy
        # the largest timestamp a fused loop met (the exit's fused_with_stamps)
        self._seen = [None]

    def prepare(self) -> None:
        """With an assigner and one target that takes it into its loop (an exit's
        fused_with_stamps, output.py), a slice of records is stamped and sent on in that one
        loop, record by record (no list of timestamps, no second loop), and a map before
        this operator can join it (fuse_map)."""
        assigner = getattr(self.strategy, "_timestamp_assigner", None)
        fuse = self.output.fuse_stamps
        if assigner is None or fuse is None:
            return
        extract, seen = assigner.extract_timestamp, self._seen
        user_error, stamp_event = self.user_error, self._stamp_event

        def fused(user_map=None, map_error=None) -> tuple:
            loop = fuse(extract, user_error, stamp_event, seen, user_map, map_error)

            def process_many(values, timestamp) -> None:
                self._fused_many(loop, values, timestamp)

            def process_element(value, timestamp) -> None:
                self._fused_many(loop, (value,), timestamp)
            return process_element, process_many
        self.process_element, self.process_many = fused()

        def fuse_map(user_map, map_error) -> tuple:
            """(process_element, process_many) of this operator with a map applied first
            (MapOperator takes them as its own, output.py fuse_map)."""
            return fused(user_map, map_error)
        self.fuse_map = fuse_map

    def _fused_many(self, loop, values, timestamp) -> None:
        """process_many through the fused loop: a slice at a time, cut where the periodic
        watermark comes (after the same record as one by one); the generator is told the
        largest timestamp the loop met, also when it stopped on an error."""
        if not isinstance(values, (list, tuple, range)):
            # (a function's generator: each record goes on as it comes, as one by one)
            for value in values:
                self._fused_many(loop, (value,), timestamp)
            return
        record_timestamp = MIN_WATERMARK if timestamp is None else timestamp
        every, start, count = self._every, 0, len(values)
        seen = self._seen
        while start < count:
            end = min(count, start + every - self._count) if every else count
            try:
                loop(values[start:end] if start or end < count else values, record_timestamp)
            finally:
                high = seen[0]
                if high is not None:
                    seen[0] = None
                    self._generator.on_event(high)
            if every:
                self._count += end - start
                if self._count >= every:
                    self._count = 0
                    self._emit(self._generator.current())
            start = end

    def _stamp_event(self, high, timestamp):
        """A fused loop's record whose timestamp `timestamp > high` could not tell (None,
        the first of a slice, one that does not compare): the generator is told `high` and
        the timestamp, as on_event one by one would (None is no event); what it cannot take
        fails here, after the records before went on. The loop's new `high`."""
        if timestamp is None:
            return high
        on_event = self._generator.on_event
        try:
            if high is not None:
                on_event(high)
            on_event(timestamp)
        except Exception as e:
            raise self.user_error(e) from None
        return timestamp

    def open(self) -> None:
        assigner = getattr(self.strategy, "_timestamp_assigner", None)
        self._extract = assigner.extract_timestamp if assigner is not None else None
        self._generator = generator_for(self.strategy)
        periodic = self.task.auto_watermark_interval > 0 and self._generator.enabled
        self._every = PERIODIC_EVERY_RECORDS if periodic else 0
        self._count = 0
        self._emitted = MIN_WATERMARK
        # a table's SQL watermark (table/window_aggregates.py): sent as soon as it grew by
        # more than the interval, record by record (Flink's WatermarkAssignerOperator)
        self._on_growth = self.task.auto_watermark_interval \
            if getattr(self.strategy, "emits_on_growth", False) else None

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
        if self._on_growth is not None and \
                self._generator.current() - self._emitted > self._on_growth:
            self._emit(self._generator.current())
        if self._every:
            self._count += 1
            if self._count >= self._every:
                self._count = 0
                self._emit(self._generator.current())

    def process_many(self, values, timestamp) -> None:
        """process_element over a list of records (a map's results for a slice of a source
        split), its records sent on through the output's collect_stamped a slice at a time:
        the periodic watermark still comes after the same record as one by one."""
        extract = self._extract
        if extract is None or not isinstance(values, (list, tuple)):
            for value in values:
                self.process_element(value, timestamp)
            return
        record_timestamp = MIN_WATERMARK if timestamp is None else timestamp
        collect_stamped = self.output.collect_stamped
        every, start, count = self._every, 0, len(values)
        while start < count:
            end = min(count, start + every - self._count) if every else count
            part = values[start:end]
            stamps = []
            add_stamp = stamps.append
            error = None
            try:
                for value in part:
                    add_stamp(extract(value, record_timestamp))
            except Exception as e:
                error = e
            self._on_events(part, stamps)
            if error is not None:
                collect_stamped(part[:len(stamps)], stamps)   # those before went on
                raise self.user_error(error) from None
            collect_stamped(part, stamps)
            if every:
                self._count += end - start
                if self._count >= every:
                    self._count = 0
                    self._emit(self._generator.current())
            start = end

    def _on_events(self, part: list, stamps: list) -> None:
        """The generator's on_event for each timestamp of `stamps` (those of the records of
        `part`): the generator keeps the largest it saw, so it is told the largest once
        (max() compares them as on_event does, in C). None timestamps are not events. A
        timestamp on_event cannot compare fails as it did one by one: the records before
        it go on, then the error."""
        on_event = self._generator.on_event
        if not stamps:
            return
        try:
            on_event(max(stamps))
            return
        except Exception:   # None among them (or a timestamp that does not compare)
            pass
        try:
            events = [stamp for stamp in stamps if stamp is not None]
            if events:
                on_event(max(events))
            return
        except Exception:
            pass
        for count, stamp in enumerate(stamps):
            if stamp is None:
                continue
            try:
                on_event(stamp)
            except Exception as e:
                self.output.collect_stamped(part[:count], stamps[:count])
                raise self.user_error(e) from None

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
        # Upstream watermarks are replaced by this operator's own, except the final one (and
        # but for a strategy that passes them on: a table's rows losing their timestamps)
        if watermark == MAX_WATERMARK or getattr(self.strategy, "passes_watermarks", False):
            self._emit(watermark)

    # -- the checkpoint lifecycle (base.py) ------------------------------------------------------

    @property
    def generates_watermarks(self) -> bool:
        return self._generator.enabled

    def snapshot_state(self, context) -> dict:
        snap = super().snapshot_state(context)
        # the generator's position (sources and assign_timestamps_and_watermarks)
        snap["generator"] = {"max_timestamp": self._generator.export(),
                             "emitted": self._emitted, "count": self._count}
        return snap

    def restore_state(self, parts, context) -> None:
        super().restore_state(parts, context)
        generators = [s["generator"] for _, s in parts if "generator" in s]
        if generators:
            # merged (rescaling): never ahead of any merged input
            self._generator.restore(min(g["max_timestamp"] for g in generators))
            self._emitted = min(g["emitted"] for g in generators)
            self._count = generators[0]["count"] if len(generators) == 1 else 0

    def end_batch(self, now: int) -> None:
        """The shim's periodic watermark in an unbounded job: once per micro-batch (its
        checkpoint), besides every PERIODIC_EVERY_RECORDS records."""
        if self._generator.enabled and self.task.auto_watermark_interval > 0:
            self.emit_periodic(now)

    def output_idle(self, now: int, last_input_time) -> bool:
        """Idle while the generator has seen no record (a source subtask that has read
        nothing yet, e.g. fewer files than subtasks), or once a with_idleness timeout passed
        since the subtask's last input. A strategy with `idle_before_events` False (a table's
        watermarks: table/window_aggregates.py) holds the watermark back until then, as
        Flink's does."""
        timeout = getattr(self.strategy, "_idle_timeout_ms", None)
        timed_out = timeout is not None and timeout >= 0 and last_input_time is not None \
            and now - last_input_time >= timeout
        unseen = not self._generator.has_seen_events() and \
            getattr(self.strategy, "idle_before_events", True)
        return unseen or timed_out
