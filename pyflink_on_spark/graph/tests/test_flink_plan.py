"""get_execution_plan() as PyFlink 1.20 prints it: helper operators, Python chaining, ids.
(The exact JSON of whole programs is checked against real PyFlink by the compat cases
basic/execution_plan_*; these tests pin the rules one at a time.)"""
import json

from pyflink_on_spark.common import Types
from pyflink_on_spark.datastream import OutputTag, ProcessFunction, StreamExecutionEnvironment
from pyflink_on_spark.graph.plan import jackson_pretty


def _env(parallelism=2):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(parallelism)
    return env


def _nodes(env):
    return [(n["id"], n["type"], n["parallelism"],
             [(p["id"], p["ship_strategy"]) for p in n.get("predecessors", [])])
            for n in json.loads(env.get_execution_plan())["nodes"]]


def test_jackson_layout_puts_array_items_inline_and_indents_by_object():
    text = jackson_pretty({"nodes": [{"id": 1, "p": [{"a": "x"}]}, {"id": 2}], "e": []})
    assert text == ('{\n  "nodes" : [ {\n    "id" : 1,\n    "p" : [ {\n      "a" : "x"\n'
                    '    } ]\n  }, {\n    "id" : 2\n  } ],\n  "e" : [ ]\n}')


def test_consecutive_python_operators_become_one_node_with_new_ids():
    env = _env()
    source = env.from_collection(["a b"], type_info=Types.STRING())
    source.flat_map(lambda s: s.split(), Types.STRING()).filter(bool) \
        .map(lambda w: (w, 1)).print()
    s = source._transformation.flink_id
    # flat_map s+1, filter s+2, map s+3, the print's pickled-to-string map s+4, sink s+5;
    # chaining makes s+6 (FlatMap, Filter), s+7 (+ Map), s+8 (+ Map)
    assert _nodes(env) == [
        (s, "Source: Collection Source", 1, []),
        (s + 8, "FlatMap, Filter, Map, Map", 2, [(s, "REBALANCE")]),
        (s + 5, "Sink: Print to Std. Out", 2, [(s + 8, "FORWARD")])]


def test_key_by_map_takes_its_input_parallelism_and_a_forward_edge():
    env = _env(3)
    source = env.from_collection([1, 2], type_info=Types.INT())
    source.key_by(lambda x: x % 2).reduce(lambda a, b: a + b).print()
    s = source._transformation.flink_id
    assert _nodes(env) == [
        (s, "Source: Collection Source", 1, []),
        (s + 1, "_stream_key_by_map_operator", 1, [(s, "FORWARD")]),
        (s + 3, "Reduce", 3, [(s + 1, "HASH")]),
        (s + 4, "Sink: Print to Std. Out", 3, [(s + 3, "FORWARD")])]


def test_an_operator_with_two_consumers_does_not_chain():
    env = _env()
    tag = OutputTag("odd", Types.INT())

    class Split(ProcessFunction):
        def process_element(self, value, ctx):
            yield (tag, value) if value % 2 else value

    source = env.from_collection([1, 2], type_info=Types.INT())
    split = source.process(Split(), Types.INT())
    split.get_side_output(tag).map(lambda x: x * 10, Types.INT()).print()
    split.print()
    s = source._transformation.flink_id
    nodes = _nodes(env)
    # the side output's map(i: i) (s+3) chains with the user's map (s+4); PROCESS, read by
    # the side output and by a print, chains with nothing
    assert (s + 1, "PROCESS", 2, [(s, "REBALANCE")]) in nodes
    assert (s + 7, "Map, Map", 2, [(s + 1, "FORWARD")]) in nodes


def test_a_chained_node_keeps_its_id_in_a_second_plan():
    env = _env()
    source = env.from_collection([1], type_info=Types.INT())
    source.map(lambda x: x, Types.INT()).filter(bool).print()
    first = _nodes(env)
    assert first == _nodes(env)          # the chained node keeps its id
    assert first[1][1] == "Map, Filter"


def test_add_sink_is_an_unnamed_data_sink_and_sink_to_a_writer_and_committer(tmp_path):
    from pyflink_on_spark.common import Encoder
    from pyflink_on_spark.datastream.connectors.file_system import FileSink, StreamingFileSink
    env = _env(1)
    source = env.from_collection(["a"], type_info=Types.STRING())
    source.add_sink(StreamingFileSink.for_row_format(
        str(tmp_path / "a"), Encoder.simple_string_encoder()).build())
    source.sink_to(FileSink.for_row_format(
        str(tmp_path / "b"), Encoder.simple_string_encoder()).build())
    s = source._transformation.flink_id
    # add_sink s+1; sink_to s+2, expanded at plan time: writer s+3, committer s+5
    assert _nodes(env) == [
        (s, "Source: Collection Source", 1, []),
        (s + 3, "Sink: Writer", 1, [(s, "FORWARD")]),
        (s + 5, "Sink: Committer", 1, [(s + 3, "FORWARD")]),
        (s + 1, "Sink: Unnamed", 1, [(s, "FORWARD")])]
