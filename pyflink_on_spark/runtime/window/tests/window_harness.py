"""Window operators on the operator harness (runtime/testing.py): descriptors of each window
function kind, and a Harness that builds the WindowOperator with a late-data side output."""
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
from pyflink_on_spark.runtime.testing import ManualClock, OperatorHarness
from pyflink_on_spark.runtime.window.operator import WindowOperator

LATE = OutputTag("late", Types.PICKLED_BYTE_ARRAY())


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


class Harness(OperatorHarness):
    """One window operator instance on the operator harness; ``late`` is the late-data side
    output [(value, timestamp)]."""

    def __init__(self, op_descriptor, key=lambda v: v[0], clock: ManualClock = None,
                 state_backend=None, batch: bool = False, work_dir: str = None) -> None:
        operator = WindowOperator(op_descriptor, wrap_key_selector(key),
                                  batch_key_order(None) if batch else None)
        super().__init__(operator, side_tags=[LATE.tag_id], clock=clock, name="Window",
                         state_backend=state_backend, work_dir=work_dir,
                         runtime_mode="BATCH" if batch else "STREAMING")

    @property
    def late(self) -> List[tuple]:
        return self.side[LATE.tag_id]
