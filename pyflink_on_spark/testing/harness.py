"""One user function driven step by step, with its keyed state readable: the engine's
operator harness (runtime/testing.py) around the operator the job would run."""
from __future__ import annotations

from typing import Any

from pyflink_on_spark.datastream.functions import wrap_key_selector
from pyflink_on_spark.runtime.registry import build_operator
from pyflink_on_spark.runtime.testing import ManualClock, OperatorHarness
from pyflink_on_spark.specs.operators import KeyedProcessSpec, ProcessSpec
from pyflink_on_spark.specs.stage import JobConfig

__all__ = ["ManualClock", "OperatorHarness", "keyed_process_harness", "process_harness",
           "keyed_state"]


def keyed_process_harness(function, key_selector, *, side_tags=(), key_type=None,
                          **harness_options: Any) -> OperatorHarness:
    """A KeyedProcessFunction as KeyedStream.process runs it: `.element(v, timestamp)`,
    `.watermark(t)`, `.processing_time(t)`, `.end()`; `.values()`, `.side_values(tag_id)`."""
    spec = KeyedProcessSpec(function, wrap_key_selector(key_selector), key_type)
    return OperatorHarness(build_operator(spec, JobConfig()), side_tags=side_tags,
                           **harness_options)


def process_harness(function, *, side_tags=(), **harness_options: Any) -> OperatorHarness:
    """A ProcessFunction as DataStream.process runs it."""
    return OperatorHarness(build_operator(ProcessSpec(function), JobConfig()),
                           side_tags=side_tags, **harness_options)


def keyed_state(harness: OperatorHarness, key: Any, descriptor):
    """The state `descriptor` (a ValueStateDescriptor, ListStateDescriptor...) of `key` in
    the harness's keyed operator: `keyed_state(h, "a", total).value()`. Read it before
    `end()` closes the operator."""
    backend = harness.operator.backend
    backend.set_current_key(key)
    return backend.get_partitioned_state(descriptor)
