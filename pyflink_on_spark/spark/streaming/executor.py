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

import os
import shutil
import sys
import threading
import time
import uuid
from typing import Callable, Dict, Optional, Tuple

import cloudpickle

from pyflink_on_spark.runtime.boundary import KIND_TICK, loads_records
from pyflink_on_spark.runtime.checkpoint.micro_batch import state_ids_of
from pyflink_on_spark.runtime.checkpoint.savepoints import seed_from_savepoint, version_base
from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.aliasing import pyflink_aliased
from pyflink_on_spark.spark.batch_schema import control_rows_frame
from pyflink_on_spark.spark.driver_rows import driver_rows
from pyflink_on_spark.runtime.errors import job_error
from pyflink_on_spark.spark.stage_frames import stage_frames
from pyflink_on_spark.runtime.sink_delivery import DriverSinks
from pyflink_on_spark.spark.object_storage import object_storage_of
from pyflink_on_spark.spark.streaming.faults import driver_fault_point as _fault_point
from pyflink_on_spark.spark.streaming.faults import standby_gate
from pyflink_on_spark.spark.streaming.job_control import new_entry, start_control
from pyflink_on_spark.spark.streaming.metrics_reporting import (MetricsBoard, PrometheusEndpoint,
                                                                described_batch,
                                                                endpoint_host)
from pyflink_on_spark.spark.streaming.savepoint_requests import SavepointRequests
from pyflink_on_spark.spark.streaming.sources import (UNBOUNDED_SOURCES,
                                                      check_unbounded_source,
                                                      unbounded_source)
from pyflink_on_spark.spark.streaming.settings import StreamingSettings, job_identity
from pyflink_on_spark.spark.streaming.stage_task import make_streaming_stage_function
from pyflink_on_spark.spark.streaming.stop_signals import StopSignals
from pyflink_on_spark.spark.streaming.table_feeds import table_feed_frame
from pyflink_on_spark.specs.table_feeds import TableFeed
from pyflink_on_spark.specs.partitioning import KeyedPartitioning
from pyflink_on_spark.specs.sinks import FileSinkSpec
from pyflink_on_spark.specs.stage import CompiledJob

_TICK_SRC = 2 ** 31 - 1
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
            "This job mixes an unbounded source with bounded sources (from_collection, "
            "from_source of a bounded source...); pyflink_on_spark runs unbounded jobs whose "
            "sources are all %s so far (a bounded backlog ahead of an unbounded source: a "
            "HybridSource)." % UNBOUNDED_SOURCES)
    for source in sources:
        frame = source.frame
        check_unbounded_source(frame)


class MicroBatchRunner:
    """foreachBatch: runs the job's DAG for one batch id."""

    def __init__(self, job: CompiledJob, settings: StreamingSettings, session,
                 script_dirs=(), collect: Optional[Callable[[list], None]] = None,
                 collect_sink_id: Optional[int] = None) -> None:
        self.job = job
        self.settings = settings
        self.session = session
        self.object_storage = object_storage_of(session)   # before the store's first use
        self.store_root = os.path.join(settings.checkpoint_dir, "state")
        self.store = SnapshotStore(self.store_root)
        self.token = uuid.uuid4().hex   # this driver's workers' live-task cache
        self.naming_seed = job_identity(settings.checkpoint_dir)
        self.state_ids = state_ids_of(op for s in job.stages for op in s.spec.operators)
        if settings.restore_path:
            # started from a savepoint: the state directory is seeded before any source
            # reads its positions from it (runtime/checkpoint/savepoints.py)
            seed_from_savepoint(settings.restore_path, self.store,
                                set(self.state_ids.values()), settings.allow_non_restored)
        # the state version of Spark's batch 0 (after the savepoint's, for a job started
        # from one): Spark's batch ids restart at 0 in a fresh checkpoint directory
        self.version_base = version_base(self.store)
        self.savepoints = SavepointRequests("0" * 32, "", settings.savepoint_dir)
        self.metrics_board: Optional[MetricsBoard] = None   # user metrics, batch by batch
        self.key_types = cloudpickle.dumps(key_types_of(job))
        self.alias = pyflink_aliased()
        self.script_dirs = tuple(script_dirs)
        self.sources = {stage.spec.stage_id: unbounded_source(
            stage.source.frame, self.store, self.state_ids[stage.spec.head],
            stage.spec.parallelism) for stage in job.stages if stage.source is not None}
        # FileSinks: what crashed runs left in the base directories goes, the staging
        # directories are this process's until the job stops (codecs/files/staging.py)
        from pyflink_on_spark.codecs.files.commit import FileCommitter
        self.committers = {s.edge_id: FileCommitter(s.sink) for stage in job.stages
                           for s in stage.sinks if isinstance(s.sink, FileSinkSpec)}
        for committer in self.committers.values():
            committer.prepare()
            _remove_abandoned_in_progress(committer.spec)
        # execute_and_collect: the values reaching the collect sink go to `collect`, batch
        # by batch (at least once, as print: a batch re-run after a crash sends again)
        self.collect = collect
        self.collect_sink_id = collect_sink_id
        self.in_batch = False
        self.stopping = threading.Event()   # set: the job stops, batches run nothing
        self.batches = 0
        self.files_in = 0
        self.last_batch_ms = 0
        self.last_completed = None
        self.show_progress = False   # read the progress line's numbers after each batch
        self.records_in = 0
        self.records_per_s = 0.0
        self.watermark = None
        self._rate_base = None
        self._specs: Dict[int, bytes] = {}          # stage id -> its pickled spec
        self._tick_frames: Dict[int, object] = {}   # stage id -> its tick rows' frame

    def _spec_bytes(self, stage) -> bytes:
        """The stage's spec as its tasks get it: pickled once, the same every batch."""
        found = self._specs.get(stage.stage_id)
        if found is None:
            found = self._specs[stage.stage_id] = cloudpickle.dumps(stage)
        return found

    def _ticks(self, stage):
        """The frame of the stage's tick rows (one per subtask), the same every batch: made
        once (a local relation took ~30 ms of every batch's driver time)."""
        found = self._tick_frames.get(stage.stage_id)
        if found is None:
            ticks = [(-1, sub, _TICK_SRC, 0, KIND_TICK, b"")
                     for sub in range(stage.parallelism)]
            found = self._tick_frames[stage.stage_id] = control_rows_frame(self.session,
                                                                           ticks)
        return found

    def _planned(self, batch_id: int) -> bool:
        """Whether batch ``batch_id`` was started before (its time is recorded first)."""
        return self.store.exists(self.store.path("batches", str(batch_id)))

    def _batch_time(self, batch_id: int) -> int:
        """The batch's processing time (see _plan)."""
        return self._plan(batch_id)[0]

    def _plan(self, batch_id: int) -> Tuple[int, bool]:
        """The batch's processing time, and whether it is drained (ends with the end of
        event time: stop_with_savepoint(True, ...), asked while it is planned): recorded
        together when the batch is first planned (``<ms>`` or ``<ms> drain``), read back by
        every re-run of it, so a re-run after kill -9 drains as the first run did and its
        output is committed once. A restarted job whose drained batch completed goes on
        running, its event time begun anew (the savepoint was not taken: the process that
        asked for it is gone)."""
        path = self.store.path("batches", str(batch_id))
        if self.store.exists(path):
            recorded = self.store.read_bytes(path).decode().split()
            return int(recorded[0]), recorded[1:] == ["drain"]
        now = int(time.time() * 1000)
        drain = self.savepoints.draining()
        self.store.write_bytes(path, ("%d drain" % now if drain else str(now)).encode())
        return now, drain

    def _report_pending(self) -> None:
        """Kafka sources' records not yet read when this batch was planned (pendingRecords,
        under the source operator's name), for the metrics reporters."""
        if self.metrics_board is None:
            return
        for stage in self.job.stages:
            pending = getattr(self.sources.get(stage.spec.stage_id), "pending", None)
            if pending is not None:
                self.metrics_board.pending_records(stage.spec.operators[0].name, pending)

    def read_progress(self, version: int) -> None:
        """Records in (every source subtask's count, from its snapshot) and the watermark
        (the lowest a source subtask emitted) after completed version ``version``: for the
        progress line, read only on a terminal."""
        total, marks = 0, []
        for stage in self.job.stages:
            if stage.source is None:
                continue
            sid = self.state_ids[stage.spec.head]
            for subtask in range(stage.spec.parallelism):
                snap = self.store.read_state(version, sid, subtask) or {}
                total += snap.get("records_in", 0)
                if snap.get("watermark_out") is not None:
                    marks.append(snap["watermark_out"])
        now = time.time()
        if self._rate_base is None:
            self._rate_base = (now, total)
        elif now - self._rate_base[0] >= 1.0:
            self.records_per_s = (total - self._rate_base[1]) / (now - self._rate_base[0])
            self._rate_base = (now, total)
        self.records_in = total
        self.watermark = min(marks) if marks else None

    def print_progress(self, out) -> None:
        """One status line (terminals only): batches, records in, records/s, watermark,
        age of the last completed checkpoint."""
        from pyflink_on_spark.runtime.watermarks import MIN_WATERMARK
        age = "-" if self.last_completed is None else "%.1f s" % (time.time() -
                                                                  self.last_completed)
        mark = "-" if self.watermark is None or self.watermark <= MIN_WATERMARK \
            else str(self.watermark)
        out.write("\r[pyflink-on-spark] batches %d, records in %d (%.0f/s), watermark %s, "
                  "checkpoint age %s   " % (self.batches, self.records_in,
                                             self.records_per_s, mark, age))
        out.flush()

    def run(self, _heartbeat, batch_id: int) -> None:
        """foreachBatch: Spark's batch ``batch_id`` is state version base + batch_id."""
        batch_id = self.version_base + int(batch_id)
        self.in_batch = True
        if self.stopping.is_set() and not self._planned(batch_id):
            # the stop came between two batches and Spark started this one before
            # query.stop(): run nothing (no input planned, no state version; a restart
            # continues from the last completed batch). A batch running Spark jobs when
            # query.stop() cancels them fails the query: Spark's check of the cancelled
            # foreachBatch's long py4j error message overflows the JVM stack
            # (StreamExecution's PROXY_ERROR regex) instead of seeing an interruption.
            # A batch planned before (the re-run of an interrupted one) always runs: its
            # recorded input must not be skipped.
            self.in_batch = False
            return
        if self.last_completed is not None and self.settings.min_pause_ms > 0:
            # CheckpointConfig's min pause: this batch (checkpoint) starts no sooner than
            # the pause after the previous one completed
            pause = self.last_completed + self.settings.min_pause_ms / 1000.0 - time.time()
            if pause > 0:
                time.sleep(pause)
        started = time.time()
        try:
            summary = self.metrics_board.summary() if self.metrics_board is not None else ""
            with described_batch(self.session, summary):
                self._run(int(batch_id))
        finally:
            self.in_batch = False
            self.last_batch_ms = int((time.time() - started) * 1000)
        if self.metrics_board is not None:
            self.metrics_board.checkpoint_completed(self.batches, self.last_batch_ms)

    def _run(self, batch_id: int) -> None:
        job, session = self.job, self.session
        restore = self.store.latest_completed_before(batch_id)
        batch_time, drain = self._plan(batch_id)
        then = self.store.read_meta(restore) if restore is not None else {}
        new_input = {stage_id: source.plan(batch_id)
                     for stage_id, source in self.sources.items()}
        has_input = any(new_input.values())
        self.files_in += sum(len(e) for e in new_input.values())
        self._report_pending()
        _fault_point("before_batch", has_input)

        frames: Dict[int, object] = {}

        def source_input(stage):
            # what is new in this batch, and a tick row per subtask (each runs every batch)
            spec = stage.spec
            if isinstance(stage.source.frame, TableFeed):   # this batch's rows of the
                frame = table_feed_frame(stage.source.frame, frames,    # stages before it
                                         spec.parallelism, session)
            else:
                frame = self.sources[spec.stage_id].frame(new_input[spec.stage_id], session)
            return frame.union(self._ticks(spec)), True

        def function_of(spec):
            return make_streaming_stage_function(
                self._spec_bytes(spec), self.alias, self.script_dirs,
                store_root=self.store_root, version=batch_id, restore_version=restore,
                parallelism_then=then, job_token=self.token, key_types_bytes=self.key_types,
                state_ids=self.state_ids, naming_seed=self.naming_seed,
                batch_time_ms=batch_time, object_storage=self.object_storage, drain=drain)

        # every subtask of every stage runs and writes its state version in every batch
        stage_frames(job, session, source_input, function_of, driver_reads_sinks=True,
                     compute_unread=True, frames=frames)
        sinks = DriverSinks(job, self.collect_sink_id if self.collect is not None else None)
        first = True
        for edge, payload in driver_rows(job, frames):
            if first:
                _fault_point("mid_batch", has_input)
                first = False
            values, _ = loads_records(payload)
            collected = sinks.deliver(edge, values)
            if collected:
                self.collect(collected)
        sinks.out.flush()
        _fault_point("before_commit", has_input)
        for edge, sink in sinks.file_sinks.items():
            _commit_parts(sink, sinks.committables[edge], has_input)
        parallelism = {self.state_ids[op.node_id]: stage.spec.parallelism
                       for stage in job.stages for op in stage.spec.operators}
        self.store.write_meta(batch_id, parallelism)
        self.store.complete(batch_id)
        _fault_point("after_complete", has_input)
        self.savepoints.serve(self.store, batch_id, self.stopping, drained=drain)
        if self.metrics_board is not None:
            self.metrics_board.read_batch(self.store, batch_id)
        for old in self.store.retain(self.settings.retained_versions):
            self.store.delete_file(self.store.path("batches", str(old)))
        kept = self.store.versions()
        for source in self.sources.values():
            source.compact(before=kept[0] if kept else batch_id)
        self.batches += 1
        self.last_completed = time.time()
        if self.show_progress:
            self.read_progress(batch_id)


def _commit_parts(sink: FileSinkSpec, committables, has_input: bool) -> None:
    """Publishes a batch's parts (Flink: pending -> finished when the checkpoint completes):
    each rename replaces what an earlier attempt of the same batch published under the same
    name (the names come from the restored state), so a re-run commit never duplicates.
    Then the in-progress files failed task attempts left in the batch's bucket directories
    go (no task runs between batches)."""
    from pyflink_on_spark.codecs.files import fs
    committables = sorted(set(committables), key=lambda c: c[1])
    for n, (staged, final) in enumerate(committables):
        fs.rename(staged, final)
        if n == 0:
            # after the first part is published, before the rest and the batch's completion
            # (a batch with a single part never reached a point placed before the second)
            _fault_point("mid_commit", has_input)
    for bucket_dir in sorted({final.rsplit("/", 1)[0] for _, final in committables}):
        remove_in_progress(bucket_dir, sink.part_prefix)


def remove_in_progress(directory: str, part_prefix: str) -> None:
    """Removes the sink's in-progress part files directly in `directory`."""
    from pyflink_on_spark.codecs.files import fs
    from pyflink_on_spark.runtime.operators.file_sink import IN_PROGRESS
    for name in fs.list_names(directory):
        if name.startswith("." + part_prefix) and IN_PROGRESS in name:
            fs.remove_file(fs.join(directory, name))


def _remove_abandoned_in_progress(sink: FileSinkSpec) -> None:
    """At start: in-progress files a crashed run of the job left in the sink's buckets."""
    from pyflink_on_spark.codecs.files import fs
    pending = [sink.base_path]
    while pending:
        directory = pending.pop()
        remove_in_progress(directory, sink.part_prefix)
        for name in fs.list_names(directory):
            path = fs.join(directory, name)
            if not name.startswith(".") and fs.is_dir(path):
                pending.append(path)


def execute_streaming(job: CompiledJob, job_name: str, options, settings: StreamingSettings,
                      stop: Optional[threading.Event] = None,
                      collect: Optional[Callable[[list], None]] = None,
                      collect_sink_id: Optional[int] = None,
                      savepoints: Optional[SavepointRequests] = None):
    """Runs the unbounded job until it is cancelled (Ctrl-C, SIGTERM or ``stop`` set: after
    the current batch) or fails. Returns the JobExecutionResult; stopped by a signal, the
    process then ends by that signal (stop_signals.py)."""
    from pyflink_on_spark.common.job_execution_result import finished_job_result
    from pyflink_on_spark.spark.session import is_connect, job_session
    _check_supported(job)
    start = time.time()
    session = job_session(job, unbounded=True)
    standby_gate()   # crash tests only: a restart started ahead waits here (faults.py)
    parallelism = max(stage.spec.parallelism for stage in job.stages)
    session.conf.set("spark.sql.shuffle.partitions", str(parallelism))
    runner = MicroBatchRunner(job, settings, session,
                              options.script_dirs if options is not None else (),
                              collect=collect, collect_sink_id=collect_sink_id)
    if savepoints is None:          # a blocking execute(): reached by job control only
        from pyflink_on_spark.common.job_id import new_job_id
        savepoints = SavepointRequests(str(new_job_id()), job_name, settings.savepoint_dir)
    runner.savepoints = savepoints  # JobClient / `pyflink-on-spark savepoint`
    stop = stop if stop is not None else threading.Event()
    runner.stopping = stop
    control = start_control(new_entry(savepoints.job_id, job_name, settings.checkpoint_dir),
                            stop, savepoints)
    runner.metrics_board = MetricsBoard(job_name)
    endpoint = None
    if settings.prometheus_ports:
        endpoint = PrometheusEndpoint(runner.metrics_board, settings.prometheus_ports,
                                      endpoint_host(session))
    progress = sys.stderr.isatty()
    runner.show_progress = progress
    signals = StopSignals(stop)
    try:
        signals.__enter__()
        if is_connect(session):
            _run_batches_from_here(runner, settings, stop, progress)
        else:
            _run_query(session, runner, settings, stop, progress)
    finally:
        signals.__exit__()
        if control is not None:
            control.close()
        if endpoint is not None:
            endpoint.close()
        runner.savepoints.fail_pending("The job %r ended before the savepoint was taken."
                                       % job_name)
        for source in runner.sources.values():
            source.close()
        for committer in runner.committers.values():
            committer.abort()   # removes the staging directory (published parts stay)
        if not settings.recoverable:
            shutil.rmtree(settings.checkpoint_dir, ignore_errors=True)
    signals.end_process(job_name, runner.batches,
                        settings.checkpoint_dir if settings.recoverable else None)
    return finished_job_result(int((time.time() - start) * 1000))


def _run_query(session, runner: MicroBatchRunner, settings: StreamingSettings,
               stop: threading.Event, progress: bool):
    """Classic Spark: one streaming query whose foreachBatch runs the batches, until the
    stop (between two batches) or a failure; the query is stopped when this returns."""
    query = (session.readStream.format("rate-micro-batch").option("rowsPerBatch", 1)
             .load().writeStream.foreachBatch(runner.run)
             .option("checkpointLocation", os.path.join(settings.checkpoint_dir, "spark"))
             .trigger(processingTime="%d milliseconds" % settings.trigger_ms)
             .start())
    try:
        while query.isActive:
            if stop.is_set() and not runner.in_batch:
                query.stop()
                break
            try:
                query.awaitTermination(0.1)
            except Exception as e:   # the query failed (pyspark raises its error here)
                raise job_error(e) from None
            if progress:
                runner.print_progress(sys.stderr)
        if progress:
            sys.stderr.write("\n")
        error = query.exception()
        if error is not None:
            raise job_error(error)
    finally:
        if query.isActive:
            query.stop()


def _run_batches_from_here(runner: MicroBatchRunner, settings: StreamingSettings,
                           stop: threading.Event, progress: bool) -> None:
    """Spark Connect: a foreachBatch function runs in a Python process of the server, whose
    stdout is not the user's (print sinks) and which has no session to hand. So this process
    triggers the micro-batches itself, every trigger interval, each one a run of the stage
    DAG as foreachBatch runs it. Batch ids continue after the newest completed state
    version, so a restarted job re-runs an interrupted batch under its id (same recorded
    input and processing time), as Spark's offset log makes foreachBatch do."""
    completed = runner.store.versions()
    batch_id = completed[-1] + 1 - runner.version_base if completed else 0
    interval = settings.trigger_ms / 1000.0
    while not stop.is_set():
        started = time.monotonic()
        try:
            runner.run(None, batch_id)
        except Exception as e:
            raise job_error(e) from None
        batch_id += 1
        if progress:
            runner.print_progress(sys.stderr)
        stop.wait(max(0.0, interval - (time.monotonic() - started)))
    if progress:
        sys.stderr.write("\n")
