"""User function interfaces of the DataStream API (mirror of pyflink.datastream.functions).

These are plain abstract classes: the engine (pyflink_on_spark.runtime) calls them. Lambdas
passed to map/filter/... are wrapped into the matching interface by the API layer.
"""
from __future__ import annotations

import abc
from typing import Any, Callable, Generic, Iterable, TypeVar, Union

from pyflink_on_spark.datastream.state import (
    AggregatingState, AggregatingStateDescriptor, ListState, ListStateDescriptor, MapState,
    MapStateDescriptor, ReducingState, ReducingStateDescriptor, ValueState,
    ValueStateDescriptor, BroadcastState, ReadOnlyBroadcastState)
from pyflink_on_spark.datastream.time_domain import TimeDomain
from pyflink_on_spark.datastream.timerservice import TimerService

IN = TypeVar("IN")
IN1 = TypeVar("IN1")
IN2 = TypeVar("IN2")
OUT = TypeVar("OUT")
KEY = TypeVar("KEY")
W = TypeVar("W")
W2 = TypeVar("W2")

__all__ = [
    "RuntimeContext", "MapFunction", "CoMapFunction", "FlatMapFunction", "CoFlatMapFunction",
    "ReduceFunction", "AggregateFunction", "KeySelector", "FilterFunction", "Partitioner",
    "SourceFunction", "SinkFunction", "ProcessFunction", "CoProcessFunction",
    "KeyedProcessFunction", "KeyedCoProcessFunction", "TimerService", "WindowFunction",
    "AllWindowFunction", "ProcessWindowFunction", "ProcessAllWindowFunction",
    "BaseBroadcastProcessFunction", "BroadcastProcessFunction",
    "KeyedBroadcastProcessFunction", "KeyedStateStore", "Function", "FunctionWrapper",
    "ReduceFunctionWrapper", "NullByteKeySelector", "PassThroughWindowFunction",
    "PassThroughAllWindowFunction",
]


class KeyedStateStore(abc.ABC):
    """Access to keyed state."""

    @abc.abstractmethod
    def get_state(self, state_descriptor: ValueStateDescriptor) -> ValueState:
        pass

    @abc.abstractmethod
    def get_list_state(self, state_descriptor: ListStateDescriptor) -> ListState:
        pass

    @abc.abstractmethod
    def get_map_state(self, state_descriptor: MapStateDescriptor) -> MapState:
        pass

    @abc.abstractmethod
    def get_reducing_state(self, state_descriptor: ReducingStateDescriptor) -> ReducingState:
        pass

    @abc.abstractmethod
    def get_aggregating_state(
            self, state_descriptor: AggregatingStateDescriptor) -> AggregatingState:
        pass


class RuntimeContext(KeyedStateStore):
    """Information about the parallel instance running a function, and its keyed state."""

    @abc.abstractmethod
    def get_task_name(self) -> str:
        pass

    @abc.abstractmethod
    def get_number_of_parallel_subtasks(self) -> int:
        pass

    @abc.abstractmethod
    def get_max_number_of_parallel_subtasks(self) -> int:
        pass

    @abc.abstractmethod
    def get_index_of_this_subtask(self) -> int:
        pass

    @abc.abstractmethod
    def get_attempt_number(self) -> int:
        pass

    @abc.abstractmethod
    def get_task_name_with_subtasks(self) -> str:
        pass

    @abc.abstractmethod
    def get_job_parameter(self, key: str, default_value: str):
        pass

    @abc.abstractmethod
    def get_metrics_group(self):
        pass


class Function(abc.ABC):
    """Base of all user functions: open() once per parallel instance, close() at the end."""

    def open(self, runtime_context: RuntimeContext):
        pass

    def close(self):
        pass


class MapFunction(Function):
    @abc.abstractmethod
    def map(self, value):
        pass


class CoMapFunction(Function):
    @abc.abstractmethod
    def map1(self, value):
        pass

    @abc.abstractmethod
    def map2(self, value):
        pass


class FlatMapFunction(Function):
    @abc.abstractmethod
    def flat_map(self, value):
        pass


class CoFlatMapFunction(Function):
    @abc.abstractmethod
    def flat_map1(self, value):
        pass

    @abc.abstractmethod
    def flat_map2(self, value):
        pass


class ReduceFunction(Function):
    @abc.abstractmethod
    def reduce(self, value1, value2):
        pass


class AggregateFunction(Function):
    @abc.abstractmethod
    def create_accumulator(self):
        pass

    @abc.abstractmethod
    def add(self, value, accumulator):
        pass

    @abc.abstractmethod
    def get_result(self, accumulator):
        pass

    @abc.abstractmethod
    def merge(self, acc_a, acc_b):
        pass


class KeySelector(Function):
    @abc.abstractmethod
    def get_key(self, value):
        pass


class NullByteKeySelector(KeySelector):
    """Puts every element under one key (used by window_all and non-parallel operators)."""

    def get_key(self, value):
        return 0


class FilterFunction(Function):
    @abc.abstractmethod
    def filter(self, value):
        pass


class Partitioner(Function):
    @abc.abstractmethod
    def partition(self, key: Any, num_partitions: int) -> int:
        pass


class FunctionWrapper(Function):
    """Wraps a plain Python callable."""

    def __init__(self, func):
        self._func = func


class ReduceFunctionWrapper(FunctionWrapper):
    def __init__(self, func):
        super().__init__(func)

    def reduce(self, value1, value2):
        return self._func(value1, value2)


class _MapFunctionWrapper(FunctionWrapper, MapFunction):
    def map(self, value):
        return self._func(value)


class _FlatMapFunctionWrapper(FunctionWrapper, FlatMapFunction):
    def flat_map(self, value):
        return self._func(value)


class _FilterFunctionWrapper(FunctionWrapper, FilterFunction):
    def filter(self, value):
        return self._func(value)


class _KeySelectorFunctionWrapper(FunctionWrapper, KeySelector):
    def get_key(self, value):
        return self._func(value)


class _PartitionerFunctionWrapper(FunctionWrapper, Partitioner):
    def partition(self, key: Any, num_partitions: int) -> int:
        return self._func(key, num_partitions)


def _wrap(func, interface: type, wrapper: type, what: str):
    if isinstance(func, interface) or callable(func):
        from pyflink_on_spark.datastream.serializability import check_serializable
        check_serializable(func, what)
    if isinstance(func, interface):
        return func
    if callable(func):
        return wrapper(func)
    raise TypeError("The input must be a %s or a callable function, got %r" % (what, func))


def wrap_map(func) -> MapFunction:
    return _wrap(func, MapFunction, _MapFunctionWrapper, "MapFunction")


def per_record_callable(function: Function, method_name: str):
    """What the engine calls per record for `function.<method_name>`: the user's own callable
    when the API wrapped a plain lambda or function (one Python call less per record), else
    the bound method. Subclasses of the wrappers (a user may override ReduceFunctionWrapper's
    reduce) keep their method."""
    if type(function) in _PASS_THROUGH_WRAPPERS:
        return function._func
    return getattr(function, method_name)


def wrap_flat_map(func) -> FlatMapFunction:
    return _wrap(func, FlatMapFunction, _FlatMapFunctionWrapper, "FlatMapFunction")


def wrap_filter(func) -> FilterFunction:
    return _wrap(func, FilterFunction, _FilterFunctionWrapper, "FilterFunction")


def wrap_reduce(func) -> ReduceFunction:
    if isinstance(func, ReduceFunction):
        return func
    return _wrap(func, ReduceFunction, _ReduceWrapper, "ReduceFunction")


def wrap_key_selector(func) -> KeySelector:
    return _wrap(func, KeySelector, _KeySelectorFunctionWrapper, "KeySelector")


def wrap_partitioner(func) -> Partitioner:
    return _wrap(func, Partitioner, _PartitionerFunctionWrapper, "Partitioner")


class _ReduceWrapper(ReduceFunctionWrapper, ReduceFunction):
    pass


# The API's wrappers of plain callables whose method only passes its arguments on.
_PASS_THROUGH_WRAPPERS = (_MapFunctionWrapper, _FlatMapFunctionWrapper, _FilterFunctionWrapper,
                          _KeySelectorFunctionWrapper, _PartitionerFunctionWrapper,
                          ReduceFunctionWrapper, _ReduceWrapper)


class JavaFunctionWrapper(object):
    """A function implemented in Java. There is no JVM-side Flink here: not supported."""

    def __init__(self, j_function):
        raise NotImplementedError(
            "%s backed by a Java class (%r) is not supported by pyflink_on_spark: there is no "
            "Flink JVM. Use a Python function (e.g. map/process with a Python class) or a "
            "supported connector (FileSource, FileSink, NumberSequenceSource, "
            "from_collection, print, execute_and_collect)." % (type(self).__name__, j_function))

    def get_java_function(self):
        raise NotImplementedError("get_java_function: there is no JVM-side Flink here")


class SourceFunction(JavaFunctionWrapper):
    def __init__(self, source_func):
        super().__init__(source_func)


class SinkFunction(JavaFunctionWrapper):
    def __init__(self, sink_func):
        super().__init__(sink_func)


class ProcessFunction(Function):
    class Context(abc.ABC):
        @abc.abstractmethod
        def timer_service(self) -> TimerService:
            pass

        @abc.abstractmethod
        def timestamp(self) -> int:
            pass

    @abc.abstractmethod
    def process_element(self, value, ctx: "ProcessFunction.Context"):
        pass


class KeyedProcessFunction(Function):
    class Context(abc.ABC):
        @abc.abstractmethod
        def timer_service(self) -> TimerService:
            pass

        @abc.abstractmethod
        def timestamp(self) -> int:
            pass

        @abc.abstractmethod
        def get_current_key(self):
            pass

    class OnTimerContext(Context):
        @abc.abstractmethod
        def time_domain(self) -> TimeDomain:
            pass

    @abc.abstractmethod
    def process_element(self, value, ctx: "KeyedProcessFunction.Context"):
        pass

    def on_timer(self, timestamp: int, ctx: "KeyedProcessFunction.OnTimerContext"):
        pass


class CoProcessFunction(Function):
    class Context(abc.ABC):
        @abc.abstractmethod
        def timer_service(self) -> TimerService:
            pass

        @abc.abstractmethod
        def timestamp(self) -> int:
            pass

    @abc.abstractmethod
    def process_element1(self, value, ctx: "CoProcessFunction.Context"):
        pass

    @abc.abstractmethod
    def process_element2(self, value, ctx: "CoProcessFunction.Context"):
        pass


class KeyedCoProcessFunction(Function):
    class Context(abc.ABC):
        @abc.abstractmethod
        def get_current_key(self):
            pass

        @abc.abstractmethod
        def timer_service(self) -> TimerService:
            pass

        @abc.abstractmethod
        def timestamp(self) -> int:
            pass

    class OnTimerContext(Context):
        @abc.abstractmethod
        def time_domain(self) -> TimeDomain:
            pass

    @abc.abstractmethod
    def process_element1(self, value, ctx: "KeyedCoProcessFunction.Context"):
        pass

    @abc.abstractmethod
    def process_element2(self, value, ctx: "KeyedCoProcessFunction.Context"):
        pass

    def on_timer(self, timestamp: int, ctx: "KeyedCoProcessFunction.OnTimerContext"):
        pass


class WindowFunction(Function, Generic[IN, OUT, KEY, W]):
    @abc.abstractmethod
    def apply(self, key: KEY, window: W, inputs: Iterable[IN]) -> Iterable[OUT]:
        pass


class AllWindowFunction(Function, Generic[IN, OUT, W]):
    @abc.abstractmethod
    def apply(self, window: W, inputs: Iterable[IN]) -> Iterable[OUT]:
        pass


class ProcessWindowFunction(Function, Generic[IN, OUT, KEY, W]):
    class Context(abc.ABC, Generic[W2]):
        @abc.abstractmethod
        def window(self) -> W2:
            pass

        @abc.abstractmethod
        def current_processing_time(self) -> int:
            pass

        @abc.abstractmethod
        def current_watermark(self) -> int:
            pass

        @abc.abstractmethod
        def window_state(self) -> KeyedStateStore:
            pass

        @abc.abstractmethod
        def global_state(self) -> KeyedStateStore:
            pass

    @abc.abstractmethod
    def process(self, key: KEY, context: "ProcessWindowFunction.Context",
                elements: Iterable[IN]) -> Iterable[OUT]:
        pass

    def clear(self, context: "ProcessWindowFunction.Context") -> None:
        pass


class ProcessAllWindowFunction(Function, Generic[IN, OUT, W]):
    class Context(abc.ABC, Generic[W2]):
        @abc.abstractmethod
        def window(self) -> W2:
            pass

        @abc.abstractmethod
        def window_state(self) -> KeyedStateStore:
            pass

        @abc.abstractmethod
        def global_state(self) -> KeyedStateStore:
            pass

    @abc.abstractmethod
    def process(self, context: "ProcessAllWindowFunction.Context",
                elements: Iterable[IN]) -> Iterable[OUT]:
        pass

    def clear(self, context: "ProcessAllWindowFunction.Context") -> None:
        pass


class PassThroughWindowFunction(WindowFunction[IN, IN, KEY, W]):
    def apply(self, key: KEY, window: W, inputs: Iterable[IN]) -> Iterable[IN]:
        yield from inputs


class PassThroughAllWindowFunction(AllWindowFunction[IN, IN, W]):
    def apply(self, window: W, inputs: Iterable[IN]) -> Iterable[IN]:
        yield from inputs


class BaseBroadcastProcessFunction(Function):
    class BaseContext(abc.ABC):
        @abc.abstractmethod
        def timestamp(self) -> int:
            pass

        @abc.abstractmethod
        def current_processing_time(self) -> int:
            pass

        @abc.abstractmethod
        def current_watermark(self) -> int:
            pass

    class Context(BaseContext):
        @abc.abstractmethod
        def get_broadcast_state(self, state_descriptor: MapStateDescriptor) -> BroadcastState:
            pass

    class ReadOnlyContext(BaseContext):
        @abc.abstractmethod
        def get_broadcast_state(
                self, state_descriptor: MapStateDescriptor) -> ReadOnlyBroadcastState:
            pass


class BroadcastProcessFunction(BaseBroadcastProcessFunction, Generic[IN1, IN2, OUT]):
    class Context(BaseBroadcastProcessFunction.Context, abc.ABC):
        pass

    class ReadOnlyContext(BaseBroadcastProcessFunction.ReadOnlyContext, abc.ABC):
        pass

    @abc.abstractmethod
    def process_element(self, value: IN1, ctx: "BroadcastProcessFunction.ReadOnlyContext"):
        pass

    @abc.abstractmethod
    def process_broadcast_element(self, value: IN2, ctx: "BroadcastProcessFunction.Context"):
        pass


class KeyedBroadcastProcessFunction(BaseBroadcastProcessFunction, Generic[KEY, IN1, IN2, OUT]):
    class Context(BaseBroadcastProcessFunction.Context, abc.ABC):
        pass

    class ReadOnlyContext(BaseBroadcastProcessFunction.ReadOnlyContext, abc.ABC):
        @abc.abstractmethod
        def timer_service(self) -> TimerService:
            pass

        @abc.abstractmethod
        def get_current_key(self) -> KEY:
            pass

    class OnTimerContext(ReadOnlyContext, abc.ABC):
        @abc.abstractmethod
        def time_domain(self) -> TimeDomain:
            pass

        @abc.abstractmethod
        def get_current_key(self) -> KEY:
            pass

    @abc.abstractmethod
    def process_element(self, value: IN1,
                        ctx: "KeyedBroadcastProcessFunction.ReadOnlyContext"):
        pass

    @abc.abstractmethod
    def process_broadcast_element(self, value: IN2,
                                  ctx: "KeyedBroadcastProcessFunction.Context"):
        pass

    def on_timer(self, timestamp: int, ctx: "KeyedBroadcastProcessFunction.OnTimerContext"):
        pass


# -- internal window functions (what WindowedStream / AllWindowedStream hand to the window
#    operator, as in PyFlink): one interface over the user's window function kinds ----------

class InternalWindowFunction(Function, Generic[IN, OUT, KEY, W]):
    """process(key, window, context, input): ``input`` is the window's contents, either one
    value (reduce / aggregate) or an iterable (apply / process)."""

    class InternalWindowContext(abc.ABC):
        @abc.abstractmethod
        def current_processing_time(self) -> int:
            pass

        @abc.abstractmethod
        def current_watermark(self) -> int:
            pass

        @abc.abstractmethod
        def window_state(self) -> KeyedStateStore:
            pass

        @abc.abstractmethod
        def global_state(self) -> KeyedStateStore:
            pass

    @abc.abstractmethod
    def process(self, key: KEY, window: W, context: InternalWindowContext,
                input_data: IN) -> Iterable[OUT]:
        pass

    @abc.abstractmethod
    def clear(self, window: W, context: InternalWindowContext):
        pass


class _WrappingWindowFunction(InternalWindowFunction):
    def __init__(self, wrapped_function):
        self._wrapped_function = wrapped_function

    def open(self, runtime_context: RuntimeContext):
        self._wrapped_function.open(runtime_context)

    def close(self):
        self._wrapped_function.close()

    def clear(self, window, context):
        pass


class InternalSingleValueWindowFunction(_WrappingWindowFunction):
    def process(self, key, window, context, input_data):
        return self._wrapped_function.apply(key, window, [input_data])


class InternalSingleValueAllWindowFunction(_WrappingWindowFunction):
    def process(self, key, window, context, input_data):
        return self._wrapped_function.apply(window, [input_data])


class InternalIterableWindowFunction(_WrappingWindowFunction):
    def process(self, key, window, context, input_data):
        return self._wrapped_function.apply(key, window, input_data)


class InternalIterableAllWindowFunction(_WrappingWindowFunction):
    def process(self, key, window, context, input_data):
        return self._wrapped_function.apply(window, input_data)


class InternalProcessWindowContext(ProcessWindowFunction.Context):
    """The Context a ProcessWindowFunction sees: the window plus the operator's context."""

    def __init__(self):
        self._underlying = None
        self._window = None

    def window(self):
        return self._window

    def current_processing_time(self) -> int:
        return self._underlying.current_processing_time()

    def current_watermark(self) -> int:
        return self._underlying.current_watermark()

    def window_state(self) -> KeyedStateStore:
        return self._underlying.window_state()

    def global_state(self) -> KeyedStateStore:
        return self._underlying.global_state()


class InternalProcessAllWindowContext(ProcessAllWindowFunction.Context):
    """The Context a ProcessAllWindowFunction sees."""

    def __init__(self):
        self._underlying = None
        self._window = None

    def window(self):
        return self._window

    def window_state(self) -> KeyedStateStore:
        return self._underlying.window_state()

    def global_state(self) -> KeyedStateStore:
        return self._underlying.global_state()


class _WrappingProcessWindowFunction(_WrappingWindowFunction):
    _context_class = InternalProcessWindowContext

    def __init__(self, wrapped_function):
        super().__init__(wrapped_function)
        self._internal_context = self._context_class()

    def _context(self, window, context):
        internal = self._internal_context
        internal._window = window
        internal._underlying = context
        return internal

    def clear(self, window, context):
        self._wrapped_function.clear(self._context(window, context))


class InternalSingleValueProcessWindowFunction(_WrappingProcessWindowFunction):
    def process(self, key, window, context, input_data):
        return self._wrapped_function.process(key, self._context(window, context), [input_data])


class InternalIterableProcessWindowFunction(_WrappingProcessWindowFunction):
    def process(self, key, window, context, input_data):
        return self._wrapped_function.process(key, self._context(window, context), input_data)


class InternalSingleValueProcessAllWindowFunction(_WrappingProcessWindowFunction):
    _context_class = InternalProcessAllWindowContext

    def process(self, key, window, context, input_data):
        return self._wrapped_function.process(self._context(window, context), [input_data])


class InternalIterableProcessAllWindowFunction(_WrappingProcessWindowFunction):
    _context_class = InternalProcessAllWindowContext

    def process(self, key, window, context, input_data):
        return self._wrapped_function.process(self._context(window, context), input_data)
