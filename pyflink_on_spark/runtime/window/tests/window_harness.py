"""Drive one WindowOperator by hand (no graph, no Spark): elements, watermarks, processing
time and the end of input in, main and side outputs out."""
from __future__ import annotations

from typing import List, Optional

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.functions import (
    InternalIterableProcessWindowFunction, InternalIterableWindowFunction,
    InternalSingleValueProcessWindowFunction, InternalSingleValueWindowFunction,
    PassThroughWindowFunction, ProcessWindowFunction, wrap_key_selector)
from pyflink_on_spark.datastream.output_tag import OutputTag
from pyflink_on_spark.datastream.state import (
    AggregatingStateDescriptor, ListStateDescriptor, ReducingStateDescriptor)
from pyflink_on_spark.datastream.window import WindowOperationDescriptor
from pyflink_on_spark.runtime.batch_order import batch_key_order
from pyflink_on_spark.runtime.context import TaskContext
from pyflink_on_spark.runtime.output import Output
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK
from pyflink_on_spark.runtime.window.operator import WindowOperator

LATE = OutputTag("late", Types.PICKLED_BYTE_ARRAY())


class FakeClock(object):
    def __init__(self, now: int = 0) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


def descriptor(assigner, state_descriptor, internal_function, trigger=None,
               allowed_lateness: int = 0, late_tag: Optional[OutputTag] = None):
    if trigger is None:
        trigger = assigner.get_default_trigger(None)
    return WindowOperationDescriptor(assigner, trigger, allowed_lateness, late_tag,
                                     state_descriptor, assigner.get_window_serializer(),
                                     internal_function)


def reduce_op(assigner, reduce_function, window_function=None, **kw):
    internal = InternalSingleValueWindowFunction(window_function or PassThroughWindowFunction()) \
        if not isinstance(window_function, ProcessWindowFunction) \
        else InternalSingleValueProcessWindowFunction(window_function)
    state = ReducingStateDescriptor("window-contents", reduce_function, None)
    return descriptor(assigner, state, internal, **kw)


def aggregate_op(assigner, aggregate_function, window_function=None, **kw):
    internal = InternalSingleValueWindowFunction(window_function or PassThroughWindowFunction()) \
        if not isinstance(window_function, ProcessWindowFunction) \
        else InternalSingleValueProcessWindowFunction(window_function)
    state = AggregatingStateDescriptor("window-contents", aggregate_function,
                                       Types.PICKLED_BYTE_ARRAY())
    return descriptor(assigner, state, internal, **kw)


def process_op(assigner, process_function, **kw):
    state = ListStateDescriptor("window-contents", Types.PICKLED_BYTE_ARRAY())
    return descriptor(assigner, state, InternalIterableProcessWindowFunction(process_function),
                      **kw)


def apply_op(assigner, window_function, **kw):
    state = ListStateDescriptor("window-contents", Types.PICKLED_BYTE_ARRAY())
    return descriptor(assigner, state, InternalIterableWindowFunction(window_function), **kw)


class Harness:
    """One window operator instance; ``out`` is [(value, timestamp)], ``late`` the late-data
    side output [(value, timestamp)]."""

    def __init__(self, op_descriptor, key=lambda v: v[0], clock: FakeClock = None,
                 state_backend=None, batch: bool = False, work_dir: str = None) -> None:
        self.clock = clock or FakeClock()
        self.out: List[tuple] = []
        self.late: List[tuple] = []
        self.watermarks: List[int] = []
        output = Output()
        output.add_main_target(lambda v, t: self.out.append((v, t)), self.watermarks.append)
        output.add_side_target(LATE.tag_id, lambda v, t: self.late.append((v, t)),
                               self.watermarks.append)
        self.operator = WindowOperator(op_descriptor, wrap_key_selector(key),
                                       batch_key_order(None) if batch else None)
        task = TaskContext(task_name="Window", subtask_index=0, parallelism=1,
                           max_parallelism=128, clock=self.clock, state_backend=state_backend,
                           work_dir=work_dir, runtime_mode="BATCH" if batch else "STREAMING")
        self.operator.setup(output, task, "Window")
        self.operator.prepare()
        self.operator.open()

    def element(self, value, timestamp=None) -> "Harness":
        self.operator.process_element(value, timestamp)
        return self

    def elements(self, values_and_timestamps) -> "Harness":
        for value, timestamp in values_and_timestamps:
            self.operator.process_element(value, timestamp)
        return self

    def watermark(self, watermark: int) -> "Harness":
        self.operator.process_watermark(watermark)
        return self

    def processing_time(self, now: int) -> "Harness":
        self.clock.now = now
        self.operator.advance_processing_time(now)
        return self

    def end(self) -> "Harness":
        self.operator.process_watermark(MAX_WATERMARK)
        self.operator.end_input()
        self.operator.close()
        return self

    def values(self) -> list:
        return [v for v, _ in self.out]

    def take(self) -> list:
        taken = self.values()
        del self.out[:]
        return taken
