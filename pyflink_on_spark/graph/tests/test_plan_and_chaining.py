"""The graph built by the API: chaining, partitioning defaults, the execution plan."""
import json

import pytest

from pyflink_on_spark.common import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.graph.compile import GraphError


def _env(parallelism=2):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(parallelism)
    return env


def test_execution_plan_lists_nodes_with_ship_strategies():
    env = _env()
    (env.from_collection([1, 2], type_info=Types.INT())
        .map(lambda x: x, output_type=Types.INT())
        .key_by(lambda x: x)
        .reduce(lambda a, b: a + b)
        .print())
    plan = json.loads(env.get_execution_plan())
    by_type = {n["type"]: n for n in plan["nodes"]}
    assert by_type["Source: Collection Source"]["parallelism"] == 1
    # PyFlink's key_by map chained to the map before it (compat case basic/execution_plan_*)
    mapped = by_type["Map, _stream_key_by_map_operator"]
    assert mapped["predecessors"][0]["ship_strategy"] == "REBALANCE"
    assert by_type["Reduce"]["predecessors"][0] == {
        "id": mapped["id"], "ship_strategy": "HASH", "side": "second"}
    assert by_type["Sink: Print to Std. Out"]["predecessors"][0]["ship_strategy"] == "FORWARD"
    assert [n["pact"] for n in plan["nodes"]][-1] == "Data Sink"


def test_forward_operators_of_equal_parallelism_chain_into_one_stage():
    env = _env()
    ds = env.from_collection([1], type_info=Types.INT()).rebalance() \
        .map(lambda x: x).filter(lambda x: True).map(lambda x: x)
    ds.print()
    job = env._compile(env._sinks)
    names = [[op.name for op in stage.spec.operators] for stage in job.stages]
    assert names == [["Source: Collection Source"],
                     ["Map", "Filter", "Map", "Print to Std. Out"]]
    assert job.stages[1].spec.task_name == "Map, Filter, Map"


def test_start_new_chain_and_disable_chaining_split_stages():
    env = _env(1)
    ds = env.from_collection([1]).map(lambda x: x).start_new_chain().map(lambda x: x)
    ds.disable_chaining()
    ds.print()
    job = env._compile(env._sinks)
    assert [len(stage.spec.operators) for stage in job.stages] == [1, 1, 1, 1]


def test_forward_across_different_parallelism_is_rejected_as_in_flink():
    env = _env(2)
    env.from_collection([1]).forward().map(lambda x: x).print()
    with pytest.raises(GraphError, match="Forward partitioning does not allow change"):
        env._compile(env._sinks)


def test_keyed_stream_rejects_parallelism_changes_like_pyflink():
    keyed = _env().from_collection([1]).key_by(lambda x: x)
    with pytest.raises(Exception, match="Set parallelism for KeyedStream is not supported"):
        keyed.set_parallelism(3)


def test_unsupported_apis_raise_naming_the_api():
    ds = _env().from_collection([1])
    with pytest.raises(NotImplementedError, match="add_source"):
        ds.get_execution_environment().add_source(None)


def _collect_sink(ds):
    """The sink execute_and_collect() adds (datastream/data_stream.py), without running."""
    from pyflink_on_spark.graph.transformations import SinkTransformation
    from pyflink_on_spark.specs.sinks import CollectSinkSpec
    node = SinkTransformation(name="Collect Sink", input=ds._transformation,
                              spec=CollectSinkSpec(), input_type=ds._transformation.output_type)
    node.parallelism = 1
    return node


def test_a_collect_sink_behind_a_plain_edge_runs_in_its_input_stage():
    # its one subtask only gathered the input's subtasks in order: the driver reads a
    # stage's subtasks in that order anyway, so no stage of its own
    env = _env(2)
    ds = env.from_collection([1, 2], type_info=Types.INT()).map(lambda x: x)
    job = env._compile([_collect_sink(ds)])
    assert [[op.name for op in s.spec.operators] for s in job.stages] == [
        ["Source: Collection Source"], ["Map", "Collect Sink"]]
    assert job.stages[1].spec.parallelism == 2 and job.stages[1].spec.task_name == "Map"
    (sink_exit,) = [e for e in job.stages[1].spec.exits if e.to_driver]
    assert sink_exit.target_parallelism == 2 and len(job.stages[1].sinks) == 1


@pytest.mark.parametrize("shape", ["rebalance", "union"])
def test_a_collect_sink_behind_a_chosen_partitioning_or_a_union_keeps_its_stage(shape):
    env = _env(2)
    ds = env.from_collection([1, 2], type_info=Types.INT()).map(lambda x: x)
    ds = ds.rebalance() if shape == "rebalance" else ds.union(ds.map(lambda x: x + 1))
    job = env._compile([_collect_sink(ds)])
    last = job.stages[-1].spec
    assert [op.name for op in last.operators] == ["Collect Sink"] and last.parallelism == 1
