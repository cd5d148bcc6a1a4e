"""The Spark layer: stages as mapInArrow, exact exchanges, driver sinks at the end."""
import pytest

from pyflink_on_spark.datastream.functions import (
    KeyedProcessFunction, wrap_key_selector, wrap_map)
from pyflink_on_spark.graph.sources import collection_source, number_sequence_source
from pyflink_on_spark.graph.transformations import (
    OneInputTransformation, PartitionTransformation, SinkTransformation, SourceTransformation)
from pyflink_on_spark.runtime.errors import JobExecutionError
from pyflink_on_spark.runtime.key_groups import KeyToSubtask
from pyflink_on_spark.runtime.tests.engine_harness import compile_sinks
from pyflink_on_spark.spark.executor import _run
from pyflink_on_spark.specs.operators import KeyedProcessSpec, MapSpec
from pyflink_on_spark.specs.partitioning import KeyedPartitioning
from pyflink_on_spark.specs.sinks import CollectSinkSpec


def _collect(upstream, parallelism):
    sink = SinkTransformation(name="Collect", input=upstream, spec=CollectSinkSpec())
    sink.parallelism = parallelism
    return sink


def test_parallel_sequence_map_runs_in_spark_partitions(spark):
    src = SourceTransformation(name="Seq", source=number_sequence_source(1, 1000))
    mapped = OneInputTransformation(name="Map", input=src,
                                    spec=MapSpec(wrap_map(lambda x: x * 2)))
    sink = _collect(mapped, 2)
    job = compile_sinks([sink], parallelism=2)
    assert len(job.stages) == 1
    assert list(_run(job, sink.id)) == [x * 2 for x in range(1, 1001)]


def _where():
    """A KeyedProcessFunction emitting (record, the index of the subtask that processed
    it); defined in a function, so that it is pickled by value (the workers cannot import
    this test module)."""
    class Where(KeyedProcessFunction):
        def open(self, ctx):
            self.index = ctx.get_index_of_this_subtask()

        def process_element(self, value, ctx):
            yield (value, self.index)
    return Where()


def test_keyed_exchange_lands_each_key_on_its_subtask(spark):
    selector = wrap_key_selector(lambda x: x)
    src = SourceTransformation(name="Src", source=collection_source(list("abcdefgh") * 3))
    src.parallelism = 1
    keyed = PartitionTransformation(name="Keyed", input=src,
                                    partitioning=KeyedPartitioning(selector))
    proc = OneInputTransformation(name="P", input=keyed,
                                  spec=KeyedProcessSpec(_where(), selector))
    sink = _collect(proc, 3)
    out = list(_run(compile_sinks([sink], parallelism=3), sink.id))
    where = KeyToSubtask(128, 3)
    assert len(out) == 24
    assert all(index == where(key) for key, index in out)


def test_user_exception_surfaces_with_user_traceback_not_py4j(spark):
    def explode(x):
        raise KeyError("missing %s" % x)

    src = SourceTransformation(name="Src", source=collection_source([1, 2]))
    src.parallelism = 1
    mapped = OneInputTransformation(name="Explode", input=src,
                                    spec=MapSpec(wrap_map(explode)))
    sink = _collect(mapped, 1)
    with pytest.raises(JobExecutionError) as info:
        list(_run(compile_sinks([sink], parallelism=1), sink.id))
    message = str(info.value)
    assert message.startswith("Job execution failed: KeyError raised in operator 'Explode'")
    assert "in explode" in message and "Py4J" not in message


def _side_output_job():
    """source -> process (main output to one keyed stage, a side output to another) ->
    both collected: the process stage's output holds the rows of two edges."""
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.datastream.functions import ProcessFunction
    from pyflink_on_spark.datastream.output_tag import OutputTag
    from pyflink_on_spark.common.typeinfo import Types
    odd = OutputTag("odd", Types.INT())

    class Split(ProcessFunction):
        def process_element(self, value, ctx):
            yield (odd, value) if value % 2 else value

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    split = env.from_collection(list(range(10)), type_info=Types.INT()).process(
        Split(), output_type=Types.INT())
    evens = split.key_by(lambda v: v % 3).map(lambda v: ("even", v))
    odds = split.get_side_output(odd).key_by(lambda v: v % 3).map(lambda v: ("odd", v))
    union = evens.union(odds)
    sink = _collect(union._transformation, 1)
    return compile_sinks([sink], parallelism=2), sink


def test_a_stage_output_read_by_two_stages_is_split_by_edge(spark):
    from pyflink_on_spark.spark.stage_frames import output_edges
    job, sink = _side_output_job()
    split_stage = next(s for s in job.stages if len(
        [e for e in s.spec.exits if not e.to_driver]) == 2)
    assert len(output_edges(split_stage, driver_reads_sinks=False)) == 2
    out = sorted(_run(job, sink.id))
    assert out == sorted([("even", v) for v in range(0, 10, 2)] +
                         [("odd", v) for v in range(1, 10, 2)])


def test_the_driver_edges_are_not_in_a_stage_output_read_through_the_channel():
    from pyflink_on_spark.spark.stage_frames import output_edges
    src = SourceTransformation(name="Src", source=collection_source([1, 2]))
    keyed = PartitionTransformation(name="Keyed", input=src, partitioning=KeyedPartitioning(
        wrap_key_selector(lambda x: x)))
    sink = _collect(keyed, 1)
    job = compile_sinks([sink], parallelism=1)
    source_stage, sink_stage = job.stages
    assert output_edges(source_stage, driver_reads_sinks=False) == \
        {e.edge_id for e in source_stage.spec.exits}
    assert output_edges(sink_stage, driver_reads_sinks=False) == set()
    assert output_edges(sink_stage, driver_reads_sinks=True) == \
        {e.edge_id for e in sink_stage.spec.exits}


def test_the_presence_rows_frame_is_made_once_per_session_and_parallelism(spark):
    from pyflink_on_spark.spark.executor import presence_frame
    from pyflink_on_spark.spark.stage_task import PRESENCE_EDGE
    first = presence_frame(spark, 3)
    assert presence_frame(spark, 3) is first
    assert presence_frame(spark, 2) is not first
    assert first.count() == 3
    assert first.where(first.edge == PRESENCE_EDGE).select("dest").distinct().count() == 3


def test_a_source_stage_starts_each_subtask_in_its_own_partition_without_an_exchange(
        spark, capsys):
    from pyspark.sql import functions as F
    from pyflink_on_spark.spark.executor import split_rows, subtask_frame
    from pyflink_on_spark.spark.stage_task import PRESENCE_EDGE
    frame = subtask_frame(spark, 3)
    assert subtask_frame(spark, 3) is frame and subtask_frame(spark, 2) is not frame
    assert sorted(frame.select(F.spark_partition_id(), "dest", "edge").collect()) == [
        (0, 0, PRESENCE_EDGE), (1, 1, PRESENCE_EDGE), (2, 2, PRESENCE_EDGE)]
    assert frame.schema.simpleString() == \
        "struct<edge:int,dest:int,src:int,seq:bigint,kind:int,payload:binary,order:binary>"
    frame.explain()
    assert "Exchange" not in capsys.readouterr().out
    # a sequence of 3 numbers over 4 subtasks: the splits go to the subtasks that read them,
    # in order, and the subtask without a split still runs (and sends nothing)
    src = SourceTransformation(name="Seq", source=number_sequence_source(1, 3))
    sink = _collect(src, 4)
    job = compile_sinks([sink], parallelism=4)
    by_subtask = split_rows(job.stages[0])
    assert sorted(by_subtask) == sorted({row[1] for rows in by_subtask.values()
                                         for row in rows}) and len(by_subtask) <= 3
    assert list(_run(job, sink.id)) == [1, 2, 3]


def test_the_exchange_columns_are_made_once_per_session_and_order_each_partition(spark):
    from pyflink_on_spark.spark.batch_schema import rows_frame
    from pyflink_on_spark.spark.exchange_frames import exchanged, named_column
    assert named_column(spark, "dest") is named_column(spark, "dest")
    assert named_column(spark, "seq") is not named_column(spark, "dest")
    other = object()     # another session: its own columns
    assert named_column(other, "dest") is not named_column(spark, "dest")
    rows = [(1, dest, src, seq, 0, b"p", order) for dest, src, seq, order in
            [(0, 1, 0, b"b"), (1, 0, 1, b""), (0, 0, 1, b"a"), (0, 0, 0, b"b"), (1, 0, 0, b"")]]
    frame = exchanged(rows_frame(spark, rows), 2, spark)
    parts = frame.rdd.glom().collect()
    assert [[(r.src, r.seq, r.order) for r in part] for part in parts] == [
        [(0, 1, b"a"), (0, 0, b"b"), (1, 0, b"b")], [(0, 0, b""), (0, 1, b"")]]


def test_a_jobs_thread_makes_its_udfs_without_looking_for_a_session(spark, monkeypatch):
    """Py4J gives each Python thread its own JVM thread, where no session is active until
    activate_in_thread: without it, every UDF (each stage's mapInArrow) went through
    SparkSession.builder.getOrCreate(), which tries to import pyspark_connect each time."""
    import threading
    from pyspark.sql import SparkSession
    import pyspark.sql.session as pyspark_session
    from pyflink_on_spark.spark.executor import subtask_frame
    from pyflink_on_spark.spark.batch_schema import SPARK_SCHEMA
    from pyflink_on_spark.spark.session import activate_in_thread
    looked = []
    original = pyspark_session.default_api_mode
    monkeypatch.setattr(pyspark_session, "default_api_mode",
                        lambda: looked.append(1) or original())
    seen = {}

    def plan(activate: bool):
        if activate:
            activate_in_thread(spark)
        seen[activate] = SparkSession.getActiveSession()
        subtask_frame(spark, 2).mapInArrow(lambda batches: batches, SPARK_SCHEMA)

    for activate in (False, True):
        looked.clear()
        thread = threading.Thread(target=plan, args=(activate,))
        thread.start()
        thread.join()
        assert bool(looked) is not activate
    assert seen[False] is None and seen[True] is not None


def test_presence_rows_come_from_the_first_upstream_subtask_0_and_are_not_input(spark):
    """Each subtask of a stage with an upstream stage gets a presence row (so that it runs
    and reports its end to the driver, input or not) from upstream subtask 0 on the first
    upstream edge; the task drops them before its input."""
    import pyarrow as pa
    from pyflink_on_spark.runtime.boundary import KIND_PRESENCE, KIND_RECORDS
    from pyflink_on_spark.spark.batch_schema import rows_to_batch
    from pyflink_on_spark.spark.executor import presence_carriers
    from pyflink_on_spark.spark.stage_task import _without_presence

    selector = wrap_key_selector(lambda x: x)
    src = SourceTransformation(name="Src", source=collection_source(["k"] * 5))
    keyed = PartitionTransformation(name="Keyed", input=src,
                                    partitioning=KeyedPartitioning(selector))
    proc = OneInputTransformation(name="P", input=keyed,
                                  spec=KeyedProcessSpec(_where(), selector))
    sink = _collect(proc, 3)
    job = compile_sinks([sink], parallelism=3)
    source_stage, keyed_stage = job.stages
    assert presence_carriers(job) == {
        source_stage.spec.stage_id: ((keyed_stage.upstream[0].edge_id, 3),)}
    # one key: two of the three keyed subtasks have no input, and still end
    assert list(_run(job, sink.id)) == [("k", KeyToSubtask(128, 3)("k"))] * 5

    def row(kind, seq):
        return (1, 0, 0, seq, kind, b"", b"")
    batch = rows_to_batch([row(KIND_PRESENCE, -1), row(KIND_RECORDS, 0), row(KIND_RECORDS, 1),
                           row(KIND_PRESENCE, -1), row(KIND_RECORDS, 2)])
    kept = list(_without_presence(iter([batch, rows_to_batch([row(KIND_PRESENCE, -1)])])))
    assert [b.column(3).to_pylist() for b in kept] == [[0, 1], [2]]
    assert all(isinstance(b, pa.RecordBatch) for b in kept)
