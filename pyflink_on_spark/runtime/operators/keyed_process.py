"""The keyed process primitive: keyed state, timers, current key.

KeyedStream.map / flat_map / filter / reduce / sum / ... are KeyedProcessFunction adapters
(runtime/adapters.py) run by this operator, as in PyFlink.
"""
from __future__ import annotations

from pyflink_on_spark.datastream.functions import KeyedProcessFunction, per_record_callable
from pyflink_on_spark.datastream.time_domain import TimeDomain
from pyflink_on_spark.datastream.timerservice import TimerService
from pyflink_on_spark.runtime.context import StreamingRuntimeContext
from pyflink_on_spark.runtime.operators.base import Operator, emit_results
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK, MIN_WATERMARK
from pyflink_on_spark.runtime.state.backend import VOID_NAMESPACE
from pyflink_on_spark.runtime.timers import InternalTimerService, hashable_key



class KeyedTimerService(TimerService):
    """The TimerService a KeyedProcessFunction sees: timers for the current key."""

    def __init__(self, operator: "KeyedProcessOperator"):
        self._operator = operator
        self._timers = operator.timers

    def current_processing_time(self):
        return self._timers.current_processing_time()

    def current_watermark(self):
        return self._operator.current_watermark

    def register_processing_time_timer(self, timestamp: int):
        self._timers.processing_time.register(self._operator.current_key, VOID_NAMESPACE, timestamp)

    def register_event_time_timer(self, timestamp: int):
        self._timers.event_time.register(self._operator.current_key, VOID_NAMESPACE, timestamp)

    def delete_processing_time_timer(self, timestamp: int):
        self._timers.processing_time.delete(self._operator.current_key, VOID_NAMESPACE, timestamp)

    def delete_event_time_timer(self, timestamp: int):
        self._timers.event_time.delete(self._operator.current_key, VOID_NAMESPACE, timestamp)


class KeyedContext(KeyedProcessFunction.OnTimerContext):
    """Context for process_element and on_timer (the time domain is set while a timer fires)."""

    __slots__ = ("_timestamp", "_operator", "_timer_service", "_time_domain")

    def __init__(self, operator: "KeyedProcessOperator", timer_service: TimerService):
        self._timestamp = None
        self._operator = operator
        self._timer_service = timer_service
        self._time_domain = None

    def timestamp(self) -> int:
        # A record without a timestamp reports Long.MIN_VALUE, as in PyFlink.
        ts = self._timestamp
        return MIN_WATERMARK if ts is None else ts

    def timer_service(self) -> TimerService:
        return self._timer_service

    def get_current_key(self):
        return self._operator.current_key

    def time_domain(self) -> TimeDomain:
        return self._time_domain


def _batch_timestamp(record) -> int:
    timestamp = record[2]
    return MIN_WATERMARK if timestamp is None else timestamp


def create_backend(task):
    from pyflink_on_spark.runtime.state.factory import create_keyed_state_backend
    return create_keyed_state_backend(task.state_backend, work_dir=task.work_dir,
                                      max_parallelism=task.max_parallelism, clock=task.clock)


class KeyedProcessOperator(Operator):
    """Runs a KeyedProcessFunction on records of a keyed stream."""

    has_timers = True

    def __init__(self, function: KeyedProcessFunction, key_selector,
                 batch_key_order=None) -> None:
        super().__init__()
        self.function = function
        self.key_selector = key_selector
        self.current_key = None
        # BATCH mode (Flink's batch execution): records are grouped by key, keys processed
        # in serialized-key order, each key's event-time timers fire at the end of the key.
        self._batch_key_order = batch_key_order
        self._batch_input = None
        self.sorted_input = False

    def open(self) -> None:
        self.backend = create_backend(self.task)
        self.timers = InternalTimerService(self.task.clock)
        self.runtime_context = StreamingRuntimeContext(self.task, self.backend)
        self._get_key = per_record_callable(self.key_selector, "get_key")
        self._set_key = self.backend.set_current_key
        self._open_contexts()
        self.open_function(self.runtime_context)
        self._bind_user_functions()

    # Hooks for the variants: two-input (runtime/operators/co_process.py, broadcast.py) and
    # windows (runtime/window/operator.py).
    def _open_contexts(self) -> None:
        """What the user function is handed besides records, built before it is opened."""
        self.ctx = self._make_context(KeyedTimerService(self))

    def _make_context(self, timer_service: TimerService) -> KeyedContext:
        return KeyedContext(self, timer_service)

    def _bind_user_functions(self) -> None:
        self._user_process = self.function.process_element

    def prepare(self) -> None:
        output = self.output
        if output.routes_side_outputs:
            self._collect_results = lambda results, timestamp: emit_results(
                results, output, timestamp)
        else:   # emit_results' own first case, without its call per record
            self._collect_results = output.collect_many
        if self._batch_key_order is not None:
            self._batch_input = {}
            self.process_keyed = self._buffer_keyed
        if self._batch_key_order is not None \
                or type(self).process_keyed is not KeyedProcessOperator.process_keyed:
            self.process_keyed_many = None
            # (a variant with its own loop for stamped rows decides for itself: windows)
            if type(self).process_keyed_stamped_many is \
                    KeyedProcessOperator.process_keyed_stamped_many:
                self.process_keyed_stamped_many = None

    def use_sorted_input(self) -> None:
        """BATCH mode with the keyed input sorted by key (the task's exchange did it, as
        Flink's sort-based batch runtime does): records are processed as they come and a key
        ends when the task says the next begins (end_sorted_key), so only one key is held."""
        if self._batch_key_order is None:
            raise ValueError("%s: a key-sorted input is for BATCH mode only" % self.name)
        self._batch_input = None
        self.sorted_input = True
        self.process_keyed = type(self).process_keyed.__get__(self)
        # a row of sorted input is records of one key: processed as a run (process_key_run)
        # unless a variant (window, two-input) processes its records its own way
        if type(self).process_keyed is KeyedProcessOperator.process_keyed:
            self.process_key_run = self._process_key_run
            # records keyed as they come again (prepare turned it off for BATCH's
            # buffering): a key's records with timestamps in one loop (a variant with its
            # own use_sorted_input, a two-input one, decides for itself)
            if type(self).process_keyed_stamped_many is \
                    KeyedProcessOperator.process_keyed_stamped_many and \
                    type(self).use_sorted_input is KeyedProcessOperator.use_sorted_input:
                self.process_keyed_stamped_many = \
                    KeyedProcessOperator.process_keyed_stamped_many.__get__(self)
        if getattr(self.function, "folds_sorted_input", False):
            # a BATCH rolling reduce or aggregation: a key's value is folded in a local,
            # not in its ValueState, and leaves when the key ends (nothing else reads it:
            # such a function has no timers, and its end_input emits nothing on sorted
            # input). The state path cost ~30% of a reading task's own time with 1M keys.
            self._fold_values = self.function.fold_values
            self._folded = None
            self.process_key_run = self._fold_key_run
            self.process_keyed = self._fold_keyed
            self.process_keyed_stamped_many = None
            self.end_sorted_key = self._end_folded_key

    # Sorted BATCH input only (use_sorted_input): the task's method for a row's records, all
    # of one key and without timestamps; None where records go one by one.
    process_key_run = None

    def _process_key_run(self, key, values) -> None:
        """The records of a row of sorted input: one key, no timestamps. The key is set once,
        then each record goes to process_keyed's user call as it would one by one (a rolling
        reduce or aggregation folds its runs itself: _fold_key_run)."""
        if not values:
            return
        self.set_current_key(key)
        ctx = self.ctx
        ctx._timestamp = None
        try:
            process, collect = self._user_process, self._collect_results
            for value in values:
                results = process(value, ctx)
                if results is not None:
                    collect(results, None)
        except Exception as e:
            raise self.user_error(e) from None

    def _fold_key_run(self, key, values) -> None:
        """process_key_run of a BATCH rolling function (use_sorted_input): the run folded
        into the key's value so far. The key is still set: the user's function may read
        keyed state of its own through its runtime context."""
        if not values:
            return
        self.set_current_key(key)
        try:
            self._folded = self._fold_values(self._folded, values)
        except Exception as e:
            raise self.user_error(e) from None

    def _fold_keyed(self, key, value, timestamp) -> None:
        """process_keyed of a BATCH rolling function (a record with a timestamp: BATCH
        leaves the key's value without one)."""
        self._fold_key_run(key, (value,))

    def _end_folded_key(self) -> None:
        """end_sorted_key of a BATCH rolling function: the key's value leaves, then the
        state of ended keys is dropped, as end_sorted_key does."""
        folded = self._folded
        if folded is not None:
            self._folded = None
            try:
                emit_results((folded,), self.output, None)
            except Exception as e:
                raise self.user_error(e) from None
        self.backend.discard_ended_keys()

    def end_sorted_key(self) -> None:
        """The current key's input has ended (sorted BATCH input): every timer of the key
        fires, as _run_batch does per key; then the state of the keys so far is dropped
        (none of them comes back). A rolling function's key ends in _end_folded_key."""
        timers = self.timers
        if len(timers.event_time) or len(timers.processing_time):   # most keys have none
            self.current_watermark = MAX_WATERMARK
            self._fire_all_timers()
        self.current_watermark = MIN_WATERMARK
        self.backend.discard_ended_keys()

    def _fire_all_timers(self) -> None:
        # Flink's batch timer service fires all of the key's event-time timers, then all
        # of its processing-time timers (time is "infinite" at the end of a key).
        fired = True
        while fired:
            fired = self._fire_rounds(self.timers.event_time, MAX_WATERMARK,
                                      TimeDomain.EVENT_TIME)
            fired = self._fire_rounds(self.timers.processing_time, MAX_WATERMARK,
                                      TimeDomain.PROCESSING_TIME) or fired

    def _buffer_keyed(self, key, value, timestamp) -> None:
        self._buffer_input(1, key, value, timestamp)

    def _buffer_input(self, side: int, key, value, timestamp) -> None:
        grouping = hashable_key(key)
        entry = self._batch_input.get(grouping)
        if entry is None:
            entry = self._batch_input[grouping] = (key, [])
        entry[1].append((side, value, timestamp))

    def _batch_records(self, records):
        """One key's buffered (side, value, timestamp) records in processing order."""
        return records

    def _run_batch(self) -> None:
        """All input is in: process it key by key, firing each key's timers after it."""
        entries = sorted(self._batch_input.values(),
                         key=lambda entry: self._batch_key_order(entry[0]))
        self._batch_input = {}
        inputs = (None, type(self).process_keyed, getattr(type(self), "process_keyed2", None))
        for key, records in entries:
            self.current_watermark = MIN_WATERMARK
            # Flink's batch sort orders a key's records by timestamp (stable here)
            if any(record[2] is not None for record in records):
                records.sort(key=_batch_timestamp)
            for side, value, timestamp in self._batch_records(records):
                inputs[side](self, key, value, timestamp)
            self.current_watermark = MAX_WATERMARK
            self._fire_all_timers()

    def set_current_key(self, key) -> None:
        self.current_key = key
        self._set_key(key)

    def process_element(self, value, timestamp) -> None:
        """A record without its key: the key selector computes it. The task hands a keyed
        input's records to process_keyed with the key the exchange carried (computed once,
        upstream, as PyFlink's key_by does: runtime/boundary.py); tests and harnesses that
        feed the operator directly come here."""
        try:
            key = self._get_key(value)
        except Exception as e:
            raise self.user_error(e) from None
        self.process_keyed(key, value, timestamp)

    def process_keyed(self, key, value, timestamp) -> None:
        """A record of the keyed input with its key. The per-record path: user code is
        called inline rather than through call_user."""
        self.current_key = key
        self._set_key(key)
        ctx = self.ctx
        ctx._timestamp = timestamp
        try:
            results = self._user_process(value, ctx)
            if results is not None:
                self._collect_results(results, timestamp)
        except Exception as e:
            raise self.user_error(e) from None

    def process_keyed_many(self, keys, values) -> None:
        """process_keyed for a row's records without timestamps, in one loop: the task's
        path for a keyed input, one Python call per record less (keyed_value_state's keyed
        stage, engine alone: see benchmarks/RESULTS.md). None (prepare) where records go
        another way (BATCH buffering, a variant's own process_keyed)."""
        set_key, process, collect = self._set_key, self._user_process, self._collect_results
        ctx = self.ctx
        ctx._timestamp = None
        backend = self.backend
        # the usual keys (str, int...) go straight into the heap backend's `_key` (its
        # set_current_key does only that for them): stage 1 of keyed_value_state, engine
        # alone, 0.46 -> 0.41 us/record
        as_is = backend.keys_stored_as_is()
        try:
            if as_is:
                for key, value in zip(keys, values):
                    self.current_key = key
                    if key.__class__ in as_is:
                        backend._key = key
                    else:
                        set_key(key)
                    results = process(value, ctx)
                    if results is not None:
                        collect(results, None)
                return
            for key, value in zip(keys, values):
                self.current_key = key
                set_key(key)
                results = process(value, ctx)
                if results is not None:
                    collect(results, None)
        except Exception as e:
            raise self.user_error(e) from None

    def process_keyed_stamped_many(self, keys, values, stamps) -> None:
        """process_keyed_many for a row's records with timestamps (a Kafka source's records,
        an assigner's): each record's timestamp is ctx.timestamp() and its results'. The
        task's path for such rows; None (prepare) where process_keyed_many is None."""
        set_key, process, collect = self._set_key, self._user_process, self._collect_results
        ctx = self.ctx
        backend = self.backend
        as_is = backend.keys_stored_as_is()
        try:
            for key, value, timestamp in zip(keys, values, stamps):
                self.current_key = key
                if key.__class__ in as_is:
                    backend._key = key
                else:
                    set_key(key)
                ctx._timestamp = timestamp
                results = process(value, ctx)
                if results is not None:
                    collect(results, timestamp)
        except Exception as e:
            raise self.user_error(e) from None

    def process_watermark(self, watermark: int) -> None:
        if self.sorted_input:
            if watermark == MAX_WATERMARK:   # the task has ended the last key
                self.current_watermark = MAX_WATERMARK
                self._fire_all_timers()
                self.output.emit_watermark(watermark)
            return
        if self._batch_input is not None:
            if watermark == MAX_WATERMARK:
                self._run_batch()
                self.output.emit_watermark(watermark)
            return
        if watermark <= self.current_watermark:
            return
        self.current_watermark = watermark
        self._fire_rounds(self.timers.event_time, watermark, TimeDomain.EVENT_TIME)
        self.output.emit_watermark(watermark)

    def advance_processing_time(self, now: int) -> None:
        if self.sorted_input:   # BATCH: processing-time timers fire at the end of their key
            return
        self._fire_rounds(self.timers.processing_time, now, TimeDomain.PROCESSING_TIME)

    def _fire_rounds(self, queue, up_to: int, domain: TimeDomain) -> bool:
        """Fires the timers due at `up_to` in rounds, as PyFlink's Java operator does
        (advanceWatermark, then finish the Python bundle, again while it fired anything):
        a round fires the timers due when it starts, so a timer that on_timer registers
        fires in the next round, and one deleted by an earlier timer of the same round
        still fires. Returns whether any timer fired."""
        fired = False
        if getattr(self.function, "inline_timers", False):
            # a Java operator's timers (table/over_aggregate.py): a timer on_timer
            # registers goes into the heap at once, among the due ones still in it
            while True:
                due = queue.pop_due(up_to)
                if due is None:
                    return fired
                fired = True
                self._fire(due, domain)
        while True:
            due = queue.pop_all_due(up_to)
            if not due:
                return fired
            fired = True
            self._fire_round(due, domain)

    def _fire_round(self, due, domain: TimeDomain) -> None:
        """One round's timers, one by one (the window operator fires some rounds in one
        loop)."""
        for timer in due:
            self._fire(timer, domain)

    def _fire(self, due, domain: TimeDomain) -> None:
        timestamp, key, namespace = due
        self.set_current_key(key)
        ctx = self.ctx
        ctx._time_domain = domain
        # PyFlink: ctx.timestamp() is the timer's timestamp and the output records carry it,
        # in both time domains (Java Flink erases it for processing time).
        ctx._timestamp = timestamp
        try:
            self.call_user(self._emit_on_timer, timestamp, ctx)
        finally:
            ctx._time_domain = None

    def _emit_on_timer(self, timestamp: int, ctx: KeyedContext) -> None:
        emit_results(self.function.on_timer(timestamp, ctx), self.output, timestamp)

    def end_input(self) -> None:
        finish = getattr(self.function, "end_of_input_values", None)   # reduce / aggregations
        if finish is not None:
            self.call_user(self._emit_end_input, finish)

    def _emit_end_input(self, finish) -> None:
        emit_results(finish(self), self.output, None)

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.backend.close()
