"""The executor entry point for bounded jobs: compile the environment's graph, run it on
Spark. The API reaches the engine only through this module (one lazy import in
StreamExecutionEnvironment); the streaming executor will be a second entry point beside it.

What the tool running the job knows (the CLI: the job script's directory) arrives as
RunOptions, set before the script runs; nothing here reads the tool's globals.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Iterator, List, Tuple

from pyflink_on_spark.specs.stage import CompiledJob, JobSettings


@dataclass(frozen=True)
class RunOptions:
    # directories of the job scripts being run: tasks add them to sys.path, so modules that
    # sit beside a job script import in Spark's Python workers too
    script_dirs: Tuple[str, ...] = ()


_run_options = RunOptions()


def set_run_options(options: RunOptions) -> None:
    """Called by the tool that runs job scripts (cli/script_runner.py) before a script runs."""
    global _run_options
    _run_options = options


def run_options() -> RunOptions:
    return _run_options


def add_script_dir(path: str) -> None:
    """Make `path` importable in the tasks of the jobs that run from now on."""
    if path not in _run_options.script_dirs:
        set_run_options(dataclasses.replace(
            _run_options, script_dirs=_run_options.script_dirs + (path,)))


def compile_job(sinks: List, settings: JobSettings) -> CompiledJob:
    """The graph behind `sinks` (graph.transformations nodes) as stages."""
    from pyflink_on_spark.graph.compile import compile_job as compile_graph
    return compile_graph(sinks, default_parallelism=settings.default_parallelism,
                         default_max_par=settings.default_max_parallelism,
                         chaining_enabled=settings.chaining_enabled, config=settings.config)


def execution_plan(sinks: List, settings: JobSettings) -> str:
    """get_execution_plan(): the compiled graph as Flink's JSON plan."""
    from pyflink_on_spark.graph.plan import execution_plan_json
    return execution_plan_json(compile_job(sinks, settings))


def execute(sinks: List, settings: JobSettings):
    """Runs the job to completion: a JobExecutionResult."""
    from pyflink_on_spark.spark.executor import execute_job
    return execute_job(compile_job(sinks, settings), settings.config.job_name, _run_options)


def execute_async(sinks: List, settings: JobSettings):
    """A JobClient of the job (bounded jobs have run to completion when it is returned)."""
    from pyflink_on_spark.common.job_client import JobClient
    from pyflink_on_spark.spark.executor import FinishedJobHandle
    return JobClient(FinishedJobHandle(execute(sinks, settings)))


def execute_and_collect(sinks: List, collect_sink_id: int, settings: JobSettings) -> Iterator:
    """Starts the job; the values reaching the collect sink node `collect_sink_id`."""
    from pyflink_on_spark.spark.executor import execute_collect
    return execute_collect(compile_job(sinks, settings), settings.config.job_name,
                           collect_sink_id, _run_options)
