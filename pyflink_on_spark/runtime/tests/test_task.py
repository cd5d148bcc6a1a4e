"""The engine end to end on compiled graphs, without Spark."""
import pytest

from pyflink_on_spark.datastream.functions import (
    KeyedProcessFunction, ProcessFunction, wrap_filter, wrap_key_selector, wrap_map)
from pyflink_on_spark.datastream.output_tag import OutputTag
from pyflink_on_spark.graph.sources import collection_source, number_sequence_source
from pyflink_on_spark.graph.transformations import (
    OneInputTransformation, PartitionTransformation, SideOutputTransformation,
    SinkTransformation, SourceTransformation)
from pyflink_on_spark.runtime.errors import UserFunctionError
from pyflink_on_spark.runtime.key_groups import KeyToSubtask
from pyflink_on_spark.direct import run_job
from pyflink_on_spark.runtime.tests.engine_harness import compile_sinks
from pyflink_on_spark.specs.operators import (
    FilterSpec, KeyedProcessSpec, MapSpec, ProcessSpec, ReduceSpec)
from pyflink_on_spark.specs.partitioning import KeyedPartitioning
from pyflink_on_spark.specs.sinks import CollectSinkSpec


def _source(values, parallelism=1):
    node = SourceTransformation(name="Source", source=collection_source(values))
    node.parallelism = parallelism
    return node


def _op(upstream, name, spec):
    return OneInputTransformation(name=name, input=upstream, spec=spec)


def _collect(upstream, parallelism=1):
    sink = SinkTransformation(name="Collect", input=upstream, spec=CollectSinkSpec())
    sink.parallelism = parallelism
    return sink


def test_map_filter_chain_is_one_stage_and_keeps_order():
    src = _source(list(range(10)))
    mapped = _op(src, "map", MapSpec(wrap_map(lambda x: x * 10)))
    filtered = _op(mapped, "filter", FilterSpec(wrap_filter(lambda x: x % 20 == 0)))
    sink = _collect(filtered)
    job = compile_sinks([sink], parallelism=1)
    assert len(job.stages) == 1
    assert run_job(job)[sink.id] == [0, 20, 40, 60, 80]


def test_rebalance_then_keyed_reduce_emits_rolling_sums_per_key():
    src = _source([("a", 1), ("b", 2), ("a", 3), ("b", 4), ("a", 5)])
    keyed = PartitionTransformation(name="Keyed", input=src, partitioning=KeyedPartitioning(
                                        wrap_key_selector(lambda x: x[0])))
    from pyflink_on_spark.datastream.functions import wrap_reduce
    reduced = _op(keyed, "reduce", ReduceSpec(wrap_reduce(lambda a, b: (a[0], a[1] + b[1])),
                                             wrap_key_selector(lambda x: x[0])))
    sink = _collect(reduced, parallelism=2)
    reduced.parallelism = 2
    job = compile_sinks([sink], parallelism=2)
    out = run_job(job)[sink.id]
    assert sorted(out) == sorted([("a", 1), ("b", 2), ("a", 4), ("b", 6), ("a", 9)])
    # one key's updates arrive in source order
    assert [v for v in out if v[0] == "a"] == [("a", 1), ("a", 4), ("a", 9)]


def test_batch_mode_reduce_emits_only_final_value_per_key():
    src = _source([("a", 1), ("b", 2), ("a", 3)])
    keyed = PartitionTransformation(name="Keyed", input=src, partitioning=KeyedPartitioning(
                                        wrap_key_selector(lambda x: x[0])))
    from pyflink_on_spark.datastream.functions import wrap_reduce
    reduced = _op(keyed, "reduce", ReduceSpec(wrap_reduce(lambda a, b: (a[0], a[1] + b[1])),
                                             wrap_key_selector(lambda x: x[0])))
    sink = _collect(reduced)
    job = compile_sinks([sink], parallelism=1, mode="BATCH")
    assert sorted(run_job(job)[sink.id]) == [("a", 4), ("b", 2)]


def test_keyed_exit_sends_each_key_to_its_key_group_subtask():
    class Where(KeyedProcessFunction):
        def open(self, ctx):
            self.index = ctx.get_index_of_this_subtask()

        def process_element(self, value, ctx):
            yield (value, self.index)

    src = _source(list("abcdefghij") * 2)
    selector = wrap_key_selector(lambda x: x)
    keyed = PartitionTransformation(name="Keyed", input=src,
                                    partitioning=KeyedPartitioning(selector))
    proc = _op(keyed, "keyed_process", KeyedProcessSpec(Where(), selector))
    proc.parallelism = 3
    sink = _collect(proc, parallelism=3)
    out = run_job(compile_sinks([sink], parallelism=3))[sink.id]
    expected = KeyToSubtask(128, 3)
    assert len(out) == 20
    assert all(index == expected(key) for key, index in out)


def test_event_time_timers_fire_at_end_of_input_in_time_order_deduplicated():
    class Timers(KeyedProcessFunction):
        def process_element(self, value, ctx):
            ctx.timer_service().register_event_time_timer(value[1])
            ctx.timer_service().register_event_time_timer(value[1])  # duplicate: fires once
            if value[1] == 7:
                ctx.timer_service().delete_event_time_timer(7)

        def on_timer(self, timestamp, ctx):
            yield (ctx.get_current_key(), timestamp, ctx.timer_service().current_watermark())

    src = _source([("a", 5), ("b", 3), ("a", 1), ("b", 7)])
    selector = wrap_key_selector(lambda x: x[0])
    keyed = PartitionTransformation(name="Keyed", input=src,
                                    partitioning=KeyedPartitioning(selector))
    proc = _op(keyed, "keyed_process", KeyedProcessSpec(Timers(), selector))
    sink = _collect(proc)
    out = run_job(compile_sinks([sink], parallelism=1))[sink.id]
    max_wm = 2 ** 63 - 1
    assert out == [("a", 1, max_wm), ("b", 3, max_wm), ("a", 5, max_wm)]


def test_side_outputs_via_yield_tag_value_reach_get_side_output():
    tag = OutputTag("odd")

    class Split(ProcessFunction):
        def process_element(self, value, ctx):
            if value % 2:
                yield tag, value
            else:
                yield value

    src = _source(list(range(6)))
    proc = _op(src, "process", ProcessSpec(Split()))
    side = SideOutputTransformation(name="side", input=proc, tag_id="odd")
    main_sink, side_sink = _collect(proc), _collect(side)
    out = run_job(compile_sinks([main_sink, side_sink], parallelism=1))
    assert out[main_sink.id] == [0, 2, 4]
    assert out[side_sink.id] == [1, 3, 5]


def test_number_sequence_source_splits_into_contiguous_ranges_per_subtask():
    src = SourceTransformation(name="Seq", source=number_sequence_source(1, 10))
    src.parallelism = 3
    sink = _collect(src, parallelism=3)
    out = run_job(compile_sinks([sink], parallelism=3))[sink.id]
    assert out == list(range(1, 11))


def test_user_error_names_operator_and_shows_user_frame_first():
    def boom(x):
        raise ValueError("bad record %r" % x)

    src = _source([1])
    mapped = _op(src, "map", MapSpec(wrap_map(boom)))
    sink = _collect(mapped)
    with pytest.raises(UserFunctionError) as info:
        run_job(compile_sinks([sink]))
    message = str(info.value)
    assert "ValueError raised in operator 'map' (subtask 0)" in message
    lines = [l for l in message.splitlines() if l.strip().startswith("File ")]
    assert "test_task.py" in lines[0] and "boom" in message
    assert "bad record 1" in message
