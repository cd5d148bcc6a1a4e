"""The two-input primitives of ConnectedStreams: co-process and keyed co-process.

ConnectedStreams.map / flat_map are CoProcessFunction / KeyedCoProcessFunction adapters
(runtime/co_adapters.py), as in PyFlink. Both operators alternate their inputs record by record
(runtime/two_input.py). The keyed one is KeyedProcessOperator with a second input: both inputs
share its keyed state backend, timers and current key.
"""
from __future__ import annotations

from pyflink_on_spark.common.types import _create_row
from pyflink_on_spark.datastream.functions import (
    CoProcessFunction, KeyedCoProcessFunction, ProcessFunction)
from pyflink_on_spark.runtime.operators.base import Operator, emit_results
from pyflink_on_spark.runtime.operators.keyed_process import (
    KeyedContext, KeyedProcessOperator)
from pyflink_on_spark.runtime.operators.process import NonKeyedTimerService
from pyflink_on_spark.runtime.watermarks import MIN_WATERMARK

_KEYED_ROW_FIELDS = ["f0", "f1"]


class CoProcessContext(ProcessFunction.Context, CoProcessFunction.Context):
    """The context of both process_element1 and process_element2 (as PyFlink's, one object
    serves both function kinds)."""

    __slots__ = ("_timestamp", "_timer_service")

    def __init__(self, timer_service):
        self._timestamp = None
        self._timer_service = timer_service

    def timestamp(self) -> int:
        ts = self._timestamp
        return MIN_WATERMARK if ts is None else ts

    def timer_service(self):
        return self._timer_service


class CoProcessOperator(Operator):
    """Runs a CoProcessFunction on two non-keyed inputs.

    `keyed_rows` (key selector per input, or None): PyFlink connects a KeyedStream with a
    non-keyed stream as a plain co-process whose keyed side still carries its internal
    `Row(key, value)` records; the shim hands that side's function the same Row."""

    alternates_inputs = True

    def __init__(self, function: CoProcessFunction, keyed_rows=(None, None)) -> None:
        super().__init__()
        self.function = function
        self.keyed_rows = tuple(keyed_rows)

    def prepare(self) -> None:
        ctx = self._ctx = CoProcessContext(NonKeyedTimerService(self))
        self.process_element, self.process_keyed = self._input(
            ctx, self.function.process_element1, self.keyed_rows[0])
        self.process_element2, self.process_keyed2 = self._input(
            ctx, self.function.process_element2, self.keyed_rows[1])

    # A keyed input's records come with their keys (runtime/task.py): process_keyed.
    process_keyed = process_keyed2 = None

    def _input(self, ctx, user_process, key_selector) -> tuple:
        """(process_element, process_keyed) of one input; process_keyed is None for an
        input that is not keyed."""
        output = self.output
        user_error = self.user_error

        def process_element(value, timestamp):
            ctx._timestamp = timestamp
            try:
                emit_results(user_process(value, ctx), output, timestamp)
            except Exception as e:   # inline rather than call_user: the per-record path
                raise user_error(e) from None
        if key_selector is None:
            return process_element, None
        get_key = key_selector.get_key

        def process_keyed(key, value, timestamp):
            ctx._timestamp = timestamp
            try:
                value = _create_row(list(_KEYED_ROW_FIELDS), (key, value))
                emit_results(user_process(value, ctx), output, timestamp)
            except Exception as e:
                raise user_error(e) from None

        def process_keyless(value, timestamp):
            try:
                key = get_key(value)
            except Exception as e:
                raise user_error(e) from None
            process_keyed(key, value, timestamp)
        return process_keyless, process_keyed


class KeyedCoContext(KeyedContext, KeyedCoProcessFunction.OnTimerContext):
    """KeyedContext serving a KeyedCoProcessFunction (process_element1/2 and on_timer)."""

    __slots__ = ()


class KeyedCoProcessOperator(KeyedProcessOperator):
    """Runs a KeyedCoProcessFunction: input 1 keyed by key_selector, input 2 by
    key_selector2, one keyed state backend and one timer service for both."""

    alternates_inputs = True

    def __init__(self, function: KeyedCoProcessFunction, key_selector, key_selector2,
                 batch_key_order=None) -> None:
        super().__init__(function, key_selector, batch_key_order)
        self.key_selector2 = key_selector2

    def _make_context(self, timer_service) -> KeyedContext:
        return KeyedCoContext(self, timer_service)

    def _bind_user_functions(self) -> None:
        self._user_process = self.function.process_element1
        self._user_process2 = self.function.process_element2
        self._get_key2 = self.key_selector2.get_key

    def prepare(self) -> None:
        super().prepare()
        if self._batch_input is not None:
            self.process_keyed2 = self._buffer_keyed2

    def _buffer_keyed2(self, key, value, timestamp) -> None:
        self._buffer_input(2, key, value, timestamp)

    def _run_batch(self) -> None:
        # Flink's sorted inputs end in the order its round-robin reading reaches their ends:
        # the input with fewer records first (input 1 on equal counts). The first to end
        # puts its head into the heap first and wins the first tie (observed on PyFlink).
        counts = {1: 0, 2: 0}
        for _, records in self._batch_input.values():
            for record in records:
                counts[record[0]] += 1
        self._batch_turn = 1 if counts[1] <= counts[2] else 2
        super()._run_batch()

    def use_sorted_input(self) -> None:
        """Both inputs key-sorted (BATCH mode, graph/compile.py): a key's records of both
        inputs are held until the key ends, then merged as _batch_records merges them, so
        one key is held at a time. Which input wins the first tie depends on both inputs'
        record counts, which arrive before the first key (count_sorted_input)."""
        super().use_sorted_input()
        self.process_key_run = None
        self._sorted_counts = {1: 0, 2: 0}
        self._batch_turn = None
        self._key_inputs = ([], [])
        self._held_key = None
        self.process_keyed = self._hold_keyed1
        self.process_keyed2 = self._hold_keyed2

    def count_sorted_input(self, input_index: int, count: int) -> None:
        """An upstream subtask sent `count` records into input `input_index`."""
        self._sorted_counts[input_index] += count

    # The records of a key held until it ends: all of one key (the sort puts equal keys of
    # both inputs together), which the first of them brings.
    def _hold_keyed1(self, key, value, timestamp) -> None:
        if not (self._key_inputs[0] or self._key_inputs[1]):
            self._held_key = key
        self._key_inputs[0].append((1, value, timestamp))

    def _hold_keyed2(self, key, value, timestamp) -> None:
        if not (self._key_inputs[0] or self._key_inputs[1]):
            self._held_key = key
        self._key_inputs[1].append((2, value, timestamp))

    def end_sorted_key(self) -> None:
        first, second = self._key_inputs
        self._key_inputs = ([], [])
        if self._batch_turn is None:
            counts = self._sorted_counts
            self._batch_turn = 1 if counts[1] <= counts[2] else 2
        key = self._held_key
        inputs = (None, type(self).process_keyed, type(self).process_keyed2)
        for side, value, timestamp in self._merge_inputs(first, second):
            inputs[side](self, key, value, timestamp)
        super().end_sorted_key()

    def _batch_records(self, records):
        """One key's buffered records of both inputs, in Flink's BATCH order."""
        inputs = {1: [], 2: []}
        for record in records:
            inputs[record[0]].append(record)
        return self._merge_inputs(inputs[1], inputs[2])

    def _merge_inputs(self, first, second):
        """Flink's BATCH mode merges a key's records of both inputs by timestamp from a heap
        of the two inputs' heads; on equal timestamps the head already in the heap wins, so
        after a record of one input the other wins the next tie (the turn carries over from
        key to key). Each input keeps its arrival order among equal timestamps."""
        def stamp(record):
            return MIN_WATERMARK if record[2] is None else record[2]
        first = sorted(first, key=stamp)
        second = sorted(second, key=stamp)
        merged = []
        i = j = 0
        turn = self._batch_turn
        while i < len(first) and j < len(second):
            a, b = stamp(first[i]), stamp(second[j])
            if a < b or (a == b and turn == 1):
                merged.append(first[i])
                i += 1
                turn = 2
            else:
                merged.append(second[j])
                j += 1
                turn = 1
        if i < len(first):
            merged.extend(first[i:])
            turn = 2
        elif j < len(second):
            merged.extend(second[j:])
            turn = 1
        self._batch_turn = turn
        return merged

    def process_element2(self, value, timestamp) -> None:
        """Input 2's record without its key (as process_element)."""
        try:
            key = self._get_key2(value)
        except Exception as e:
            raise self.user_error(e) from None
        self.process_keyed2(key, value, timestamp)

    def process_keyed2(self, key, value, timestamp) -> None:
        """Input 2's record with its key (as process_keyed)."""
        self.current_key = key
        self._set_key(key)
        ctx = self.ctx
        ctx._timestamp = timestamp
        try:
            results = self._user_process2(value, ctx)
            if results is not None:
                self._collect_results(results, timestamp)
        except Exception as e:
            raise self.user_error(e) from None
