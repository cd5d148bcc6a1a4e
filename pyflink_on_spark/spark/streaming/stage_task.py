"""The function each Spark task of a micro-batch runs (through mapInArrow): one subtask of
one stage for one batch (runtime/checkpoint/micro_batch.py does the work)."""
from __future__ import annotations

from typing import Dict, Iterator, Optional

import cloudpickle
import pyarrow as pa

from pyflink_on_spark.runtime.boundary import KIND_TICK, KIND_WATERMARK
from pyflink_on_spark.spark.batch_schema import rows_to_batch
from pyflink_on_spark.spark.stage_task import fewer_collections, prepare_worker, subtask_input
from pyflink_on_spark.spark.work_dirs import new_task_dir


CONTROL_KINDS = (KIND_TICK, KIND_WATERMARK)


def make_streaming_stage_function(spec_bytes: bytes, alias_pyflink: bool, script_dirs,
                                  *, store_root: str, version: int,
                                  restore_version: Optional[int],
                                  parallelism_then: Dict[str, int], job_token: str,
                                  key_types_bytes: bytes, state_ids: Dict[int, str],
                                  naming_seed: str, batch_time_ms: int,
                                  object_storage=(), drain: bool = False):
    script_dirs = tuple(script_dirs)

    def run_stage(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        prepare_worker(script_dirs, alias_pyflink, object_storage)
        from pyspark import TaskContext
        from pyflink_on_spark.runtime.checkpoint.micro_batch import run_micro_batch
        from pyflink_on_spark.spark.streaming.faults import worker_fault_point
        found = subtask_input(batches)
        if found is None:
            return   # cannot happen: every subtask gets a tick or a watermark row per batch
        subtask, batches = found
        spec = cloudpickle.loads(spec_bytes)
        context = TaskContext.get()
        attempt = context.attemptNumber() if context is not None else 0

        def columns():
            records = False
            for batch in batches:
                if batch.num_rows:
                    kinds = batch.column(4).to_pylist()
                    records = records or any(k not in CONTROL_KINDS for k in kinds)
                    yield (batch.column(0).to_pylist(), batch.column(2).to_pylist(),
                           kinds, batch.column(5).to_pylist())
            if records:
                worker_fault_point()   # crash tests: rows processed, state not written

        def work_dir():
            return new_task_dir(spec.stage_id, subtask)

        with fewer_collections():
            for rows in run_micro_batch(
                    spec, subtask, columns(), store_root=store_root, version=version,
                    restore_version=restore_version, parallelism_then=parallelism_then,
                    job_token=job_token, key_types=cloudpickle.loads(key_types_bytes),
                    state_ids=state_ids, attempt=attempt, work_dir_factory=work_dir,
                    naming_seed=naming_seed, batch_time_ms=batch_time_ms, drain=drain):
                yield rows_to_batch(rows)

    return run_stage
