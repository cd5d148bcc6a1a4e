"""Runs a compiled job on Spark: every stage is one mapInArrow over its input, exchanges are
exact repartitions (a Spark partition is a Flink subtask). Records reach the driver (print,
collect, file committables) only through the driver channel while the job runs
(spark/driver_channel.py; _sliced_rows reads a finished micro-batch's for the streaming
executor). What moves between
stages, and in which order, is the exchange contract of direct/exchange.py (the direct runner
implements the same contract in plain Python)."""
from __future__ import annotations

import functools
import itertools
import pickle
import sys
import threading
import time
import uuid
from typing import Dict, Iterator, List, Tuple

import cloudpickle

from pyflink_on_spark.codecs.files.commit import FileCommitter
from pyflink_on_spark.runtime.errors import JobExecutionError, extract_user_error
from pyflink_on_spark.direct.exchange import EXCHANGE_ORDER, ROUTE_BY, source_split_rows
from pyflink_on_spark.runtime.boundary import KIND_RECORDS
from pyflink_on_spark.spark.batch_schema import SPARK_SCHEMA
from pyflink_on_spark.spark.driver_channel import (OUT, DriverChannel, channel_host,
                                                   ordered_streams)
from pyflink_on_spark.spark.frame_sinks import frame_sink_count, write_frame_sinks
from pyflink_on_spark.spark.frame_sources import source_frame
from pyflink_on_spark.spark.session import get_session
from pyflink_on_spark.spark.stage_task import PRESENCE_EDGE, make_stage_function
from pyflink_on_spark.specs.sinks import CollectSinkSpec, FileSinkSpec, PrintSinkSpec
from pyflink_on_spark.specs.stage import CompiledJob


def _alias_active() -> bool:
    module = sys.modules.get("pyflink")
    return module is not None and getattr(module, "__name__", "") == "pyflink_on_spark"


def build_frames(job: CompiledJob, session, script_dirs: Tuple[str, ...] = (),
                 channel=None) -> Dict[int, object]:
    """stage id -> the DataFrame of the stage's output rows. `script_dirs`: directories the
    tasks add to sys.path (the job script's, see spark/entry.py RunOptions). `channel`: the
    driver channel's address (spark/driver_channel.py): the tasks send their driver rows
    there as they go, and every subtask runs (a presence row each) to report its end; None:
    driver rows stay in the output (read by _driver_rows)."""
    from pyspark.sql import functions as F
    consumers = _consumer_counts(job)
    alias = _alias_active()
    frames: Dict[int, object] = {}
    for stage in job.stages:
        spec = stage.spec
        if stage.source is not None and stage.source.frame is not None:
            # files, Kafka: read by Spark's own readers into split rows (spark/frame_sources.py)
            frame = source_frame(stage.source.frame, spec.parallelism, session)
        elif stage.source is not None:
            frame = session.createDataFrame(source_split_rows(stage.source.splits),
                                            SPARK_SCHEMA)
        else:
            parts = [frames[up.stage_id].where(F.col("edge") == up.edge_id)
                     for up in stage.upstream]
            frame = functools.reduce(lambda a, b: a.union(b), parts)
        if channel is not None:
            frame = frame.union(session.createDataFrame(
                [(PRESENCE_EDGE, subtask, 0, 0, KIND_RECORDS, b"")
                 for subtask in range(spec.parallelism)], SPARK_SCHEMA))
        # the exchange contract (direct/exchange.py): route by dest, order by (edge, src, seq)
        frame = frame.repartitionById(spec.parallelism, F.col(ROUTE_BY)) \
                     .sortWithinPartitions(*EXCHANGE_ORDER)
        output = frame.mapInArrow(
            make_stage_function(cloudpickle.dumps(spec), alias, script_dirs, spec.stage_id,
                                channel), SPARK_SCHEMA)
        # with the channel the driver does not read the frame (it only runs it)
        has_driver_sink = channel is None and any(s.sink.reaches_driver for s in stage.sinks)
        if consumers[spec.stage_id] + (1 if has_driver_sink else 0) \
                + frame_sink_count(stage) > 1:
            # Read by several consumers: compute once, so user functions run once per record.
            output = output.localCheckpoint(eager=True)
        frames[spec.stage_id] = output
    return frames


def _consumer_counts(job: CompiledJob) -> Dict[int, int]:
    """stage id -> how many later stages read its output."""
    consumers: Dict[int, int] = {s.spec.stage_id: 0 for s in job.stages}
    for stage in job.stages:
        for up in {u.stage_id for u in stage.upstream}:
            consumers[up] += 1
    return consumers


def _driver_rows(job: CompiledJob, frames):
    from pyspark.sql import functions as F
    parts = []
    for stage in job.stages:
        edges = [s.edge_id for s in stage.sinks if s.sink.reaches_driver]
        if edges:
            parts.append(frames[stage.spec.stage_id].where(F.col("edge").isin(edges))
                         .select("edge", "payload"))
    if not parts:
        return iter(())
    final = functools.reduce(lambda a, b: a.union(b), parts)
    return _sliced_rows(final, DRIVER_SLICE_ROWS)


# boundary rows (each up to runtime.exits.CHUNK_RECORDS records) the driver receives at once
DRIVER_SLICE_ROWS = 256


def _sliced_rows(frame, slice_rows: int) -> Iterator[Tuple[int, bytes]]:
    """(edge, payload) of every row, partition by partition in order, at most `slice_rows`
    rows in the driver at a time, whatever the size of the job's output: the frame is
    computed once, all partitions in parallel, onto the executors' disks, then read in
    slices. (toLocalIterator brings a whole partition to the driver at once: a 10M-record
    print at parallelism 2 ran out of driver memory and hung.)"""
    from pyspark import StorageLevel
    frame = frame.persist(StorageLevel.DISK_ONLY)
    try:
        frame.count()
        rdd = frame.rdd
        context = rdd.context
        for partition in range(rdd.getNumPartitions()):
            start = 0
            while True:
                rows = context.runJob(rdd, _slice(start, slice_rows), [partition])
                for row in rows:
                    yield row[0], row[1]
                if len(rows) < slice_rows:
                    break
                start += slice_rows
    finally:
        frame.unpersist()


def _slice(start: int, size: int):
    def rows(iterator):
        return itertools.islice(iterator, start, start + size)
    return rows


def _run(job: CompiledJob, collect_sink_id=None, script_dirs: Tuple[str, ...] = ()) \
        -> Iterator:
    """Runs the job; prints print-sink lines and what user functions print as the tasks
    send them (spark/driver_channel.py); yields collected values; commits what file sinks
    wrote only once everything succeeded (codecs/files/commit.py)."""
    session = get_session()
    sink_of_edge = {s.edge_id: s for stage in job.stages for s in stage.sinks}
    committers = {edge: FileCommitter(s.sink) for edge, s in sink_of_edge.items()
                  if isinstance(s.sink, FileSinkSpec)}
    committables: Dict[int, list] = {edge: [] for edge in committers}
    context = session.sparkContext
    group = "pyflink-on-spark-" + uuid.uuid4().hex
    channel = DriverChannel(ordered_streams(job), channel_host(session),
                            on_error=lambda text: context.cancelJobGroup(group))
    runner = None
    out = sys.stdout
    try:
        for committer in committers.values():
            if hasattr(committer, "prepare"):   # file sinks: clear what crashed runs left
                committer.prepare()
        address = channel.address + (channel.token,)
        runner = threading.Thread(target=_run_stages, name="pyflink-on-spark-job",
                                  args=(job, session, script_dirs, address, group, channel),
                                  daemon=True)
        runner.start()
        for message in channel.messages():
            if message[0] == OUT:
                out.write(message[2])
                out.flush()   # a message holds up to 2048 lines: flushing each is cheap
                continue
            edge, payload = message[2], message[3]
            sink_exit = sink_of_edge[edge]
            sink = sink_exit.sink
            values, _ = pickle.loads(payload)
            if isinstance(sink, PrintSinkSpec):
                out.write("\n".join(values))
                out.write("\n")
                out.flush()
            elif isinstance(sink, FileSinkSpec):
                committables[edge].extend(values)
            elif isinstance(sink, CollectSinkSpec) and sink_exit.node_id == collect_sink_id:
                yield from values
        if channel.user_error is not None or channel.job_error is not None:
            _print_what_arrived(channel, sink_of_edge, out)
            runner.join()
            if channel.user_error is not None:
                raise _job_error(RuntimeError(channel.user_error))
            raise channel.job_error
        out.flush()
        for edge, committer in committers.items():
            committer.commit(committables[edge])
    except BaseException as e:
        if runner is not None and runner.is_alive():
            context.cancelJobGroup(group)   # e.g. a collect iterator closed early
            runner.join()
        for committer in committers.values():
            committer.abort()
        if isinstance(e, Exception):
            raise _job_error(e) from None
        raise
    finally:
        channel.close()


def _run_stages(job: CompiledJob, session, script_dirs, address, group: str,
                channel: DriverChannel) -> None:
    """The Spark side of a run (in its own thread, while the driver reads the channel):
    every stage is run; what nothing else reads is run by a count."""
    context = session.sparkContext
    context.setJobGroup(group, "pyflink-on-spark job", interruptOnCancel=True)
    error = None
    try:
        frames = build_frames(job, session, script_dirs, address)
        write_frame_sinks(job, frames)
        consumers = _consumer_counts(job)
        for stage in job.stages:
            if consumers[stage.spec.stage_id] == 0 and frame_sink_count(stage) == 0:
                frames[stage.spec.stage_id].count()
    except BaseException as e:   # handed to the driver's thread
        error = e
    finally:
        channel.job_finished(error)


def _print_what_arrived(channel: DriverChannel, sink_of_edge, out) -> None:
    """A failed job: what reached print sinks and what user code printed before the failure
    (PyFlink prints it as it goes)."""
    for message in channel.remaining():
        if message[0] == OUT:
            out.write(message[2])
        elif isinstance(sink_of_edge[message[2]].sink, PrintSinkSpec):
            values, _ = pickle.loads(message[3])
            out.write("".join(v + "\n" for v in values))
    out.flush()


def _job_error(e: Exception) -> Exception:
    text = str(e)
    user = extract_user_error(text)
    if user is not None:
        return JobExecutionError("Job execution failed: " + user)
    if isinstance(e, JobExecutionError):
        return e
    marker = "An exception was thrown from the Python worker:"
    if marker in text:
        worker = text[text.index(marker) + len(marker):]
        worker = worker.split(" SQLSTATE:")[0].split("\n\tat ")[0].strip()
        return JobExecutionError("Job execution failed in a Spark task:\n" + worker)
    return e


def execute_job(job: CompiledJob, job_name: str, options=None):
    """`options`: spark.run_options.RunOptions (None: defaults)."""
    from pyflink_on_spark.common.job_execution_result import JobExecutionResult
    from pyflink_on_spark.common.job_id import JobID
    start = time.time()
    for _ in _run(job, None, _script_dirs(options)):
        pass
    runtime_ms = int((time.time() - start) * 1000)
    return JobExecutionResult._of(JobID._generate(), runtime_ms)


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
                    options=None) -> Iterator:
    iterator = _run(job, collect_sink_id, _script_dirs(options))
    # Start the job now (PyFlink submits it at once), keeping the first value.
    try:
        first = next(iterator)
    except StopIteration:
        return iter(())
    return _prepend(first, iterator)


def _prepend(first, rest):
    yield first
    yield from rest
