"""Runs an unbounded job on Spark Structured Streaming.

One streaming query per job. Its input is a heartbeat (Spark's ``rate-micro-batch`` source,
one row per trigger), so a micro-batch runs every trigger interval even when no data
arrives (processing time advances, watermarks and idleness are emitted). Its foreachBatch
runs the job's stage DAG for the batch, as a bounded job runs it, with three differences:

* sources read only what is new in this batch (a monitored directory's new files, recorded
  per batch id in the checkpoint: file_index.py);
* every (operator, subtask) restores the newest completed state version before the batch
  and writes the batch's version (runtime/checkpoint/micro_batch.py);
* sinks commit by batch id: FileSink parts get names fixed by the restored state, and
  publishing renames them over whatever a previous attempt of the same batch published.

Spark's offset and commit logs (``<checkpoint dir>/spark``) say which batch ids completed;
the state versions (``<checkpoint dir>/state``) are completed by the driver after the sinks
committed. Re-running a batch (a restart after kill -9) restores the same version and reads
the same input, so it produces the same state and the same output.
"""
from __future__ import annotations

import functools
import os
import pickle
import shutil
import signal
import sys
import threading
import time
import uuid
from typing import Dict, Optional

import cloudpickle

from pyflink_on_spark.runtime.checkpoint.micro_batch import KIND_TICK, state_ids_of
from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.spark.batch_schema import SPARK_SCHEMA
from pyflink_on_spark.spark.streaming.source_inputs import is_unbounded_source, source_input
from pyflink_on_spark.spark.streaming.settings import StreamingSettings, job_identity
from pyflink_on_spark.spark.streaming.stage_task import make_streaming_stage_function
from pyflink_on_spark.specs.partitioning import KeyedPartitioning
from pyflink_on_spark.specs.sinks import CollectSinkSpec, FileSinkSpec, PrintSinkSpec
from pyflink_on_spark.specs.stage import CompiledJob

_TICK_SRC = 2 ** 31 - 1
# Fault injection for the crash tests: "<point>:<trigger file>" kills this driver with
# SIGKILL at that point of the first batch that reads new input once the trigger file exists
# (points: before_batch, mid_batch, before_commit, mid_commit, after_complete).
FAULT_ENV = "PYFLINK_ON_SPARK_FAULT"


def _fault_point(point: str, has_input: bool) -> None:
    spec = os.environ.get(FAULT_ENV)
    if not spec or not has_input:
        return
    wanted, _, trigger = spec.partition(":")
    if wanted == point and os.path.exists(trigger):
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGKILL)


def is_unbounded(job: CompiledJob) -> bool:
    return any(is_unbounded_source(stage.source.frame)
               for stage in job.stages if stage.source is not None)


def key_types_of(job: CompiledJob) -> Dict[int, object]:
    """Head node of every stage fed by a keyed exchange -> the exchange's key type (what
    rescaling needs to compute a key's group)."""
    stages = [compiled.spec for compiled in job.stages]
    stage_of_edge = {i.edge_id: stage for stage in stages for i in stage.inputs}
    found = {}
    for stage in stages:
        for exit_spec in stage.exits:
            target = stage_of_edge.get(exit_spec.edge_id)
            if isinstance(exit_spec.partitioning, KeyedPartitioning) and target is not None:
                found[target.head] = exit_spec.partitioning.key_type
    return found


def _check_supported(job: CompiledJob) -> None:
    sources = [stage.source for stage in job.stages if stage.source is not None]
    if any(source.frame is None for source in sources):
        raise NotImplementedError(
            "This job mixes an unbounded FileSource (monitor_continuously) with bounded "
            "sources (from_collection, from_source of a bounded source...); "
            "pyflink_on_spark runs unbounded jobs whose sources are all monitored "
            "FileSources so far.")
    for source in sources:
        frame = source.frame
        if not is_unbounded_source(frame):
            raise NotImplementedError(
                "Unbounded jobs read monitored FileSources and unbounded KafkaSources only so "
                "far (got %r)" % (frame,))
    for stage in job.stages:
        if any(isinstance(s.sink, CollectSinkSpec) for s in stage.sinks):
            raise NotImplementedError(
                "execute_and_collect() on an unbounded stream is not supported yet; use "
                "print() or a FileSink")


class MicroBatchRunner:
    """foreachBatch: runs the job's DAG for one batch id."""

    def __init__(self, job: CompiledJob, settings: StreamingSettings, session,
                 script_dirs=()) -> None:
        from pyflink_on_spark.spark.executor import _alias_active
        self.job = job
        self.settings = settings
        self.session = session
        self.store_root = os.path.join(settings.checkpoint_dir, "state")
        self.store = SnapshotStore(self.store_root)
        self.token = uuid.uuid4().hex   # this driver's workers' live-task cache
        self.naming_seed = job_identity(settings.checkpoint_dir)
        self.state_ids = state_ids_of(op for s in job.stages for op in s.spec.operators)
        self.key_types = cloudpickle.dumps(key_types_of(job))
        self.alias = _alias_active()
        self.script_dirs = tuple(script_dirs)
        self.indexes = {stage.spec.stage_id: source_input(
            self.store, self.state_ids[stage.spec.head], stage.source.frame)
            for stage in job.stages if stage.source is not None}
        # FileSinks: what crashed runs left in the base directories goes, the staging
        # directories are this process's until the job stops (codecs/files/staging.py)
        from pyflink_on_spark.codecs.files.commit import FileCommitter
        self.committers = {s.edge_id: FileCommitter(s.sink) for stage in job.stages
                           for s in stage.sinks if isinstance(s.sink, FileSinkSpec)}
        for committer in self.committers.values():
            committer.prepare()
        self.in_batch = False
        self.batches = 0
        self.files_in = 0
        self.last_batch_ms = 0
        self.last_completed = None

    def _spec_bytes(self, stage) -> bytes:
        return cloudpickle.dumps(stage)

    def _batch_time(self, batch_id: int) -> int:
        """The batch's processing time: recorded when the batch is first planned, read back
        by every re-run of it."""
        path = self.store.path("batches", str(batch_id))
        if self.store.exists(path):
            return int(self.store.read_bytes(path).decode())
        now = int(time.time() * 1000)
        self.store.write_bytes(path, str(now).encode())
        return now

    def print_progress(self, out) -> None:
        """One status line (terminals only): batches, files read, last batch's duration,
        age of the last completed checkpoint."""
        age = "-" if self.last_completed is None else "%.1f s" % (time.time() -
                                                                  self.last_completed)
        out.write("\r[pyflink-on-spark] batches %d, files %d, last batch %d ms, "
                  "checkpoint age %s   " % (self.batches, self.files_in,
                                             self.last_batch_ms, age))
        out.flush()

    def run(self, _heartbeat, batch_id: int) -> None:
        self.in_batch = True
        started = time.time()
        try:
            self._run(int(batch_id))
        finally:
            self.in_batch = False
            self.last_batch_ms = int((time.time() - started) * 1000)

    def _run(self, batch_id: int) -> None:
        from pyspark.sql import functions as F
        from pyflink_on_spark.spark.executor import _driver_rows
        from pyflink_on_spark.spark.frame_sinks import frame_sink_count, write_frame_sinks
        job, session = self.job, self.session
        restore = self.store.latest_completed_before(batch_id)
        batch_time = self._batch_time(batch_id)
        then = self.store.read_meta(restore) if restore is not None else {}
        consumers = {stage.spec.stage_id: 0 for stage in job.stages}
        for stage in job.stages:
            for up in {u.stage_id for u in stage.upstream}:
                consumers[up] += 1
        new_input = {stage_id: index.input_for_batch(batch_id)
                     for stage_id, index in self.indexes.items()}
        has_input = any(new_input.values())
        self.files_in += sum(len(e) for e in new_input.values())
        _fault_point("before_batch", has_input)
        frames = {}
        for compiled in job.stages:
            stage = compiled.spec
            if compiled.source is not None:
                entries = new_input[stage.stage_id]
                frame = self.indexes[stage.stage_id].frame(entries, stage.parallelism,
                                                           session)
                ticks = [(-1, sub, _TICK_SRC, 0, KIND_TICK, b"")
                         for sub in range(stage.parallelism)]
                frame = frame.union(session.createDataFrame(ticks, SPARK_SCHEMA))
            else:
                parts = [frames[up.stage_id].where(F.col("edge") == up.edge_id)
                         for up in compiled.upstream]
                frame = functools.reduce(lambda a, b: a.union(b), parts)
            frame = frame.repartitionById(stage.parallelism, F.col("dest")) \
                         .sortWithinPartitions("edge", "src", "seq")
            function = make_streaming_stage_function(
                self._spec_bytes(stage), self.alias, self.script_dirs,
                store_root=self.store_root, version=batch_id, restore_version=restore,
                parallelism_then=then, job_token=self.token, key_types_bytes=self.key_types,
                state_ids=self.state_ids, naming_seed=self.naming_seed,
                batch_time_ms=batch_time)
            output = frame.mapInArrow(function, SPARK_SCHEMA)
            readers = consumers[stage.stage_id] + frame_sink_count(compiled) + \
                (1 if any(s.sink.reaches_driver for s in compiled.sinks) else 0)
            if readers != 1:
                # read twice, or never read: compute it now, once (every subtask must run
                # and write its state version in every batch)
                output = output.localCheckpoint(eager=True)
            frames[stage.stage_id] = output
        write_frame_sinks(job, frames)
        sink_of_edge = {s.edge_id: s for stage in job.stages for s in stage.sinks}
        file_sinks = {edge: s.sink for edge, s in sink_of_edge.items()
                      if isinstance(s.sink, FileSinkSpec)}
        committables = {edge: [] for edge in file_sinks}
        out = sys.stdout
        first = True
        for edge, payload in _driver_rows(job, frames):
            if first:
                _fault_point("mid_batch", has_input)
                first = False
            sink = sink_of_edge[edge].sink
            values, _ = pickle.loads(payload)
            if isinstance(sink, PrintSinkSpec):
                out.write("\n".join(values))
                out.write("\n")
            elif isinstance(sink, FileSinkSpec):
                committables[edge].extend(values)
        out.flush()
        _fault_point("before_commit", has_input)
        for edge, sink in file_sinks.items():
            _commit_parts(sink, committables[edge], has_input)
        parallelism = {self.state_ids[op.node_id]: stage.spec.parallelism
                       for stage in job.stages for op in stage.spec.operators}
        self.store.write_meta(batch_id, parallelism)
        self.store.complete(batch_id)
        _fault_point("after_complete", has_input)
        for old in self.store.retain(self.settings.retained_versions):
            self.store.delete_file(self.store.path("batches", str(old)))
        self.batches += 1
        self.last_completed = time.time()


def _commit_parts(sink: FileSinkSpec, committables, has_input: bool) -> None:
    """Publishes a batch's parts: each rename replaces what an earlier attempt of the same
    batch published under the same name (the names come from the restored state), so a
    re-run commit never duplicates. The staging directory stays (claimed by this process)
    until the job stops."""
    from pyflink_on_spark.codecs.files import fs
    for n, (staged, final) in enumerate(sorted(set(committables), key=lambda c: c[1])):
        if n == 1:
            _fault_point("mid_commit", has_input)
        fs.rename(staged, final)


def execute_streaming(job: CompiledJob, job_name: str, options, settings: StreamingSettings,
                      stop: Optional[threading.Event] = None):
    """Runs the unbounded job until it is cancelled (Ctrl-C, SIGTERM or ``stop`` set: after
    the current batch) or fails. Returns the JobExecutionResult."""
    from pyflink_on_spark.common.job_execution_result import JobExecutionResult
    from pyflink_on_spark.common.job_id import JobID
    from pyflink_on_spark.spark.executor import _job_error
    from pyflink_on_spark.spark.session import job_session
    _check_supported(job)
    start = time.time()
    session = job_session(job)
    parallelism = max(stage.spec.parallelism for stage in job.stages)
    session.conf.set("spark.sql.shuffle.partitions", str(parallelism))
    runner = MicroBatchRunner(job, settings, session,
                              options.script_dirs if options is not None else ())
    stop = stop if stop is not None else threading.Event()
    previous = {}

    def request_stop(signum, frame):
        stop.set()

    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, request_stop)
    query = None
    try:
        query = (session.readStream.format("rate-micro-batch").option("rowsPerBatch", 1)
                 .load().writeStream.foreachBatch(runner.run)
                 .option("checkpointLocation", os.path.join(settings.checkpoint_dir, "spark"))
                 .trigger(processingTime="%d milliseconds" % settings.trigger_ms)
                 .start())
        progress = sys.stderr.isatty()
        while query.isActive:
            if stop.is_set() and not runner.in_batch:
                query.stop()
                break
            query.awaitTermination(0.1)
            if progress:
                runner.print_progress(sys.stderr)
        if progress:
            sys.stderr.write("\n")
        error = query.exception()
        if error is not None:
            raise _streaming_error(error, _job_error)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if query is not None and query.isActive:
            query.stop()
        for index in runner.indexes.values():
            index.close()
        for committer in runner.committers.values():
            committer.abort()   # removes the staging directory (published parts stay)
        if not settings.recoverable:
            shutil.rmtree(settings.checkpoint_dir, ignore_errors=True)
    runtime_ms = int((time.time() - start) * 1000)
    return JobExecutionResult._of(JobID._generate(), runtime_ms)


def _streaming_error(error, job_error):
    from pyflink_on_spark.runtime.errors import JobExecutionError, extract_user_error
    text = str(error)
    user = extract_user_error(text)
    if user is not None:
        return JobExecutionError("Job execution failed: " + user)
    return job_error(Exception(text))
