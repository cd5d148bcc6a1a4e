"""The RuntimeContext user functions get in open(), without Spark."""
import pytest

from pyflink_on_spark.datastream.state import ValueStateDescriptor
from pyflink_on_spark.runtime.context import StreamingRuntimeContext, TaskContext
from pyflink_on_spark.runtime.state.heap import HeapKeyedStateBackend


def _task(**overrides):
    fields = dict(task_name="my map", subtask_index=1, parallelism=3, max_parallelism=16,
                  attempt_number=2, job_parameters={"color": "blue"})
    fields.update(overrides)
    return TaskContext(**fields)


def test_task_facts_as_pyflink_reports_them():
    ctx = StreamingRuntimeContext(_task())
    assert ctx.get_task_name() == "my map"
    assert ctx.get_index_of_this_subtask() == 1
    assert ctx.get_number_of_parallel_subtasks() == 3
    assert ctx.get_max_number_of_parallel_subtasks() == 16
    assert ctx.get_attempt_number() == 2
    assert ctx.get_task_name_with_subtasks() == "my map (2/3)#2"
    assert ctx.get_job_parameter("color", "none") == "blue"
    assert ctx.get_job_parameter("size", "default") == "default"


def test_metric_groups_nest_and_count():
    ctx = StreamingRuntimeContext(_task())
    group = ctx.get_metrics_group().add_group("my_group").add_group("key", "value")
    assert group.get_scope_components() == ["my_group", "key.value"]
    counter = group.counter("records")
    counter.inc()
    counter.inc(4)
    counter.dec()
    group.gauge("answer", lambda: 42)
    group.meter("rate").mark_event(3)
    group.distribution("sizes").update(7)
    assert ctx.get_metrics_group().snapshot() == {
        "my_group.key.value.records": 4, "my_group.key.value.answer": 42,
        "my_group.key.value.rate": 3,
        "my_group.key.value.sizes": {"count": 1, "min": 7, "max": 7, "mean": 7.0}}
    # add_group returns the same group again
    assert ctx.get_metrics_group().add_group("my_group") is \
        ctx.get_metrics_group().add_group("my_group")


def test_keyed_state_only_with_a_keyed_backend():
    descriptor = ValueStateDescriptor("v", None)
    with pytest.raises(RuntimeError, match="keyed stream"):
        StreamingRuntimeContext(_task()).get_state(descriptor)
    backend = HeapKeyedStateBackend(16)
    ctx = StreamingRuntimeContext(_task(), backend)
    backend.set_current_key("k")
    ctx.get_state(descriptor).update(5)
    assert ctx.get_state(descriptor) is ctx.get_state(descriptor)
    assert ctx.get_state(descriptor).value() == 5
