"""The function each Spark task runs (through mapInArrow): one subtask of one stage."""
from __future__ import annotations

import gc
import itertools
import json
import pickle
import shutil
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Dict, Iterator, Optional, Tuple

import cloudpickle
import pyarrow as pa

from pyflink_on_spark.runtime.boundary import KIND_DRIVER, KIND_PRESENCE
from pyflink_on_spark.spark.batch_schema import rows_to_batch
from pyflink_on_spark.spark.python_dependencies import WorkerSetup
from pyflink_on_spark.spark.task_channel import (CapturedStdout, ChannelAddress, TaskChannel,
                                                 connect)
from pyflink_on_spark.spark.work_dirs import new_task_dir


def prepare_worker(script_dirs, alias_pyflink: bool, object_storage=(),
                   python_executable=None) -> None:
    """Make the job's own modules importable and resolve `pyflink` to the shim in this Python
    worker, before any user class is unpickled; reach object stores as the driver does."""
    import os
    import sys
    # PyFlink's Python workers see the interpreter they were started as in $python (the
    # job's python.executable, else "python"; seen on 1.20.5)
    os.environ.setdefault("python", python_executable or "python")
    from pyflink_on_spark.codecs.files.fs import configure_object_storage
    from pyflink_on_spark.spark.package_shipping import use_native_packages
    configure_object_storage(dict(object_storage))
    for path in script_dirs:
        if path not in sys.path:
            sys.path.append(path)
    use_native_packages()     # compiled packages shipped for this job (rocksdict)
    if alias_pyflink:
        from pyflink_on_spark.aliasing import install_pyflink_alias
        install_pyflink_alias()


# The edge of the one row every subtask of a stage gets (build_frames): so that every
# subtask runs and reports its end to the driver, even one without input. Sorted first.
PRESENCE_EDGE = -2
# the edge of the driver-channel rows that carry a task's metrics (JSON: runtime/
# metrics_system.py metrics_document) to the driver's reporters, not to a sink
METRICS_EDGE = -3


def subtask_input(batches: Iterator[pa.RecordBatch]):
    """(subtask index, the batches) or None when this task has no rows. The subtask index
    comes from the rows (their `dest`), not from Spark's partition id: when a stage's output
    is unioned into the next exchange, Spark runs it inside the union's tasks and reports the
    union's partition index. The presence row (PRESENCE_EDGE) is not part of the input."""
    batches = iter(batches)
    first = next((b for b in batches if b.num_rows), None)
    if first is None:
        return None
    subtask = first.column(1)[0].as_py()
    if first.column(0)[0].as_py() == PRESENCE_EDGE:
        first = first.slice(1)
    return subtask, itertools.chain((first,), batches)


# input payload bytes processed before the rows produced leave the task (a row of source
# splits may expand a thousandfold: the output must not wait for a whole Arrow batch)
SLICE_BYTES = 1 << 20


def input_slices(payloads, limit: int = SLICE_BYTES):
    """(start, end) ranges of rows whose payloads hold about `limit` bytes each."""
    start = size = 0
    for index, payload in enumerate(payloads):
        size += len(payload)
        if size >= limit:
            yield start, index + 1
            start, size = index + 1, 0
    if start < len(payloads):
        yield start, len(payloads)


# output bytes a task holds before they leave as a batch while a source split is read (the
# JVM writes them to the shuffle while the split goes on; held to the split's end, a number
# sequence's split took ~10 MB of a worker's memory per million records)
OUTPUT_BATCH_BYTES = 1 << 20
_DONE = object()


def held_bytes(rows) -> int:
    """The payload bytes of boundary rows (a task holds few: each is a chunk of records)."""
    return sum(len(row[5]) for row in rows)


def _without_presence(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """The batches less their presence rows (KIND_PRESENCE), which only make the subtask
    run: the runs of other rows, as slices (a filter would import pyarrow.compute, and a
    mask made by pa.array pandas, in every Python worker). A row is a chunk of records: a
    batch holds few."""
    for batch in batches:
        kinds = batch.column(4).to_pylist()
        if KIND_PRESENCE not in kinds:
            yield batch
            continue
        start = 0
        for index, kind in enumerate(kinds):
            if kind == KIND_PRESENCE:
                if index > start:
                    yield batch.slice(start, index - start)
                start = index + 1
        if start < len(kinds):
            yield batch.slice(start)


def _has_rows(batches: Iterator[pa.RecordBatch]):
    """The batches without empty ones, or None when there is none."""
    batches = (b for b in batches if b.num_rows)
    first = next(batches, None)
    return None if first is None else itertools.chain((first,), batches)


@dataclass(frozen=True)
class StageArgs:
    """What a stage's task needs of one run of its job (make_stage_function documents each).
    A stage function carries them, or gets them from the driver channel
    (shared_stage_function); split_rows then holds the asking subtask's only."""
    spec_bytes: bytes
    alias_pyflink: bool
    script_dirs: Tuple[str, ...] = ()
    worker_setup: WorkerSetup = WorkerSetup()
    driver_edges: frozenset = frozenset()
    split_rows: Dict[int, list] = field(default_factory=dict)
    presence_for: tuple = ()
    # the tasks send their metrics to the driver at each bundle's end: only when a reporter
    # reads them (a JSON document a bundle cost every job's tasks ~20 us without one)
    send_metrics: bool = False

    def for_subtask(self, subtask: int) -> "StageArgs":
        return replace(self, split_rows={subtask: self.split_rows.get(subtask, [])})


# the local property that names the driver channel (host:port:key) to the tasks of a job
# whose stage functions are shared (spark/plan_cache.py). Its name matches Spark's
# spark.redaction.regex (secret|password|token): Spark's event logs record a job's properties,
# and redact those (EventLoggingListener.redactProperties)
CHANNEL_PROPERTY = "pyflink_on_spark.driver_channel.token"


def make_stage_function(spec_bytes: bytes, alias_pyflink: bool, script_dirs=(),
                        stage_id: int = -1, channel: Optional[ChannelAddress] = None,
                        worker_setup: WorkerSetup = WorkerSetup(),
                        driver_edges: frozenset = frozenset(), split_rows=None,
                        presence_for: tuple = ()):
    """spec_bytes: the cloudpickled StageSpec, unpickled in the task after the `pyflink`
    alias is installed (so user classes that subclass pyflink.* resolve in the worker) and
    the job script's directories are importable (modules beside the script).

    channel: the driver channel's address. With it, rows for the driver (print lines,
    collected values, file committables) and what user code prints go to the driver as the
    task produces them (spark/driver_channel.py), and an exception is reported before the
    task fails; without it, driver rows stay in the stage's output.
    worker_setup: the job's Python requirements and archives (spark/python_dependencies.py).
    driver_edges: the sink edges whose rows the driver reads (print, collect, file
    committables); other sink rows (Kafka) stay in the output for Spark's writers.
    split_rows: subtask -> the split rows of a source split on the driver (executor.py
    split_rows), read before the task's input rows (then only its presence row).
    presence_for: (edge, parallelism) pairs whose presence rows (KIND_PRESENCE) subtask 0
    sends first, one per downstream subtask (executor.py presence_carriers)."""
    return stage_function(StageArgs(spec_bytes, alias_pyflink, tuple(script_dirs),
                                    worker_setup, driver_edges, split_rows or {},
                                    presence_for), stage_id, channel)


def stage_function(args: StageArgs, stage_id: int, channel: Optional[ChannelAddress] = None):
    """make_stage_function, its arguments as StageArgs."""
    def run_stage(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        found = subtask_input(batches)
        if found is None:
            return  # not a subtask (a partition without rows)
        subtask, batches = found
        attempt = _attempt()
        to_driver = connect(channel, stage_id, subtask, attempt)
        yield from _run_stage_in(args, stage_id, subtask, attempt, batches, to_driver)

    return run_stage


def shared_stage_function(stage_id: int):
    """The function of a stage whose plan serves every run of jobs of its shape
    (spark/plan_cache.py): the task finds the run's driver channel in a local property of
    the Spark job (CHANNEL_PROPERTY) and gets the run's StageArgs from it."""
    def run_stage(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        found = subtask_input(batches)
        if found is None:
            return
        subtask, batches = found
        attempt = _attempt()
        to_driver = connect(_channel_of_job(), stage_id, subtask, attempt, want_args=True)
        try:
            args = pickle.loads(to_driver.stage_args)
        except BaseException:
            to_driver.close()
            raise
        yield from _run_stage_in(args, stage_id, subtask, attempt, batches, to_driver)

    return run_stage


def channel_property(address: ChannelAddress) -> str:
    return "%s:%d:%s" % address


def _channel_of_job() -> ChannelAddress:
    from pyspark import TaskContext
    value = TaskContext.get().getLocalProperty(CHANNEL_PROPERTY)
    if not value:
        raise RuntimeError("this stage's function needs the driver channel, which the job "
                           "does not name (local property %s)" % CHANNEL_PROPERTY)
    host, port, token = value.rsplit(":", 2)
    return host, int(port), token


def _attempt() -> int:
    from pyspark import TaskContext
    context = TaskContext.get()
    return context.attemptNumber() if context is not None else 0


# A task allocates objects per record (the records, their keys, accumulators, the rows'
# lists) and frees nearly all of them by reference counting; Python's first-generation
# threshold (700 net allocations of tracked objects) still ran a collection every few hundred
# records, and every tenth of those the next generation's, over the state's live objects.
# At this threshold the engine alone took 11-15% less CPU on window_aggregate 1M
# (benchmarks/RESULTS.md, issue 41); what is never freed is the same either way.
TASK_GC_THRESHOLD = 20_000


@contextmanager
def fewer_collections():
    """The first-generation threshold at TASK_GC_THRESHOLD while a task runs, then as it
    was (a worker process runs one task at a time): a bounded job's tasks and an unbounded
    job's micro-batch tasks (spark/streaming/stage_task.py)."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], TASK_GC_THRESHOLD), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _run_stage_in(args: StageArgs, stage_id: int, subtask: int, attempt: int,
                  batches: Iterator[pa.RecordBatch],
                  to_driver: Optional[TaskChannel]) -> Iterator[pa.RecordBatch]:
    with fewer_collections():
        yield from _run_stage_in_task(args, stage_id, subtask, attempt, batches, to_driver)


def _run_stage_in_task(args: StageArgs, stage_id: int, subtask: int, attempt: int,
                       batches: Iterator[pa.RecordBatch],
                       to_driver: Optional[TaskChannel]) -> Iterator[pa.RecordBatch]:
    try:
        prepare_worker(args.script_dirs, args.alias_pyflink, args.worker_setup.object_storage,
                       args.worker_setup.python_executable)
        with args.worker_setup.applied():
            if subtask == 0 and args.presence_for:
                yield rows_to_batch([(edge, dest, -1, -1, KIND_PRESENCE, b"", b"")
                                     for edge, parallelism in args.presence_for
                                     for dest in range(parallelism)])
            batches = _has_rows(_without_presence(batches))
            splits = args.split_rows.get(subtask)
            if splits:
                batches = itertools.chain((rows_to_batch(splits),), batches or ())
            if batches is not None:  # a subtask without input has nothing to do
                yield from _run_subtask(args.spec_bytes, subtask, attempt, batches, to_driver,
                                        args.driver_edges, args.send_metrics)
        if to_driver is not None:
            to_driver.end()
    finally:
        if to_driver is not None:
            to_driver.close()


def _run_subtask(spec_bytes: bytes, subtask: int, attempt: int,
                 batches: Iterator[pa.RecordBatch], to_driver: Optional[TaskChannel],
                 driver_edges: frozenset = frozenset(),
                 metrics_wanted: bool = False) -> Iterator[pa.RecordBatch]:
    from pyflink_on_spark.runtime.task import StreamTask
    stdout = CapturedStdout()

    def send_to_driver() -> None:
        """What user code printed, then the driver's rows the task holds, to the driver."""
        to_driver.send_output(stdout.take())
        rows = task.rows
        driver_rows = [r for r in rows if r[4] == KIND_DRIVER and r[0] in driver_edges]
        if driver_rows:
            rows[:] = [r for r in rows if not (r[4] == KIND_DRIVER and r[0] in driver_edges)]
            for row in driver_rows:
                to_driver.send_row(row[0], row[5])
        to_driver.flush()

    def send_metrics() -> None:
        """The task's user and system metrics for the driver's reporters: at each bundle's
        end (at least once a second) and after the last records."""
        from pyflink_on_spark.runtime.metrics_system import metrics_document
        to_driver.send_row(METRICS_EDGE, json.dumps(metrics_document(task)).encode())

    def end_bundle() -> None:
        send_to_driver()
        if metrics_wanted:
            send_metrics()

    def take_batch():
        """The rows for the next stage as a batch, once the driver's rows have left."""
        if to_driver is not None:
            send_to_driver()
        rows = task.take_rows()
        return rows_to_batch(rows) if rows else None

    spec = cloudpickle.loads(spec_bytes)
    work_dir = new_task_dir(spec.stage_id, subtask)
    try:
        with stdout.active():
            task = StreamTask(spec, subtask, attempt, work_dir=work_dir)
            if to_driver is not None:
                task.on_bundle = end_bundle
            task.open()
        try:
            for batch in batches:
                if batch.num_rows == 0:
                    continue
                columns = (batch.column(0).to_pylist(), batch.column(2).to_pylist(),
                           batch.column(4).to_pylist(), batch.column(5).to_pylist(),
                           batch.column(6).to_pylist())
                if task.reads_sorted_input:
                    columns += (batch.column(3).to_pylist(),)
                for start, end in input_slices(columns[3]):
                    steps = task.process_rows_in_steps(*(column[start:end]
                                                         for column in columns))
                    while True:
                        with stdout.active():
                            if next(steps, _DONE) is _DONE:
                                break
                        # a split is being read: what it produced leaves once it is a batch
                        if held_bytes(task.rows) >= OUTPUT_BATCH_BYTES:
                            produced = take_batch()
                            if produced is not None:   # None: all went to the driver
                                yield produced
                    produced = take_batch()
                    if produced is not None:
                        yield produced
            task.end_bundle()
            produced = take_batch()
            if produced is not None:
                yield produced
            with stdout.active():
                task.finish()
            # the last records leave before close() runs (its prints come after them)
            produced = take_batch()
            if to_driver is not None and metrics_wanted:
                send_metrics()
            if produced is not None:
                yield produced
        finally:
            with stdout.active():
                task.close()
        produced = take_batch()
        if produced is not None:
            yield produced
    except Exception as error:
        if to_driver is not None:
            to_driver.send_output(stdout.take())
            to_driver.report_error(error)
        raise
    finally:
        if to_driver is None:
            text = stdout.take()
            if text:
                sys.stderr.write(text)
        shutil.rmtree(work_dir, ignore_errors=True)
