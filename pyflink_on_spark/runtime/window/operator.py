"""WindowOperator: Flink's window operator on the engine's keyed state and timers.

It is a KeyedProcessOperator (same key handling, keyed state backend, timer queues, BATCH
per-key buffering) whose per-element and per-timer logic is the window logic:

* the assigner puts each element into windows; the window contents live in one keyed state
  ("window-contents": list for apply/process, reducing for reduce, aggregating for
  aggregate) under the window as namespace;
* the trigger is asked on every element and every timer (timers carry the window as their
  namespace) whether to fire (call the window function) and/or purge (drop the contents);
* event-time windows are cleaned up (contents, trigger state, the function's window state)
  at max_timestamp + allowed lateness; elements for windows already cleaned up are late:
  they go to the late-data side output or are dropped (counted in numLateRecordsDropped);
* merging assigners (sessions) keep a MergingWindowSet per key: merged windows' contents are
  merged into one state window with the state backend's merge_namespaces, and the trigger's
  state with on_merge.

Output timestamps follow PyFlink: a firing caused by an element carries the element's
timestamp, an event-time timer's firing the timer's timestamp, a processing-time firing none.
"""
from __future__ import annotations

from itertools import repeat

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.functions import (
    InternalSingleValueWindowFunction, InternalWindowFunction, KeyedStateStore,
    PassThroughWindowFunction, per_record_callable)
from pyflink_on_spark.datastream.state import ListStateDescriptor, MapStateDescriptor
from pyflink_on_spark.datastream.time_domain import TimeDomain
from pyflink_on_spark.datastream.window import (
    CountTrigger, CountTumblingWindowAssigner, CountWindow,
    DynamicEventTimeSessionWindows, EventTimeSessionWindows, EventTimeTrigger,
    MergingWindowAssigner, ProcessingTimeTrigger, SlidingEventTimeWindows, TimeWindow, Trigger,
    TriggerResult, TumblingEventTimeWindows, TumblingProcessingTimeWindows, WindowAssigner,
    WindowOperationDescriptor)
from pyflink_on_spark.runtime.operators.base import emit_results
from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK, MIN_WATERMARK
from pyflink_on_spark.runtime.state.backend import VOID_NAMESPACE
from pyflink_on_spark.runtime.state.heap import (
    HeapAggregatingState, HeapListState, HeapMapState, HeapReducingState, HeapValueState)
from pyflink_on_spark.runtime.window.merging_window_set import MergingWindowSet

LATE_ELEMENTS_DROPPED_METRIC_NAME = "numLateRecordsDropped"
_CONTINUE = TriggerResult.CONTINUE
_FIRE = TriggerResult.FIRE
_PURGE = TriggerResult.PURGE
_FIRE_AND_PURGE = TriggerResult.FIRE_AND_PURGE
_MERGING_WINDOW_SET = MapStateDescriptor("merging-window-set", Types.PICKLED_BYTE_ARRAY(),
                                         Types.PICKLED_BYTE_ARRAY())


class _TriggerContext(Trigger.OnMergeContext):
    """The trigger's view: timers and state scoped to the current key and ``window``."""

    __slots__ = ("_op", "_event", "_processing", "window", "merged_windows")

    def __init__(self, operator: "WindowOperator") -> None:
        self._op = operator
        self._event = operator.timers.event_time
        self._processing = operator.timers.processing_time
        self.window = None
        self.merged_windows = None

    def get_current_processing_time(self) -> int:
        return self._op.timers.current_processing_time()

    def get_metric_group(self):
        return self._op.runtime_context.get_metrics_group()

    def get_current_watermark(self) -> int:
        return self._op.current_watermark

    def register_processing_time_timer(self, time: int) -> None:
        self._processing.register(self._op.current_key, self.window, time)

    def register_event_time_timer(self, time: int) -> None:
        self._event.register(self._op.current_key, self.window, time)

    def delete_processing_time_timer(self, time: int) -> None:
        self._processing.delete(self._op.current_key, self.window, time)

    def delete_event_time_timer(self, time: int) -> None:
        self._event.delete(self._op.current_key, self.window, time)

    def get_partitioned_state(self, state_descriptor):
        state = self._op.backend.get_partitioned_state(state_descriptor)
        state.set_current_namespace(self.window)
        return state

    def merge_partitioned_state(self, state_descriptor) -> None:
        if self.merged_windows:
            state = self._op.backend.get_partitioned_state(state_descriptor)
            merge = getattr(state, "merge_namespaces", None)
            if merge is None:
                raise Exception("The given state descriptor does not refer to a mergeable "
                                "state (MergingState)")
            merge(self.window, self.merged_windows)


class _StateStore(KeyedStateStore):
    """Keyed state of the current key under one namespace (a window, or none)."""

    def __init__(self, backend, namespace=VOID_NAMESPACE) -> None:
        self._backend = backend
        self.namespace = namespace

    def _get(self, descriptor):
        state = self._backend.get_partitioned_state(descriptor)
        state.set_current_namespace(self.namespace)
        return state

    get_state = get_list_state = get_map_state = _get
    get_reducing_state = get_aggregating_state = _get


class _MergingWindowStateStore(KeyedStateStore):
    """window_state() of merging windows: per-window state cannot follow merges."""

    def _refuse(self, state_descriptor):
        raise Exception("Per-window state is not allowed when using merging windows.")

    get_state = get_list_state = get_map_state = _refuse
    get_reducing_state = get_aggregating_state = _refuse


class _WindowContext(InternalWindowFunction.InternalWindowContext):
    """What the window function sees besides the window: time and state stores."""

    def __init__(self, operator: "WindowOperator", merging: bool) -> None:
        self._op = operator
        self.window = None
        self._window_store = _MergingWindowStateStore() if merging \
            else _StateStore(operator.backend)
        self._global_store = _StateStore(operator.backend)

    def current_processing_time(self) -> int:
        return self._op.timers.current_processing_time()

    def current_watermark(self) -> int:
        return self._op.current_watermark

    def window_state(self) -> KeyedStateStore:
        store = self._window_store
        if isinstance(store, _StateStore):
            store.namespace = self.window
        return store

    def global_state(self) -> KeyedStateStore:
        return self._global_store


class _AssignerContext(WindowAssigner.WindowAssignerContext):
    def __init__(self, operator: "WindowOperator") -> None:
        self._op = operator

    def get_current_processing_time(self) -> int:
        return self._op.timers.current_processing_time()

    def get_runtime_context(self):
        return self._op.runtime_context


class WindowOperator(KeyedProcessOperator):
    """Runs one windowed operation (assigner + trigger + window function) on a keyed stream."""

    def __init__(self, descriptor: WindowOperationDescriptor, key_selector,
                 batch_key_order=None) -> None:
        super().__init__(descriptor.internal_window_function, key_selector, batch_key_order)
        self.assigner = descriptor.assigner
        self.trigger = descriptor.trigger
        self.allowed_lateness = descriptor.allowed_lateness
        tag = descriptor.late_data_output_tag
        self.late_tag_id = tag.tag_id if tag is not None else None
        self.window_state_descriptor = descriptor.window_state_descriptor
        self.merging = isinstance(self.assigner, MergingWindowAssigner)
        self.is_event_time = bool(self.assigner.is_event_time())
        assigner, kind = self.assigner, type(self.assigner)
        # (size, slide, offset) of tumbling (slide = size) and sliding event-time windows
        self._aligned = (
            (assigner._size, assigner._size, assigner._offset)
            if kind is TumblingEventTimeWindows else
            (assigner._size, assigner._slide, assigner._offset)
            if kind is SlidingEventTimeWindows else None)
        # (size, offset) of tumbling event-time / processing-time windows
        self._tumbling = (assigner._size, assigner._offset) \
            if kind is TumblingEventTimeWindows else None
        self._processing_tumbling = (assigner._size, assigner._offset) \
            if kind is TumblingProcessingTimeWindows else None
        # the gap of event-time sessions of a static gap (None: dynamic, or not sessions)
        self._session_gap = assigner._session_gap if kind is EventTimeSessionWindows else None
        # count windows: whether the trigger's count is left to the assigner's (None: not
        # decided yet) and whether its state is behind (_count_states)
        self._trigger_counts_derived = None
        self._trigger_counts_stale = False

    # -- lifecycle --------------------------------------------------------------------------

    def _open_contexts(self) -> None:
        # KeyedProcessOperator.open (backend, timers, runtime context, key functions) calls
        # this before it opens the window function.
        self.window_state = self.backend.get_partitioned_state(self.window_state_descriptor)
        self._list_contents = isinstance(self.window_state_descriptor, ListStateDescriptor)
        self._merging_set_state = (self.backend.get_partitioned_state(_MERGING_WINDOW_SET)
                                   if self.merging else None)
        self.trigger_context = _TriggerContext(self)
        self.window_context = _WindowContext(self, self.merging)
        self.assigner_context = _AssignerContext(self)
        self.late_records_dropped = self.runtime_context.get_metrics_group().counter(
            LATE_ELEMENTS_DROPPED_METRIC_NAME)
        self._event_queue = self.timers.event_time
        self._window_cache = {}
        # _process_session (prepare) reads and changes the heap states' tables in place
        if getattr(self, "_element_logic", None) == self._process_session and not (
                type(self._merging_set_state) is HeapMapState and type(self.window_state)
                in (HeapAggregatingState, HeapReducingState, HeapListState)):
            self._element_logic, self._timer_logic = self._process, self._on_timer

    def _bind_user_functions(self) -> None:
        pass   # the window function is called per firing (_emit), not per element

    # -- elements ---------------------------------------------------------------------------

    def prepare(self) -> None:
        # Three per-element paths: _process (Flink's processElement: any assigner and
        # trigger); _process_event_time, the common case of non-merging event-time windows
        # with the default trigger, with EventTimeTrigger.on_element inlined (and tumbling
        # windows computed inline); _process_processing_time, tumbling processing-time
        # windows with the default trigger. The split pays: benchmarks/RESULTS.md, "Window
        # per-element paths" and "Windows and stamped rows in one call".
        super().prepare()
        if not self.merging and self.is_event_time and type(self.trigger) is EventTimeTrigger:
            self._element_logic = self._process_event_time
        elif type(self.assigner) in (EventTimeSessionWindows, DynamicEventTimeSessionWindows) \
                and type(self.trigger) is EventTimeTrigger:
            # (open() sends them back to _process unless their state is on the heap)
            self._element_logic = self._process_session
        elif type(self.assigner) is TumblingProcessingTimeWindows \
                and type(self.trigger) is ProcessingTimeTrigger:
            self._element_logic = self._process_processing_time
        elif type(self.assigner) is CountTumblingWindowAssigner \
                and type(self.trigger) is CountTrigger:
            self._element_logic = self._process_count_tumbling
        else:
            self._element_logic = self._process
        # A row's records in one loop where records are keyed as they come (not BATCH's
        # buffering; BATCH's key-sorted input turns them on again: use_sorted_input)
        if self._batch_key_order is None:
            self._use_row_loops()
        else:
            self.process_keyed_stamped_many = None
        # EventTimeTrigger without allowed lateness: a window's one timer fires and cleans up
        self._timer_logic = self._on_event_timer_no_lateness \
            if self._element_logic == self._process_event_time and not self.allowed_lateness \
            else self._on_session_timer if self._element_logic == self._process_session \
            else self._on_timer

    def _use_row_loops(self) -> None:
        """A row's stamped records in one loop (process_keyed_stamped_many): tumbling or
        sliding event-time windows with the default trigger and no allowed lateness,
        static-gap event-time sessions, count windows (their rows without timestamps too);
        other windows take records one by one."""
        if self._element_logic == self._process_session and self._session_gap is not None:
            self.process_keyed_stamped_many = self._session_rows
        elif self._element_logic == self._process_count_tumbling:
            self.process_keyed_many = self.process_keyed_stamped_many = self._count_rows
        elif self._element_logic == self._process_event_time and self._aligned is not None \
                and not self.allowed_lateness:
            self.process_keyed_stamped_many = \
                type(self).process_keyed_stamped_many.__get__(self)
        else:
            self.process_keyed_stamped_many = None

    def use_sorted_input(self) -> None:
        """BATCH's key-sorted input: a key's records come as in STREAMING, its stamped ones
        in timestamp order, with the watermark at Long.MIN_VALUE until the key ends
        (end_sorted_key fires its timers), so a row takes STREAMING's loops: the window
        stage of an event-time BATCH job took ~1.7x its STREAMING time record by record."""
        super().use_sorted_input()
        self._use_row_loops()

    def process_keyed(self, key, value, timestamp) -> None:
        try:
            self.current_key = key
            self._set_key(key)
            self._element_logic(value, timestamp)
        except Exception as e:   # inline rather than call_user: the per-record path
            raise self.user_error(e) from None

    def _process(self, value, timestamp) -> None:
        """Flink's WindowOperator.processElement, for any assigner and trigger."""
        if self._trigger_counts_stale:   # the trigger reads its count state
            self._write_trigger_counts()
        ts = MIN_WATERMARK if timestamp is None else timestamp
        self._process_windows(value, timestamp, ts,
                              self.assigner.assign_windows(value, ts, self.assigner_context))

    def _process_windows(self, value, timestamp, ts: int, windows) -> None:
        """_process with the element's windows assigned (``ts``: its timestamp, or
        Long.MIN_VALUE for none)."""
        ctx = self.trigger_context
        state = self.window_state
        trigger = self.trigger
        skipped = True
        merging_set = self._merging_set() if self.merging else None
        for window in windows:
            if merging_set is not None:
                window = merging_set.add_window(window, self._merge)
                if self._is_window_late(window):
                    merging_set.retire_window(window)
                    continue
                state_window = merging_set.get_state_window(window)
                if state_window is None:
                    raise Exception("Window %s is not in in-flight window set." % (window,))
            else:
                if self._is_window_late(window):
                    continue
                state_window = window
            skipped = False
            state.set_current_namespace(state_window)
            state.add(value)
            ctx.window = window
            result = trigger.on_element(value, ts, window, ctx)
            if result is not _CONTINUE:
                if result is _FIRE or result is _FIRE_AND_PURGE:
                    contents = self._contents()
                    if contents is None:
                        continue
                    self._emit(window, contents, timestamp)
                if result is _PURGE or result is _FIRE_AND_PURGE:
                    state.clear()
            self._register_cleanup_timer(window)
        if merging_set is not None:
            merging_set.persist()
        if skipped:
            self._maybe_late(value, ts, timestamp)

    def _process_session(self, value, timestamp) -> None:
        """_process for event-time session windows with EventTimeTrigger on the heap
        backend (prepare), Flink's merging-window fast path: the key's sessions in flight
        are the keys of its merging window set's dict (window -> state window, in the
        MapState's table), read and changed in place. The usual record extends one session
        (or starts one) whose end is ahead of the watermark: the merge's steps inline, in
        _process's order (EventTimeTrigger.on_merge registers the merged window's timer,
        its clear deletes the old window's, the cleanup timers follow; the contents stay in
        the session's state window, so nothing is merged), the value added there, the
        session's timer registered. Any other record (no timestamp, one that bridges two
        sessions, a session the watermark has passed: late, or firing at once) takes
        _process's way with the same windows.

        The state left (contents, the merging window set, timers, in the heap's order) is
        what _process leaves, so records may take either way."""
        if timestamp is None:
            self._process(value, timestamp)
            return
        gap = self._session_gap
        if gap is None:   # dynamic gaps: the user's extractor, once
            windows = self.assigner.assign_windows(value, timestamp, self.assigner_context)
            start, end = windows[0]
        else:
            start, end = timestamp, timestamp + gap
            windows = None
        sessions = self._merging_set_state._map
        stored_key = self.backend._key
        mapping = sessions.get(stored_key)
        hit = None
        if mapping is not None:
            for window in mapping:
                if window[0] <= end and window[1] >= start:   # TimeWindow.intersects
                    if hit is not None:
                        hit = False   # bridges two sessions: MergingWindowSet merges them
                        break
                    hit = window
        if hit is not None:
            if hit is not False:
                low, high = hit
                if start > low:
                    start = low
                if end < high:
                    end = high
        watermark = self.current_watermark
        if hit is False or end - 1 <= watermark:
            self._process_windows(value, timestamp, timestamp, windows or (
                TimeWindow(timestamp, timestamp + gap),))
            return
        key = self.current_key
        queue = self._event_queue
        lateness = self.allowed_lateness
        if hit is None:
            window = state_window = TimeWindow(start, end) if windows is None else windows[0]
            if mapping is None:
                sessions[stored_key] = {window: window}
            else:
                mapping[window] = window
        elif start == low and end == high:   # the record's window lies in the session
            window = hit
            state_window = mapping[hit]
        else:
            window = TimeWindow(start, end)
            state_window = mapping.pop(hit)
            mapping[window] = state_window
            # EventTimeTrigger.on_merge registers the window's timer, its clear deletes the
            # old window's (the on_element below registers it again: a no-op)
            queue.move(key, window, end - 1, hit, high - 1)
            if lateness:                              # _delete_cleanup_timer
                cleanup = high - 1 + lateness
                if cleanup < MAX_WATERMARK:
                    queue.delete(key, hit, cleanup)
        state = self.window_state
        state.set_current_namespace(state_window)
        state.add(value)
        queue.register(key, window, end - 1)          # EventTimeTrigger.on_element
        if lateness:                                  # _register_cleanup_timer
            cleanup = end - 1 + lateness
            if cleanup < MAX_WATERMARK:
                queue.register(key, window, cleanup)

    def _session_rows(self, keys, values, stamps) -> None:
        """process_keyed_stamped_many for _process_session's windows of a static gap (prepare):
        _process_session's usual record inline, in one loop, with the window's contents
        folded in their state window's table (the heap state's add inline: the state's
        namespace is left where it is, as _sliding_heap_rows leaves it). Any other record
        goes through process_keyed. (The task may hold this method from before open(), which
        sends sessions whose state is not on the heap back to _process: then every record
        goes through process_keyed.)"""
        process_keyed = self.process_keyed
        if self._element_logic != self._process_session:
            for key, value, timestamp in zip(keys, values, stamps):
                process_keyed(key, value, timestamp)
            return
        gap = self._session_gap
        backend = self.backend
        as_is = backend.keys_stored_as_is()
        set_key = self._set_key
        state = self.window_state
        tables = state._tables
        kind = type(state)
        aggregating, reducing = kind is HeapAggregatingState, kind is HeapReducingState
        if aggregating:
            function = state.aggregate_function
            create, add_to = function.create_accumulator, function.add
        elif reducing:
            reduce = self._reduce_function()
        queue = self._event_queue
        register, delete, move = queue.register, queue.delete, queue.move
        lateness = self.allowed_lateness
        # TimeWindow(start, end) without its two Python calls (__new__, an empty __init__)
        new_window = tuple.__new__
        # the merging window sets' table (the map state stays in its void namespace; a
        # record through process_keyed replaces a key's entry, not the table) and the
        # watermark (it moves between rows only) are read once a row
        sessions = self._merging_set_state._map
        watermark = self.current_watermark
        key = None
        try:
            for key, value, timestamp in zip(keys, values, stamps):
                if timestamp is None or value is None:
                    process_keyed(key, value, timestamp)
                    continue
                self.current_key = key
                if key.__class__ in as_is:
                    backend._key = stored_key = key
                else:
                    set_key(key)
                    stored_key = backend._key
                start, end = timestamp, timestamp + gap
                mapping = sessions.get(stored_key)
                hit = None
                if mapping is not None:
                    for window in mapping:
                        if window[0] <= end and window[1] >= start:
                            if hit is not None:
                                hit = False
                                break
                            hit = window
                if hit is not None:
                    if hit is False:
                        process_keyed(key, value, timestamp)
                        continue
                    low, high = hit
                    if start > low:
                        start = low
                    if end < high:
                        end = high
                if end - 1 <= watermark:
                    process_keyed(key, value, timestamp)
                    continue
                if hit is None:
                    window = state_window = new_window(TimeWindow, (start, end))
                    if mapping is None:
                        sessions[stored_key] = {window: window}
                    else:
                        mapping[window] = window
                    timed = False
                elif start == low and end == high:
                    window = hit
                    state_window = mapping[hit]
                    timed = False
                else:
                    window = new_window(TimeWindow, (start, end))
                    state_window = mapping.pop(hit)
                    mapping[window] = state_window
                    # EventTimeTrigger.on_merge registers the window's timer, its clear
                    # deletes the old window's; the on_element's register is then a no-op
                    move(key, window, end - 1, hit, high - 1)
                    timed = True
                    if lateness:                          # _delete_cleanup_timer
                        cleanup = high - 1 + lateness
                        if cleanup < MAX_WATERMARK:
                            delete(key, hit, cleanup)
                table = tables.get(state_window)
                if table is None:
                    table = tables[state_window] = {}
                if aggregating:
                    accumulator = table.get(stored_key)
                    accumulator = add_to(value, create() if accumulator is None
                                         else accumulator)
                    if accumulator is not None:
                        table[stored_key] = accumulator
                    else:
                        table.pop(stored_key, None)
                elif reducing:
                    current = table.get(stored_key)
                    if current is not None:
                        current = reduce(current, value)
                        if current is None:
                            del table[stored_key]
                        else:
                            table[stored_key] = current
                    else:
                        table[stored_key] = value
                else:   # HeapListState.add
                    stored = table.get(stored_key)
                    if stored is None:
                        table[stored_key] = [value]
                    else:
                        stored.append(value)
                if not table and table is not state._map:
                    del tables[state_window]   # as set_current_namespace drops it
                if not timed:
                    register(key, window, end - 1)        # EventTimeTrigger.on_element
                if lateness:                              # _register_cleanup_timer
                    cleanup = end - 1 + lateness
                    if cleanup < MAX_WATERMARK:
                        register(key, window, cleanup)
        except Exception as e:
            self.current_key = key
            raise self.user_error(e) from None

    def _process_event_time(self, value, timestamp) -> None:
        """_process for a non-merging event-time assigner with EventTimeTrigger, inlined."""
        tumbling = self._tumbling
        if tumbling is not None and timestamp is not None:
            size, offset = tumbling
            start = timestamp - (timestamp - offset + size) % size
            window = self._window_cache.get(start)
            if window is None:
                window = self._cached_window(start, start + size)
            max_timestamp = start + size - 1
            if max_timestamp > self.current_watermark and not self.allowed_lateness:
                # the usual element: its window is ahead of the watermark, no lateness
                state = self.window_state
                state.set_current_namespace(window)
                state.add(value)
                self._event_queue.register(self.current_key, window, max_timestamp)
                return
            windows = (window,)
            timestamp_or_min = timestamp
        else:
            timestamp_or_min = MIN_WATERMARK if timestamp is None else timestamp
            windows = self.assigner.assign_windows(value, timestamp_or_min,
                                                   self.assigner_context)
        watermark = self.current_watermark
        lateness = self.allowed_lateness
        state = self.window_state
        queue = self._event_queue
        key = self.current_key
        skipped = True
        for window in windows:
            max_timestamp = window.max_timestamp()
            cleanup = max_timestamp + lateness
            if cleanup > MAX_WATERMARK:
                cleanup = MAX_WATERMARK
            if cleanup <= watermark:
                continue  # late window
            skipped = False
            state.set_current_namespace(window)
            state.add(value)
            if max_timestamp <= watermark:
                # EventTimeTrigger: the watermark passed the window: fire now
                contents = self._contents()
                if contents is None:
                    continue
                self._emit(window, contents, timestamp)
            else:
                queue.register(key, window, max_timestamp)
            if cleanup != max_timestamp and cleanup != MAX_WATERMARK:
                queue.register(key, window, cleanup)
        if skipped:
            self._maybe_late(value, timestamp_or_min, timestamp)

    def process_keyed_stamped_many(self, keys, values, stamps) -> None:
        """process_keyed for a row's records, in one loop: _process_event_time's usual case
        (every window of the record ahead of the watermark: into each window's state, its
        timer registered) inline. Any other record (no timestamp, a window behind the
        watermark, no window at all) goes through process_keyed. The task calls it where
        prepare() left it (tumbling or sliding event-time windows, EventTimeTrigger, no
        allowed lateness).

        A window's timer is registered when the key's state in the window is new: with
        EventTimeTrigger and no allowed lateness, a key's state in a window and the
        window's timer are made together and go together (the timer's firing clears the
        state), so a key that has state in the window has its timer (Flink's
        WindowOperator registers per element; the queue would drop it as a duplicate).
        Tumbling windows on the heap backend with keys it stores as they are (the usual
        case: every record of a row of a monotonous source falls in the window of the
        record before) take _tumbling_heap_rows; the rest _stamped_rows."""
        size, slide, _ = self._aligned
        state = self.window_state
        if hasattr(state, "_ns") and None not in stamps:
            as_is = self.backend.keys_stored_as_is()
            if as_is and as_is.issuperset(map(type, keys)):
                if slide == size:
                    self._tumbling_heap_rows(keys, values, stamps)
                    return
                if type(state) in (HeapAggregatingState, HeapReducingState, HeapListState):
                    self._sliding_heap_rows(keys, values, stamps)
                    return
        self._stamped_rows(keys, values, stamps)

    def _tumbling_heap_rows(self, keys, values, stamps) -> None:
        """process_keyed_stamped_many for tumbling windows on a heap state, every key one
        the backend stores as it is and every record stamped: the record's window is worked
        out only when the record leaves the window of the record before, and the state's
        table of that window is kept at hand (an aggregate's or a reduce's state is folded,
        a process window's list appended to, here: the state's add inline)."""
        size, _, offset = self._aligned
        cache = self._window_cache
        new_window = self._cached_window
        watermark = self.current_watermark
        state = self.window_state
        set_namespace, add = state.set_current_namespace, state.add
        kind = type(state)
        aggregating, reducing = kind is HeapAggregatingState, kind is HeapReducingState
        listing = kind is HeapListState
        if aggregating:
            function = state.aggregate_function
            create, add_to = function.create_accumulator, function.add
        elif reducing:
            reduce = self._reduce_function()
        register = self._event_queue.register
        backend = self.backend
        process_keyed = self.process_keyed
        # [low, high): the window of the record before (none yet)
        low = high = 0
        window = table = max_timestamp = key = None
        try:
            for key, value, timestamp in zip(keys, values, stamps):
                if not low <= timestamp < high:
                    start = timestamp - (timestamp - offset + size) % size
                    if start + size - 1 <= watermark:
                        process_keyed(key, value, timestamp)   # late, or fires at once
                        low = high = 0   # process_keyed may have moved the namespace
                        continue
                    low, high = start, start + size
                    max_timestamp = high - 1
                    window = cache.get(start)
                    if window is None:
                        window = new_window(start, high)
                    set_namespace(window)
                    table = state._map
                if aggregating and value is not None:
                    accumulator = table.get(key)
                    if accumulator is None:
                        accumulator = add_to(value, create())
                        if accumulator is not None:
                            table[key] = accumulator
                        register(key, window, max_timestamp)
                        continue
                    accumulator = add_to(value, accumulator)
                    if accumulator is None:
                        del table[key]
                    else:
                        table[key] = accumulator
                elif reducing:
                    current = table.get(key)
                    if current is None:
                        if value is not None:
                            table[key] = value
                        register(key, window, max_timestamp)
                        continue
                    result = reduce(current, value)
                    if result is None:
                        del table[key]
                    else:
                        table[key] = result
                elif listing:   # HeapListState.add inline
                    stored = table.get(key)
                    if stored is None:
                        table[key] = [value]
                        register(key, window, max_timestamp)
                    else:
                        stored.append(value)
                else:
                    backend._key = key
                    new = key not in table
                    add(value)
                    if new:
                        register(key, window, max_timestamp)
        except Exception as e:
            self.current_key = key
            backend._key = key
            raise self.user_error(e) from None
        self.current_key = key
        backend._key = key

    def _sliding_heap_rows(self, keys, values, stamps) -> None:
        """process_keyed_stamped_many for sliding windows on a heap aggregating, reducing or
        list state, every key one the backend stores as it is and every record stamped: the
        record's windows, with their tables, are worked out only when the record leaves the
        span of time whose records have the same windows as the record before, and each is
        folded in its table (the state's add inline), in the assigner's order."""
        size, slide, offset = self._aligned
        cache = self._window_cache
        new_window = self._cached_window
        watermark = self.current_watermark
        state = self.window_state
        # the windows' tables, made where missing: held while the state's namespace stays
        # where it is (only set_current_namespace drops an empty table: the one it leaves)
        tables = state._tables
        aggregating = type(state) is HeapAggregatingState
        listing = type(state) is HeapListState
        if aggregating:
            function = state.aggregate_function
            create, add_to = function.create_accumulator, function.add
        elif not listing:
            reduce = self._reduce_function()
        register = self._event_queue.register
        backend = self.backend
        process_keyed = self.process_keyed
        # [low, high): the span of time whose records have the record before's windows;
        # `current`, those windows as (window, its table, its max timestamp), newest first
        low = high = 0
        current = ()
        key = None
        try:
            for key, value, timestamp in zip(keys, values, stamps):
                if not low <= timestamp < high:
                    last_start = timestamp - (timestamp - offset + slide) % slide
                    starts = range(last_start, timestamp - size, -slide)
                    if not starts or starts[-1] + size - 1 <= watermark:
                        # late, fires at once, or in no window
                        process_keyed(key, value, timestamp)
                        low = high = 0
                        tables = state._tables
                        continue
                    # the windows stay those of the span: from the latest start or the
                    # end of the window before the oldest, up to the next start or the
                    # oldest's end
                    oldest = starts[-1]
                    low = max(last_start, oldest - slide + size)
                    high = min(last_start + slide, oldest + size)
                    current = []
                    for start in starts:
                        window = cache.get(start)
                        if window is None:
                            window = new_window(start, start + size)
                        table = tables.get(window)
                        if table is None:
                            table = tables[window] = {}
                        current.append((window, table, start + size - 1))
                if aggregating:
                    if value is None:   # HeapAggregatingState.add(None) drops the state
                        for window, table, max_timestamp in current:
                            table.pop(key, None)
                            register(key, window, max_timestamp)
                        continue
                    for window, table, max_timestamp in current:
                        accumulator = table.get(key)
                        if accumulator is None:
                            accumulator = add_to(value, create())
                            if accumulator is not None:
                                table[key] = accumulator
                            register(key, window, max_timestamp)
                            continue
                        accumulator = add_to(value, accumulator)
                        if accumulator is None:
                            del table[key]
                        else:
                            table[key] = accumulator
                elif listing:   # HeapListState.add inline
                    for window, table, max_timestamp in current:
                        stored = table.get(key)
                        if stored is None:
                            table[key] = [value]
                            register(key, window, max_timestamp)
                        else:
                            stored.append(value)
                else:
                    for window, table, max_timestamp in current:
                        stored = table.get(key)
                        if stored is None:
                            if value is not None:
                                table[key] = value
                            register(key, window, max_timestamp)
                            continue
                        result = reduce(stored, value)
                        if result is None:
                            del table[key]
                        else:
                            table[key] = result
        except Exception as e:
            self.current_key = key
            backend._key = key
            raise self.user_error(e) from None
        self.current_key = key
        backend._key = key

    def _stamped_rows(self, keys, values, stamps) -> None:
        """process_keyed_stamped_many for any of its windows and backends: the state's
        namespace set only when the window changes, the key stored as the heap backend's
        set_current_key would store it (KeyedProcessOperator.process_keyed_many)."""
        size, slide, offset = self._aligned
        sliding = slide != size
        cache = self._window_cache
        new_window = self._cached_window
        watermark = self.current_watermark
        state = self.window_state
        set_namespace, add = state.set_current_namespace, state.add
        # a heap state's namespace is its _ns; other backends' states are told every time
        heap_namespace = hasattr(state, "_ns")
        # an aggregate()'s heap state: HeapAggregatingState.add inline, on the window's table
        aggregating = type(state) is HeapAggregatingState
        if aggregating:
            function = state.aggregate_function
            create, add_to = function.create_accumulator, function.add
        queue = self._event_queue
        register, registered = queue.register, queue.registered_timers
        backend = self.backend
        set_key = self._set_key
        # the inline path below is for a heap backend's usual keys and states
        as_is = backend.keys_stored_as_is() if heap_namespace else frozenset()
        process_keyed = self.process_keyed
        key = None
        try:
            for key, value, timestamp in zip(keys, values, stamps):
                if timestamp is None:
                    process_keyed(key, value, timestamp)
                    continue
                last_start = timestamp - (timestamp - offset + slide) % slide
                if sliding:
                    # the record's windows, newest first (as the assigner lists them); the
                    # oldest ends first
                    starts = range(last_start, timestamp - size, -slide)
                    if not starts or starts[-1] + size - 1 <= watermark:
                        process_keyed(key, value, timestamp)
                        continue
                elif last_start + size - 1 <= watermark:
                    process_keyed(key, value, timestamp)   # late, or fires at once
                    continue
                else:
                    starts = (last_start,)
                if key.__class__ in as_is:
                    backend._key = key
                    for start in starts:
                        window = cache.get(start)
                        if window is None:
                            window = new_window(start, start + size)
                        if window is not state._ns:
                            set_namespace(window)
                        if aggregating and value is not None:
                            table = state._map
                            accumulator = table.get(key)
                            if accumulator is None:
                                accumulator = add_to(value, create())
                                if accumulator is not None:
                                    table[key] = accumulator
                                register(key, window, start + size - 1)
                                continue
                            accumulator = add_to(value, accumulator)
                            if accumulator is None:
                                del table[key]
                            else:
                                table[key] = accumulator
                        else:
                            new = key not in state._map
                            add(value)
                            if new:
                                register(key, window, start + size - 1)
                else:
                    set_key(key)
                    for start in starts:
                        window = cache.get(start)
                        if window is None:
                            window = new_window(start, start + size)
                        if not heap_namespace or window is not state._ns:
                            set_namespace(window)
                        add(value)
                        max_timestamp = start + size - 1
                        if (max_timestamp, key, window) not in registered:
                            register(key, window, max_timestamp)
        except Exception as e:
            self.current_key = key
            raise self.user_error(e) from None
        self.current_key = key

    def _process_processing_time(self, value, timestamp) -> None:
        """_process for tumbling processing-time windows with ProcessingTimeTrigger, inlined:
        the window of the current processing time takes the element, and the window's one
        timer (the trigger's, which is also the cleanup timer) is registered. Such a window
        is never late."""
        size, offset = self._processing_tumbling
        now = self.timers.current_processing_time()
        start = now - (now - offset + size) % size
        window = self._window_cache.get(start)
        if window is None:
            window = self._cached_window(start, start + size)
        self.trigger_context.window = window
        state = self.window_state
        state.set_current_namespace(window)
        state.add(value)
        self.timers.processing_time.register(self.current_key, window, start + size - 1)

    def _process_count_tumbling(self, value, timestamp) -> None:
        """_process for count_window(size) (CountTumblingWindowAssigner) with a CountTrigger,
        inlined: the assigner's count of the key's elements numbers the element's window,
        the element goes into the window's contents, the trigger's count in the window
        grows and, at the trigger's size, restarts and the window fires (FIRE: the contents
        stay, as with PyFlink's CountTrigger). A count window never ends (its max timestamp
        is Long.MAX_VALUE), so no cleanup timer; the states are the ones the assigner and
        the trigger use, made in the same order. Where the trigger's count is the
        assigner's (_count_states), it is not written here: the window fires at the
        assigner's count."""
        assigner = self.assigner
        counter, fired, derived = self._count_states()
        count = counter.value() or 0
        counter.update(count + 1)
        size = assigner._window_size
        window = CountWindow(count // size)
        state = self.window_state
        state.set_current_namespace(window)
        state.add(value)
        if derived:
            self._trigger_counts_stale = True
            if count % size != size - 1:
                return
        else:
            fired.set_current_namespace(window)
            fired.add(1)
            if fired.get() < self.trigger._window_size:
                return
            fired.clear()
        contents = self._contents()
        if contents is not None:
            self._emit(window, contents, timestamp)

    def _count_states(self):
        """(the assigner's count state, the trigger's count state, whether the trigger's
        count is left to the assigner's).

        With count_window(size)'s own CountTrigger (of the windows' size) on the heap
        backend, a key's trigger count is a function of its assigner count c: the key's
        window c // size holds c % size elements since its last firing (none when that is
        0: the firing cleared it) and its earlier windows none. So the count paths keep
        the assigner's count only (no look-up, read and write of the trigger's table a
        record: ~1.4k instructions of ~7.7k, benchmarks/RESULTS.md) and fire at it; the
        trigger's state is written from the assigner's (_write_trigger_counts) before it is
        read: a snapshot, the general path. That holds while the two counts went in step,
        as every path moves them; a state restored out of step (another trigger size
        before) keeps the trigger's own count, checked once (_trigger_counts_in_step)."""
        backend = self.backend
        counter = backend.get_partitioned_state(self.assigner._count_descriptor)
        fired = backend.get_partitioned_state(self.trigger._count_state_descriptor)
        derived = self._trigger_counts_derived
        if derived is None:
            derived = self._trigger_counts_derived = (
                self.trigger._window_size == self.assigner._window_size
                and type(counter) is HeapValueState and counter._ns is VOID_NAMESPACE
                and type(fired) is HeapReducingState
                and self._trigger_counts_in_step(counter, fired))
        return counter, fired, derived

    def _derived_trigger_counts(self, counter) -> dict:
        """The trigger's count tables as the assigner's counts give them: window -> key ->
        count, for the keys whose window holds elements since its last firing."""
        size = self.assigner._window_size
        derived: dict = {}
        for key, count in counter._map.items():
            remainder = count % size
            if remainder:
                window = CountWindow(count // size)
                table = derived.get(window)
                if table is None:
                    table = derived[window] = {}
                table[key] = remainder
        return derived

    def _trigger_counts_in_step(self, counter, fired) -> bool:
        tables = {namespace: table for namespace, table in fired._tables.items() if table}
        return tables == self._derived_trigger_counts(counter)

    def _write_trigger_counts(self) -> None:
        """The trigger's count state written from the assigner's counts (_count_states), in
        place: its tables' objects stay, as its current namespace's does."""
        self._trigger_counts_stale = False
        backend = self.backend
        counter = backend.get_partitioned_state(self.assigner._count_descriptor)
        fired = backend.get_partitioned_state(self.trigger._count_state_descriptor)
        tables, current = fired._tables, fired._map
        for namespace in [n for n in tables if n.__class__ is CountWindow]:
            table = tables[namespace]
            table.clear()
            if table is not current:
                del tables[namespace]
        for window, counts in self._derived_trigger_counts(counter).items():
            table = tables.get(window)
            if table is None:
                tables[window] = counts
            else:
                table.update(counts)

    def snapshot_state(self, context) -> dict:
        if self._trigger_counts_stale:
            self._write_trigger_counts()
        return super().snapshot_state(context)

    def restore_state(self, parts, context) -> None:
        super().restore_state(parts, context)
        # the restored counts may be out of step: _count_states checks them again
        self._trigger_counts_derived = None
        self._trigger_counts_stale = False

    def _count_rows(self, keys, values, stamps=None) -> None:
        """process_keyed_many and process_keyed_stamped_many for count_window(size) with a
        CountTrigger (prepare): _process_count_tumbling in one loop, on the heap backend
        with its states' tables read and written inline (the assigner's count in its
        table, the element folded into its window's contents, the trigger's count
        incremented as its reducing state's add would, removed at the trigger's size as its
        clear would, unless it is left to the assigner's: _count_states). A window's
        tables are looked up once a row while no firing or other path intervenes. Elsewhere
        (another backend) and for None values (which the states treat apart), records go
        through process_keyed."""
        process_keyed = self.process_keyed
        if stamps is None:
            stamps = repeat(None)
        backend = self.backend
        state = self.window_state
        kind = type(state)
        if self._element_logic != self._process_count_tumbling \
                or kind not in (HeapAggregatingState, HeapReducingState, HeapListState):
            for key, value, timestamp in zip(keys, values, stamps):
                process_keyed(key, value, timestamp)
            return
        counter, fired, derived = self._count_states()
        if type(counter) is not HeapValueState or counter._ns is not VOID_NAMESPACE \
                or type(fired) is not HeapReducingState:
            for key, value, timestamp in zip(keys, values, stamps):
                process_keyed(key, value, timestamp)
            return
        aggregating, reducing = kind is HeapAggregatingState, kind is HeapReducingState
        if aggregating:
            function = state.aggregate_function
            create, add_to = function.create_accumulator, function.add
        elif reducing:
            reduce = self._reduce_function()
        as_is = backend.keys_stored_as_is()
        set_key = self._set_key
        counts = counter._map
        size, fire_at = self.assigner._window_size, self.trigger._window_size
        last = size - 1
        tables, fired_tables = state._tables, fired._tables
        windows = self._window_cache
        # window number -> [window, its contents' table, its trigger counts' table]: looked
        # up once, until a firing or a record on another path may drop or make tables
        held = {}
        if derived:
            self._trigger_counts_stale = True
        key = stored_key = None
        try:
            for key, value, timestamp in zip(keys, values, stamps):
                if value is None:
                    process_keyed(key, value, timestamp)
                    held.clear()
                    continue
                if key.__class__ in as_is:
                    stored_key = key
                else:
                    set_key(key)
                    stored_key = backend._key
                count = counts.get(stored_key) or 0
                counts[stored_key] = count + 1
                number = count // size
                entry = held.get(number)
                if entry is None:
                    window = windows.get(number)
                    if window is None or window.__class__ is not CountWindow:
                        window = CountWindow(number)
                        if len(windows) >= 4096:
                            windows.clear()
                        windows[number] = window
                    table = tables.get(window)
                    if table is None:
                        table = tables[window] = {}
                    entry = held[number] = [window, table, None]
                else:
                    table = entry[1]
                if aggregating:
                    accumulator = table.get(stored_key)
                    accumulator = add_to(value, create() if accumulator is None
                                         else accumulator)
                    if accumulator is not None:
                        table[stored_key] = accumulator
                    else:
                        table.pop(stored_key, None)
                        if not table and table is not state._map:
                            del tables[entry[0]]   # as set_current_namespace drops it
                            del held[number]
                elif reducing:
                    current = table.get(stored_key)
                    if current is not None:
                        current = reduce(current, value)
                        if current is None:
                            del table[stored_key]
                            if not table and table is not state._map:
                                del tables[entry[0]]
                                del held[number]
                        else:
                            table[stored_key] = current
                    else:
                        table[stored_key] = value
                else:   # HeapListState.add
                    stored = table.get(stored_key)
                    if stored is None:
                        table[stored_key] = [value]
                    else:
                        stored.append(value)
                if derived:
                    if count % size != last:
                        continue
                    window = entry[0]
                else:
                    window = entry[0]
                    fired_table = entry[2]
                    if fired_table is None:
                        fired_table = fired_tables.get(window)
                        if fired_table is None:
                            fired_table = fired_tables[window] = {}
                        entry[2] = fired_table
                    number = fired_table.get(stored_key)
                    number = 1 if number is None else number + 1   # CountTrigger's sum
                    if number < fire_at:
                        fired_table[stored_key] = number
                        continue
                    fired_table.pop(stored_key, None)
                    if not fired_table and fired_table is not fired._map:
                        del fired_tables[window]
                # the window fires: the key current, as _emit reads it
                self.current_key = key
                backend._key = stored_key
                state.set_current_namespace(window)
                contents = self._contents()
                if contents is not None:
                    self._emit(window, contents, timestamp)
                held.clear()
        except Exception as e:
            self.current_key = key
            if stored_key is not None:
                backend._key = stored_key
            raise self.user_error(e) from None
        self.current_key = key
        if stored_key is not None:
            backend._key = stored_key

    def _reduce_function(self):
        """The window contents' reduce function as the row loops call it on a heap reducing
        state (made from window_state_descriptor): the user's own function where the API
        wrapped a plain one (a Python call less a record), else its bound reduce."""
        return per_record_callable(self.window_state_descriptor.get_reduce_function(),
                                   "reduce")

    def _cached_window(self, start: int, end: int):
        cache = self._window_cache
        if len(cache) >= 4096:
            cache.clear()
        window = cache[start] = TimeWindow(start, end)
        return window

    def _maybe_late(self, value, ts: int, timestamp) -> None:
        """An element no window took: late data if it is behind the watermark by more than
        the allowed lateness (a late-data side output gets it, else it is dropped)."""
        if self.is_event_time and ts + self.allowed_lateness <= self.current_watermark:
            if self.late_tag_id is not None:
                self.output.collect_side(self.late_tag_id, value, timestamp)
            else:
                self.late_records_dropped.inc()

    # -- timers -----------------------------------------------------------------------------

    def _fire(self, due, domain: TimeDomain) -> None:
        timestamp, key, window = due
        self.current_key = key
        self._set_key(key)
        self.call_user(self._timer_logic, timestamp, window, domain is TimeDomain.EVENT_TIME)

    def _fire_round(self, due, domain: TimeDomain) -> None:
        """KeyedProcessOperator._fire_round; a round of event-time timers of windows
        without allowed lateness under EventTimeTrigger fires in one loop
        (_fire_windows)."""
        if domain is TimeDomain.EVENT_TIME \
                and self._timer_logic == self._on_event_timer_no_lateness:
            self._fire_windows(due)
        elif domain is TimeDomain.EVENT_TIME and self._timer_logic == self._on_session_timer:
            self._fire_sessions(due)
        else:
            super()._fire_round(due, domain)

    def _fire_sessions(self, due) -> None:
        """_fire with _on_session_timer for each of a round's timers, in one loop, as
        _fire_windows fires tumbling and sliding windows: the key stored as the heap
        backend's set_current_key would store it, an aggregate's or a reduce's contents read
        in the session's state window's table, the shim's pass-through window function and
        the internal functions' empty clear() skipped. The same calls of the user's
        functions, in the same order."""
        state = self.window_state
        sessions_state = self._merging_set_state
        kind = type(state)
        aggregating, reducing = kind is HeapAggregatingState, kind is HeapReducingState
        get_result = state._result if aggregating else None
        set_namespace = state.set_current_namespace
        function = self.function
        process, clear_function = function.process, function.clear
        passes_through = type(function) is InternalSingleValueWindowFunction and \
            type(function._wrapped_function) is PassThroughWindowFunction
        clears = type(function).clear is not InternalSingleValueWindowFunction.clear
        context, trigger_context = self.window_context, self.trigger_context
        output = self.output
        backend = self.backend
        set_key = self._set_key
        as_is = backend.keys_stored_as_is()
        delete = self._event_queue.delete
        lateness = self.allowed_lateness
        bulk = passes_through and output.takes_stamped_in_bulk()   # see _fire_windows
        if bulk:
            values, stamps = [], []
            add_value, add_stamp = values.append, stamps.append
        try:
            for timestamp, key, window in due:
                self.current_key = key
                if key.__class__ in as_is:
                    backend._key = stored_key = key
                else:
                    set_key(key)
                    stored_key = backend._key
                sessions = sessions_state._map
                mapping = sessions.get(stored_key)
                state_window = mapping.get(window) if mapping is not None else None
                if state_window is None:
                    continue   # a window merged away: its state is gone already
                trigger_context.window = window
                set_namespace(state_window)
                max_timestamp = window[1] - 1
                if timestamp == max_timestamp:   # EventTimeTrigger.on_event_time: FIRE
                    if aggregating or reducing:
                        contents = state._map.get(stored_key)
                        if aggregating and contents is not None:
                            contents = get_result(contents)
                    else:
                        contents = self._contents()
                    if contents is None:
                        pass
                    elif bulk:
                        add_value(contents)
                        add_stamp(timestamp)
                    else:
                        if passes_through:
                            results = (contents,)
                        else:
                            context.window = window
                            results = process(key, window, context, contents)
                        if results is not None:
                            if output.routes_side_outputs:
                                emit_results(results, output, timestamp)
                            else:
                                output.collect_many(results, timestamp)
                cleanup = max_timestamp + lateness
                if cleanup > MAX_WATERMARK:
                    cleanup = MAX_WATERMARK
                if timestamp == cleanup:
                    state.clear()
                    delete(key, window, max_timestamp)   # EventTimeTrigger.clear
                    if clears:
                        context.window = window
                        clear_function(window, context)
                    del mapping[window]
                    if not mapping:
                        del sessions[stored_key]
            if bulk and values:
                output.collect_stamped(values, stamps)
        except Exception as e:
            raise self.user_error(e) from None

    def _fire_windows(self, due) -> None:
        """_fire with _on_event_timer_no_lateness for each of a round's timers, in one loop:
        the key stored as the heap backend's set_current_key would store it, the state's
        namespace set only when the window changes, what the window function returns sent
        on as _emit sends it. The same calls of the user's functions, in the same order.

        On the heap backend an aggregate's or a reduce's contents are read and cleared in
        the window's table (HeapAggregatingState.get and clear inline), and where the window
        function is the shim's own pass-through (reduce() or aggregate() without a window
        function) the contents go on as the one result without its frames, nor a call of
        its clear(), which does nothing."""
        state = self.window_state
        heap_namespace = hasattr(state, "_ns")
        set_namespace, get, clear = state.set_current_namespace, state.get, state.clear
        kind = type(state)
        aggregating, reducing = kind is HeapAggregatingState, kind is HeapReducingState
        get_result = state._result if aggregating else None
        list_contents = self._list_contents
        function = self.function
        process, clear_function = function.process, function.clear
        passes_through = type(function) is InternalSingleValueWindowFunction and \
            type(function._wrapped_function) is PassThroughWindowFunction
        # the internal functions' clear() does nothing unless a process window function's
        # (InternalSingleValueWindowFunction inherits that empty one)
        clears = type(function).clear is not InternalSingleValueWindowFunction.clear
        context, trigger_context = self.window_context, self.trigger_context
        output = self.output
        backend = self.backend
        set_key = self._set_key
        as_is = backend.keys_stored_as_is() if heap_namespace else frozenset()
        # the round's results held and sent on in one call after it, where the output's
        # target runs no user function (output.py takes_stamped_in_bulk): ~6.5k
        # instructions a window less (window_aggregate, callgrind)
        bulk = passes_through and output.takes_stamped_in_bulk()
        if bulk:
            values, stamps = [], []
            add_value, add_stamp = values.append, stamps.append
        try:
            for timestamp, key, window in due:
                self.current_key = key
                if key.__class__ in as_is:
                    backend._key = stored_key = key
                else:
                    set_key(key)
                    stored_key = backend._key if heap_namespace else None
                trigger_context.window = window
                if not heap_namespace or window is not state._ns:
                    set_namespace(window)
                if timestamp != (window[1] - 1 if window.__class__ is TimeWindow
                                 else window.max_timestamp()):
                    continue   # on_event_time: CONTINUE, and not the cleanup time
                if aggregating or reducing:
                    contents = state._map.pop(stored_key, None)
                    if aggregating and contents is not None:
                        contents = get_result(contents)
                else:
                    contents = get()
                    if list_contents and not contents:
                        contents = None
                if contents is not None:
                    if bulk:
                        add_value(contents)
                        add_stamp(timestamp)
                    else:
                        if passes_through:
                            results = (contents,)
                        else:
                            context.window = window
                            results = process(key, window, context, contents)
                        if results is not None:
                            if output.routes_side_outputs:
                                emit_results(results, output, timestamp)
                            else:
                                output.collect_many(results, timestamp)
                if not (aggregating or reducing):
                    clear()
                if clears:
                    context.window = window
                    clear_function(window, context)
            if bulk and values:
                output.collect_stamped(values, stamps)
        except Exception as e:
            raise self.user_error(e) from None

    def _on_event_timer_no_lateness(self, timestamp: int, window, event_time: bool) -> None:
        """_on_timer for EventTimeTrigger on windows that do not merge, without allowed
        lateness (prepare): the trigger fires at the window's max timestamp, which is the
        window's cleanup time too, so the firing clears its state. EventTimeTrigger.clear
        would delete the timer at that max timestamp: the one firing, which its round took
        off the queue (_fire_round), so there is nothing to delete."""
        if not event_time:
            self._on_timer(timestamp, window, event_time)
            return
        self.trigger_context.window = window
        state = self.window_state
        state.set_current_namespace(window)
        max_timestamp = window.max_timestamp()
        if timestamp != max_timestamp:
            return   # on_event_time: CONTINUE, and not the cleanup time
        contents = self._contents()
        if contents is not None:
            self._emit(window, contents, timestamp)
        state.clear()
        context = self.window_context
        context.window = window
        self.function.clear(window, context)

    def _on_session_timer(self, timestamp: int, window, event_time: bool) -> None:
        """_on_timer for the windows of _process_session: the window's state window read in
        the key's merging window set's dict, EventTimeTrigger's on_event_time and clear
        inline, the window retired in place."""
        if not event_time:
            self._on_timer(timestamp, window, event_time)
            return
        sessions = self._merging_set_state._map
        stored_key = self.backend._key
        mapping = sessions.get(stored_key)
        state_window = mapping.get(window) if mapping is not None else None
        if state_window is None:
            # A timer of a window merged away whose trigger did not delete it: the
            # window's state is gone already.
            return
        self.trigger_context.window = window
        state = self.window_state
        state.set_current_namespace(state_window)
        max_timestamp = window[1] - 1
        if timestamp == max_timestamp:   # EventTimeTrigger.on_event_time: FIRE
            contents = self._contents()
            if contents is not None:
                self._emit(window, contents, timestamp)
        if timestamp == self._cleanup_time(window):
            state.clear()
            self._event_queue.delete(self.current_key, window, max_timestamp)
            context = self.window_context
            context.window = window
            self.function.clear(window, context)
            del mapping[window]
            if not mapping:
                del sessions[stored_key]

    def _on_timer(self, timestamp: int, window, event_time: bool) -> None:
        ctx = self.trigger_context
        ctx.window = window
        state = self.window_state
        merging_set = None
        if self.merging:
            merging_set = self._merging_set()
            state_window = merging_set.get_state_window(window)
            if state_window is None:
                # A timer of a window merged away whose trigger did not delete it: the
                # window's state is gone already.
                return
            state.set_current_namespace(state_window)
        else:
            state.set_current_namespace(window)
        if event_time:
            result = self.trigger.on_event_time(timestamp, window, ctx)
        else:
            result = self.trigger.on_processing_time(timestamp, window, ctx)
        if result is not _CONTINUE:
            if result is _FIRE or result is _FIRE_AND_PURGE:
                contents = self._contents()
                if contents is not None:
                    self._emit(window, contents, timestamp if event_time else None)
            if result is _PURGE or result is _FIRE_AND_PURGE:
                state.clear()
        if event_time == self.is_event_time and timestamp == self._cleanup_time(window):
            self._clear_all_state(window, merging_set)
        if merging_set is not None:
            merging_set.persist()

    # -- helpers ----------------------------------------------------------------------------

    def _merging_set(self) -> MergingWindowSet:
        return MergingWindowSet(self.assigner, self._merging_set_state)

    def _merge(self, merge_result, merged_windows, state_window, merged_state_windows) -> None:
        """MergingWindowSet's callback: windows merged into ``merge_result``."""
        if self.is_event_time:
            if merge_result.max_timestamp() + self.allowed_lateness <= self.current_watermark:
                raise Exception(
                    "The end timestamp of an event-time window cannot become earlier than the "
                    "current watermark by merging. Current watermark: %d window: %s"
                    % (self.current_watermark, merge_result))
        else:
            now = self.timers.current_processing_time()
            if merge_result.max_timestamp() <= now:
                raise Exception(
                    "The end timestamp of a processing-time window cannot become earlier than "
                    "the current processing time by merging. Current processing time: %d "
                    "window: %s" % (now, merge_result))
        ctx = self.trigger_context
        ctx.window = merge_result
        ctx.merged_windows = merged_windows
        try:
            self.trigger.on_merge(merge_result, ctx)
        finally:
            ctx.merged_windows = None
        for window in merged_windows:
            ctx.window = window
            self.trigger.clear(window, ctx)
            self._delete_cleanup_timer(window)
        if merged_state_windows:
            self.window_state.merge_namespaces(state_window, merged_state_windows)

    def _contents(self):
        contents = self.window_state.get()
        if self._list_contents and not contents:
            return None
        return contents

    def _emit(self, window, contents, timestamp) -> None:
        context = self.window_context
        context.window = window
        emit_results(self.function.process(self.current_key, window, context, contents),
                     self.output, timestamp)

    def _cleanup_time(self, window) -> int:
        if self.is_event_time:
            return min(window.max_timestamp() + self.allowed_lateness, MAX_WATERMARK)
        return window.max_timestamp()

    def _is_window_late(self, window) -> bool:
        return self.is_event_time and \
            self._cleanup_time(window) <= self.current_watermark

    def _register_cleanup_timer(self, window) -> None:
        time = self._cleanup_time(window)
        if time == MAX_WATERMARK:
            return  # never: e.g. GlobalWindow, whose state lives until the end
        queue = self.timers.event_time if self.is_event_time else self.timers.processing_time
        queue.register(self.current_key, window, time)

    def _delete_cleanup_timer(self, window) -> None:
        time = self._cleanup_time(window)
        if time == MAX_WATERMARK:
            return
        queue = self.timers.event_time if self.is_event_time else self.timers.processing_time
        queue.delete(self.current_key, window, time)

    def _clear_all_state(self, window, merging_set) -> None:
        self.window_state.clear()
        ctx = self.trigger_context
        ctx.window = window
        self.trigger.clear(window, ctx)
        context = self.window_context
        context.window = window
        self.function.clear(window, context)
        if merging_set is not None:
            merging_set.retire_window(window)
