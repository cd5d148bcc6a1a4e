"""The function each Spark task runs (through mapInArrow): one subtask of one stage."""
from __future__ import annotations

import itertools
import shutil
import tempfile
from typing import Iterator

import cloudpickle
import pyarrow as pa

from pyflink_on_spark.spark.batch_schema import rows_to_batch
from pyflink_on_spark.spark.python_dependencies import WorkerSetup


def prepare_worker(script_dirs, alias_pyflink: bool) -> None:
    """Make the job's own modules importable and resolve `pyflink` to the shim in this Python
    worker, before any user class is unpickled."""
    import sys
    for path in script_dirs:
        if path not in sys.path:
            sys.path.append(path)
    if alias_pyflink:
        from pyflink_on_spark.aliasing import install_pyflink_alias
        install_pyflink_alias()


def subtask_input(batches: Iterator[pa.RecordBatch]):
    """(subtask index, the batches) or None when this task has no rows. The subtask index
    comes from the rows (their `dest`), not from Spark's partition id: when a stage's output
    is unioned into the next exchange, Spark runs it inside the union's tasks and reports the
    union's partition index."""
    batches = iter(batches)
    first = next((b for b in batches if b.num_rows), None)
    if first is None:
        return None
    return first.column(1)[0].as_py(), itertools.chain((first,), batches)


def make_stage_function(spec_bytes: bytes, alias_pyflink: bool, script_dirs=(),
                        worker_setup: WorkerSetup = WorkerSetup()):
    """spec_bytes: the cloudpickled StageSpec, unpickled in the task after the `pyflink`
    alias is installed (so user classes that subclass pyflink.* resolve in the worker) and
    the job script's directories are importable (modules beside the script).
    worker_setup: the job's Python requirements and archives (spark/python_dependencies.py)."""
    script_dirs = tuple(script_dirs)

    def run_stage(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        prepare_worker(script_dirs, alias_pyflink)
        with worker_setup.applied():
            yield from _run_subtask(spec_bytes, batches)

    return run_stage


def _run_subtask(spec_bytes: bytes, batches: Iterator[pa.RecordBatch]) \
        -> Iterator[pa.RecordBatch]:
    from pyspark import TaskContext
    from pyflink_on_spark.runtime.task import StreamTask
    found = subtask_input(batches)
    if found is None:
        return  # a subtask without input has nothing to do
    subtask, batches = found
    spec = cloudpickle.loads(spec_bytes)
    context = TaskContext.get()
    attempt = context.attemptNumber() if context is not None else 0
    work_dir = tempfile.mkdtemp(prefix="pyflink-on-spark-s%d-%d-" % (spec.stage_id,
                                                                     subtask))
    try:
        task = StreamTask(spec, subtask, attempt, work_dir=work_dir)
        task.open()
        try:
            for batch in batches:
                if batch.num_rows == 0:
                    continue
                task.process_rows(batch.column(0).to_pylist(),
                                  batch.column(2).to_pylist(),
                                  batch.column(4).to_pylist(),
                                  batch.column(5).to_pylist())
                rows = task.take_rows()
                if rows:
                    yield rows_to_batch(rows)
            task.finish()
        finally:
            task.close()
        rows = task.take_rows()
        if rows:
            yield rows_to_batch(rows)
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)
