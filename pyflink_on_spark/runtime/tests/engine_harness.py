"""Compile sink nodes into a job for the tests; they run it with the direct runner
(pyflink_on_spark.direct.run_job), which moves rows between stages as the Spark layer does."""
from __future__ import annotations

from pyflink_on_spark.graph.compile import compile_job
from pyflink_on_spark.specs.stage import CompiledJob, JobConfig


def compile_sinks(sinks, parallelism: int = 1, mode: str = "STREAMING",
                  interval: int = 200) -> CompiledJob:
    return compile_job(sinks, default_parallelism=parallelism, default_max_par=-1,
                       chaining_enabled=True,
                       config=JobConfig(runtime_mode=mode, auto_watermark_interval=interval))


# Jobs compiled here run on the direct runner; tests may import it from here too.
from pyflink_on_spark.direct import run_job  # noqa: E402,F401
