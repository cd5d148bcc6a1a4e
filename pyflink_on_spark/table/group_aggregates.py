"""The changelog of a grouping query over an unbounded table, in keyed state (issue 44).

Seen on PyFlink 1.20.5 (compat_tests/cases/table/unbounded_group_by.py): the aggregate takes
the rows of a group as they arrive; the group's first row emits +I[result], every later
row -U[previous result] then +U[new result], or nothing when its aggregate values did not
change (Flink's GroupAggFunction compares them). The per-row part of the query (keys,
aggregate arguments, WHERE) runs as any stateless query of an unbounded table (Spark SQL per
micro-batch, spark/streaming/table_feeds.py); this function keeps each group's accumulators
in the keyed state of the job (checkpointed with it, restored after a restart) and computes
the aggregates as Flink does: SUM in its argument's type (integers wrap, FLOAT in single
precision), AVG of integers the sum over the count truncated, NULLs skipped (a group of NULLs
only: SUM / MIN / MAX / AVG NULL, COUNT(x) 0)."""
from __future__ import annotations

import struct
from decimal import Decimal
from typing import List, Optional, Sequence, Tuple

from pyflink_on_spark.datastream.functions import KeyedProcessFunction

_BITS = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}


def _wrap(value: int, bits: int) -> int:
    half = 1 << (bits - 1)
    return (value + half) % (2 * half) - half


def _single(value: float) -> float:
    """A Java float's value (FLOAT arithmetic)."""
    return struct.unpack("f", struct.pack("f", value))[0]


class Aggregate:
    """One aggregate call: `function` (COUNT, SUM, MIN, MAX, AVG), the index of its argument
    in the row (None: COUNT(*)), the argument's Flink type."""

    def __init__(self, function: str, argument: Optional[int], arg_type: str) -> None:
        self.function = function
        self.argument = argument
        base = arg_type.split("(", 1)[0]
        self.bits = _BITS.get(base)
        self.single = base == "FLOAT"
        self.decimal = base == "DECIMAL"

    def initial(self):
        return (0, 0) if self.function == "AVG" else 0 if self.function == "COUNT" else None

    def add(self, acc, row: Sequence):
        value = None if self.argument is None else row[self.argument]
        if self.function == "COUNT":
            return acc + (1 if self.argument is None or value is not None else 0)
        if value is None:
            return acc
        if self.function == "MIN":
            return value if acc is None or value < acc else acc
        if self.function == "MAX":
            return value if acc is None or value > acc else acc
        if self.function == "SUM":
            return self._sum(acc, value)
        total, count = acc
        return (self._sum(total, value) if self.bits is None else total + value, count + 1)

    def merge(self, acc, other):
        """Two accumulators as one (merging session windows)."""
        if self.function == "COUNT":
            return acc + other
        if self.function == "AVG":
            if acc[1] == 0 or other[1] == 0:
                return other if acc[1] == 0 else acc
            total = acc[0] + other[0] if self.bits is not None else self._sum(acc[0], other[0])
            return (total, acc[1] + other[1])
        if other is None or acc is None:
            return acc if other is None else other
        if self.function == "MIN":
            return min(acc, other)
        if self.function == "MAX":
            return max(acc, other)
        return self._sum(acc, other)

    def _sum(self, acc, value):
        if acc is None:
            return value
        if self.bits is not None:
            return _wrap(acc + value, self.bits)
        if self.single:
            return _single(acc + value)
        return acc + value

    def result(self, acc):
        if self.function != "AVG":
            return acc
        total, count = acc
        if count == 0:
            return None
        if self.bits is not None:   # Java's long division, truncated toward zero
            quotient = abs(total) // count
            return quotient if total >= 0 else -quotient
        if self.decimal:
            return Decimal(total) / count
        mean = total / count
        return _single(mean) if self.single else mean


class GroupAggregate(KeyedProcessFunction):
    """Rows of the per-row query (group keys first, then aggregate arguments), keyed by their
    group keys -> the changelog of the result: Rows named `names` with their RowKind.
    `items` per result column: ("key", key index) or ("aggregate", Aggregate)."""

    def __init__(self, names: Sequence[str], items: Sequence[Tuple[str, object]]) -> None:
        self.names = list(names)
        self.items = list(items)
        self.aggregates: List[Aggregate] = [what for kind, what in items
                                            if kind == "aggregate"]
        self.state = None

    def open(self, runtime_context) -> None:
        from pyflink_on_spark.common.typeinfo import Types
        from pyflink_on_spark.datastream.state import ValueStateDescriptor
        self.state = runtime_context.get_state(
            ValueStateDescriptor("group_aggregate", Types.PICKLED_BYTE_ARRAY()))

    def process_element(self, value, ctx):
        from pyflink_on_spark.common.types import RowKind
        accs = self.state.value()
        before = None if accs is None else self._values(accs)
        if accs is None:
            accs = tuple(a.initial() for a in self.aggregates)
        accs = tuple(a.add(acc, value) for a, acc in zip(self.aggregates, accs))
        self.state.update(accs)
        after = self._values(accs)
        if before is None:
            yield self._row(value, after, RowKind.INSERT)
        elif after != before:
            yield self._row(value, before, RowKind.UPDATE_BEFORE)
            yield self._row(value, after, RowKind.UPDATE_AFTER)

    def _values(self, accs) -> tuple:
        return tuple(a.result(acc) for a, acc in zip(self.aggregates, accs))

    def _row(self, value, aggregated: tuple, kind):
        from pyflink_on_spark.common.types import Row
        results = iter(aggregated)
        row = Row(*[value[what] if kind_of == "key" else next(results)
                    for kind_of, what in self.items])
        row.set_field_names(self.names)
        row.set_row_kind(kind)
        return row
