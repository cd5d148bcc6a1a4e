"""The acceptance test of unbounded jobs: one job (keyed ValueState and event-time timers, a
session window, a keyed broadcast function with broadcast state, one FileSink) run as real
processes (`pyflink-on-spark run job.py`), fed by files that arrive over time.

* killed: the driver killed with SIGKILL before a batch, in the middle of one, during the
  sink commit, and after the state snapshots completed but before Spark's commit log, and a
  Python worker killed in the middle of a batch, each restarted from the same checkpoint
  directory: the FileSink output equals an uninterrupted run's byte for byte. The kill
  points are split between a HashMap-backend run and an EmbeddedRocksDB run, both compared
  with the same uninterrupted HashMap run (the output does not depend on the backend).
  (A fifth point, after the snapshots but before the sink commit, is the executor's
  ``before_commit``.)
* rescaled: stopped (SIGTERM) at parallelism 2 and restarted at 3 (RocksDB): keyed state and
  timers are redistributed by key group.
* every run's per-key results equal the bounded run's over the same files (run in this
  process, on the test session's SparkSession).

The streaming runs are independent processes and run side by side (threads waiting on
them) to keep the test CI-sized; every driver still running at the end is killed.
"""
import glob
import json
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from pyflink_on_spark.spark.streaming.faults import FAULT_ENV, WORKER_FAULT_ENV

JOB = os.path.join(os.path.dirname(__file__), "jobs", "acceptance_job.py")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
N_FILES = 5
START_TIMEOUT = 900   # a cold Spark start beside other drivers on a loaded 2-core machine
BATCH_TIMEOUT = 600
WORKER_KILL = "worker"
_drivers = []
_drivers_lock = threading.Lock()


@pytest.fixture
def drivers():
    """Kills every driver a test started and left running (a failed run's)."""
    yield
    with _drivers_lock:
        running = [p for p in _drivers if p.poll() is None]
        _drivers.clear()
    for proc in running:
        proc.kill()
        proc.wait()


def _file_lines(f: int):
    # event time grows with the file number (timers at x99 fire as files come, sessions with
    # a 50 ms gap close one file later). File f is read by source subtask f % parallelism,
    # and keys k0, k2, k4 come from even files, k1, k3 from odd ones; one file per batch, so
    # a key's records reach the keyed operators in file order in every run (Flink orders
    # nothing across source subtasks).
    keys = (0, 2, 4) if f % 2 == 0 else (1, 3)
    return ["k%d,%d,%d" % (keys[i % len(keys)], f * 100 + i * 9, f * 10 + i)
            for i in range(11)]


class Run:
    """One checkpoint directory and the driver processes run on it."""

    def __init__(self, tmp, name: str) -> None:
        self.base = os.path.join(str(tmp), name)
        self.in_dir, self.out_dir, self.ckpt = (os.path.join(self.base, d)
                                                for d in ("in", "out", "ckpt"))
        os.makedirs(self.in_dir)
        self.trigger = os.path.join(self.base, "kill-now")
        self.worker_trigger = os.path.join(self.base, "kill-worker-now")

    def start(self, mode="stream", backend="hashmap", parallelism=2, fault=None,
              in_dir=None):
        env = dict(os.environ)
        env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
        env.pop(FAULT_ENV, None)
        env[WORKER_FAULT_ENV] = self.worker_trigger
        if fault is not None:
            env[FAULT_ENV] = "%s:%s" % (fault, self.trigger)
        log = open(os.path.join(self.base, "driver-%d.log" % time.monotonic_ns()), "w")
        proc = subprocess.Popen(
            [sys.executable, "-m", "pyflink_on_spark.cli.main", "run", JOB,
             in_dir or self.in_dir, self.out_dir, self.ckpt, mode, backend, str(parallelism)],
            env=env, stdout=log, stderr=subprocess.STDOUT, cwd=self.base)
        with _drivers_lock:
            _drivers.append(proc)
        return proc

    def batch_of(self, name):
        """The batch id that read input file `name` (the source's records in the
        checkpoint), or None."""
        for record in glob.glob(os.path.join(self.ckpt, "state", "sources", "*", "*")):
            if not os.path.basename(record).isdigit():
                continue   # a record being written, or a compacted base (older batches)
            if name in {os.path.basename(p) for p, _ in json.loads(open(record).read())}:
                return int(os.path.basename(record))
        return None

    def wait_processed(self, proc, f: int, timeout: float) -> bool:
        """Waits until the batch that read file f completed; False if the driver died
        first."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            batch = self.batch_of("f%02d.txt" % f)
            if batch is not None and os.path.exists(
                    os.path.join(self.ckpt, "state", "v%d" % batch, "_COMPLETED")):
                return True
            if proc.poll() is not None:
                return False
            time.sleep(0.1)
        raise AssertionError("%s: file %d was not processed within %d s" % (self.base, f,
                                                                            timeout))

    def add_file(self, f: int) -> None:
        tmp = os.path.join(self.in_dir, ".f%02d.tmp" % f)   # hidden: not listed until renamed
        with open(tmp, "w") as out:
            out.write("\n".join(_file_lines(f)) + "\n")
        os.rename(tmp, os.path.join(self.in_dir, "f%02d.txt" % f))

    def parts(self):
        """Contents of every published part file (names carry per-checkpoint ids)."""
        files = [p for p in glob.glob(os.path.join(self.out_dir, "**", "*"), recursive=True)
                 if os.path.isfile(p) and "/." not in p[len(self.out_dir):]]
        return sorted(open(p, "rb").read() for p in files)


def _stop(proc):
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=BATCH_TIMEOUT) == 0


def _killed_run(tmp, name, backend, kills):
    """Feeds N_FILES one per batch. kills: {file number: kill point}: the driver is killed
    with SIGKILL at that point of the batch reading that file, then restarted (WORKER_KILL:
    a Python worker is killed in that batch; the driver goes on)."""
    run = Run(tmp, name)

    def start(after: int):
        """A driver armed with the next driver kill point (if any) after file `after`."""
        following = [f for f in sorted(kills) if f > after and kills[f] != WORKER_KILL]
        return run.start(backend=backend, fault=kills[following[0]] if following else None)

    proc = start(-1)
    timeout = START_TIMEOUT
    restarts = 0
    for f in range(N_FILES):
        point = kills.get(f)
        if point == WORKER_KILL:
            open(run.worker_trigger, "w").close()
        elif point is not None:
            open(run.trigger, "w").close()
        run.add_file(f)
        done = run.wait_processed(proc, f, timeout)
        timeout = BATCH_TIMEOUT
        if point == WORKER_KILL:
            assert done and not os.path.exists(run.worker_trigger), "no worker was killed"
        elif point is not None:
            # after_complete kills after the state version completed (before Spark's commit)
            assert not done or point == "after_complete", "%s: batch completed" % point
            assert proc.wait(timeout=BATCH_TIMEOUT) == -signal.SIGKILL, point
            os.remove(run.trigger)
            restarts += 1
            proc = start(f)
            assert run.wait_processed(proc, f, START_TIMEOUT), point
    _stop(proc)
    assert restarts == len([p for p in kills.values() if p != WORKER_KILL])
    return run


def _rescaled_run(tmp):
    run = Run(tmp, "rescaled")
    proc = run.start(backend="rocksdb", parallelism=2)
    for f in range(N_FILES):
        if f == 3:
            _stop(proc)
            proc = run.start(backend="rocksdb", parallelism=3)
        run.add_file(f)
        assert run.wait_processed(proc, f, START_TIMEOUT if f in (0, 3) else BATCH_TIMEOUT)
    _stop(proc)
    return run


def _bounded_run(tmp):
    from pyflink_on_spark.cli.script_runner import run_script
    run = Run(tmp, "bounded")
    for f in range(N_FILES):
        run.add_file(f)
    run_script(JOB, [run.in_dir, run.out_dir, run.ckpt, "bounded"])
    return run


def _per_key(parts):
    """(kind, key) -> sorted [(timestamp, value)]."""
    per = {}
    for content in parts:
        for line in content.decode().splitlines():
            kind, key, ts, *rest = line.split(",")
            per.setdefault((kind, key), []).append((int(ts), ",".join(rest)))
    return {k: sorted(v) for k, v in per.items()}


def _assert_agrees_with_bounded(streamed, bounded):
    """Sums equal the bounded run's per key, and so do the (key, timestamp) the broadcast
    function saw (its count of known keys depends on how the two inputs interleave, which
    Flink does not define). Timers and sessions fire when the watermark passes them: the
    bounded run fires the last ones at the end of input, so the streamed ones are a prefix."""
    streamed, bounded = _per_key(streamed), _per_key(bounded)

    def kind(results, wanted):
        return {k: v for k, v in results.items() if k[0] == wanted}
    assert kind(streamed, "sum") == kind(bounded, "sum")
    assert {k: [ts for ts, _ in v] for k, v in kind(streamed, "broadcast").items()} == \
        {k: [ts for ts, _ in v] for k, v in kind(bounded, "broadcast").items()}
    for fired in ("timer", "session"):
        ours, theirs = kind(streamed, fired), kind(bounded, fired)
        assert ours and set(ours) <= set(theirs)
        for key, results in ours.items():
            assert results == theirs[key][:len(results)], (fired, key)
        # everything up to the second-to-last file has fired
        assert sum(len(v) for v in ours.values()) >= \
            sum(1 for v in theirs.values() for ts, _ in v if ts < (N_FILES - 2) * 100)


def test_kill_9_restarts_and_rescaling_lose_and_duplicate_nothing(spark, tmp_path, drivers):
    with ThreadPoolExecutor(max_workers=3) as pool:
        hashmap = pool.submit(_killed_run, tmp_path, "killed-hashmap", "hashmap", {
            1: "before_batch", 2: WORKER_KILL, 3: "mid_commit"})
        rocksdb = pool.submit(_killed_run, tmp_path, "killed-rocksdb", "rocksdb", {
            1: "mid_batch", 3: "after_complete"})
        rescaled = pool.submit(_rescaled_run, tmp_path)
        plain = pool.submit(_killed_run, tmp_path, "plain", "hashmap", {})
        bounded = _bounded_run(tmp_path)
        plain, hashmap, rocksdb, rescaled = (
            f.result() for f in (plain, hashmap, rocksdb, rescaled))
    expected = plain.parts()
    assert sum(len(p.splitlines()) for p in expected) > N_FILES * 11 * 2
    assert hashmap.parts() == expected
    assert rocksdb.parts() == expected
    _assert_agrees_with_bounded(expected, bounded.parts())
    _assert_agrees_with_bounded(rescaled.parts(), bounded.parts())
