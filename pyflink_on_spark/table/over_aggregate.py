"""The keyed over aggregate of OVER windows over an unbounded table (issue 44; the graph:
table/over_window_streams.py): each key's rows and accumulators in keyed state, each row
emitted with its aggregate values once the watermark passed its time. Pure per-key rules
(OverRules) and the KeyedProcessFunction that runs them on the job's engine.

The rules are Flink 1.20's rowtime over aggregates (seen on PyFlink 1.20.5,
compat_tests/cases/table/over_windows_unbounded.py):
- UNBOUNDED PRECEDING (ROWS or RANGE): a row at or behind the watermark is dropped; a
  key's rows wait for one timer at the watermark + 1, which emits the rows the watermark
  passed in time order and waits again for the rest. ROWS: each row's value includes the
  rows before it (of its time: in arrival order); RANGE: the rows of one time share it.
- n PRECEDING (ROWS) / INTERVAL PRECEDING (RANGE): a row is dropped when its time is not
  after the key's last fired timer (0 before any: not the watermark), so a row behind the
  watermark can still be taken, fired at the next watermark. ROWS: the last n + 1 rows
  taken; RANGE: the rows within the interval before the row's time, kept for it, and a
  key's state cleared by its cleanup timer (the row's time + 1.5 x the interval + 1, when no
  later row moved it): rows after it see an empty frame."""
from __future__ import annotations

from collections import deque
from typing import Dict, List, Optional, Sequence, Tuple

from pyflink_on_spark.common.types import Row
from pyflink_on_spark.datastream.functions import KeyedProcessFunction

__all__ = ['OverCall', 'OverRules', 'KeyState', 'OverFunction']


class OverCall:
    """One aggregate call over a frame, with retraction (rows leave a bounded frame): typed
    as the grouping aggregates (group_aggregates.Aggregate: SUM in its argument's type,
    integers wrapping, AVG of integers truncated, NULLs skipped). `retracting`: whether
    rows leave the frame (a bounded one), else MIN / MAX keep the value alone, not a
    count of every value seen (an UNBOUNDED frame's grows without end)."""

    def __init__(self, function: str, argument: Optional[int], arg_type: str,
                 retracting: bool = True) -> None:
        from pyflink_on_spark.table.group_aggregates import Aggregate
        self.function = function
        self.argument = argument
        self._typed = Aggregate(function, argument, arg_type)
        self.multiset = retracting and function in ("MIN", "MAX")

    def initial(self):
        if self.multiset:
            return {}              # value -> how many rows of the frame have it
        if self.function in ("MIN", "MAX"):
            return None
        if self.function == "COUNT":
            return 0
        # (the call's own accumulator, the count of non-null values)
        return (self._typed.initial()[0] if self.function == "AVG" else None, 0)

    def accumulate(self, acc, row: Sequence, sign: int = 1):
        """The accumulator with the row added (`sign` 1) or retracted (-1): a retraction
        adds the negated value in the call's own arithmetic (wrapping, single precision)."""
        value = None if self.argument is None else row[self.argument]
        if self.function == "COUNT":
            return acc + (sign if self.argument is None or value is not None else 0)
        if value is None:
            return acc
        if self.multiset:
            count = acc.get(value, 0) + sign
            if count:
                acc[value] = count
            else:
                del acc[value]
            return acc
        if self.function in ("MIN", "MAX"):     # nothing leaves the frame
            return self._typed.add(acc, row)
        if sign < 0:
            row = row[:self.argument] + (-value,) + row[self.argument + 1:]
        total, count = acc
        if self.function == "AVG":
            return (self._typed.add((total, count), row)[0], count + sign)
        return (self._typed.add(total, row), count + sign)

    def value(self, acc):
        if self.function == "COUNT":
            return acc
        if self.multiset:
            if not acc:
                return None
            return min(acc) if self.function == "MIN" else max(acc)
        if self.function in ("MIN", "MAX"):
            return acc
        total, count = acc
        if count == 0:
            return None
        return total if self.function == "SUM" else self._typed.result((total, count))


class KeyState:
    """A key's state: its rows by time (`inputs`: those not yet emitted, and for a bounded
    RANGE frame those still in some later row's frame), the accumulators, the last fired
    timer's time, the rows in a ROWS frame (`frame`) and the cleanup timer's time."""

    __slots__ = ("inputs", "accs", "last", "frame", "cleanup")

    def __init__(self, accs: list) -> None:
        self.inputs: Dict[int, list] = {}
        self.accs = accs
        self.last: Optional[int] = None
        self.frame: deque = deque()
        self.cleanup: Optional[int] = None

    def __getstate__(self):
        return (self.inputs, self.accs, self.last, list(self.frame), self.cleanup)

    def __setstate__(self, state) -> None:
        self.inputs, self.accs, self.last, frame, self.cleanup = state
        self.frame = deque(frame)


class OverRules:
    """A key's rows in, its rows with their aggregate values out (module doc): `rows` a ROWS
    frame, else RANGE; `preceding` None (UNBOUNDED), a count of rows or milliseconds.
    Pure: a KeyState in, the timers to register and the rows to emit out."""

    def __init__(self, calls: Sequence[OverCall], rows: bool, preceding: Optional[int]) -> None:
        self.calls = list(calls)
        self.rows = rows
        self.preceding = preceding

    def new_state(self) -> KeyState:
        return KeyState([c.initial() for c in self.calls])

    def on_row(self, state: KeyState, timestamp: int, row: tuple, watermark: int) -> List[int]:
        """Takes the row unless it is late; the event-time timers to register."""
        if self.preceding is None:
            if timestamp <= watermark:
                return []            # late: dropped
            state.inputs.setdefault(timestamp, []).append(row)
            return [0 if watermark < 0 else watermark + 1]
        if timestamp <= (state.last or 0):
            return []                # not after the last fired timer: dropped
        timers = []
        if timestamp not in state.inputs:
            state.inputs[timestamp] = []
            timers.append(timestamp)
        state.inputs[timestamp].append(row)
        if not self.rows:
            smallest = timestamp + self.preceding + 1
            if state.cleanup is None or state.cleanup < smallest:
                state.cleanup = timestamp + int(self.preceding * 1.5) + 1
                timers.append(state.cleanup)
        return timers

    def on_timer(self, state: KeyState, timestamp: int, watermark: int
                 ) -> Tuple[List[Tuple[tuple, tuple]], List[int], bool]:
        """(rows with their aggregate values, timers to register, whether the key's state
        is cleared)."""
        if self.preceding is None:
            return self._unbounded(state, watermark)
        if not self.rows and state.cleanup is not None and state.cleanup <= timestamp:
            return [], [], True
        rows = state.inputs.get(timestamp)
        out: List[Tuple[tuple, tuple]] = []
        if rows:
            if self.rows:
                out = self._rows_frame(state, state.inputs.pop(timestamp))
            else:
                out = self._range_frame(state, timestamp, rows)
        state.last = timestamp
        return out, [], False

    def _unbounded(self, state: KeyState, watermark: int):
        out: List[Tuple[tuple, tuple]] = []
        if not state.inputs:
            return out, [], False
        due = sorted(t for t in state.inputs if t <= watermark)
        for t in due:
            rows = state.inputs.pop(t)
            if self.rows:
                for row in rows:
                    self._add(state, row, 1)
                    out.append((row, self._values(state)))
            else:
                for row in rows:
                    self._add(state, row, 1)
                    values = self._values(state)
                out.extend((row, values) for row in rows)
        return out, [watermark + 1] if state.inputs else [], False

    def _rows_frame(self, state: KeyState, rows: list):
        out = []
        for row in rows:
            if len(state.frame) > self.preceding:     # the frame's n + 1 rows are full
                self._add(state, state.frame.popleft(), -1)
            self._add(state, row, 1)
            state.frame.append(row)
            out.append((row, self._values(state)))
        return out

    def _range_frame(self, state: KeyState, timestamp: int, rows: list):
        gone = [t for t in state.inputs if timestamp - t > self.preceding]
        for t in gone:
            for row in state.inputs[t]:
                self._add(state, row, -1)
        for row in rows:
            self._add(state, row, 1)
        values = self._values(state)
        for t in gone:
            del state.inputs[t]
        return [(row, values) for row in rows]

    def _add(self, state: KeyState, row: tuple, sign: int) -> None:
        state.accs = [c.accumulate(acc, row, sign) for c, acc in zip(self.calls, state.accs)]

    def _values(self, state: KeyState) -> tuple:
        return tuple(c.value(acc) for c, acc in zip(self.calls, state.accs))


class OverFunction(KeyedProcessFunction):
    """The per-row query's Rows (__t, the partition keys, the row values, the aggregates'
    arguments), keyed by the partition keys -> the query's Rows named `names`, +I.
    `items` per result column: (ROW_VALUE, index of the row value), (AGGREGATE, _) in the
    calls' order."""

    # Flink's over aggregate is a Java operator: a timer it registers while timers fire goes
    # into the timer heap at once, which decides the order of equal timers (seen: the rows
    # of keys whose timers are due at one watermark came in that heap's order;
    # runtime/operators/keyed_process.py), not after the round as a Python function's
    inline_timers = True

    def __init__(self, rules: OverRules, names: Sequence[str], items: Sequence[Tuple[str, object]],
                 first_value: int) -> None:
        from pyflink_on_spark.table.sql.over_grouping import ROW_VALUE
        self.rules = rules
        self.names = list(names)
        # per result column: the index of its value in the per-row query's row, or None for
        # the next aggregate value
        self.sources = [first_value + what if kind == ROW_VALUE else None
                        for kind, what in items]
        self.state = None

    def open(self, runtime_context) -> None:
        from pyflink_on_spark.common.typeinfo import Types
        from pyflink_on_spark.datastream.state import ValueStateDescriptor
        self.state = runtime_context.get_state(
            ValueStateDescriptor("over_aggregate", Types.PICKLED_BYTE_ARRAY()))

    def process_element(self, value, ctx):
        row = tuple(getattr(value, "_values", value))
        state = self.state.value() or self.rules.new_state()
        timers = ctx.timer_service()
        for t in self.rules.on_row(state, ctx.timestamp(), row, timers.current_watermark()):
            timers.register_event_time_timer(t)
        self.state.update(state)

    def on_timer(self, timestamp, ctx):
        state = self.state.value()
        if state is None:
            return None
        timers = ctx.timer_service()
        out, more, cleared = self.rules.on_timer(state, timestamp, timers.current_watermark())
        for t in more:
            timers.register_event_time_timer(t)
        if cleared:
            self.state.clear()
        else:
            self.state.update(state)
        return [self._row(row, values) for row, values in out]

    def _row(self, row: tuple, values: tuple) -> Row:
        aggregates = iter(values)
        out = Row(*[next(aggregates) if i is None else row[i] for i in self.sources])
        out.set_field_names(self.names)
        return out
