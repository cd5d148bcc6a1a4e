"""Window aggregates of a query over an unbounded table, on the job's own window operator
(issue 44): the per-row part of the query (table/sql/window_grouping.py) keyed by its group
keys, into the DataStream window assigner matching the window (TUMBLE: tumbling event-time
windows, HOP: sliding, SESSION: event-time sessions, CUMULATE: CumulativeEventTimeWindows
below), aggregated incrementally (the accumulators in the job's keyed window state,
checkpointed with it) and emitted when the watermark passes the window's end: one +I row
per key and window, as Flink's window aggregates give them (insert-only). A row whose
window the watermark already passed is dropped from that window (the window operator's
lateness rule: Flink's window aggregates drop it too, seen on PyFlink 1.20.5).

The watermark (table_watermarks): a computed column's `watermark(ts, "ts - INTERVAL ...")`
is Flink's SQL watermark, the largest rowtime seen minus the delay, emitted as soon as it
grew by more than the auto-watermark interval (Flink's WatermarkAssignerOperator) and at
each micro-batch's end; SOURCE_WATERMARK() is the stream's own, and a kafka table's
WATERMARK its source's (generated per partition, table/kafka_tables.py): the watermarks
the stream emitted, fed to the table's source subtasks beside its rows
(runtime/fed_watermarks.py) and passed on."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import List, Sequence, Tuple

from pyflink_on_spark.common.watermark_strategy import TimestampAssigner, WatermarkStrategy
from pyflink_on_spark.datastream.functions import AggregateFunction, ProcessWindowFunction
from pyflink_on_spark.datastream.window import (
    EventTimeTrigger, TimeWindow, WindowAssigner)
from pyflink_on_spark.table.group_aggregates import Aggregate

_EPOCH = datetime(1970, 1, 1)
_UTC_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


class CumulativeEventTimeWindows(WindowAssigner):
    """Flink's CUMULATE(TABLE t, DESCRIPTOR(ts), step, size): in each tumbling window of
    `size`, the windows [start, start + k * step) for k = 1 .. size / step; a row is in each
    of them that ends after it."""

    def __init__(self, size: int, step: int) -> None:
        self.size = size
        self.step = step

    def assign_windows(self, element, timestamp: int, context) -> List[TimeWindow]:
        start = timestamp - timestamp % self.size
        first = timestamp - timestamp % self.step + self.step
        return [TimeWindow(start, end) for end in range(first, start + self.size + 1,
                                                         self.step)]

    def get_default_trigger(self, env):
        return EventTimeTrigger()

    def get_window_serializer(self):
        from pyflink_on_spark.datastream.window import TimeWindowSerializer
        return TimeWindowSerializer()

    def is_event_time(self) -> bool:
        return True


def window_assigner(kind: str, size_ms: int, slide_ms):
    from pyflink_on_spark.common.time import Time
    from pyflink_on_spark.datastream.window import (
        EventTimeSessionWindows, SlidingEventTimeWindows, TumblingEventTimeWindows)
    if kind == "TUMBLE":
        return TumblingEventTimeWindows.of(Time.milliseconds(size_ms))
    if kind == "HOP":
        return SlidingEventTimeWindows.of(Time.milliseconds(size_ms),
                                          Time.milliseconds(slide_ms))
    if kind == "SESSION":
        return EventTimeSessionWindows.with_gap(Time.milliseconds(size_ms))
    return CumulativeEventTimeWindows(size_ms, slide_ms)


class WindowAccumulators(AggregateFunction):
    """The aggregate calls of a window, incrementally: one accumulator each."""

    def __init__(self, aggregates: Sequence[Aggregate]) -> None:
        self.aggregates = list(aggregates)

    def create_accumulator(self):
        return tuple(a.initial() for a in self.aggregates)

    def add(self, value, accumulator):
        return tuple(a.add(acc, value) for a, acc in zip(self.aggregates, accumulator))

    def get_result(self, accumulator):
        return tuple(a.result(acc) for a, acc in zip(self.aggregates, accumulator))

    def merge(self, acc_a, acc_b):
        return tuple(a.merge(x, y) for a, x, y in zip(self.aggregates, acc_a, acc_b))


class WindowRows(ProcessWindowFunction):
    """A fired window's aggregate values -> the query's Row: group keys (the key tuple), the
    window's bounds as Flink gives them (window_start / window_end TIMESTAMP(3) wall-clock
    times: in the local time zone for a TIMESTAMP_LTZ time column, as written for a
    TIMESTAMP one; window_time their last millisecond, of the time column's type), the
    aggregate values. `items` per result column: (KEY, i), (WINDOW, part), (AGGREGATE, _)."""

    def __init__(self, names: Sequence[str], items: Sequence[Tuple[str, object]],
                 ltz: bool) -> None:
        self.names = list(names)
        self.items = list(items)
        self.ltz = ltz

    def process(self, key, context, elements):
        from pyflink_on_spark.common.types import Row
        window = context.window()
        values = iter(next(iter(elements)))
        row = Row(*[key[what] if kind == "key" else
                    self._bound(window, what) if kind == "window" else next(values)
                    for kind, what in self.items])
        row.set_field_names(self.names)
        yield row

    def _bound(self, window, part: str):
        millis = window.start if part == "START" else window.end if part == "END" \
            else window.end - 1
        if part == "TIME" and self.ltz:
            from pyflink_on_spark.common.time import Instant
            return Instant(millis // 1000, millis % 1000 * 1_000_000)
        if self.ltz:
            return (_UTC_EPOCH + timedelta(milliseconds=millis)).astimezone() \
                .replace(tzinfo=None)
        return _EPOCH + timedelta(milliseconds=millis)


class TableWatermarks(WatermarkStrategy):
    """A table's watermark strategy over the records' own timestamps (the rowtime the table
    source stamped): `emits_on_growth` (a SQL watermark) sends the watermark as soon as it
    grew by more than the auto-watermark interval, record by record
    (runtime/operators/timestamps.py). A table source subtask that has had no row holds the
    window operator's watermark back (`idle_before_events`), as Flink's watermark assigner
    does without `table.exec.source.idle-timeout`: seen on PyFlink 1.20.5 at parallelism 2
    (one file read by one of two subtasks), no window fired until a second file reached the
    other subtask, and rows of that file behind the first subtask's watermark were kept in
    their windows. (The shim's DataStream rule, an empty subtask is idle, would fire the
    windows early and drop those rows.)"""
    emits_on_growth = False
    idle_before_events = False


class SqlWatermarks(TableWatermarks):
    emits_on_growth = True


class _NoTimestamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return None


class DroppedTimestamps(TableWatermarks):
    """Records without a timestamp, the watermarks passed on as they come: a window
    aggregate's rows when the query selects no rowtime column (window_time, *_ROWTIME):
    seen on PyFlink 1.20.5, to_data_stream gives them no timestamp then."""
    passes_watermarks = True


class SourceWatermarks(TableWatermarks):
    """The watermarks the table's source emitted (a kafka table's, generated per partition
    in its source), fed to the table source subtasks beside its rows
    (runtime/fed_watermarks.py) and passed on as they come; the records keep the rowtime
    the table source stamped."""
    passes_watermarks = True


def source_watermarks():
    from pyflink_on_spark.common.watermark_strategy import _StrategySpec
    return SourceWatermarks(_StrategySpec("no_watermarks", 0))


def dropped_timestamps():
    from pyflink_on_spark.common.watermark_strategy import _StrategySpec
    return DroppedTimestamps(_StrategySpec("no_watermarks", 0)) \
        .with_timestamp_assigner(_NoTimestamp())


def sql_watermarks(delay_ms: int):
    """Flink's SQL watermark `rowtime - delay` (no extra millisecond, as the DataStream
    generator's: its delay one less), emitted as soon as it grew (module doc)."""
    from pyflink_on_spark.common.watermark_strategy import _StrategySpec
    return SqlWatermarks(_StrategySpec("bounded_out_of_orderness", delay_ms - 1))


_SQL_WATERMARK = re.compile(
    r"\s*`?[A-Za-z_$][\w$]*`?(?:\s*-\s*INTERVAL\s+'(\d+(?:\.\d+)?)'\s+"
    r"(SECOND|MINUTE|HOUR|DAY|MILLISECOND)S?)?\s*", re.IGNORECASE)
_UNIT_MS = {"MILLISECOND": 1, "SECOND": 1000, "MINUTE": 60_000, "HOUR": 3_600_000,
            "DAY": 86_400_000}


def sql_watermark_delay(expression: str) -> int:
    """The delay (ms) of a watermark expression `col` / `col - INTERVAL 'n' UNIT` (the
    forms table/stream_schema.py takes)."""
    from decimal import Decimal
    m = _SQL_WATERMARK.fullmatch(expression)
    if m is None:
        raise NotImplementedError("the watermark expression %r over an unbounded table is not "
                                  "supported by pyflink_on_spark" % expression)
    if m.group(1) is None:
        return 0
    return int(Decimal(m.group(1)) * _UNIT_MS[m.group(2).upper()])


def table_watermarks(description, table: str):
    """The watermark strategy of the rows of `table` (a name `description`, a QueryTable,
    reads): its from_data_stream's watermark (module doc). NotImplementedError when its
    rows come from more than one watermarked stream."""
    from pyflink_on_spark.specs.tables import RowtimeTable, StreamTable, watermark_leaves
    leaves = watermark_leaves(description, {table}, _names_in)
    if len(leaves) != 1:
        raise NotImplementedError(
            "a window aggregate over an unbounded table whose rows come from %d streams: "
            "pyflink_on_spark takes one watermarked stream (docs/table.md)" % len(leaves))
    leaf = leaves[0]
    if isinstance(leaf, RowtimeTable):
        expression = next(c.watermark for c in leaf.columns if c.name == leaf.rowtime)
        if leaf.source_watermarks:
            # a kafka table's: Flink pushes it into the source, which generates it per
            # partition and emits the minimum periodically (seen on PyFlink 1.20.5, a
            # topic's rows read at once: the windows of [5 s, 10 s) came in the timer-heap
            # order of timers fired together, bob before alice, not alice first as on
            # growth): the kafka source's (kafka_tables.py), fed past the table
            return source_watermarks()
        return sql_watermarks(sql_watermark_delay(expression))
    assert isinstance(leaf, StreamTable)
    # SOURCE_WATERMARK(): the stream's own watermarks, as its sources and assigners emitted
    # them (a KafkaSource's per partition, the minimum over them: seen on PyFlink 1.20.5,
    # not the stream's strategy again over all the table's rows), fed past the table
    return source_watermarks()


def _names_in(view) -> set:
    """The names a view's own query reads (all its inputs' names found in its text)."""
    from pyflink_on_spark.specs.tables import QueryTable
    if not isinstance(view, QueryTable):
        return set()
    from pyflink_on_spark.table.sql.tokens import mentions
    return {name for name, _ in view.inputs if mentions(view.flink_query or view.query, name)}
