"""The broadcast-state primitives: BroadcastProcessFunction (non-keyed) and
KeyedBroadcastProcessFunction (keyed: KeyedProcessOperator plus a broadcast input).

Input 1 is the non-broadcast stream, input 2 the broadcast one (as in Flink). Every parallel
instance receives every broadcast element; the graph compiler orders the broadcast input's
rows first, so each instance reads the whole broadcast input (in the same order everywhere)
before its first non-broadcast element: "rules first, then events" (see
docs/compatibility.md). The broadcast side reads and writes the broadcast states; the other
side and on_timer get read-only views.
"""
from __future__ import annotations

from pyflink_on_spark.datastream.functions import (
    BroadcastProcessFunction, KeyedBroadcastProcessFunction)
from pyflink_on_spark.datastream.state import MapStateDescriptor
from pyflink_on_spark.datastream.timerservice import TimerService
from pyflink_on_spark.runtime.operators.base import Operator, emit_results
from pyflink_on_spark.runtime.operators.keyed_process import (
    KeyedContext, KeyedProcessOperator)
from pyflink_on_spark.runtime.operators.process import NonKeyedTimerService
from pyflink_on_spark.runtime.watermarks import MIN_WATERMARK
from pyflink_on_spark.runtime.state.operator_state import HeapOperatorStateStore


class _BroadcastContextBase:
    """timestamp / current_processing_time / current_watermark / timer_service of both sides."""

    __slots__ = ()

    def timestamp(self) -> int:
        ts = self._timestamp
        return MIN_WATERMARK if ts is None else ts

    def current_processing_time(self) -> int:
        return self._operator.task.clock()

    def current_watermark(self) -> int:
        return self._operator.current_watermark

    def timer_service(self) -> TimerService:
        return self._timer_service


class BroadcastSideContext(_BroadcastContextBase, BroadcastProcessFunction.Context,
                           KeyedBroadcastProcessFunction.Context):
    """process_broadcast_element's context: read/write broadcast state."""

    __slots__ = ("_timestamp", "_operator", "_timer_service", "_store")

    def __init__(self, operator, timer_service, store: HeapOperatorStateStore):
        self._timestamp = None
        self._operator = operator
        self._timer_service = timer_service
        self._store = store

    def get_broadcast_state(self, state_descriptor: MapStateDescriptor):
        return self._store.get_broadcast_state(state_descriptor)


class ReadOnlySideContext(_BroadcastContextBase, BroadcastProcessFunction.ReadOnlyContext):
    """BroadcastProcessFunction.process_element's context: read-only broadcast state."""

    __slots__ = ("_timestamp", "_operator", "_timer_service", "_store")

    def __init__(self, operator, timer_service, store: HeapOperatorStateStore):
        self._timestamp = None
        self._operator = operator
        self._timer_service = timer_service
        self._store = store

    def get_broadcast_state(self, state_descriptor: MapStateDescriptor):
        return self._store.get_read_only_broadcast_state(state_descriptor)


class BroadcastProcessOperator(Operator):
    """Runs a BroadcastProcessFunction (non-keyed input 1, broadcast input 2)."""

    alternates_inputs = False   # the broadcast input is read first, completely

    def __init__(self, function: BroadcastProcessFunction) -> None:
        super().__init__()
        self.function = function
        self.broadcast_states = HeapOperatorStateStore()

    def prepare(self) -> None:
        timers = NonKeyedTimerService(self)
        self.process_element = self._input(
            ReadOnlySideContext(self, timers, self.broadcast_states),
            self.function.process_element)
        self.process_element2 = self._input(
            BroadcastSideContext(self, timers, self.broadcast_states),
            self.function.process_broadcast_element)

    def _input(self, ctx, user_process):
        output = self.output
        user_error = self.user_error

        def process_element(value, timestamp):
            ctx._timestamp = timestamp
            try:
                emit_results(user_process(value, ctx), output, timestamp)
            except Exception as e:   # inline rather than call_user: the per-record path
                raise user_error(e) from None
        return process_element


class _BroadcastSideTimerService(TimerService):
    """The broadcast side of a keyed broadcast function has no current key: it may read the
    clocks but not register timers (Flink's broadcast Context has no timer service)."""

    def __init__(self, keyed: TimerService):
        self._keyed = keyed

    def current_processing_time(self):
        return self._keyed.current_processing_time()

    def current_watermark(self):
        return self._keyed.current_watermark()

    def _no_key(self, *args):
        raise RuntimeError(
            "Timers cannot be registered or deleted in process_broadcast_element: a broadcast "
            "element has no key. Register them in process_element or on_timer.")

    register_processing_time_timer = register_event_time_timer = _no_key
    delete_processing_time_timer = delete_event_time_timer = _no_key


class KeyedBroadcastContext(KeyedContext, KeyedBroadcastProcessFunction.OnTimerContext):
    """process_element's and on_timer's context of a KeyedBroadcastProcessFunction: the key,
    timers and read-only broadcast state."""

    __slots__ = ()

    def current_processing_time(self) -> int:
        return self._operator.task.clock()

    def current_watermark(self) -> int:
        return self._operator.current_watermark

    def get_broadcast_state(self, state_descriptor: MapStateDescriptor):
        return self._operator.broadcast_states.get_read_only_broadcast_state(state_descriptor)


class KeyedBroadcastProcessOperator(KeyedProcessOperator):
    """Runs a KeyedBroadcastProcessFunction: input 1 keyed (state, timers), input 2 broadcast."""

    alternates_inputs = False   # the broadcast input is read first, completely

    def __init__(self, function: KeyedBroadcastProcessFunction, key_selector,
                 batch_key_order=None) -> None:
        super().__init__(function, key_selector, batch_key_order)
        self.broadcast_states = HeapOperatorStateStore()

    def _make_context(self, timer_service) -> KeyedContext:
        self._broadcast_ctx = BroadcastSideContext(
            self, _BroadcastSideTimerService(timer_service), self.broadcast_states)
        return KeyedBroadcastContext(self, timer_service)

    def _bind_user_functions(self) -> None:
        self._user_process = self.function.process_element
        self._user_broadcast = self.function.process_broadcast_element

    def process_element2(self, value, timestamp) -> None:
        ctx = self._broadcast_ctx
        ctx._timestamp = timestamp
        self.call_user(self._emit_broadcast, value, ctx, timestamp)

    def _emit_broadcast(self, value, ctx, timestamp) -> None:
        emit_results(self._user_broadcast(value, ctx), self.output, timestamp)
