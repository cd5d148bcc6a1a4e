"""A job of a shape run before reuses its Spark plan (spark/plan_cache.py): its stages run
shared stage functions that get each run's arguments (functions, splits, channel) from the
run's driver channel. Each run must still compute its own records."""
import pytest

from pyflink_on_spark.datastream.functions import wrap_key_selector, wrap_map
from pyflink_on_spark.graph.sources import collection_source
from pyflink_on_spark.graph.transformations import (
    OneInputTransformation, PartitionTransformation, SinkTransformation, SourceTransformation)
from pyflink_on_spark.runtime.errors import JobExecutionError
from pyflink_on_spark.runtime.tests.engine_harness import compile_sinks
from pyflink_on_spark.spark import plan_cache
from pyflink_on_spark.spark.executor import _run
from pyflink_on_spark.spark.plan_cache import plan_shape
from pyflink_on_spark.specs.operators import MapSpec
from pyflink_on_spark.specs.partitioning import KeyedPartitioning
from pyflink_on_spark.specs.sinks import CollectSinkSpec


def _keyed_map_job(values, function, parallelism=2):
    """collection -> key_by -> map(function) -> collect."""
    src = SourceTransformation(name="Src", source=collection_source(values))
    keyed = PartitionTransformation(name="Keyed", input=src, partitioning=KeyedPartitioning(
        wrap_key_selector(lambda x: x % 3)))
    mapped = OneInputTransformation(name="Map", input=keyed, spec=MapSpec(wrap_map(function)))
    sink = SinkTransformation(name="Collect", input=mapped, spec=CollectSinkSpec())
    sink.parallelism = parallelism
    return compile_sinks([sink], parallelism=parallelism), sink.id


def test_jobs_of_one_shape_have_one_plan_shape_and_other_shapes_another():
    first, _ = _keyed_map_job([1, 2, 3], lambda x: x + 1)
    second, _ = _keyed_map_job(list(range(100)), lambda x: str(x))
    wider, _ = _keyed_map_job([1, 2, 3], lambda x: x + 1, parallelism=3)
    assert plan_shape(first) is not None
    assert plan_shape(first) == plan_shape(second)
    assert plan_shape(first) != plan_shape(wider)


def test_a_plan_that_holds_a_file_listing_is_not_cached(tmp_path):
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.datastream.connectors.file_system import FileSource, StreamFormat
    from pyflink_on_spark.common import WatermarkStrategy
    (tmp_path / "a.txt").write_text("x\n")
    env = StreamExecutionEnvironment.get_execution_environment()
    stream = env.from_source(
        FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                            str(tmp_path)).build(),
        WatermarkStrategy.no_watermarks(), "files")
    sink = SinkTransformation(name="Collect", input=stream._transformation,
                              spec=CollectSinkSpec())
    assert plan_shape(compile_sinks([sink])) is None


def test_a_second_run_of_a_shape_reuses_the_plan_with_its_own_functions_and_data(spark):
    first, first_sink = _keyed_map_job([1, 2, 3, 4], lambda x: x * 10)
    assert sorted(_run(first, first_sink)) == [10, 20, 30, 40]
    plans = dict(plan_cache._plans)
    assert any(shape == plan_shape(first) for shape, _workers in plans)
    second, second_sink = _keyed_map_job(list(range(50)), lambda x: "v%d" % x)
    assert sorted(_run(second, second_sink)) == sorted("v%d" % x for x in range(50))
    # the second run made no plan of its own: it ran the first one's
    assert dict(plan_cache._plans) == plans


def test_a_user_error_in_a_reused_plan_names_its_operator(spark):
    job, sink = _keyed_map_job([1, 2], lambda x: x)
    list(_run(job, sink))

    def explode(x):
        raise KeyError("missing %s" % x)

    failing, failing_sink = _keyed_map_job([1, 2], explode)
    with pytest.raises(JobExecutionError) as info:
        list(_run(failing, failing_sink))
    assert "KeyError raised in operator 'Map'" in str(info.value)
    assert "in explode" in str(info.value)


def test_runs_of_one_plan_at_the_same_time_each_get_their_own_arguments(spark):
    """Each run names its own channel to its tasks (a local property of the thread that
    starts its Spark job), so runs sharing a plan side by side do not mix."""
    import threading
    list(_run(*_keyed_map_job([0], lambda x: x)))   # the plan exists before the runs start
    jobs = [_keyed_map_job(list(range(40)), lambda x, i=i: (i, x)) for i in range(3)]
    results = [None] * len(jobs)

    def run(index):
        job, sink = jobs[index]
        results[index] = sorted(_run(job, sink))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert results == [[(i, x) for x in range(40)] for i in range(len(jobs))]
