"""Runs a bounded job on Spark: every stage is one mapInArrow over its input, exchanges are
exact repartitions (a Spark partition is a Flink subtask); the plan is spark/stage_frames.py's,
as for every micro-batch of an unbounded job (spark/streaming/executor.py). Records reach the
driver (print, collect, file committables) through the driver channel while the job runs
(spark/driver_channel.py); on Spark Connect they are read back from the stages' output in
bounded slices (spark/driver_rows.py). What moves between
stages, and in which order, is the exchange contract of direct/exchange.py (the direct runner
implements the same contract in plain Python)."""
from __future__ import annotations

import dataclasses
import json
import pickle
import sys
import threading
import time
from typing import Dict, Iterator, List, Sequence, Tuple

import cloudpickle

from pyflink_on_spark.aliasing import pyflink_aliased
from pyflink_on_spark.runtime.sink_delivery import DriverSinks
from pyflink_on_spark.direct.exchange import source_split_rows
from pyflink_on_spark.runtime.boundary import KIND_RECORDS, loads_records
from pyflink_on_spark.spark.batch_schema import control_rows_frame
from pyflink_on_spark.spark.driver_rows import driver_rows
from pyflink_on_spark.spark.driver_channel import (OUT, DriverChannel, channel_bind_address,
                                                   channel_host, channel_off_because,
                                                   ordered_streams)
from pyflink_on_spark.spark.frame_run import run_frame
from pyflink_on_spark.spark.frame_sources import source_frame, with_files_as_splits
from pyflink_on_spark.runtime.errors import job_error
from pyflink_on_spark.spark.object_storage import object_storage_of
from pyflink_on_spark.spark.progress import (
    ProgressLine, job_description, job_group, new_group_id, progress_wanted, stage_description)
from pyflink_on_spark.spark.python_dependencies import (WorkerSetup, ship_dependencies,
                                                         worker_python)
from pyflink_on_spark.spark.session import activate_in_thread, is_connect, job_session
from pyflink_on_spark.spark.plan_cache import cached_frames, plan_shape, worker_shape
from pyflink_on_spark.spark.stage_frames import stage_frames
from pyflink_on_spark.spark.stage_task import (CHANNEL_PROPERTY, METRICS_EDGE, PRESENCE_EDGE,
                                               StageArgs,
                                               channel_property, shared_stage_function,
                                               stage_function)
from pyflink_on_spark.specs.stage import CompiledJob, PythonDependencies


def build_frames(job: CompiledJob, session, script_dirs: Tuple[str, ...] = (),
                 worker_setup: WorkerSetup = WorkerSetup(),
                 job_name: str = "Flink Streaming Job", channel=None,
                 shared: bool = False, metrics: bool = False) -> Dict[int, object]:
    """stage id -> the DataFrame of the stage's output rows. `script_dirs`: directories the
    tasks add to sys.path (the job script's, see spark/entry.py RunOptions); `worker_setup`:
    the job's Python dependencies on the workers (spark/python_dependencies.py). `channel`:
    the driver channel's address (spark/driver_channel.py): the tasks send their driver rows
    there as they go, and every subtask runs (a presence row each) to report its end; None:
    driver rows stay in the output (read by spark/driver_rows.py). `shared`: the stages run shared
    stage functions, which get the run's channel and arguments when they run
    (spark/plan_cache.py). `metrics`: the tasks send their metrics to the driver (a
    reporter is configured)."""
    stage_args = {} if shared else job_stage_args(job, script_dirs, worker_setup,
                                                  channel is not None, metrics)

    def source_input(stage):
        spec = stage.spec
        if stage.source.frame is None:
            # the splits travel in the stage's function (split_rows below); the frame only
            # starts each subtask, in its own partition, with no exchange
            return subtask_frame(session, spec.parallelism), False
        # files, Kafka: read by Spark's own readers into split rows (spark/frame_sources.py)
        frame = source_frame(stage.source.frame, spec.parallelism, session)
        if channel is not None:
            # every subtask runs to report its end (a stage with an upstream stage gets its
            # presence rows from it: presence_carriers)
            frame = frame.union(presence_frame(session, spec.parallelism))
        return frame, True

    def function_of(spec):
        return (shared_stage_function(spec.stage_id) if shared
                else stage_function(stage_args[spec.stage_id], spec.stage_id, channel))

    # with the channel the driver does not read the frames (it only runs them)
    return stage_frames(job, session, source_input, function_of,
                        driver_reads_sinks=channel is None, compute_unread=False,
                        description_of=lambda spec: stage_description(job_name, spec))


def job_stage_args(job: CompiledJob, script_dirs: Tuple[str, ...],
                   worker_setup: WorkerSetup, channel: bool,
                   metrics: bool = False) -> Dict[int, StageArgs]:
    """stage id -> what its tasks need of this run (spark/stage_task.py StageArgs).
    `metrics`: the tasks send their metrics to the driver (only a configured reporter reads
    them: a document a bundle cost ~20 us of every job's tasks without one)."""
    alias = pyflink_aliased()
    carried = presence_carriers(job) if channel else {}
    return {stage.spec.stage_id: StageArgs(
        cloudpickle.dumps(stage.spec), alias, tuple(script_dirs), worker_setup,
        frozenset(s.edge_id for s in stage.sinks), split_rows(stage),
        carried.get(stage.spec.stage_id, ()), metrics) for stage in job.stages}


def presence_carriers(job: CompiledJob) -> Dict[int, Tuple[Tuple[int, int], ...]]:
    """stage id -> the (edge, parallelism) pairs whose presence rows its subtask 0 sends:
    every stage with an upstream stage gets one presence row per subtask (so that each runs
    and reports its end) on the edge from its first upstream stage. A frame of presence rows
    unioned into the exchange instead cost a Spark task of its own per stage, which ran when
    a core was free: 20-40 ms of a small keyed job."""
    carried: Dict[int, List[Tuple[int, int]]] = {}
    for stage in job.stages:
        if stage.source is None and stage.upstream:
            first = stage.upstream[0]
            carried.setdefault(first.stage_id, []).append(
                (first.edge_id, stage.spec.parallelism))
    return {stage_id: tuple(pairs) for stage_id, pairs in carried.items()}


def split_rows(stage) -> Dict[int, List[tuple]]:
    """subtask -> the split rows of a stage whose source is split on the driver (from a
    collection, a number sequence...), in read order; empty for other stages."""
    if stage.source is None or stage.source.frame is not None:
        return {}
    rows: Dict[int, List[tuple]] = {}
    for row in source_split_rows(stage.source.splits):
        rows.setdefault(row[1], []).append(row)
    return rows


# (session, {parallelism: frame}): the presence row of every subtask, row i alone in
# partition i (a range of that many partitions), for the stages whose splits travel in
# their function. A local relation of the splits took 20-30 ms of the driver's time per
# job, and its exchange a Spark stage of its own (15-30 ms)
_subtask_frames: list = [None, {}]


def subtask_frame(session, parallelism: int):
    """The presence rows of `parallelism` subtasks, subtask i's in partition i."""
    if _subtask_frames[0] is not session:
        _subtask_frames[:] = [session, {}]
    frame = _subtask_frames[1].get(parallelism)
    if frame is None:
        from pyspark.sql import functions as F
        frame = _subtask_frames[1][parallelism] = session.range(
            0, parallelism, 1, parallelism).select(
            F.lit(PRESENCE_EDGE).cast("int").alias("edge"),
            F.col("id").cast("int").alias("dest"), F.lit(0).cast("int").alias("src"),
            F.lit(0).cast("long").alias("seq"), F.lit(KIND_RECORDS).cast("int").alias("kind"),
            F.lit(b"").alias("payload"), F.lit(b"").alias("order"))
    return frame


def presence_rows(parallelism: int) -> List[tuple]:
    """The presence row of every subtask (stage_task.py PRESENCE_EDGE)."""
    return [(PRESENCE_EDGE, subtask, 0, 0, KIND_RECORDS, b"") for subtask in range(parallelism)]


# parallelism -> (session, its presence rows' frame): the same rows for every stage of that
# parallelism in every job, so the frame is made once per session (a local relation took
# 10-16 ms of the driver's time per stage to make and analyse)
_presence_frames: Dict[int, tuple] = {}


def presence_frame(session, parallelism: int):
    cached = _presence_frames.get(parallelism)
    if cached is not None and cached[0] is session:
        return cached[1]
    frame = control_rows_frame(session, presence_rows(parallelism))
    _presence_frames[parallelism] = (session, frame)
    return frame


def _run(job: CompiledJob, collect_sink_id=None, options=None,
         job_name: str = "Flink Streaming Job",
         python: PythonDependencies = PythonDependencies(),
         metric_reporters: Sequence[Tuple[str, str]] = ()) -> Iterator:
    """Runs the job: prints print-sink lines (and what user functions print) as the tasks
    produce them; yields collected values; commits what file sinks wrote only once
    everything succeeded (codecs/files/commit.py). `metric_reporters`: Flink's
    metrics.reporter.* keys (a Prometheus endpoint serves the tasks' metrics while the job
    runs, with the driver channel)."""
    session = job_session(job)
    script_dirs = _script_dirs(options)
    job = with_files_as_splits(job, session)
    channel_off = not is_connect(session) and _channel_off_because(session)
    if is_connect(session) or channel_off:
        # Connect: tasks cannot reach this client, nor is there a SparkContext for job
        # groups and progress. A Spark whose endpoints authenticate or encrypt: a port of
        # the job's own would be weaker than Spark's (driver_channel.spark_guards_its_network);
        # or the user turned the channel off. Either way the driver rows are read back from
        # the stages' output
        if metric_reporters:
            from pyflink_on_spark.spark.streaming.metrics_reporting import \
                note_bounded_reporters
            note_bounded_reporters(metric_reporters)
        if channel_off and options is not None and options.verbose:
            print("pyflink-on-spark: %s: the job opens no port of its own, and its output "
                  "arrives as each stage finishes (docs/security.md)" % channel_off,
                  file=sys.stderr)
        yield from _run_read_back(job, session, collect_sink_id, script_dirs, job_name, python)
        return
    yield from _run_with_channel(job, session, collect_sink_id, script_dirs, job_name,
                                 options, python, metric_reporters)


# (SparkContext, why it runs jobs without the driver channel or None): read once per context
# (Spark reads its security settings at its start), not by Py4J calls on every run
_channel_off: list = [None, None]


def _channel_off_because(session):
    context = session.sparkContext
    if _channel_off[0] is not context:
        conf = context.getConf()
        _channel_off[:] = [context, channel_off_because(lambda key: conf.get(key, None))]
    return _channel_off[1]


def _run_with_channel(job: CompiledJob, session, collect_sink_id, script_dirs, job_name: str,
                      options, python: PythonDependencies,
                      metric_reporters: Sequence[Tuple[str, str]] = ()) -> Iterator:
    """A classic session: the stages run in a thread as one Spark job group named after the
    job (progress on a terminal's stderr, spark/progress.py), their driver rows arrive over
    the driver channel (spark/driver_channel.py) while they run, and so do the tasks'
    metrics, served by a Prometheus endpoint when one is configured."""
    sinks = DriverSinks(job, collect_sink_id)
    context = session.sparkContext
    group = new_group_id(job_name)
    channel = DriverChannel(ordered_streams(job), channel_host(session),
                            on_error=lambda text: context.cancelJobGroup(group),
                            bind_address=channel_bind_address(session))
    progress = None
    if progress_wanted(sys.stderr, options is None or options.progress):
        progress = ProgressLine(context, group).start()
    runner = None
    out = sinks.out
    endpoint = None
    try:
        board, endpoint = _metrics_endpoint(job_name, metric_reporters, session)
        sinks.prepare()
        address = channel.address + (channel.token,)
        runner = threading.Thread(target=_run_stages, name="pyflink-on-spark-job",
                                  args=(job, session, script_dirs, address, group, channel,
                                        job_name, python, board is not None),
                                  daemon=True)
        runner.start()
        for message in channel.messages():
            if message[0] == OUT:
                out.write(message[2])
                out.flush()   # a message holds up to 2048 lines: flushing each is cheap
                continue
            edge, payload = message[2], message[3]
            if edge == METRICS_EDGE:
                if board is not None:
                    board.take((json.loads(payload),))
                continue
            values, _ = loads_records(payload)
            if progress is not None:
                progress.records += len(values)
            yield from sinks.deliver(edge, values)
        if channel.user_error is not None or channel.job_error is not None:
            _print_what_arrived(channel, sinks)
            runner.join()
            if channel.user_error is not None:
                raise job_error(RuntimeError(channel.user_error))
            raise channel.job_error
        sinks.commit()
    except BaseException as e:
        if runner is not None and runner.is_alive():
            # e.g. a collect iterator closed early: the channel stops taking messages first
            # (else the job's end would wait for room in a queue no one reads any more)
            channel.close()
            context.cancelJobGroup(group)
            runner.join()
        sinks.abort()
        if isinstance(e, Exception):
            raise job_error(e) from None
        raise
    finally:
        channel.close()
        if progress is not None:
            progress.stop()
        if endpoint is not None:
            endpoint.close()


def _metrics_endpoint(job_name: str, metric_reporters, session):
    """(board, endpoint) of a bounded job with a Prometheus reporter configured, else
    (None, None) (spark/streaming/metrics_reporting.py)."""
    from pyflink_on_spark.spark.streaming.metrics_reporting import (
        MetricsBoard, PrometheusEndpoint, endpoint_host, prometheus_ports)
    ports = prometheus_ports(metric_reporters)
    if not ports:
        return None, None
    board = MetricsBoard(job_name)
    return board, PrometheusEndpoint(board, ports, endpoint_host(session))


def _run_stages(job: CompiledJob, session, script_dirs, address, group: str,
                channel: DriverChannel, job_name: str, python: PythonDependencies,
                metrics: bool = False) -> None:
    """The Spark side of a run (in its own thread, while the driver reads the channel):
    every stage is run; what nothing else reads is run by a count."""
    context = session.sparkContext
    error = None
    try:
        activate_in_thread(session)
        with job_group(context, group, job_description(job_name, job)):
            context.setInterruptOnCancel(True)
            # the Spark jobs of this thread name the run's channel to their tasks (shared
            # stage functions look there: spark/plan_cache.py)
            context.setLocalProperty(CHANNEL_PROPERTY, channel_property(address))
            worker_setup, executable = ship_dependencies(session, python)
            worker_setup = dataclasses.replace(worker_setup,
                                               object_storage=object_storage_of(session),
                                               python_executable=executable)
            with worker_python(session, executable):
                frames = _frames_for_run(job, session, script_dirs, worker_setup, job_name,
                                         channel, address, metrics)
            consumers = job.consumer_counts()
            scans = job.reads_frame_sources()
            for stage in job.stages:
                if consumers[stage.spec.stage_id] == 0:
                    run_frame(frames[stage.spec.stage_id], whole_stage_codegen=scans)
    except BaseException as e:   # handed to the driver's thread
        error = e
    finally:
        channel.job_finished(error)


def _frames_for_run(job: CompiledJob, session, script_dirs, worker_setup: WorkerSetup,
                    job_name: str, channel: DriverChannel, address,
                    metrics: bool = False) -> Dict[int, object]:
    """The job's frames: a plan of its shape made for an earlier run, its stages getting
    this run's arguments from the channel (spark/plan_cache.py), or made for this run."""
    shape = plan_shape(job)
    if shape is None:
        return build_frames(job, session, script_dirs, worker_setup, job_name, address,
                            metrics=metrics)
    context = session.sparkContext
    frames = cached_frames(session, (shape, worker_shape(context)), lambda: build_frames(
        job, session, script_dirs, worker_setup, job_name, address, shared=True))
    args = job_stage_args(job, script_dirs, worker_setup, channel=True, metrics=metrics)
    channel.stage_args = lambda stage_id, subtask: pickle.dumps(
        args[stage_id].for_subtask(subtask), protocol=pickle.HIGHEST_PROTOCOL)
    return frames


def _run_read_back(job: CompiledJob, session, collect_sink_id, script_dirs, job_name: str,
                   python: PythonDependencies) -> Iterator:
    """Spark Connect: the stages run, then their driver rows are read back in bounded
    slices (spark/driver_rows.py)."""
    sinks = DriverSinks(job, collect_sink_id)
    try:
        sinks.prepare()
        worker_setup, executable = ship_dependencies(session, python)
        with worker_python(session, executable):
            frames = build_frames(job, session, script_dirs, worker_setup, job_name)
        for edge, payload in driver_rows(job, frames):
            values, _ = loads_records(payload)
            yield from sinks.deliver(edge, values)
        sinks.commit()
    except BaseException as e:
        sinks.abort()
        if isinstance(e, Exception):
            raise job_error(e) from None
        raise


def _print_what_arrived(channel: DriverChannel, sinks: DriverSinks) -> None:
    """A failed job: what reached print sinks and what user code printed before the failure
    (PyFlink prints it as it goes)."""
    out = sinks.out
    for message in channel.remaining():
        if message[0] == OUT:
            out.write(message[2])
        elif message[2] != METRICS_EDGE and sinks.is_print(message[2]):
            values, _ = loads_records(message[3])
            out.write("".join(v + "\n" for v in values))
    out.flush()


def execute_job(job: CompiledJob, job_name: str, options=None,
                python: PythonDependencies = PythonDependencies(),
                metric_reporters: Sequence[Tuple[str, str]] = ()):
    """`options`: spark.run_options.RunOptions (None: defaults); `python`: the job's Python
    dependencies; `metric_reporters`: Flink's metrics.reporter.* keys."""
    from pyflink_on_spark.common.job_execution_result import finished_job_result
    start = time.time()
    for _ in _run(job, None, options, job_name, python, metric_reporters):
        pass
    runtime_ms = int((time.time() - start) * 1000)
    return finished_job_result(runtime_ms)


class FinishedJobHandle:
    """execute_async on bounded jobs: the job has run to completion when the client is
    returned (the JobHandle protocol of pyflink_on_spark.common.job_client)."""

    def __init__(self, result) -> None:
        self._result = result

    @staticmethod
    def _done(value):
        from concurrent.futures import Future
        future = Future()
        future.set_result(value)
        return future

    def job_id(self):
        return self._result.get_job_id()

    def status(self):
        from pyflink_on_spark.common.job_status import JobStatus
        return self._done(JobStatus.FINISHED)

    def cancel(self):
        return self._done(None)

    def stop_with_savepoint(self, advance_to_end_of_event_time, savepoint_directory):
        raise NotImplementedError("stop_with_savepoint: the job has already finished")

    def trigger_savepoint(self, savepoint_directory):
        raise NotImplementedError("trigger_savepoint: the job has already finished")

    def accumulators(self):
        return self._done(self._result.get_all_accumulator_results())

    def result(self):
        return self._done(self._result)


def _script_dirs(options) -> Tuple[str, ...]:
    return tuple(options.script_dirs) if options is not None else ()


def execute_collect(job: CompiledJob, job_name: str, collect_sink_id: int,
                    options=None, python: PythonDependencies = PythonDependencies()) \
        -> Iterator:
    iterator = _run(job, collect_sink_id, options, job_name, python)
    # Start the job now (PyFlink submits it at once), keeping the first value.
    try:
        first = next(iterator)
    except StopIteration:
        return iter(())
    return _prepend(first, iterator)


def _prepend(first, rest):
    yield first
    yield from rest
