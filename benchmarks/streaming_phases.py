"""Where a streaming micro-batch's time goes (issue 11): the keyed ValueState count job
(jobs/streaming_keyed_count.py, p=2, 500 ms trigger) runs in this process with timers around
the driver's phases of each micro-batch. It first runs `--empty` batches on an empty
directory (the per-batch fixed cost), then the files arrive and one batch reads them.

With `--py-spy FILE`, py-spy samples the driver and the Python workers (raw stacks in FILE)
from just before the files arrive until two batches after the one reading them, and the
workers' samples are summed by phase of `run_micro_batch` (restore, process, end of batch,
snapshot).

    PYTHONPATH=. python benchmarks/streaming_phases.py [--records 1000000] [--keys 1000]
        [--files 4] [--empty 6] [--py-spy /tmp/streaming.spy]

(py-spy is a dev tool, not a dependency: `pip install py-spy` into the venv that runs this.)
"""
from __future__ import annotations

import argparse
import collections
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from streaming_throughput import JOB, _batch_reading_files, write_files  # noqa: E402

# phase name -> seconds, per batch id
PHASES: dict = collections.defaultdict(lambda: collections.defaultdict(float))
_current = [None]
# columns of the table, in the order a batch runs them
COLUMNS = ["plan: restore lookup", "plan: batch time", "plan: new files", "build frames",
           "of which createDataFrame", "Spark jobs (driver rows)",
           "of which count() (runs the stages)", "of which reading (runJob)",
           "of which persist + unpersist", "sink commit", "meta + complete",
           "retain + compact", "total"]


def _timed(name, function):
    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            if _current[0] is not None:
                PHASES[_current[0]][name] += time.perf_counter() - start
    return timed


def _timed_rows(function):
    """driver_rows: times pulling every row (the Spark jobs), not what the caller does
    with them."""
    def timed(*args, **kwargs):
        rows = iter(function(*args, **kwargs))
        while True:
            start = time.perf_counter()
            try:
                row = next(rows)
            except StopIteration:
                return
            finally:
                PHASES[_current[0]]["Spark jobs (driver rows)"] += time.perf_counter() - start
            yield row
    return timed


def _instrument() -> None:
    from pyspark import SparkContext
    from pyspark.sql.classic.dataframe import DataFrame
    from pyspark.sql.session import SparkSession
    from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
    from pyflink_on_spark.spark.streaming import executor as streaming_executor
    from pyflink_on_spark.spark.streaming.file_source import MonitoredFiles
    runner = streaming_executor.MicroBatchRunner
    original_run = runner._run

    def run(self, batch_id):
        _current[0] = batch_id
        original_run_timed(self, batch_id)
    original_run_timed = _timed("total", original_run)
    runner._run = run
    runner._batch_time = _timed("plan: batch time", runner._batch_time)
    SnapshotStore.latest_completed_before = _timed("plan: restore lookup",
                                                   SnapshotStore.latest_completed_before)
    SnapshotStore.read_meta = _timed("plan: restore lookup", SnapshotStore.read_meta)
    MonitoredFiles.plan = _timed("plan: new files", MonitoredFiles.plan)
    MonitoredFiles.frame = _timed("build frames", MonitoredFiles.frame)
    for name in ("union", "repartitionById", "sortWithinPartitions", "mapInArrow", "where",
                 "localCheckpoint"):
        setattr(DataFrame, name, _timed("build frames", getattr(DataFrame, name)))
    SparkSession.createDataFrame = _timed("build frames", _timed(
        "of which createDataFrame", SparkSession.createDataFrame))
    DataFrame.count = _timed("of which count() (runs the stages)", DataFrame.count)
    from pyflink_on_spark.spark import frame_run
    frame_run.count_rows = _timed("of which count() (runs the stages)", frame_run.count_rows)
    DataFrame.persist = _timed("of which persist + unpersist", DataFrame.persist)
    DataFrame.unpersist = _timed("of which persist + unpersist", DataFrame.unpersist)
    SparkContext.runJob = _timed("of which reading (runJob)", SparkContext.runJob)
    streaming_executor.driver_rows = _timed_rows(streaming_executor.driver_rows)
    streaming_executor._commit_parts = _timed("sink commit", streaming_executor._commit_parts)
    SnapshotStore.write_meta = _timed("meta + complete", SnapshotStore.write_meta)
    SnapshotStore.complete = _timed("meta + complete", SnapshotStore.complete)
    SnapshotStore.retain = _timed("retain + compact", SnapshotStore.retain)
    MonitoredFiles.compact = _timed("retain + compact", MonitoredFiles.compact)


def _completed(ckpt: str, batch: int) -> bool:
    return os.path.exists(os.path.join(ckpt, "state", "v%d" % batch, "_COMPLETED"))


def _control(args, staged, in_dir, ckpt, result) -> None:
    """Waits for the empty batches, moves the files in, waits for the batch reading them
    (and two more), then stops the job (SIGTERM: after the current batch)."""
    spy = None
    try:
        while not _completed(ckpt, 1 + args.empty):
            time.sleep(0.05)
        result["empty_until"] = 1 + args.empty
        if args.py_spy:
            py_spy = os.path.join(os.path.dirname(sys.executable), "py-spy")
            spy = subprocess.Popen([py_spy if os.path.exists(py_spy) else "py-spy", "record",
                                    "--subprocesses", "--format", "raw", "--rate", "50",
                                    "-o", args.py_spy, "--pid", str(os.getpid())],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(1)
        for name in sorted(os.listdir(staged)):
            os.rename(os.path.join(staged, name), os.path.join(in_dir, name))
        batch = None
        while batch is None or not _completed(ckpt, batch + 2):
            batch = _batch_reading_files(ckpt)
            time.sleep(0.05)
        result["data_batch"] = batch
    finally:
        if spy is not None:
            spy.send_signal(signal.SIGINT)
            spy.wait(timeout=120)
        os.kill(os.getpid(), signal.SIGTERM)


# run_micro_batch's phases, by the frame a worker sample is in (the innermost match wins)
WORKER_PHASES = [("restore", "restore ("), ("process rows", "process_rows ("),
                 ("end of batch (timers, watermarks, flush)", "end_batch ("),
                 ("snapshot", "snapshot (")]


def _worker_samples(path: str) -> dict:
    """py-spy raw stacks -> samples per phase, of the Python workers' run_micro_batch."""
    found = collections.Counter()
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if "run_micro_batch (" not in stack:
                continue
            tail = stack.split("run_micro_batch (", 1)[1]
            phase = "other (task set-up, Arrow in/out)"
            for name, marker in WORKER_PHASES:
                if marker in tail:
                    phase = name
                    break
            found[phase] += int(count)
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=1000)
    parser.add_argument("--files", type=int, default=4)
    parser.add_argument("--empty", type=int, default=6)
    parser.add_argument("--py-spy", default=None)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="stream-phases-")
    staged, in_dir, ckpt = (os.path.join(work, d) for d in ("staged", "in", "ckpt"))
    os.makedirs(staged)
    os.makedirs(in_dir)
    write_files(staged, args.records, args.keys, args.files)
    _instrument()
    result = {}
    threading.Thread(target=_control, args=(args, staged, in_dir, ckpt, result),
                     daemon=True).start()
    from pyflink_on_spark.cli.main import main as cli
    saved = sys.stdout
    sys.stdout = open(os.devnull, "w")
    try:
        cli(["run", JOB, in_dir, "stream", ckpt])
    finally:
        sys.stdout = saved
    data = result["data_batch"]
    empty = [b for b in sorted(PHASES) if 1 < b <= result["empty_until"]]
    print("load average (1 min) %.1f; %d records, %d keys, %d files, p=2" % (
        os.getloadavg()[0], args.records, args.keys, args.files))
    print("| phase (driver, wall s) | empty batch (median of %d) | batch reading the files "
          "(%d) |" % (len(empty), data))
    print("|---|---|---|")
    for column in COLUMNS:
        print("| %s | %.3f | %.3f |" % (column, statistics.median(
            PHASES[b][column] for b in empty), PHASES[data][column]))
    if args.py_spy:
        samples = _worker_samples(args.py_spy)
        total = sum(samples.values()) or 1
        print("\nPython workers, run_micro_batch samples (py-spy, from the files' arrival):")
        for phase, n in samples.most_common():
            print("| %s | %d | %.0f%% |" % (phase, n, 100.0 * n / total))


if __name__ == "__main__":
    main()
