"""Compiling two-input operators and side outputs: stages, edge order, converters."""
import json

from pyflink_on_spark.common import Row, Types
from pyflink_on_spark.datastream import (
    BroadcastProcessFunction, CoMapFunction, OutputTag, ProcessFunction,
    StreamExecutionEnvironment)
from pyflink_on_spark.datastream.state import MapStateDescriptor
from pyflink_on_spark.specs.operators import KeyedCoMapSpec
from pyflink_on_spark.specs.partitioning import BroadcastPartitioning, KeyedPartitioning


def _env(parallelism=2):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(parallelism)
    return env


class Tag(CoMapFunction):
    def map1(self, value):
        return value

    def map2(self, value):
        return value


class Rules(BroadcastProcessFunction):
    def process_element(self, value, ctx):
        yield value

    def process_broadcast_element(self, value, ctx):
        yield value


def _stage_of(job, node):
    return job.stage_of(node.id).spec


def test_a_two_input_operator_heads_its_stage_and_chains_what_follows():
    env = _env()
    a = env.from_collection([1], type_info=Types.INT()).map(lambda x: x, Types.INT())
    b = env.from_collection([2], type_info=Types.INT()).map(lambda x: x, Types.INT())
    co = a.connect(b).map(Tag(), Types.INT())
    co.map(lambda x: x + 1, Types.INT()).print()
    job = env._compile(env._sinks)
    stage = _stage_of(job, co._transformation)
    assert stage.head == co._transformation.id
    assert [op.name for op in stage.operators] == ["Co-Map", "Map", "Print to Std. Out"]
    assert sorted(i.input_index for i in stage.inputs) == [1, 2]
    # both inputs are separate stages (forward edges of equal parallelism, not chained)
    assert len({up.stage_id for up in job.stage_of(co._transformation.id).upstream}) == 2


def test_broadcast_input_edges_are_numbered_before_the_other_input():
    env = _env()
    events = env.from_collection([1], type_info=Types.INT())
    rules = env.from_collection(["r"], type_info=Types.STRING())
    desc = MapStateDescriptor("d", Types.STRING(), Types.STRING())
    out = events.connect(rules.broadcast(desc)).process(Rules(), Types.STRING())
    out.print()
    job = env._compile(env._sinks)
    stage = _stage_of(job, out._transformation)
    by_index = {i.input_index: i.edge_id for i in stage.inputs}
    assert by_index[2] < by_index[1]
    assert isinstance(job.exit(by_index[2]).partitioning, BroadcastPartitioning)
    # the plan still lists input 1 first, as PyFlink's does
    plan = json.loads(env.get_execution_plan())
    node = next(n for n in plan["nodes"] if n["type"] == "Co-Process-Broadcast")
    assert [p["ship_strategy"] for p in node["predecessors"]] == ["REBALANCE", "BROADCAST"]


def test_keyed_connected_streams_route_each_input_by_its_own_key():
    env = _env()
    a = env.from_collection([("a", 1)], type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    b = env.from_collection([(1, "a")], type_info=Types.TUPLE([Types.INT(), Types.STRING()]))
    co = a.connect(b).key_by(lambda x: x[0], lambda x: x[1], key_type=Types.STRING()) \
        .map(Tag())
    co.print()
    job = env._compile(env._sinks)
    inputs = sorted(_stage_of(job, co._transformation).inputs, key=lambda i: i.input_index)
    partitionings = [job.exit(i.edge_id).partitioning for i in inputs]
    assert all(isinstance(p, KeyedPartitioning) for p in partitionings)
    assert [p.key_selector.get_key(v) for p, v in
            zip(partitionings, [("a", 1), (1, "a")])] == ["a", "a"]
    assert isinstance(co._transformation.spec, KeyedCoMapSpec)


def test_execution_plan_lists_both_inputs_of_a_co_operator():
    env = _env()
    a = env.from_collection([1], type_info=Types.INT())
    b = env.from_collection([2], type_info=Types.INT())
    a.connect(b).map(Tag(), Types.INT()).print()
    plan = json.loads(env.get_execution_plan())
    co = next(n for n in plan["nodes"] if n["type"] == "Co-Map")
    sources = [n["id"] for n in plan["nodes"] if n["pact"] == "Data Source"]
    assert sorted(p["id"] for p in co["predecessors"]) == sorted(sources)
    assert [p["ship_strategy"] for p in co["predecessors"]] == ["REBALANCE", "REBALANCE"]


def test_side_output_edges_and_links_convert_to_the_tags_type():
    env = _env(1)
    tag = OutputTag("t", Types.ROW_NAMED(["a"], [Types.INT()]))

    class Side(ProcessFunction):
        def process_element(self, value, ctx):
            yield tag, Row(value)

    main = env.from_collection([1], type_info=Types.INT()).process(Side(), Types.STRING())
    side = main.get_side_output(tag)
    side.map(lambda r: r, Types.STRING()).print()          # chained link
    side.rebalance().map(lambda r: r, Types.STRING()).print()  # exit
    job = env._compile(env._sinks)
    stage = _stage_of(job, main._transformation)
    link = next(l for l in stage.links if l.side_tag == "t")
    exit_ = next(e for e in stage.exits if e.side_tag == "t")
    for convert in (link.converter, exit_.converter):
        assert repr(convert(Row(5))) == "Row(a=5)"
