"""A map whose only target is an exit runs inside the exit's input method (output.py
fuse_map): one Python call per record less, with the same results, errors and order of
side effects as the unfused chain."""
import pytest

from pyflink_on_spark.datastream.functions import (
    MapFunction, wrap_key_selector, wrap_map, wrap_reduce)
from pyflink_on_spark.datastream.output_tag import OutputTag
from pyflink_on_spark.graph.sources import collection_source
from pyflink_on_spark.graph.transformations import (
    OneInputTransformation, PartitionTransformation, SideOutputTransformation,
    SinkTransformation, SourceTransformation)
from pyflink_on_spark.runtime.errors import UserFunctionError
from pyflink_on_spark.runtime.exits import ExitCollector
from pyflink_on_spark.runtime.task import StreamTask
from pyflink_on_spark.runtime.tests.engine_harness import compile_sinks, run_job
from pyflink_on_spark.specs.operators import MapSpec, ReduceSpec
from pyflink_on_spark.specs.partitioning import KeyedPartitioning
from pyflink_on_spark.specs.sinks import CollectSinkSpec


def _map_key_by_reduce(values, map_function, key, mode="STREAMING", side_tag=None):
    src = SourceTransformation(name="Source", source=collection_source(values))
    mapped = OneInputTransformation(name="Map", input=src, spec=MapSpec(map_function))
    keyed = PartitionTransformation(name="Keyed", input=mapped, partitioning=KeyedPartitioning(
        wrap_key_selector(key)))
    reduced = OneInputTransformation(
        name="Reduce", input=keyed,
        spec=ReduceSpec(wrap_reduce(lambda a, b: (a[0], a[1] + b[1])), wrap_key_selector(key)))
    sinks = [SinkTransformation(name="Collect", input=reduced, spec=CollectSinkSpec())]
    if side_tag is not None:
        side = SideOutputTransformation(name="side", input=mapped, tag_id=side_tag.tag_id)
        sinks.append(SinkTransformation(name="Side", input=side, spec=CollectSinkSpec()))
    for node in (src, mapped, reduced, *sinks):
        node.parallelism = 1
    return compile_sinks(sinks, parallelism=1, mode=mode), sinks


def _source_task(job) -> StreamTask:
    return StreamTask(job.stages[0].spec, 0)


@pytest.mark.parametrize("mode", ["STREAMING", "BATCH"])
def test_a_map_into_a_keyed_exit_runs_inside_the_exit(mode):
    job, sinks = _map_key_by_reduce(["a", "b", "a"], wrap_map(lambda w: (w, 1)),
                                    lambda pair: pair[0], mode)
    task = _source_task(job)
    (collector,) = task.exits
    map_operator = [op for op in task.operators if op.name == "Map"][0]
    # the exit's own method, with the map inside, is what the source calls per record
    assert map_operator.process_element is collector.process_element
    assert sorted(run_job(job)[sinks[0].id])[-2:] == [("a", 2), ("b", 1)]


def test_the_fused_chain_calls_map_and_key_record_by_record(capsys):
    # the job is shipped to its tasks pickled, as Spark ships it: the functions print
    def to_pair(word):
        print("map", word)
        return word, 1

    def key(pair):
        print("key", pair[0])
        return pair[0]

    job, _ = _map_key_by_reduce(["a", "b"], wrap_map(to_pair), key)
    run_job(job)
    # the keyed operator calls the key selector too, in the next stage: only the source
    # stage's calls, which come first, are checked
    assert capsys.readouterr().out.splitlines()[:4] == ["map a", "key a", "map b", "key b"]


def test_an_error_of_the_fused_map_names_the_map_and_one_of_the_key_names_the_key_by():
    def to_pair(word):
        if word == "bad":
            raise ValueError("no pair for bad")
        return word, 1

    job, _ = _map_key_by_reduce(["a", "bad"], wrap_map(to_pair), lambda pair: pair[0])
    with pytest.raises(UserFunctionError) as failure:
        run_job(job)
    assert failure.value.operator_name == "Map"
    assert "no pair for bad" in str(failure.value)

    def picky_key(pair):
        if pair[0] == "bad":
            raise KeyError("no key for bad")
        return pair[0]

    job, _ = _map_key_by_reduce(["a", "bad"], wrap_map(lambda w: (w, 1)), picky_key)
    with pytest.raises(UserFunctionError) as failure:
        run_job(job)
    assert failure.value.operator_name == "key_by(picky_key)"


def test_a_map_function_object_is_fused_through_its_map_method():
    class ToPair(MapFunction):
        def map(self, value):
            return value, 10

    job, sinks = _map_key_by_reduce(["x", "x"], ToPair(), lambda pair: pair[0])
    assert run_job(job)[sinks[0].id] == [("x", 10), ("x", 20)]


def test_a_map_whose_side_outputs_are_taken_is_not_fused():
    tag = OutputTag("odd")

    def route(value):
        return (tag, value) if value % 2 else (value, 1)

    job, sinks = _map_key_by_reduce([1, 2, 3, 4], wrap_map(route), lambda pair: pair[0],
                                    side_tag=tag)
    task = _source_task(job)
    map_operator = [op for op in task.operators if op.name == "Map"][0]
    assert all(map_operator.process_element is not c.process_element for c in task.exits)
    out = run_job(job)
    assert out[sinks[1].id] == [1, 3]
    assert sorted(out[sinks[0].id]) == [(2, 1), (4, 1)]


def test_fusing_replaces_the_exits_method_so_one_path_holds_its_records():
    job, _ = _map_key_by_reduce(["a"], wrap_map(lambda w: (w, 1)), lambda pair: pair[0])
    collector = ExitCollector(job.stages[0].spec.exits[0], 0, 1, [], lambda e: e)
    unfused = collector.process_element, collector.process_many
    fused = collector.fused_with_map(lambda w: (w, 1), lambda e: e)
    assert (collector.process_element, collector.process_many) == fused
    assert not set(fused) & set(unfused)


def test_what_a_flat_map_yields_goes_through_the_exits_loop_record_by_record(capsys):
    from pyflink_on_spark.datastream.functions import wrap_flat_map
    from pyflink_on_spark.specs.operators import FlatMapSpec

    def words(line):
        for word in line.split():
            print("yield", word)
            yield word, 1

    def key(pair):
        print("key", pair[0])
        return pair[0]

    src = SourceTransformation(name="Source", source=collection_source(["a b"]))
    split = OneInputTransformation(name="Split", input=src, spec=FlatMapSpec(wrap_flat_map(words)))
    keyed = PartitionTransformation(name="Keyed", input=split, partitioning=KeyedPartitioning(
        wrap_key_selector(key)))
    reduced = OneInputTransformation(
        name="Reduce", input=keyed,
        spec=ReduceSpec(wrap_reduce(lambda a, b: (a[0], a[1] + b[1])), wrap_key_selector(key)))
    sink = SinkTransformation(name="Collect", input=reduced, spec=CollectSinkSpec())
    job = compile_sinks([sink], parallelism=1)
    task = _source_task(job)
    (collector,) = task.exits
    split_operator = [op for op in task.operators if op.name == "Split"][0]
    assert split_operator.output.collect_many is collector.process_many
    run_job(job)
    assert capsys.readouterr().out.splitlines()[:4] == ["yield a", "key a", "yield b", "key b"]


def test_a_generator_runs_even_when_nothing_takes_its_records():
    from pyflink_on_spark.runtime.operators.base import emit_results
    from pyflink_on_spark.runtime.output import Output
    ran = []

    def results():
        ran.append("body")
        yield 1

    emit_results(results(), Output(), None)
    assert ran == ["body"]


def test_a_target_without_a_loop_gets_the_records_one_by_one():
    from pyflink_on_spark.runtime.output import Output
    output, got = Output(), []
    output.add_main_target(lambda value, timestamp: got.append((value, timestamp)),
                           lambda watermark: None)
    output.collect_many(iter([1, 2]), 7)
    assert got == [(1, 7), (2, 7)]
    loop = []
    output = Output()
    output.add_main_target(lambda value, timestamp: None, lambda watermark: None,
                           process_many=lambda values, timestamp: loop.append(values))
    values = iter([3])
    output.collect_many(values, None)
    assert loop == [values]
