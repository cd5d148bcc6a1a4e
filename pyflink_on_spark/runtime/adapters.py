"""Keyed adapters: KeyedStream.map / flat_map / filter / reduce / sum / min / max / min_by /
max_by as KeyedProcessFunctions, as PyFlink runs them.

Rolling aggregations emit every update in STREAMING mode; in BATCH mode they emit only the
final value per key at the end of input (Flink's batch semantics).
"""
from __future__ import annotations

from pyflink_on_spark.datastream.functions import KeyedProcessFunction, per_record_callable
from pyflink_on_spark.datastream.state import ValueStateDescriptor
from pyflink_on_spark.runtime.folds import FIELD_FOLDS, RECORD_FOLDS
from pyflink_on_spark.specs.operators import Aggregation


class KeyedMapAdapter(KeyedProcessFunction):
    def __init__(self, map_function):
        self._fn = map_function

    def open(self, runtime_context):
        self._fn.open(runtime_context)
        self._map = self._fn.map

    def close(self):
        self._fn.close()

    def process_element(self, value, ctx):
        return (self._map(value),)


class KeyedFlatMapAdapter(KeyedProcessFunction):
    def __init__(self, flat_map_function):
        self._fn = flat_map_function

    def open(self, runtime_context):
        self._fn.open(runtime_context)

    def close(self):
        self._fn.close()

    def process_element(self, value, ctx):
        return self._fn.flat_map(value)


class KeyedFilterAdapter(KeyedProcessFunction):
    def __init__(self, filter_function):
        self._fn = filter_function

    def open(self, runtime_context):
        self._fn.open(runtime_context)

    def close(self):
        self._fn.close()

    def process_element(self, value, ctx):
        return (value,) if self._fn.filter(value) else None


class _RollingAdapter(KeyedProcessFunction):
    """Keeps one value per key in ValueState and combines each new element into it."""

    _DESCRIPTOR = ValueStateDescriptor("_rolling", None)

    def __init__(self, batch_mode: bool = False):
        self._batch_mode = batch_mode

    def _combine(self, current, value):
        raise NotImplementedError

    def open(self, runtime_context):
        self._state = runtime_context.get_state(self._DESCRIPTOR)

    def process_element(self, value, ctx):
        state = self._state
        current = state.value()
        result = value if current is None else self._combine(current, value)
        state.update(result)
        if not self._batch_mode:
            return (result,)
        return None

    @property
    def folds_sorted_input(self) -> bool:
        """BATCH mode: on sorted input the operator folds each key's runs itself
        (fold_values) and emits the key's value when the key ends
        (KeyedProcessOperator.use_sorted_input). STREAMING mode emits every result."""
        return self._batch_mode

    def fold_values(self, current, values):
        """`current` (None: nothing yet, or a reduce returned None) with a run of one key's
        records folded in, as process_element folds them one at a time (BATCH mode emits
        nothing per record). A BATCH operator on sorted input keeps the key's value in a
        local instead of the state (folds_sorted_input)."""
        combine = self._combine
        for value in values:
            current = value if current is None else combine(current, value)
        return current

    def end_of_input_values(self, operator):
        """BATCH mode: the final value of every key, keys in the order they were first seen
        (with the input sorted by key the operator left each key's value at its end)."""
        if not self._batch_mode or operator.sorted_input:
            return None
        results = []
        for key in operator.backend.keys_for_state(self._DESCRIPTOR):
            operator.set_current_key(key)
            value = self._state.value()
            if value is not None:
                results.append(value)
        return results


class ReduceAdapter(_RollingAdapter):
    def __init__(self, reduce_function, batch_mode: bool = False):
        super().__init__(batch_mode)
        self._fn = reduce_function

    def open(self, runtime_context):
        super().open(runtime_context)
        self._fn.open(runtime_context)
        # the per-record combine is the user's reduce itself: no adapter frame between
        self._combine = per_record_callable(self._fn, "reduce")

    def close(self):
        self._fn.close()


class _NotPlain(Exception):
    """A record the plain-tuple sum cannot fold (AggregationAdapter.fold_values)."""


def _plain_number(record, position: int):
    """The int or float at `position` of a plain tuple, else _NotPlain."""
    if record.__class__ is not tuple:
        raise _NotPlain
    field = record[position]
    if field.__class__ is not int and field.__class__ is not float:
        raise _NotPlain
    return field


class AggregationAdapter(_RollingAdapter):
    """sum / min / max / min_by / max_by on a field (index or name), PyFlink semantics:
    sum/min/max change only that field of the first element; min_by/max_by keep the whole
    element holding the extreme (the first one on ties)."""

    def __init__(self, aggregation: Aggregation, position, batch_mode: bool = False):
        super().__init__(batch_mode)
        self._position = position
        # the aggregation's step (runtime/folds.py): on the field of the first record (sum,
        # min, max), or choosing the record held (min_by, max_by)
        self._field_fold = FIELD_FOLDS.get(aggregation.value)
        self._record_fold = RECORD_FOLDS.get(aggregation.value)
        self._combine = self._fold_field if self._field_fold is not None \
            else self._fold_record
        # sum on a tuple index: runs of plain tuples with number fields fold in one loop
        self._sums_tuple_index = aggregation is Aggregation.SUM and type(position) is int

    def fold_values(self, current, values):
        """A run of one key's records (BATCH): a sum over a tuple index of plain tuples
        whose fields are ints or floats adds the fields in one loop, in record order, and
        replaces the field once (the result _sum's record-by-record fold gives); any other
        run, or a record that is not so, takes that fold from the start (nothing is
        kept before a fold ends, and + of ints and floats calls no user code)."""
        if self._sums_tuple_index and values:
            first = current if current is not None else values[0]
            position = self._position
            try:
                total = _plain_number(first, position)
                for value in (values if current is not None else values[1:]):
                    if value.__class__ is not tuple:
                        raise _NotPlain
                    field = value[position]
                    if field.__class__ is not int and field.__class__ is not float:
                        raise _NotPlain
                    total += field   # folds.sum_of, inline
            except (_NotPlain, IndexError):
                pass
            else:
                return first if total is first[position] else self._replace(first, total)
        return super().fold_values(current, values)

    def _field(self, value):
        position = self._position
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return value
        try:
            if isinstance(position, str):
                return getattr(value, position) if not isinstance(value, dict) \
                    else value[position]
            return value[position]
        except (IndexError, KeyError, AttributeError, TypeError) as e:
            # the aggregation's own code, no user frame: say which field of which record
            size = " (%d fields)" % len(value) if hasattr(value, "__len__") else ""
            raise type(e)("%s: the aggregation's field %r is not in the record %r%s"
                          % (e, position, value, size)) from None

    def _replace(self, record, new_field):
        if isinstance(record, (int, float)) and not isinstance(record, bool):
            return new_field
        position = self._position
        if type(record).__name__ == "Row":
            values = list(record._values)
            index = record._fields.index(position) if isinstance(position, str) else position
            values[index] = new_field
            clone = type(record)(*values)
            if record._fields is not None:
                clone._fields = record._fields
            clone.set_row_kind(record.get_row_kind())
            return clone
        if isinstance(record, tuple):
            items = list(record)
            items[position] = new_field
            return tuple(items)
        if isinstance(record, list):
            items = list(record)
            items[position] = new_field
            return items
        raise TypeError("Cannot aggregate on field %r of %r" % (position, record))

    def _fold_field(self, current, value):
        """sum / min / max: the first record with its field folded."""
        return self._replace(current,
                             self._field_fold(self._field(current), self._field(value)))

    def _fold_record(self, current, value):
        """min_by / max_by: the record holding the extreme (the first on ties)."""
        return value if self._record_fold(self._field(current), self._field(value)) \
            else current
