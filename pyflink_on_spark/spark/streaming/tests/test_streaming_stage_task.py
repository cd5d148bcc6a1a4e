"""The function a micro-batch's Spark tasks run (spark/streaming/stage_task.py), driven
in-process without Spark: the engine's work runs with the task's GC threshold, as a bounded
job's tasks do (spark/stage_task.py fewer_collections), and the threshold is put back."""
import gc

import cloudpickle

from pyflink_on_spark.runtime.boundary import KIND_TICK
from pyflink_on_spark.spark.batch_schema import rows_to_batch


class _Spec:
    stage_id = 3


def test_a_micro_batch_task_runs_with_fewer_garbage_collections(monkeypatch):
    from pyflink_on_spark.runtime.checkpoint import micro_batch
    from pyflink_on_spark.spark.stage_task import TASK_GC_THRESHOLD
    from pyflink_on_spark.spark.streaming.stage_task import make_streaming_stage_function
    seen = []

    def fake_run_micro_batch(spec, subtask, columns, **kwargs):
        for _ in columns:
            seen.append((subtask, gc.get_threshold()[0]))
        yield [(7, 0, subtask, 0, KIND_TICK, b"", b"")]

    monkeypatch.setattr(micro_batch, "run_micro_batch", fake_run_micro_batch)
    run_stage = make_streaming_stage_function(
        cloudpickle.dumps(_Spec()), False, (), store_root="/nonexistent", version=1,
        restore_version=None, parallelism_then={}, job_token="t",
        key_types_bytes=cloudpickle.dumps({}), state_ids={}, naming_seed="s",
        batch_time_ms=0)
    before = gc.get_threshold()
    gc.set_threshold(700, *before[1:])
    try:
        out = list(run_stage(iter([rows_to_batch([(0, 1, 0, 0, KIND_TICK, b"", b"")])])))
        assert gc.get_threshold() == (700,) + before[1:]
    finally:
        gc.set_threshold(*before)
    assert seen == [(1, TASK_GC_THRESHOLD)]
    assert [batch.num_rows for batch in out] == [1]
