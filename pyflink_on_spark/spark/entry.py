"""The executor entry point: compile the environment's graph, run it on Spark. The API
reaches the engine only through this module (one lazy import in StreamExecutionEnvironment).
Bounded jobs run in spark/executor.py, jobs with an unbounded source on Structured Streaming
(spark/streaming/, docs/streaming.md).

What the tool running the job knows (the CLI: the job script's directory) arrives as
RunOptions, set before the script runs; nothing here reads the tool's globals.
"""
from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from typing import Iterator, List, Optional

from pyflink_on_spark.runtime.errors import JobExecutionError
from pyflink_on_spark.spark.run_options import (RunOptions, add_script_dir, run_options,
                                                set_run_options)
from pyflink_on_spark.spark.connect_server import ConnectServerError
from pyflink_on_spark.spark.session import ConnectDependencyError, JavaNotFoundError
from pyflink_on_spark.specs.stage import CompiledJob, JobSettings

# what a tool needs besides the entry functions: its options, and the errors a run raises
__all__ = ["RunOptions", "set_run_options", "run_options", "add_script_dir",
           "JobExecutionError", "JavaNotFoundError", "ConnectDependencyError", "ConnectServerError",
           "compile_job", "execution_plan", "new_program",
           "execute", "execute_async", "execute_and_collect", "served_url", "start_served",
           "stop_served",
           "CapturedJob", "capture_jobs", "bounded_jobs_run_by"]


@dataclass(frozen=True)
class CapturedJob:
    """A job that execute() / execute_async() / execute_and_collect() would have run, as
    compiled (what `pyflink-on-spark plan` draws)."""
    name: str
    job: CompiledJob
    settings: JobSettings
    unbounded: bool          # runs on Structured Streaming (an unbounded source)


_captured: Optional[List[CapturedJob]] = None
# a runner used instead of Spark for bounded jobs (the direct runner, set by
# pyflink_on_spark.testing): a module with execute_job and execute_collect
_bounded_runner = None


@contextlib.contextmanager
def bounded_jobs_run_by(runner) -> Iterator[None]:
    """While active, bounded jobs run on `runner` (execute_job(job, name, options),
    execute_collect(job, name, collect_sink_id, options)) instead of on Spark."""
    global _bounded_runner
    saved, _bounded_runner = _bounded_runner, runner
    try:
        yield
    finally:
        _bounded_runner = saved


def _bounded_executor():
    if _bounded_runner is not None:
        return _bounded_runner
    from pyflink_on_spark.spark import executor
    return executor


@contextlib.contextmanager
def capture_jobs() -> Iterator[List[CapturedJob]]:
    """While active, jobs are compiled and recorded in the yielded list instead of run (no
    SparkSession starts): execute() returns an empty result, execute_and_collect() no
    values. So a script can be run for its graphs alone."""
    global _captured
    saved, _captured = _captured, []
    try:
        yield _captured
    finally:
        _captured = saved


def _capture(job: CompiledJob, settings: JobSettings) -> bool:
    if _captured is None:
        return False
    _captured.append(CapturedJob(settings.config.job_name, job, settings, _unbounded(job)))
    return True


def _captured_result():
    from pyflink_on_spark.common.job_execution_result import finished_job_result
    return finished_job_result(0)


def compile_job(sinks: List, settings: JobSettings) -> CompiledJob:
    """The graph behind `sinks` (graph.transformations nodes) as stages."""
    from pyflink_on_spark.graph.compile import compile_job as compile_graph
    return compile_graph(sinks, default_parallelism=settings.default_parallelism,
                         default_max_par=settings.default_max_parallelism,
                         chaining_enabled=settings.chaining_enabled, config=settings.config)


def execution_plan(sinks: List, operators: List, settings: JobSettings) -> str:
    """get_execution_plan(): the graph of the environment's sinks and operators as PyFlink's
    JSON plan (the graph must compile, as it must on PyFlink)."""
    from pyflink_on_spark.graph.plan import execution_plan_json
    compile_job(sinks, settings)
    return execution_plan_json(list(sinks) + list(operators), settings.default_parallelism)


def prestart_session(script_path: str) -> None:
    """The script about to run will need a SparkSession: start it while the script
    loads (spark/prestart.py)."""
    from pyflink_on_spark.spark import prestart
    try:
        with open(script_path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return
    if prestart.wants_prestart(text):
        prestart.prestart()


def settle_session_start() -> None:
    """The script ended: a session start still under way finishes first (spark/prestart.py
    settle)."""
    from pyflink_on_spark.spark import prestart
    prestart.settle()


def end_session() -> None:
    """The command is done with Spark: stop the local Spark it started (session.py
    end_owned_session), unless a job still runs in another thread: an unbounded job of
    execute_async, or a thread of the script's own that the interpreter waits for at exit.
    The JVM of those ends with the process, as it always did."""
    import threading
    from pyflink_on_spark.spark.streaming.job_handle import jobs_running
    if jobs_running() or any(
            thread.is_alive() and not thread.daemon
            and thread is not threading.current_thread()
            for thread in threading.enumerate()):
        return
    from pyflink_on_spark.spark.session import end_owned_session
    end_owned_session()


def new_program() -> None:
    """A program starts (the CLI runs one per script): plan ids count from 1 again, as in a
    fresh PyFlink process."""
    from pyflink_on_spark.graph.flink_ids import reset_flink_ids
    reset_flink_ids()


def _job_to_run(sinks: List, settings: JobSettings) -> CompiledJob:
    """The compiled job; and, as PyFlink generates its plan when a job starts (chaining
    its Python operators into new transformations), the plan ids that takes."""
    job = compile_job(sinks, settings)
    refuse_python_inputs(sinks)
    if job.reads_frame_sources():
        from pyflink_on_spark.spark.table_feeds import reads_tables, with_table_feeds
        if reads_tables(job):    # tables of unbounded streams join the job (table_feeds.py)
            job = with_table_feeds(job, sinks, lambda all_sinks: compile_job(all_sinks,
                                                                             settings))
    from pyflink_on_spark.graph.plan import execution_plan_json
    execution_plan_json(sinks, settings.default_parallelism)
    return job


def refuse_python_inputs(sinks: List) -> None:
    """A job whose collection source holds records PyFlink's Java side takes but a Python
    operator cannot fails when it starts, as on PyFlink (graph/compile.py
    python_input_error)."""
    from pyflink_on_spark.graph.compile import python_input_error
    error = python_input_error(sinks)
    if error is not None:
        from pyflink_on_spark.runtime.errors import JobExecutionError
        raise JobExecutionError(error)


def execute(sinks: List, settings: JobSettings):
    """Runs the job to completion (an unbounded job: until it is cancelled): a
    JobExecutionResult."""
    job = _job_to_run(sinks, settings)
    if _capture(job, settings):
        return _captured_result()
    if settings.checkpoints.savepoint_at_end and not _unbounded(job, settings):
        return _backfill(job, settings)
    if _unbounded(job, settings):
        _no_streaming_dependencies(settings)
        from pyflink_on_spark.spark.streaming.executor import execute_streaming
        return execute_streaming(job, settings.config.job_name, run_options(),
                                 _streaming_settings(settings))
    return _bounded_executor().execute_job(job, settings.config.job_name, run_options(),
                                           settings.python, **_reporters(settings))


def execute_async(sinks: List, settings: JobSettings):
    """A JobClient of the job (bounded jobs have run to completion when it is returned;
    unbounded ones run in the background until cancelled)."""
    from pyflink_on_spark.common.job_client import JobClient
    job = _job_to_run(sinks, settings)
    if _capture(job, settings):
        from pyflink_on_spark.spark.executor import FinishedJobHandle
        return JobClient(FinishedJobHandle(_captured_result()))
    _no_backfill_here(job, settings, "execute_async()")
    if _unbounded(job, settings):
        _no_streaming_dependencies(settings)
        from pyflink_on_spark.spark.streaming.job_handle import StreamingJobHandle
        return JobClient(StreamingJobHandle(job, settings.config.job_name, run_options(),
                                            _streaming_settings(settings)))
    from pyflink_on_spark.spark.executor import FinishedJobHandle
    return JobClient(FinishedJobHandle(_bounded_executor().execute_job(
        job, settings.config.job_name, run_options(), settings.python,
        **_reporters(settings))))


def _reporters(settings: JobSettings) -> dict:
    """The metrics reporters' keys for a bounded executor, when the job configures any
    (spark/executor.py serves a Prometheus endpoint while the job runs)."""
    return {"metric_reporters": settings.metric_reporters} if settings.metric_reporters \
        else {}
def _no_streaming_dependencies(settings: JobSettings) -> None:
    if settings.python:
        raise NotImplementedError(
            "add_python_file / add_python_archive / set_python_requirements / "
            "set_python_executable are not supported yet for jobs with an unbounded source: "
            "ship them with spark-submit --py-files / --archives / spark.pyspark.python")


def _streaming_settings(settings: JobSettings, note_no_recovery: bool = True):
    from pyflink_on_spark.spark.streaming.settings import streaming_settings
    return streaming_settings(settings.checkpoints, settings.metric_reporters,
                              note_no_recovery)


def _backfill(job: CompiledJob, settings: JobSettings):
    """A bounded job run as the first micro-batch of its unbounded self, ending in a
    savepoint the live job starts from (spark/streaming/backfill.py)."""
    from pyflink_on_spark.spark.streaming.backfill import as_backfill, run_backfill
    _no_streaming_dependencies(settings)
    backfill = as_backfill(job, settings.config.runtime_mode)
    # no note that the run will not recover: it ends in its savepoint
    return run_backfill(backfill, settings.config.job_name, run_options(),
                        _streaming_settings(settings, note_no_recovery=False),
                        settings.checkpoints.savepoint_at_end)


def _no_backfill_here(job: CompiledJob, settings: JobSettings, call: str) -> None:
    from pyflink_on_spark.spark.streaming.sources import is_unbounded
    if settings.checkpoints.savepoint_at_end and not is_unbounded(job):
        raise NotImplementedError(
            "A backfill that ends in a savepoint (--savepoint-at-end) runs with execute(), "
            "not %s" % call)


def _unbounded(job: CompiledJob, settings: Optional[JobSettings] = None) -> bool:
    """Whether the job runs on Structured Streaming; a bounded job asked to start from a
    savepoint raises (savepoints restore unbounded jobs only, so far)."""
    from pyflink_on_spark.spark.streaming.sources import is_unbounded
    unbounded = is_unbounded(job)
    if not unbounded and settings is not None and settings.checkpoints.restore_path:
        raise NotImplementedError(
            "Starting a bounded job from a savepoint (execution.savepoint.path / "
            "`pyflink-on-spark run --from-savepoint`) is not built on pyflink_on_spark: "
            "savepoints restore jobs with an unbounded source (docs/operations.md)")
    return unbounded


def execute_and_collect(sinks: List, collect_sink_id: int, settings: JobSettings) -> Iterator:
    """Starts the job; the values reaching the collect sink node `collect_sink_id`."""
    job = _job_to_run(sinks, settings)
    if _capture(job, settings):
        return iter(())
    _no_backfill_here(job, settings, "execute_and_collect()")
    if _unbounded(job, settings):
        from pyflink_on_spark.spark.streaming.job_handle import collect_unbounded
        return collect_unbounded(job, settings.config.job_name, run_options(),
                                 _streaming_settings(settings), collect_sink_id)
    return _bounded_executor().execute_collect(job, settings.config.job_name, collect_sink_id,
                                               run_options(), settings.python)


# `pyflink-on-spark serve`: a local Spark Connect server kept running between jobs

@dataclass(frozen=True)
class ServedServer:
    """The server `serve` started, as the CLI shows it (no token: that stays in the state
    file, which only the user can read)."""
    url: str            # without the token; a client on this machine gets it from the state
    log: str
    started: bool       # started now, not running already
    host: str           # the address it listens on
    state_file: str     # where its token is

    @property
    def loopback_only(self) -> bool:
        """Only this machine can reach it."""
        from pyflink_on_spark.spark.connect_server import is_loopback
        return is_loopback(self.host)

    @property
    def answers_localhost(self) -> bool:
        """Clients on this machine (`run`: sc://localhost:PORT) reach it."""
        from pyflink_on_spark.spark.connect_server import answers_localhost
        return answers_localhost(self.host)


def served_url() -> Optional[str]:
    """sc://localhost:PORT of the server `serve` started, if it is running (and requires a
    token: one an earlier version started is not used); else None. Without the token:
    connecting to it adds the token (spark/session.py _connect)."""
    from pyflink_on_spark.spark.connect_server import served
    info = served()
    return info.url if info is not None else None


def unauthenticated_served() -> Optional[str]:
    """What to tell the user about a running server an earlier version started without a
    token (not used, but open to the network until stopped); None if there is none."""
    from pyflink_on_spark.spark.connect_server import unauthenticated_served as note
    return note()


def start_served(port: Optional[int] = None, master: Optional[str] = None, conf=(),
                 verbose: bool = False, host: Optional[str] = None) -> ServedServer:
    """Starts the server unless one is running already (then port, master, conf and host
    are not applied). Raises ConnectServerError while a server an earlier version started
    without a token is running: its port and session would be lost track of."""
    from pyflink_on_spark.spark import connect_server
    info = connect_server.running_served()
    if info is not None and not info.token:
        raise ConnectServerError(connect_server.unauthenticated_note(info))
    if info is not None:
        return ServedServer(info.url, info.log, False, info.host, connect_server.state_file())
    log = os.path.join(connect_server.private_state_dir(), "serve.log")
    import dataclasses
    import uuid
    # the shared session lives as long as the server (its id cannot be reused once closed)
    settings = {"spark.connect.session.manager.defaultSessionTimeout": "3650d", **dict(conf)}
    info = connect_server.start_server(port=port, master=master, conf=settings,
                                       log_path=log, verbose=verbose, host=host)
    info = dataclasses.replace(info, session_id=str(uuid.uuid4()))
    state_file = connect_server.save_served(info)
    return ServedServer(info.url, info.log, True, info.host, state_file)


def stop_served() -> Optional[str]:
    """The URL of the server it stopped (one an earlier version started without a token
    too), None if none was running."""
    from pyflink_on_spark.spark import connect_server
    info = connect_server.running_served()
    connect_server.forget_served()
    if info is None:
        return None
    connect_server.stop_server(info)
    return info.url


# `pyflink-on-spark list / cancel / savepoint / stop`: the running unbounded jobs of this user
# on this machine (spark/streaming/job_control.py)

def running_jobs() -> list:
    from pyflink_on_spark.spark.streaming.job_control import list_jobs
    return list_jobs()


def find_running_job(wanted: str):
    """The running job whose id starts with ``wanted`` (or named ``wanted``); LookupError
    saying why when there is none or several."""
    from pyflink_on_spark.spark.streaming.job_control import find_job
    return find_job(wanted)


def ask_running_job(job, verb: str, **fields) -> dict:
    """One request to a running job's control socket; its answer."""
    from pyflink_on_spark.spark.streaming.job_control import ask_job
    return ask_job(job, verb, **fields)


# the Table API (pyflink_on_spark/table): a table description's result and columns, computed
# by Spark SQL (spark/table_frames.py)

def _table_session(*read):
    """The session, with the shim on its workers, and the compiled packages the tasks of a
    query over the table descriptions `read` import (psycopg for jdbc tables), as a
    DataStream job's (spark/package_shipping.py)."""
    from pyflink_on_spark.spark.package_shipping import ship_native_packages, ship_package
    from pyflink_on_spark.spark.session import get_session
    session = get_session()
    ship_package(session)
    ship_native_packages(session, tables=read)
    return session


def table_columns(description) -> tuple:
    """The columns (specs.tables.TableColumn) of a table description, a query's as Spark's
    analyzer types its result (no job runs)."""
    from pyflink_on_spark.spark.table_frames import table_columns as columns_of
    if getattr(description, "columns", None) is not None:
        return tuple(description.columns)
    return columns_of(description, _table_session())


def table_rows(description) -> Iterator[tuple]:
    """The rows of a table as (tuple of column values, RowKind value), the result streamed
    to the driver partition by partition."""
    from pyflink_on_spark.spark.table_changelog import KIND
    from pyflink_on_spark.spark.table_frames import table_frame
    try:
        frame = table_frame(description, _table_session(description))
        kinds = KIND in frame.columns
        for row in frame.toLocalIterator():
            values = tuple(row)
            yield (values[:-1], values[-1]) if kinds else (values, 0)
    except Exception as e:
        raise _table_error(e) from None


def table_plan(description, mode: str) -> str:
    """Spark's plan of a table's query, as text (table/explain.py; no job runs)."""
    from pyflink_on_spark.spark.table_explain import spark_plan
    return spark_plan(description, _table_session(), mode)


def table_updates(description) -> bool:
    """Whether a table's rows are a changelog of updates (a grouping query in STREAMING
    mode, spark/table_changelog.py); no Spark needed to tell."""
    from pyflink_on_spark.spark.table_changelog import is_changelog
    return is_changelog(description)


def table_reads_unbounded(description) -> bool:
    """Whether a table reads an unbounded stream (no Spark needed to tell)."""
    from pyflink_on_spark.spark.table_feeds import reads_unbounded
    return reads_unbounded(description)


def table_inserts(inserts):
    """INSERT INTO connector tables (specs/table_connectors.py TableInsert), one after
    another: a Spark job each whose tasks write the rows (spark/table_connectors.py). A
    JobClient of the finished job, as PyFlink's TableResult.get_job_client() gives one."""
    import time
    from pyflink_on_spark.common.job_client import JobClient
    from pyflink_on_spark.common.job_execution_result import finished_job_result
    from pyflink_on_spark.spark.executor import FinishedJobHandle
    from pyflink_on_spark.spark.table_connectors import run_insert
    started = time.monotonic()
    try:
        for insert in inserts:
            run_insert(insert, _table_session(insert.source))
    except Exception as e:
        raise _table_error(e) from None
    return JobClient(FinishedJobHandle(finished_job_result(
        int((time.monotonic() - started) * 1000))))


def table_pandas(description, columns):
    """The rows of a table as a pandas DataFrame (Spark's Arrow conversion); a changelog's
    final rows (spark/table_frames.py materialized)."""
    from pyflink_on_spark.spark.table_changelog import KIND
    from pyflink_on_spark.spark.table_frames import materialized, table_frame
    try:
        frame = table_frame(description, _table_session(description))
        if KIND not in frame.columns:
            return frame.toPandas()
        return materialized(frame.toLocalIterator(), columns)
    except Exception as e:
        raise _table_error(e) from None


def _table_error(error: Exception) -> Exception:
    from pyflink_on_spark.runtime.errors import job_error
    if isinstance(error, (NotImplementedError, JobExecutionError)):
        return error
    return job_error(error)
