"""Compile sink nodes into a job for the tests; they run it with the direct runner
(pyflink_on_spark.direct.run_job), which moves rows between stages as the Spark layer does."""
from __future__ import annotations

from typing import List

from pyflink_on_spark.graph.compile import compile_job
from pyflink_on_spark.specs.stage import CompiledJob, CompiledStage, JobConfig


def compile_sinks(sinks, parallelism: int = 1, mode: str = "STREAMING",
                  interval: int = 200) -> CompiledJob:
    return compile_job(sinks, default_parallelism=parallelism, default_max_par=-1,
                       chaining_enabled=True,
                       config=JobConfig(runtime_mode=mode, auto_watermark_interval=interval))


def source_stage_rows(stage: CompiledStage) -> List[tuple]:
    """The boundary rows subtask 0 of a source stage writes, its splits read to the end."""
    from pyflink_on_spark.direct.exchange import source_split_rows
    from pyflink_on_spark.runtime.boundary import row_order
    from pyflink_on_spark.runtime.task import StreamTask
    task = StreamTask(stage.spec, 0)
    task.open()
    splits = source_split_rows(stage.source.splits)
    task.process_rows([r[0] for r in splits], [r[2] for r in splits], [r[4] for r in splits],
                      [r[5] for r in splits], [row_order(r) for r in splits])
    task.finish()
    return task.take_rows()


# Jobs compiled here run on the direct runner; tests may import it from here too.
from pyflink_on_spark.direct import run_job  # noqa: E402,F401
