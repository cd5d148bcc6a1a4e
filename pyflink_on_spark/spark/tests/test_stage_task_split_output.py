"""A source split's output leaves the task in batches while the split is read
(stage_task.OUTPUT_BATCH_BYTES): one split of a number sequence holds a subtask's whole
range, and held to the split's end its output took a worker's memory in proportion to it.
The stage function is driven here as a Spark task drives it, without Spark."""
import cloudpickle

from pyflink_on_spark.datastream.functions import wrap_key_selector, wrap_map
from pyflink_on_spark.direct.exchange import source_split_rows
from pyflink_on_spark.graph.sources import number_sequence_source
from pyflink_on_spark.graph.transformations import (
    OneInputTransformation, PartitionTransformation, SinkTransformation, SourceTransformation)
from pyflink_on_spark.runtime.boundary import KIND_RECORDS, loads_records
from pyflink_on_spark.runtime.tests.engine_harness import compile_sinks
from pyflink_on_spark.spark.batch_schema import rows_to_batch
from pyflink_on_spark.spark.stage_task import (OUTPUT_BATCH_BYTES, PRESENCE_EDGE,
                                               make_stage_function)
from pyflink_on_spark.specs.operators import MapSpec
from pyflink_on_spark.specs.partitioning import KeyedPartitioning
from pyflink_on_spark.specs.sinks import CollectSinkSpec

RECORDS = 400_000


def _keyed_job():
    """numbers -> map -> key_by: the source stage ends in a keyed exchange."""
    src = SourceTransformation(name="Seq", source=number_sequence_source(0, RECORDS - 1))
    mapped = OneInputTransformation(name="Map", input=src,
                                    spec=MapSpec(wrap_map(lambda x: x * 3)))
    keyed = PartitionTransformation(
        name="KeyBy", input=mapped,
        partitioning=KeyedPartitioning(wrap_key_selector(lambda x: x % 7)))
    sink = SinkTransformation(name="Collect", input=keyed, spec=CollectSinkSpec())
    return compile_sinks([sink], parallelism=1)


def _source_stage_outputs(job):
    """Runs the source stage's subtask 0 as its Spark task would."""
    stage = job.stages[0]
    splits = [row for row in source_split_rows(stage.source.splits) if row[1] == 0]
    run_stage = make_stage_function(cloudpickle.dumps(stage.spec), False,
                                    split_rows={0: splits})
    presence = rows_to_batch([(PRESENCE_EDGE, 0, 0, 0, KIND_RECORDS, b"", b"")])
    return list(run_stage(iter([presence])))


def test_a_long_split_leaves_in_batches_while_it_is_read():
    job = _keyed_job()
    assert len(job.stages) == 2 and job.stages[0].source is not None
    batches = _source_stage_outputs(job)
    values = []
    for batch in batches:
        kinds = batch.column(4).to_pylist()
        for kind, payload in zip(kinds, batch.column(5).to_pylist()):
            if kind == KIND_RECORDS:
                values.extend(loads_records(payload)[0])
    # nothing lost, nothing twice, in the order read (one subtask downstream)
    assert values == [x * 3 for x in range(RECORDS)]
    # the output left in batches of about OUTPUT_BATCH_BYTES while the split was read, not
    # in one at its end
    sizes = [sum(len(p) for p in batch.column(5).to_pylist()) for batch in batches]
    assert sum(sizes) > 2 * OUTPUT_BATCH_BYTES, sizes
    assert len(batches) >= 3, sizes
    assert max(sizes) < 2 * OUTPUT_BATCH_BYTES, sizes


def _threshold(_):
    import gc
    return gc.get_threshold()[0]


def test_a_task_runs_with_fewer_garbage_collections_then_puts_the_threshold_back():
    import gc
    from pyflink_on_spark.spark.stage_task import TASK_GC_THRESHOLD
    src = SourceTransformation(name="Seq", source=number_sequence_source(0, 9))
    mapped = OneInputTransformation(name="Map", input=src, spec=MapSpec(wrap_map(_threshold)))
    keyed = PartitionTransformation(
        name="KeyBy", input=mapped, partitioning=KeyedPartitioning(wrap_key_selector(str)))
    sink = SinkTransformation(name="Collect", input=keyed, spec=CollectSinkSpec())
    before = gc.get_threshold()
    gc.set_threshold(700, *before[1:])
    try:
        batches = _source_stage_outputs(compile_sinks([sink], parallelism=1))
        assert gc.get_threshold() == (700,) + before[1:]
    finally:
        gc.set_threshold(*before)
    values = [value for batch in batches
              for kind, payload in zip(batch.column(4).to_pylist(), batch.column(5).to_pylist())
              if kind == KIND_RECORDS for value in loads_records(payload)[0]]
    assert values == [TASK_GC_THRESHOLD] * 10
