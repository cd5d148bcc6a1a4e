"""The executor entry point: compile the environment's graph, run it on Spark. The API
reaches the engine only through this module (one lazy import in StreamExecutionEnvironment).
Bounded jobs run in spark/executor.py, jobs with an unbounded source on Structured Streaming
(spark/streaming/, docs/streaming.md).

What the tool running the job knows (the CLI: the job script's directory) arrives as
RunOptions, set before the script runs; nothing here reads the tool's globals.
"""
from __future__ import annotations

import os
from typing import Iterator, List

from pyflink_on_spark.runtime.errors import JobExecutionError
from pyflink_on_spark.spark.run_options import (RunOptions, add_script_dir, run_options,
                                                set_run_options)
from pyflink_on_spark.spark.connect_server import ConnectServerError
from pyflink_on_spark.spark.session import ConnectDependencyError, JavaNotFoundError
from pyflink_on_spark.specs.stage import CompiledJob, JobSettings

# what a tool needs besides the entry functions: its options, and the errors a run raises
__all__ = ["RunOptions", "set_run_options", "run_options", "add_script_dir",
           "JobExecutionError", "JavaNotFoundError", "ConnectDependencyError", "ConnectServerError",
           "compile_job", "execution_plan",
           "execute", "execute_async", "execute_and_collect", "served_url", "start_served",
           "stop_served"]


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
    """Runs the job to completion (an unbounded job: until it is cancelled): a
    JobExecutionResult."""
    job = compile_job(sinks, settings)
    if _unbounded(job):
        _no_streaming_dependencies(settings)
        from pyflink_on_spark.spark.streaming.executor import execute_streaming
        from pyflink_on_spark.spark.streaming.settings import streaming_settings
        return execute_streaming(job, settings.config.job_name, run_options(),
                                 streaming_settings(settings.checkpoints))
    from pyflink_on_spark.spark.executor import execute_job
    return execute_job(job, settings.config.job_name, run_options(), settings.python)


def execute_async(sinks: List, settings: JobSettings):
    """A JobClient of the job (bounded jobs have run to completion when it is returned;
    unbounded ones run in the background until cancelled)."""
    from pyflink_on_spark.common.job_client import JobClient
    job = compile_job(sinks, settings)
    if _unbounded(job):
        _no_streaming_dependencies(settings)
        from pyflink_on_spark.spark.streaming.job_handle import StreamingJobHandle
        from pyflink_on_spark.spark.streaming.settings import streaming_settings
        return JobClient(StreamingJobHandle(job, settings.config.job_name, run_options(),
                                            streaming_settings(settings.checkpoints)))
    from pyflink_on_spark.spark.executor import FinishedJobHandle, execute_job
    return JobClient(FinishedJobHandle(execute_job(job, settings.config.job_name,
                                                   run_options(), settings.python)))


def _no_streaming_dependencies(settings: JobSettings) -> None:
    if settings.python:
        raise NotImplementedError(
            "add_python_file / add_python_archive / set_python_requirements / "
            "set_python_executable are not supported yet for jobs with an unbounded source: "
            "ship them with spark-submit --py-files / --archives / spark.pyspark.python")


def _unbounded(job: CompiledJob) -> bool:
    from pyflink_on_spark.spark.streaming.executor import is_unbounded
    return is_unbounded(job)


def execute_and_collect(sinks: List, collect_sink_id: int, settings: JobSettings) -> Iterator:
    """Starts the job; the values reaching the collect sink node `collect_sink_id`."""
    job = compile_job(sinks, settings)
    if _unbounded(job):
        from pyflink_on_spark.spark.streaming.job_handle import collect_unbounded
        from pyflink_on_spark.spark.streaming.settings import streaming_settings
        return collect_unbounded(job, settings.config.job_name, run_options(),
                                 streaming_settings(settings.checkpoints), collect_sink_id)
    from pyflink_on_spark.spark.executor import execute_collect
    return execute_collect(job, settings.config.job_name, collect_sink_id, run_options(),
                           settings.python)


# `pyflink-on-spark serve`: a local Spark Connect server kept running between jobs

def served_url():
    """sc://localhost:PORT of the server `serve` started, if it is running; else None."""
    from pyflink_on_spark.spark.connect_server import served
    info = served()
    return info.url if info is not None else None


def start_served(port=None, master=None, conf=(), verbose: bool = False):
    """(url, log path, started now?): starts the server unless one is running already."""
    from pyflink_on_spark.spark import connect_server
    info = connect_server.served()
    if info is not None:
        return info.url, info.log, False
    log = os.path.join(connect_server.state_dir(), "serve.log")
    os.makedirs(connect_server.state_dir(), exist_ok=True)
    import dataclasses
    import uuid
    # the shared session lives as long as the server (its id cannot be reused once closed)
    settings = {"spark.connect.session.manager.defaultSessionTimeout": "3650d", **dict(conf)}
    info = connect_server.start_server(port=port, master=master, conf=settings,
                                       log_path=log, verbose=verbose)
    info = dataclasses.replace(info, session_id=str(uuid.uuid4()))
    connect_server.save_served(info)
    return info.url, info.log, True


def stop_served():
    """The URL of the server it stopped, None if none was running."""
    from pyflink_on_spark.spark import connect_server
    info = connect_server.served()
    connect_server.forget_served()
    if info is None:
        return None
    connect_server.stop_server(info)
    return info.url
