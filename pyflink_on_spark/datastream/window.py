"""Windows, window assigners and triggers (mirror of pyflink.datastream.window, PyFlink 1.20).

These are the pluggable parts of the one window operator (pyflink_on_spark/runtime/window):
an assigner puts each element into windows, a trigger decides when a window is evaluated
(and purged), as in Flink's WindowOperator.

Windows are immutable values. TimeWindow and CountWindow are tuple subclasses so that the
engine can use them as state namespaces and timer keys at C speed; they compare and sort as
PyFlink's do. Their ``hash()`` differs from PyFlink's (which is only observable as the
iteration order of Python sets of windows; the merging of session windows reproduces
PyFlink's order explicitly, see ``TimeWindow.merge_windows``).
"""
from __future__ import annotations

import math
import struct
from abc import ABC, abstractmethod
from enum import Enum
from io import BytesIO
from operator import itemgetter
from typing import Any, Collection, Generic, Iterable, List, Optional, TypeVar

from pyflink_on_spark.common.constants import MAX_LONG_VALUE, MIN_LONG_VALUE
from pyflink_on_spark.common.serializer import TypeSerializer
from pyflink_on_spark.common.time import Time
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.functions import (
    InternalWindowFunction, ReduceFunction, RuntimeContext)
from pyflink_on_spark.datastream.output_tag import OutputTag
from pyflink_on_spark.datastream.state import (
    ReducingState, ReducingStateDescriptor, State, StateDescriptor, ValueStateDescriptor)

__all__ = ['Window',
           'TimeWindow',
           'CountWindow',
           'GlobalWindow',
           'WindowAssigner',
           'TumblingProcessingTimeWindows',
           'TumblingEventTimeWindows',
           'SlidingProcessingTimeWindows',
           'SlidingEventTimeWindows',
           'ProcessingTimeSessionWindows',
           'EventTimeSessionWindows',
           'DynamicProcessingTimeSessionWindows',
           'DynamicEventTimeSessionWindows',
           'GlobalWindows',
           'MergingWindowAssigner',
           'CountTumblingWindowAssigner',
           'CountSlidingWindowAssigner',
           'TriggerResult',
           'Trigger',
           'EventTimeTrigger',
           'ProcessingTimeTrigger',
           'ContinuousEventTimeTrigger',
           'ContinuousProcessingTimeTrigger',
           'NeverTrigger',
           'PurgingTrigger',
           'CountTrigger',
           'TimeWindowSerializer',
           'CountWindowSerializer',
           'GlobalWindowSerializer',
           'SessionWindowTimeGapExtractor']

T = TypeVar('T')
W = TypeVar('W')
W2 = TypeVar('W2')

_NO_TIMESTAMP_MESSAGE = (
    "Record has Java Long.MIN_VALUE timestamp (= no timestamp marker). Is the time "
    "characteristic set to 'ProcessingTime', or did you forget to call "
    "'data_stream.assign_timestamps_and_watermarks(...)'?")


def long_to_int_with_bit_mixing(x: int) -> int:
    """PyFlink's bit mixing of a long (CountWindow's hash there); unbounded Python ints."""
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
    x = (x ^ (x >> 27)) * 0x94d049bb133111eb
    return x ^ (x >> 31)


def mod_inverse(x: int) -> int:
    """Newton iteration for the inverse of an odd x modulo 2**64 (unbounded Python ints, as
    in PyFlink, where it feeds TimeWindow's hash)."""
    inverse = x * x * x
    for _ in range(3):
        inverse *= 2 - x * inverse
    return inverse


# ---------------------------------------------------------------------------------------------
# Windows
# ---------------------------------------------------------------------------------------------

class Window(ABC):
    """A grouping of elements into finite buckets. ``max_timestamp`` is the largest
    timestamp that still belongs to the window."""

    __slots__ = ()

    @abstractmethod
    def max_timestamp(self) -> int:
        pass


class TimeWindow(tuple, Window):
    """A window covering the time interval [start, end)."""

    __slots__ = ()

    def __new__(cls, start: int, end: int):
        return tuple.__new__(cls, (start, end))

    def __init__(self, start: int, end: int):
        pass

    start = property(itemgetter(0), doc="The start of the window (inclusive).")
    end = property(itemgetter(1), doc="The end of the window (exclusive).")

    def __getnewargs__(self):
        return tuple(self)

    def max_timestamp(self) -> int:
        return self[1] - 1

    def intersects(self, other: 'TimeWindow') -> bool:
        """True if the windows overlap or touch (Flink merges adjacent session windows)."""
        return self[0] <= other[1] and self[1] >= other[0]

    def cover(self, other: 'TimeWindow') -> 'TimeWindow':
        """The smallest window containing both."""
        return TimeWindow(min(self[0], other[0]), max(self[1], other[1]))

    @staticmethod
    def get_window_start_with_offset(timestamp: int, offset: int, window_size: int) -> int:
        """Start of the window of ``window_size`` (shifted by ``offset``) holding
        ``timestamp`` (Python's floor modulo, as PyFlink: negative timestamps land in the
        window that holds them)."""
        return timestamp - (timestamp - offset + window_size) % window_size

    @staticmethod
    def merge_windows(windows: Iterable['TimeWindow'],
                      callback: 'MergingWindowAssigner.MergeCallback[TimeWindow]') -> None:
        """Merges overlapping (or touching) windows; calls ``callback.merge(to_be_merged,
        merge_result)`` for every group of more than one window.

        ``to_be_merged`` is a list in the order PyFlink's Python set of those windows would
        iterate (PyFlink picks the state window of a merged session as the first of that
        set, and the order of merged list contents follows from it)."""
        ordered = sorted(windows)
        groups = []
        current = None
        members = None
        for candidate in ordered:
            if current is None:
                current, members = candidate, [candidate]
            elif current.intersects(candidate):
                current = current.cover(candidate)
                members.append(candidate)
            else:
                groups.append((current, members))
                current, members = candidate, [candidate]
        if current is not None:
            groups.append((current, members))
        for merged, group in groups:
            distinct = _pyflink_set_order(group)
            if len(distinct) > 1:
                callback.merge(distinct, merged)

    def __repr__(self):
        return "TimeWindow(start={}, end={})".format(self[0], self[1])


class _PyFlinkHashed(object):
    """A window with the hash PyFlink gives it, to replay PyFlink's set iteration order."""

    __slots__ = ("window", "_hash")

    def __init__(self, window):
        self.window = window
        self._hash = _pyflink_hash(window)

    def __hash__(self):
        return self._hash

    def __eq__(self, other):
        return self.window == other.window


def _pyflink_hash(window) -> int:
    if isinstance(window, TimeWindow):
        return hash(window[0] + mod_inverse((window[1] << 1) + 1))
    if isinstance(window, CountWindow):
        return hash(long_to_int_with_bit_mixing(window[0]))
    return hash(window)


def _pyflink_set_order(windows: List) -> List:
    """The distinct windows of ``windows`` in the order a Python set filled with them (in
    this order) iterates when the windows hash as in PyFlink."""
    replay = set()
    for window in windows:
        replay.add(_PyFlinkHashed(window))
    return [entry.window for entry in replay]


class CountWindow(tuple, Window):
    """A window identified by a number (count windows)."""

    __slots__ = ()

    def __new__(cls, id: int):
        return tuple.__new__(cls, (id,))

    def __init__(self, id: int):
        pass

    id = property(itemgetter(0), doc="The window's number.")

    def __getnewargs__(self):
        return tuple(self)

    def max_timestamp(self) -> int:
        return MAX_LONG_VALUE

    def __repr__(self):
        return "CountWindow(id={})".format(self[0])


class GlobalWindow(tuple, Window):
    """The single window holding all elements (GlobalWindows)."""

    __slots__ = ()

    def __new__(cls):
        return tuple.__new__(cls, ())

    def __init__(self):
        pass

    def __getnewargs__(self):
        return ()

    @staticmethod
    def get() -> 'GlobalWindow':
        return _GLOBAL_WINDOW

    def max_timestamp(self) -> int:
        return MAX_LONG_VALUE

    def __eq__(self, other):
        return other.__class__ is GlobalWindow

    def __ne__(self, other):
        return other.__class__ is not GlobalWindow

    def __hash__(self):
        return 0

    def __repr__(self):
        return "GlobalWindow"


_GLOBAL_WINDOW = GlobalWindow()


# ---------------------------------------------------------------------------------------------
# Window serializers (what PyFlink's coders write: big-endian longs)
# ---------------------------------------------------------------------------------------------

class TimeWindowSerializer(TypeSerializer[TimeWindow]):
    """Writes a TimeWindow as two big-endian longs (start, end)."""

    def __init__(self):
        pass

    def serialize(self, element: TimeWindow, stream: BytesIO) -> None:
        stream.write(struct.pack(">qq", element[0], element[1]))

    def deserialize(self, stream: BytesIO) -> TimeWindow:
        start, end = struct.unpack(">qq", stream.read(16))
        return TimeWindow(start, end)


class CountWindowSerializer(TypeSerializer[CountWindow]):
    """Writes a CountWindow as one big-endian long."""

    def __init__(self):
        pass

    def serialize(self, element: CountWindow, stream: BytesIO) -> None:
        stream.write(struct.pack(">q", element[0]))

    def deserialize(self, stream: BytesIO) -> CountWindow:
        return CountWindow(struct.unpack(">q", stream.read(8))[0])


class GlobalWindowSerializer(TypeSerializer[GlobalWindow]):
    """The global window as one zero byte."""

    def __init__(self):
        pass

    def serialize(self, element: GlobalWindow, stream: BytesIO) -> None:
        stream.write(b"\x00")

    def deserialize(self, stream: BytesIO) -> GlobalWindow:
        stream.read(1)
        return GlobalWindow.get()


# ---------------------------------------------------------------------------------------------
# Triggers
# ---------------------------------------------------------------------------------------------

class TriggerResult(Enum):
    """What a trigger asks of its window: evaluate it (fire), drop its contents (purge)."""

    CONTINUE = (False, False)
    FIRE_AND_PURGE = (True, True)
    FIRE = (True, False)
    PURGE = (False, True)

    def is_fire(self) -> bool:
        return self.value[0]

    def is_purge(self) -> bool:
        return self.value[1]


class Trigger(ABC, Generic[T, W]):
    """Decides when a window is evaluated. Called for every element added to a window and
    for every timer the trigger registered; may keep state scoped to key and window through
    ``ctx.get_partitioned_state``. One trigger instance serves all keys and windows."""

    class TriggerContext(ABC):
        """What a trigger may use: time, timers and window-scoped state."""

        @abstractmethod
        def get_current_processing_time(self) -> int:
            pass

        @abstractmethod
        def get_metric_group(self):
            pass

        @abstractmethod
        def get_current_watermark(self) -> int:
            pass

        @abstractmethod
        def register_processing_time_timer(self, time: int) -> None:
            pass

        @abstractmethod
        def register_event_time_timer(self, time: int) -> None:
            pass

        @abstractmethod
        def delete_processing_time_timer(self, time: int) -> None:
            pass

        @abstractmethod
        def delete_event_time_timer(self, time: int) -> None:
            pass

        @abstractmethod
        def get_partitioned_state(self, state_descriptor: StateDescriptor) -> State:
            pass

    class OnMergeContext(TriggerContext):
        """The context of on_merge: can merge the trigger's state of the merged windows."""

        @abstractmethod
        def merge_partitioned_state(self, state_descriptor: StateDescriptor) -> None:
            pass

    @abstractmethod
    def on_element(self, element: T, timestamp: int, window: W,
                   ctx: 'Trigger.TriggerContext') -> TriggerResult:
        pass

    @abstractmethod
    def on_processing_time(self, time: int, window: W,
                           ctx: 'Trigger.TriggerContext') -> TriggerResult:
        pass

    @abstractmethod
    def on_event_time(self, time: int, window: W, ctx: 'Trigger.TriggerContext') -> TriggerResult:
        pass

    def can_merge(self) -> bool:
        """True if the trigger supports merging windows (session windows)."""
        return False

    @abstractmethod
    def on_merge(self, window: W, ctx: 'Trigger.OnMergeContext') -> None:
        pass

    @abstractmethod
    def clear(self, window: W, ctx: 'Trigger.TriggerContext') -> None:
        pass


class EventTimeTrigger(Trigger[T, TimeWindow]):
    """Fires once the watermark passes the end of the window (the default of event-time
    assigners); fires at once for an element added to a window the watermark has passed
    (allowed lateness)."""

    def on_element(self, element: T, timestamp: int, window: TimeWindow,
                   ctx: 'Trigger.TriggerContext') -> TriggerResult:
        max_timestamp = window[1] - 1
        if max_timestamp <= ctx.get_current_watermark():
            return TriggerResult.FIRE
        ctx.register_event_time_timer(max_timestamp)
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: TimeWindow,
                           ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_event_time(self, time: int, window: TimeWindow,
                      ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.FIRE if time == window.max_timestamp() else TriggerResult.CONTINUE

    def can_merge(self) -> bool:
        return True

    def on_merge(self, window: TimeWindow, ctx: 'Trigger.OnMergeContext') -> None:
        # Only register a timer if the watermark has not yet passed the end of the merged
        # window (else the cleanup or a late element fires it).
        max_timestamp = window.max_timestamp()
        if max_timestamp > ctx.get_current_watermark():
            ctx.register_event_time_timer(max_timestamp)

    def clear(self, window: TimeWindow, ctx: 'Trigger.TriggerContext') -> None:
        ctx.delete_event_time_timer(window.max_timestamp())

    @staticmethod
    def create() -> 'EventTimeTrigger':
        return EventTimeTrigger()


class ProcessingTimeTrigger(Trigger[T, TimeWindow]):
    """Fires once the processing time passes the end of the window."""

    def on_element(self, element: T, timestamp: int, window: TimeWindow,
                   ctx: 'Trigger.TriggerContext') -> TriggerResult:
        ctx.register_processing_time_timer(window[1] - 1)
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: TimeWindow,
                           ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.FIRE

    def on_event_time(self, time: int, window: TimeWindow,
                      ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.CONTINUE

    def can_merge(self) -> bool:
        return True

    def on_merge(self, window: TimeWindow, ctx: 'Trigger.OnMergeContext') -> None:
        max_timestamp = window.max_timestamp()
        if max_timestamp > ctx.get_current_processing_time():
            ctx.register_processing_time_timer(max_timestamp)

    def clear(self, window: TimeWindow, ctx: 'Trigger.TriggerContext') -> None:
        ctx.delete_processing_time_timer(window.max_timestamp())

    @staticmethod
    def create() -> 'ProcessingTimeTrigger':
        return ProcessingTimeTrigger()


class Min(ReduceFunction):
    """The smaller of two values (the fire-time state of the continuous triggers)."""

    def reduce(self, value1, value2):
        return min(value1, value2)


class _ContinuousTrigger(Trigger[T, TimeWindow]):
    """Fires every ``interval`` ms (aligned to multiples of it) inside a window; the next
    fire time is kept in window-scoped reducing state (min)."""

    def __init__(self, interval: int):
        self.interval = interval
        self.state_desc = ReducingStateDescriptor("fire-time", Min(), Types.LONG())
        self.fire_timestamp_state = None

    def _register_timer(self, ctx: 'Trigger.TriggerContext', time: int) -> None:
        raise NotImplementedError

    def _delete_timer(self, ctx: 'Trigger.TriggerContext', time: int) -> None:
        raise NotImplementedError

    def register_next_fire_timestamp(self, time: int, window: TimeWindow,
                                     ctx: 'Trigger.TriggerContext',
                                     fire_timestamp_state: ReducingState):
        next_fire_timestamp = min(time + self.interval, window.max_timestamp())
        fire_timestamp_state.add(next_fire_timestamp)
        self._register_timer(ctx, next_fire_timestamp)

    def can_merge(self) -> bool:
        return True

    def on_merge(self, window: TimeWindow, ctx: 'Trigger.OnMergeContext') -> None:
        ctx.merge_partitioned_state(self.state_desc)
        next_fire_timestamp = ctx.get_partitioned_state(self.state_desc).get()
        if next_fire_timestamp is not None:
            self._register_timer(ctx, next_fire_timestamp)

    def clear(self, window: TimeWindow, ctx: 'Trigger.TriggerContext') -> None:
        fire_timestamp_state = ctx.get_partitioned_state(self.state_desc)
        timestamp = fire_timestamp_state.get()
        if timestamp is not None:
            self._delete_timer(ctx, timestamp)
            fire_timestamp_state.clear()


class ContinuousEventTimeTrigger(_ContinuousTrigger):
    """Fires repeatedly every ``interval`` of event time, and at the end of the window."""

    @staticmethod
    def of(interval: Time) -> 'ContinuousEventTimeTrigger':
        return ContinuousEventTimeTrigger(interval.to_milliseconds())

    def _register_timer(self, ctx, time):
        ctx.register_event_time_timer(time)

    def _delete_timer(self, ctx, time):
        ctx.delete_event_time_timer(time)

    def on_element(self, element: T, timestamp: int, window: TimeWindow,
                   ctx: 'Trigger.TriggerContext') -> TriggerResult:
        if window.max_timestamp() <= ctx.get_current_watermark():
            # the watermark is already past the window: fire at once
            return TriggerResult.FIRE
        ctx.register_event_time_timer(window.max_timestamp())
        fire_timestamp_state = ctx.get_partitioned_state(self.state_desc)
        if fire_timestamp_state.get() is None:
            self.register_next_fire_timestamp(timestamp - timestamp % self.interval,
                                              window, ctx, fire_timestamp_state)
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: TimeWindow,
                           ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_event_time(self, time: int, window: TimeWindow,
                      ctx: 'Trigger.TriggerContext') -> TriggerResult:
        if time == window.max_timestamp():
            return TriggerResult.FIRE
        fire_timestamp_state = ctx.get_partitioned_state(self.state_desc)
        fire_timestamp = fire_timestamp_state.get()
        if fire_timestamp is not None and fire_timestamp == time:
            fire_timestamp_state.clear()
            self.register_next_fire_timestamp(time, window, ctx, fire_timestamp_state)
            return TriggerResult.FIRE
        return TriggerResult.CONTINUE


class ContinuousProcessingTimeTrigger(_ContinuousTrigger):
    """Fires repeatedly every ``interval`` of processing time."""

    @staticmethod
    def of(interval: Time) -> 'ContinuousProcessingTimeTrigger':
        return ContinuousProcessingTimeTrigger(interval.to_milliseconds())

    def _register_timer(self, ctx, time):
        ctx.register_processing_time_timer(time)

    def _delete_timer(self, ctx, time):
        ctx.delete_processing_time_timer(time)

    def on_element(self, element: T, timestamp: int, window: TimeWindow,
                   ctx: 'Trigger.TriggerContext') -> TriggerResult:
        fire_timestamp_state = ctx.get_partitioned_state(self.state_desc)
        now = ctx.get_current_processing_time()
        if fire_timestamp_state.get() is None:
            self.register_next_fire_timestamp(now - now % self.interval, window, ctx,
                                              fire_timestamp_state)
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: TimeWindow,
                           ctx: 'Trigger.TriggerContext') -> TriggerResult:
        fire_timestamp_state = ctx.get_partitioned_state(self.state_desc)
        if fire_timestamp_state.get() == time:
            fire_timestamp_state.clear()
            self.register_next_fire_timestamp(time, window, ctx, fire_timestamp_state)
            return TriggerResult.FIRE
        return TriggerResult.CONTINUE

    def on_event_time(self, time: int, window: TimeWindow,
                      ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.CONTINUE


class PurgingTrigger(Trigger[T, Window]):
    """Wraps another trigger: every FIRE becomes FIRE_AND_PURGE."""

    def __init__(self, nested_trigger: Trigger[T, Window]):
        self.nested_trigger = nested_trigger

    @staticmethod
    def of(nested_trigger: Trigger[T, Window]) -> 'PurgingTrigger':
        return PurgingTrigger(nested_trigger)

    @staticmethod
    def _purging(result: TriggerResult) -> TriggerResult:
        return TriggerResult.FIRE_AND_PURGE if result.is_fire() else result

    def on_element(self, element: T, timestamp: int, window: Window,
                   ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return self._purging(self.nested_trigger.on_element(element, timestamp, window, ctx))

    def on_event_time(self, time: int, window: Window,
                      ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return self._purging(self.nested_trigger.on_event_time(time, window, ctx))

    def on_processing_time(self, time: int, window: Window,
                           ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return self._purging(self.nested_trigger.on_processing_time(time, window, ctx))

    def clear(self, window: Window, ctx: 'Trigger.TriggerContext') -> None:
        self.nested_trigger.clear(window, ctx)

    def can_merge(self) -> bool:
        return self.nested_trigger.can_merge()

    def on_merge(self, window: Window, ctx: 'Trigger.OnMergeContext') -> None:
        self.nested_trigger.on_merge(window, ctx)


def _add(a, b):
    return a + b


class CountTrigger(Trigger[T, CountWindow]):
    """Fires once the window holds ``window_size`` elements (counted in window state; the
    count restarts after each firing)."""

    def __init__(self, window_size: int):
        self._window_size = window_size
        self._count_state_descriptor = ReducingStateDescriptor("count", _add, Types.LONG())

    @staticmethod
    def of(window_size: int) -> 'CountTrigger':
        return CountTrigger(window_size)

    def on_element(self, element: T, timestamp: int, window: CountWindow,
                   ctx: 'Trigger.TriggerContext') -> TriggerResult:
        count_state = ctx.get_partitioned_state(self._count_state_descriptor)
        count_state.add(1)
        if count_state.get() >= self._window_size:
            count_state.clear()
            return TriggerResult.FIRE
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: CountWindow,
                           ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_event_time(self, time: int, window: CountWindow,
                      ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.CONTINUE

    def can_merge(self) -> bool:
        return True

    def on_merge(self, window: CountWindow, ctx: 'Trigger.OnMergeContext') -> None:
        ctx.merge_partitioned_state(self._count_state_descriptor)

    def clear(self, window: CountWindow, ctx: 'Trigger.TriggerContext') -> None:
        ctx.get_partitioned_state(self._count_state_descriptor).clear()


class NeverTrigger(Trigger[T, GlobalWindow]):
    """Never fires (the default trigger of GlobalWindows)."""

    def on_element(self, element: T, timestamp: int, window: GlobalWindow,
                   ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: GlobalWindow,
                           ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_event_time(self, time: int, window: GlobalWindow,
                      ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_merge(self, window: GlobalWindow, ctx: 'Trigger.OnMergeContext') -> None:
        pass

    def clear(self, window: GlobalWindow, ctx: 'Trigger.TriggerContext') -> None:
        pass


# ---------------------------------------------------------------------------------------------
# Assigners
# ---------------------------------------------------------------------------------------------

class WindowAssigner(ABC, Generic[T, W]):
    """Assigns each element to zero or more windows."""

    class WindowAssignerContext(ABC):
        """What an assigner may use."""

        @abstractmethod
        def get_current_processing_time(self) -> int:
            pass

        @abstractmethod
        def get_runtime_context(self) -> RuntimeContext:
            pass

    @abstractmethod
    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[W]:
        pass

    @abstractmethod
    def get_default_trigger(self, env) -> Trigger[T, W]:
        pass

    @abstractmethod
    def get_window_serializer(self) -> TypeSerializer[W]:
        pass

    @abstractmethod
    def is_event_time(self) -> bool:
        pass


class MergingWindowAssigner(WindowAssigner[T, W]):
    """An assigner whose windows can merge (sessions)."""

    class MergeCallback(ABC, Generic[W2]):
        """Receives each group of windows to merge and their merge result."""

        @abstractmethod
        def merge(self, to_be_merged: Iterable[W2], merge_result: W2) -> None:
            pass

    @abstractmethod
    def merge_windows(self, windows: Iterable[W],
                      callback: 'MergingWindowAssigner.MergeCallback[W]') -> None:
        pass


class WindowOperationDescriptor(object):
    """Everything the window operator needs, as PyFlink hands it to its runtime."""

    def __init__(self,
                 assigner: WindowAssigner,
                 trigger: Trigger,
                 allowed_lateness: int,
                 late_data_output_tag: Optional[OutputTag],
                 window_state_descriptor: StateDescriptor,
                 window_serializer: TypeSerializer,
                 internal_window_function: InternalWindowFunction):
        self.assigner = assigner
        self.trigger = trigger
        self.allowed_lateness = allowed_lateness
        self.late_data_output_tag = late_data_output_tag
        self.window_state_descriptor = window_state_descriptor
        self.internal_window_function = internal_window_function
        self.window_serializer = window_serializer

    def generate_op_name(self):
        return type(self.assigner).__name__

    def generate_op_desc(self, windowed_stream_type, func_desc):
        return "%s(%s, %s, %s)" % (
            windowed_stream_type, self.assigner, type(self.trigger).__name__, func_desc)


class SessionWindowTimeGapExtractor(ABC):
    """Gives the session gap (ms) for an element (dynamic session windows)."""

    @abstractmethod
    def extract(self, element: Any) -> int:
        pass


class CountTumblingWindowAssigner(WindowAssigner[T, CountWindow]):
    """Windows of ``window_size`` consecutive elements per key: the n-th element (from 0)
    goes to CountWindow(n // window_size). The count is kept in keyed state."""

    def __init__(self, window_size: int):
        self._window_size = window_size
        self._count_descriptor = ValueStateDescriptor('tumble-count-assigner', Types.LONG())

    @staticmethod
    def of(window_size: int) -> 'CountTumblingWindowAssigner':
        return CountTumblingWindowAssigner(window_size)

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[CountWindow]:
        count_state = context.get_runtime_context().get_state(self._count_descriptor)
        count = count_state.value() or 0
        count_state.update(count + 1)
        return [CountWindow(count // self._window_size)]

    def get_default_trigger(self, env) -> Trigger[T, CountWindow]:
        return CountTrigger(self._window_size)

    def get_window_serializer(self) -> TypeSerializer[CountWindow]:
        return CountWindowSerializer()

    def is_event_time(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "CountTumblingWindowAssigner(%s)" % self._window_size


class CountSlidingWindowAssigner(WindowAssigner[T, CountWindow]):
    """Windows of ``window_size`` elements starting every ``window_slide`` elements per key:
    CountWindow(i) holds elements i*slide .. i*slide+size-1. With the default CountTrigger a
    window fires once it holds ``window_size`` elements (PyFlink's semantics; Java Flink's
    countWindow(size, slide) fires every ``slide`` elements instead)."""

    def __init__(self, window_size: int, window_slide: int):
        self._window_size = window_size
        self._window_slide = window_slide
        self._count_descriptor = ValueStateDescriptor('slide-count-assigner', Types.LONG())

    @staticmethod
    def of(window_size: int, window_slide: int) -> 'CountSlidingWindowAssigner':
        return CountSlidingWindowAssigner(window_size, window_slide)

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[CountWindow]:
        count_state = context.get_runtime_context().get_state(self._count_descriptor)
        count = count_state.value() or 0
        count_state.update(count + 1)
        size, slide = self._window_size, self._window_slide
        windows = []
        window_id = count // slide
        # newest window first, as PyFlink lists them
        while window_id >= 0 and window_id * slide <= count <= window_id * slide + size - 1:
            windows.append(CountWindow(window_id))
            window_id -= 1
        return windows

    def get_default_trigger(self, env) -> Trigger[T, CountWindow]:
        return CountTrigger(self._window_size)

    def get_window_serializer(self) -> TypeSerializer[CountWindow]:
        return CountWindowSerializer()

    def is_event_time(self) -> bool:
        return False

    def __repr__(self):
        return "CountSlidingWindowAssigner(%s, %s)" % (self._window_size, self._window_slide)


class _TumblingWindows(WindowAssigner[T, TimeWindow]):
    _kind = ""

    def __init__(self, size: int, offset: int):
        if abs(offset) >= size:
            raise Exception("%s parameters must satisfy abs(offset) < size" % self._kind)
        self._size = size
        self._offset = offset

    def get_window_serializer(self) -> TypeSerializer[TimeWindow]:
        return TimeWindowSerializer()

    def __repr__(self):
        return "%s(%s, %s)" % (self._kind, self._size, self._offset)


class TumblingProcessingTimeWindows(_TumblingWindows):
    """Non-overlapping windows of ``size`` ms of processing time, shifted by ``offset``."""

    _kind = "TumblingProcessingTimeWindows"

    @staticmethod
    def of(size: Time, offset: Time = None) -> 'TumblingProcessingTimeWindows':
        return TumblingProcessingTimeWindows(
            size.to_milliseconds(), 0 if offset is None else offset.to_milliseconds())

    def assign_windows(self, element: T, timestamp: int,
                       context: WindowAssigner.WindowAssignerContext) -> Collection[TimeWindow]:
        now = context.get_current_processing_time()
        start = TimeWindow.get_window_start_with_offset(now, self._offset, self._size)
        return [TimeWindow(start, start + self._size)]

    def get_default_trigger(self, env) -> Trigger[T, TimeWindow]:
        return ProcessingTimeTrigger()

    def is_event_time(self) -> bool:
        return False


class TumblingEventTimeWindows(_TumblingWindows):
    """Non-overlapping windows of ``size`` ms of event time, shifted by ``offset``."""

    _kind = "TumblingEventTimeWindows"

    @staticmethod
    def of(size: Time, offset: Time = None) -> 'TumblingEventTimeWindows':
        return TumblingEventTimeWindows(
            size.to_milliseconds(), 0 if offset is None else offset.to_milliseconds())

    def assign_windows(self, element: T, timestamp: int,
                       context: WindowAssigner.WindowAssignerContext) -> Collection[TimeWindow]:
        if timestamp > MIN_LONG_VALUE:
            start = TimeWindow.get_window_start_with_offset(timestamp, self._offset, self._size)
            return [TimeWindow(start, start + self._size)]
        raise Exception(_NO_TIMESTAMP_MESSAGE)

    def get_default_trigger(self, env) -> Trigger[T, TimeWindow]:
        return EventTimeTrigger()

    def is_event_time(self) -> bool:
        return True


class _SlidingWindows(WindowAssigner[T, TimeWindow]):
    _kind = ""

    def __init__(self, size: int, slide: int, offset: int):
        if abs(offset) >= slide or size <= 0:
            raise Exception("%s parameters must satisfy abs(offset) < slide and size > 0"
                            % self._kind)
        self._size = size
        self._slide = slide
        self._offset = offset
        self._pane_size = math.gcd(size, slide)

    def _windows(self, timestamp: int) -> List[TimeWindow]:
        # newest window first, as Flink lists them
        size, slide = self._size, self._slide
        last_start = TimeWindow.get_window_start_with_offset(timestamp, self._offset, slide)
        return [TimeWindow(start, start + size)
                for start in range(last_start, timestamp - size, -slide)]

    def get_window_serializer(self) -> TypeSerializer[TimeWindow]:
        return TimeWindowSerializer()

    def __repr__(self) -> str:
        return "%s(%s, %s, %s)" % (self._kind, self._size, self._slide, self._offset)


class SlidingProcessingTimeWindows(_SlidingWindows):
    """Windows of ``size`` ms of processing time starting every ``slide`` ms."""

    _kind = "SlidingProcessingTimeWindows"

    @staticmethod
    def of(size: Time, slide: Time, offset: Time = None) -> 'SlidingProcessingTimeWindows':
        return SlidingProcessingTimeWindows(size.to_milliseconds(), slide.to_milliseconds(),
                                            0 if offset is None else offset.to_milliseconds())

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[TimeWindow]:
        return self._windows(context.get_current_processing_time())

    def get_default_trigger(self, env) -> Trigger[T, TimeWindow]:
        return ProcessingTimeTrigger()

    def is_event_time(self) -> bool:
        return False


class SlidingEventTimeWindows(_SlidingWindows):
    """Windows of ``size`` ms of event time starting every ``slide`` ms."""

    _kind = "SlidingEventTimeWindows"

    @staticmethod
    def of(size: Time, slide: Time, offset: Time = None) -> 'SlidingEventTimeWindows':
        return SlidingEventTimeWindows(size.to_milliseconds(), slide.to_milliseconds(),
                                       0 if offset is None else offset.to_milliseconds())

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[TimeWindow]:
        if timestamp > MIN_LONG_VALUE:
            return self._windows(timestamp)
        raise Exception(_NO_TIMESTAMP_MESSAGE)

    def get_default_trigger(self, env) -> Trigger[T, TimeWindow]:
        return EventTimeTrigger()

    def is_event_time(self) -> bool:
        return True


class _SessionWindows(MergingWindowAssigner[T, TimeWindow]):
    def merge_windows(self, windows: Iterable[TimeWindow],
                      callback: 'MergingWindowAssigner.MergeCallback[TimeWindow]') -> None:
        TimeWindow.merge_windows(windows, callback)

    def get_window_serializer(self) -> TypeSerializer[TimeWindow]:
        return TimeWindowSerializer()


class ProcessingTimeSessionWindows(_SessionWindows):
    """Sessions of processing time: a window [now, now + gap) per element, merged when they
    overlap."""

    def __init__(self, session_gap: int):
        if session_gap <= 0:
            raise Exception("ProcessingTimeSessionWindows parameters must satisfy 0 < size")
        self._session_gap = session_gap

    @staticmethod
    def with_gap(size: Time) -> 'ProcessingTimeSessionWindows':
        return ProcessingTimeSessionWindows(size.to_milliseconds())

    @staticmethod
    def with_dynamic_gap(
            extractor: SessionWindowTimeGapExtractor) -> 'DynamicProcessingTimeSessionWindows':
        return DynamicProcessingTimeSessionWindows(extractor)

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[TimeWindow]:
        now = context.get_current_processing_time()
        return [TimeWindow(now, now + self._session_gap)]

    def get_default_trigger(self, env) -> Trigger[T, TimeWindow]:
        return ProcessingTimeTrigger()

    def is_event_time(self) -> bool:
        return False

    def __repr__(self):
        return "ProcessingTimeSessionWindows(%s)" % self._session_gap


class EventTimeSessionWindows(_SessionWindows):
    """Sessions of event time: a window [timestamp, timestamp + gap) per element, merged when
    they overlap or touch."""

    def __init__(self, session_gap: int):
        if session_gap <= 0:
            raise Exception("EventTimeSessionWindows parameters must satisfy 0 < size")
        self._session_gap = session_gap

    @staticmethod
    def with_gap(size: Time) -> 'EventTimeSessionWindows':
        return EventTimeSessionWindows(size.to_milliseconds())

    @staticmethod
    def with_dynamic_gap(
            extractor: SessionWindowTimeGapExtractor) -> 'DynamicEventTimeSessionWindows':
        return DynamicEventTimeSessionWindows(extractor)

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[TimeWindow]:
        return [TimeWindow(timestamp, timestamp + self._session_gap)]

    def get_default_trigger(self, env) -> Trigger[T, TimeWindow]:
        return EventTimeTrigger()

    def is_event_time(self) -> bool:
        return True

    def __repr__(self):
        return "EventTimeSessionWindows(%s)" % self._session_gap


class _DynamicSessionWindows(_SessionWindows):
    _kind = ""

    def __init__(self, session_window_time_gap_extractor: SessionWindowTimeGapExtractor):
        self._session_gap = 0
        self._session_window_time_gap_extractor = session_window_time_gap_extractor

    def _window(self, element, start: int) -> List[TimeWindow]:
        self._session_gap = self._session_window_time_gap_extractor.extract(element)
        if self._session_gap <= 0:
            raise Exception("Dynamic session time gap must satisfy 0 < gap")
        return [TimeWindow(start, start + self._session_gap)]

    def __repr__(self):
        return "%s(%s)" % (self._kind, self._session_gap)


class DynamicProcessingTimeSessionWindows(_DynamicSessionWindows):
    """Processing-time sessions whose gap the extractor gives per element."""

    _kind = "DynamicProcessingTimeSessionWindows"

    @staticmethod
    def with_dynamic_gap(
            extractor: SessionWindowTimeGapExtractor) -> 'DynamicProcessingTimeSessionWindows':
        return DynamicProcessingTimeSessionWindows(extractor)

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[TimeWindow]:
        return self._window(element, context.get_current_processing_time())

    def get_default_trigger(self, env) -> Trigger[T, TimeWindow]:
        return ProcessingTimeTrigger()

    def is_event_time(self) -> bool:
        return False


class DynamicEventTimeSessionWindows(_DynamicSessionWindows):
    """Event-time sessions whose gap the extractor gives per element."""

    _kind = "DynamicEventTimeSessionWindows"

    @staticmethod
    def with_dynamic_gap(
            extractor: SessionWindowTimeGapExtractor) -> 'DynamicEventTimeSessionWindows':
        return DynamicEventTimeSessionWindows(extractor)

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[TimeWindow]:
        return self._window(element, timestamp)

    def get_default_trigger(self, env) -> Trigger[T, TimeWindow]:
        return EventTimeTrigger()

    def is_event_time(self) -> bool:
        return True


class GlobalWindows(WindowAssigner[T, GlobalWindow]):
    """Puts every element into the one GlobalWindow; its default trigger never fires."""

    def __init__(self) -> None:
        super().__init__()

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[GlobalWindow]:
        return [_GLOBAL_WINDOW]

    @staticmethod
    def create() -> 'GlobalWindows':
        return GlobalWindows()

    def get_default_trigger(self, env) -> Trigger[T, GlobalWindow]:
        return NeverTrigger()

    def get_window_serializer(self) -> TypeSerializer[GlobalWindow]:
        return GlobalWindowSerializer()

    def is_event_time(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "GlobalWindows()"
