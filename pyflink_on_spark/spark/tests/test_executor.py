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


def test_keyed_exchange_lands_each_key_on_its_subtask(spark):
    class Where(KeyedProcessFunction):
        def open(self, ctx):
            self.index = ctx.get_index_of_this_subtask()

        def process_element(self, value, ctx):
            yield (value, self.index)

    selector = wrap_key_selector(lambda x: x)
    src = SourceTransformation(name="Src", source=collection_source(list("abcdefgh") * 3))
    src.parallelism = 1
    keyed = PartitionTransformation(name="Keyed", input=src,
                                    partitioning=KeyedPartitioning(selector))
    proc = OneInputTransformation(name="P", input=keyed,
                                  spec=KeyedProcessSpec(Where(), selector))
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
