"""WindowedStream and AllWindowedStream (pyflink.datastream.data_stream's window API).

Pure API: each terminal method (reduce / aggregate / apply / process) describes the window
operation (assigner, trigger, lateness, late-data tag, the window-contents state, the
internal window function) and adds one window node (specs.operators.WindowSpec) to the graph; the engine's
WindowOperator runs it. AllWindowedStream is a WindowedStream over a constant key, as in
PyFlink: it runs at the stream's parallelism with every element on the subtask of that key.
"""
from __future__ import annotations

from typing import Callable, Optional, Union

from pyflink_on_spark.datastream.functions import (
    AggregateFunction, AllWindowFunction, InternalIterableAllWindowFunction,
    InternalIterableProcessAllWindowFunction, InternalIterableProcessWindowFunction,
    InternalIterableWindowFunction, InternalSingleValueAllWindowFunction,
    InternalSingleValueProcessAllWindowFunction, InternalSingleValueProcessWindowFunction,
    InternalSingleValueWindowFunction, NullByteKeySelector, PassThroughAllWindowFunction,
    PassThroughWindowFunction, ProcessAllWindowFunction, ProcessWindowFunction, ReduceFunction,
    WindowFunction)
from pyflink_on_spark.datastream.output_tag import OutputTag
from pyflink_on_spark.datastream.state import (
    AggregatingStateDescriptor, ListStateDescriptor, ReducingStateDescriptor)
from pyflink_on_spark.datastream.window import (
    MergingWindowAssigner, Trigger, WindowAssigner, WindowOperationDescriptor)
from pyflink_on_spark.specs.operators import WindowSpec

__all__ = ["WindowedStream", "AllWindowedStream"]

WINDOW_STATE_NAME = "window-contents"


class _WindowedStreamBase(object):
    _stream_kind = "Window"

    def __init__(self, keyed_stream, window_assigner: WindowAssigner):
        self._keyed_stream = keyed_stream
        self._window_assigner = window_assigner
        self._allowed_lateness = 0
        self._late_data_output_tag: Optional[OutputTag] = None
        self._window_trigger: Optional[Trigger] = None

    def get_execution_environment(self):
        return self._keyed_stream.get_execution_environment()

    def get_input_type(self):
        return self._keyed_stream._origin_stream.get_type()

    def allowed_lateness(self, time_ms: int):
        """Elements may arrive this many ms after the watermark passed their window's end
        and still update it (firing it again); event-time windows only."""
        self._allowed_lateness = time_ms
        return self

    def side_output_late_data(self, output_tag: OutputTag):
        """Late elements (behind the watermark by more than the allowed lateness) go to this
        side output instead of being dropped."""
        self._late_data_output_tag = output_tag
        return self

    def _single_value_function(self, window_function):
        raise NotImplementedError

    def _result(self, internal_window_function, state_descriptor, func_desc: str,
                output_type):
        if self._window_trigger is None:
            self._window_trigger = self._window_assigner.get_default_trigger(
                self.get_execution_environment())
        descriptor = WindowOperationDescriptor(
            self._window_assigner, self._window_trigger, self._allowed_lateness,
            self._late_data_output_tag, state_descriptor,
            self._window_assigner.get_window_serializer(), internal_window_function)
        stream = self._keyed_stream._keyed(WindowSpec, descriptor.generate_op_name(),
                                           descriptor, output_type)
        return stream.set_description(descriptor.generate_op_desc(self._stream_kind, func_desc))

    @staticmethod
    def _describe(function, window_function) -> str:
        desc = type(function).__name__
        if window_function is not None:
            desc = "%s, %s" % (desc, type(window_function).__name__)
        return desc

    def _reduce(self, reduce_function, window_function, output_type):
        internal = self._single_value_function(window_function)
        if window_function is None and output_type is None:
            output_type = self.get_input_type()
        state = ReducingStateDescriptor(WINDOW_STATE_NAME, reduce_function,
                                        self.get_input_type())
        return self._result(internal, state, self._describe(reduce_function, window_function),
                            output_type)

    def _aggregate(self, aggregate_function, window_function, accumulator_type, output_type):
        from pyflink_on_spark.common.typeinfo import RowTypeInfo, Types
        internal = self._single_value_function(window_function)
        if accumulator_type is None:
            accumulator_type = Types.PICKLED_BYTE_ARRAY()
        elif isinstance(accumulator_type, list):
            accumulator_type = RowTypeInfo(accumulator_type)
        state = AggregatingStateDescriptor(WINDOW_STATE_NAME, aggregate_function,
                                           accumulator_type)
        return self._result(internal, state,
                            self._describe(aggregate_function, window_function), output_type)

    def _iterable(self, internal, window_function, output_type):
        state = ListStateDescriptor(WINDOW_STATE_NAME, self.get_input_type())
        return self._result(internal, state, type(window_function).__name__, output_type)


class WindowedStream(_WindowedStreamBase):
    """A keyed stream whose elements are grouped into windows per key; reduce / aggregate /
    apply / process turn each window firing into output."""

    def __init__(self, keyed_stream, window_assigner: WindowAssigner):
        super().__init__(keyed_stream, window_assigner)

    def trigger(self, trigger: Trigger) -> 'WindowedStream':
        """Sets the trigger deciding when windows are evaluated (default: the assigner's)."""
        self._window_trigger = trigger
        return self

    def allowed_lateness(self, time_ms: int) -> 'WindowedStream':
        return super().allowed_lateness(time_ms)

    def side_output_late_data(self, output_tag: OutputTag) -> 'WindowedStream':
        return super().side_output_late_data(output_tag)

    def _single_value_function(self, window_function):
        if window_function is None:
            return InternalSingleValueWindowFunction(PassThroughWindowFunction())
        if isinstance(window_function, WindowFunction):
            return InternalSingleValueWindowFunction(window_function)
        if isinstance(window_function, ProcessWindowFunction):
            return InternalSingleValueProcessWindowFunction(window_function)
        raise TypeError("window_function should be a WindowFunction or ProcessWindowFunction")

    def reduce(self, reduce_function: Union[Callable, ReduceFunction],
               window_function: Union[WindowFunction, ProcessWindowFunction] = None,
               output_type=None):
        """Reduces each window's elements incrementally; the window function (if any) gets
        the one reduced value when the window fires."""
        return self._reduce(reduce_function, window_function, output_type)

    def aggregate(self, aggregate_function: AggregateFunction,
                  window_function: Union[WindowFunction, ProcessWindowFunction] = None,
                  accumulator_type=None, output_type=None):
        """Aggregates each window's elements incrementally with the AggregateFunction."""
        return self._aggregate(aggregate_function, window_function, accumulator_type,
                               output_type)

    def apply(self, window_function: WindowFunction, output_type=None):
        """Calls the WindowFunction with all of a window's elements when it fires."""
        return self._iterable(InternalIterableWindowFunction(window_function),
                              window_function, output_type)

    def process(self, process_window_function: ProcessWindowFunction, output_type=None):
        """Calls the ProcessWindowFunction with all of a window's elements when it fires."""
        return self._iterable(InternalIterableProcessWindowFunction(process_window_function),
                              process_window_function, output_type)


class AllWindowedStream(_WindowedStreamBase):
    """A non-keyed stream grouped into windows (all elements under one constant key)."""

    _stream_kind = "AllWindow"

    def __init__(self, data_stream, window_assigner: WindowAssigner):
        super().__init__(data_stream.key_by(NullByteKeySelector()), window_assigner)

    def trigger(self, trigger: Trigger) -> 'AllWindowedStream':
        """Sets the trigger deciding when windows are evaluated (default: the assigner's)."""
        if isinstance(self._window_assigner, MergingWindowAssigner) \
                and (trigger.can_merge() is not True):
            raise TypeError("A merging window assigner cannot be used with a trigger that does "
                            "not support merging.")
        self._window_trigger = trigger
        return self

    def allowed_lateness(self, time_ms: int) -> 'AllWindowedStream':
        return super().allowed_lateness(time_ms)

    def side_output_late_data(self, output_tag: OutputTag) -> 'AllWindowedStream':
        return super().side_output_late_data(output_tag)

    def _single_value_function(self, window_function):
        if window_function is None:
            return InternalSingleValueAllWindowFunction(PassThroughAllWindowFunction())
        if isinstance(window_function, AllWindowFunction):
            return InternalSingleValueAllWindowFunction(window_function)
        if isinstance(window_function, ProcessAllWindowFunction):
            return InternalSingleValueProcessAllWindowFunction(window_function)
        raise TypeError("window_function should be a AllWindowFunction or "
                        "ProcessAllWindowFunction")

    def reduce(self, reduce_function: Union[Callable, ReduceFunction],
               window_function: Union[AllWindowFunction, ProcessAllWindowFunction] = None,
               output_type=None):
        """Reduces each window's elements incrementally."""
        return self._reduce(reduce_function, window_function, output_type)

    def aggregate(self, aggregate_function: AggregateFunction,
                  window_function: Union[AllWindowFunction, ProcessAllWindowFunction] = None,
                  accumulator_type=None, output_type=None):
        """Aggregates each window's elements incrementally with the AggregateFunction."""
        return self._aggregate(aggregate_function, window_function, accumulator_type,
                               output_type)

    def apply(self, window_function: AllWindowFunction, output_type=None):
        """Calls the AllWindowFunction with all of a window's elements when it fires."""
        return self._iterable(InternalIterableAllWindowFunction(window_function),
                              window_function, output_type)

    def process(self, process_window_function: ProcessAllWindowFunction, output_type=None):
        """Calls the ProcessAllWindowFunction with all of a window's elements."""
        return self._iterable(
            InternalIterableProcessAllWindowFunction(process_window_function),
            process_window_function, output_type)
