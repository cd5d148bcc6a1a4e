"""`yield tag, value` reaches a side output only from an operator on which get_side_output
was called (PyFlink's rule); otherwise the tuple is an ordinary main-output record."""
from pyflink_on_spark.datastream.functions import ProcessFunction, wrap_map
from pyflink_on_spark.datastream.output_tag import OutputTag
from pyflink_on_spark.graph.sources import collection_source
from pyflink_on_spark.graph.transformations import (
    OneInputTransformation, SideOutputTransformation, SinkTransformation, SourceTransformation)
from pyflink_on_spark.direct import run_job
from pyflink_on_spark.runtime.tests.engine_harness import compile_sinks
from pyflink_on_spark.specs.operators import MapSpec, ProcessSpec
from pyflink_on_spark.specs.sinks import CollectSinkSpec

TAG = OutputTag("odd")


class Split(ProcessFunction):
    def process_element(self, value, ctx):
        if value % 2:
            yield TAG, value
        else:
            yield value


def _graph(spec):
    src = SourceTransformation(name="Source", source=collection_source([1, 2, 3]))
    src.parallelism = 1
    return OneInputTransformation(name=type(spec).__name__, input=src, spec=spec)


def _collect(node):
    sink = SinkTransformation(name="Collect", input=node, spec=CollectSinkSpec())
    sink.parallelism = 1
    return sink


def test_without_get_side_output_tagged_tuples_stay_on_the_main_output():
    proc = _graph(ProcessSpec(Split()))
    assert not proc.routes_side_outputs
    sink = _collect(proc)
    out = run_job(compile_sinks([sink]))[sink.id]
    assert [v if not isinstance(v, tuple) else (v[0].tag_id, v[1]) for v in out] == [
        ("odd", 1), 2, ("odd", 3)]


def test_a_side_output_node_makes_its_operator_route_tags_even_if_it_is_not_run():
    proc = _graph(ProcessSpec(Split()))
    SideOutputTransformation(name="side", input=proc, tag_id="odd")  # never consumed
    assert proc.routes_side_outputs
    sink = _collect(proc)
    assert run_job(compile_sinks([sink]))[sink.id] == [2]


def test_map_returning_a_tag_pair_follows_the_same_rule():
    plain = _graph(MapSpec(wrap_map(lambda v: (TAG, v))))
    sink = _collect(plain)
    assert [v[1] for v in run_job(compile_sinks([sink]))[sink.id]] == [1, 2, 3]
    routed = _graph(MapSpec(wrap_map(lambda v: (TAG, v) if v % 2 else v)))
    side = SideOutputTransformation(name="side", input=routed, tag_id="odd")
    main_sink, side_sink = _collect(routed), _collect(side)
    out = run_job(compile_sinks([main_sink, side_sink]))
    assert (out[main_sink.id], out[side_sink.id]) == ([2], [1, 3])
