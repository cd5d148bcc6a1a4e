"""An unbounded job run as a real process (`pyflink-on-spark run job.py`: keyed state,
event-time timers, broadcast state, session windows, a FileSink), fed by files that arrive
over time, its driver killed with SIGKILL at the stages of a micro-batch and restarted from
the same checkpoint directory, and a Python worker killed mid-batch: its FileSink output on
the RocksDB backend equals an uninterrupted run's on the HashMap backend, byte for byte, and
its per-key results equal the bounded run over the same files. That uninterrupted run,
stopped, is then restarted with another parallelism on its checkpoint directory (rescale).

Each restart is a driver started ahead as a standby (spark/streaming/faults.py): its JVM and
Spark session start while the driver it replaces still runs, and it touches the checkpoint
directory only once that driver and every process it started are gone."""
import concurrent.futures
import glob
import json
import os
import signal
import subprocess
import sys
import time
import uuid

import pytest

from pyflink_on_spark.spark.jit import JIT_FLAGS, QUICK_JIT_OPTION
from pyflink_on_spark.spark.streaming.faults import FAULT_ENV, STANDBY_ENV, WORKER_FAULT_ENV

JOB = os.path.join(os.path.dirname(__file__), "jobs", "keyed_timers_job.py")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
N_FILES = 6          # file 0, a file per kill point, the worker's kill
RESCALED_FILES = 2   # read after the rescale (test_a_restart_with_another_parallelism...)
# every point of executor.py's batch but mid_batch, which two tests kill this same job at:
# test_cluster_shared_storage.py (its output against an uninterrupted run's, byte for byte)
# and test_connect.py (through Spark Connect). A kill costs a restart, the dearest step of
# these tests (~20-35 s of a CI run, where this test took 244-268 s with five)
KILL_POINTS = ["before_batch", "before_commit", "mid_commit", "after_complete"]
START_TIMEOUT = 240   # a cold Spark start on a loaded 2-core machine
BATCH_TIMEOUT = 120


def _file_lines(f: int):
    # event time grows with the file number (timers at x99 fire as files come). File f is
    # read by source subtask f % 2 (in both runs), and keys k0, k2, k4 come from even files,
    # k1, k3 from odd ones: every key's records come from one source subtask, so their order
    # at the keyed operator is the source order in the streaming and the bounded run alike
    # (Flink orders nothing across source subtasks).
    keys = (0, 2, 4) if f % 2 == 0 else (1, 3)
    return ["k%d,%d,%d" % (keys[i % len(keys)], f * 100 + i * 9, f * 10 + i)
            for i in range(11)]


MARK_ENV = "PYFLINK_ON_SPARK_TEST_DRIVER"   # inherited by the driver's JVM and workers


def start_driver(tmp, job: str, args, fault=None, worker_fault=None, standby=False):
    """`pyflink-on-spark run job args` in its own process (its log in tmp), armed with the
    driver kill point `fault` and the worker kill trigger `worker_fault`
    (spark/streaming/faults.py) if given. `standby`: it waits, its session up, until
    release() lets it run the job."""
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    env.pop(FAULT_ENV, None)
    env.pop(WORKER_FAULT_ENV, None)
    env.pop(STANDBY_ENV, None)
    if fault is not None:
        env[FAULT_ENV] = fault
    if worker_fault is not None:
        env[WORKER_FAULT_ENV] = worker_fault
    env[MARK_ENV] = mark = uuid.uuid4().hex
    # C1 only in the driver's JVMs, as jit.py gives a local session started ahead: a test
    # driver lives a minute or two, which C2's compilations do not pay back (a Kafka job's
    # session, not started ahead, and an unbounded job's keep the full JIT: their C1+C2
    # compiler threads took 54 of the 138 JVM CPU-s of test_kafka_streaming_recovery.py).
    # A JIT flag of the environment's own is left alone (jit.py reads it too)
    tool_options = env.get("JAVA_TOOL_OPTIONS", "")
    if not any(flag in tool_options for flag in JIT_FLAGS):
        env["JAVA_TOOL_OPTIONS"] = (tool_options + " " + QUICK_JIT_OPTION).strip()
    gate = os.path.join(tmp, "go-%s" % mark)
    if standby:
        env[STANDBY_ENV] = gate
    log = open(os.path.join(tmp, "driver-%d.log" % time.monotonic_ns()), "w")
    proc = subprocess.Popen([sys.executable, "-m", "pyflink_on_spark.cli.main", "run", job]
                            + list(args), env=env, stdout=log, stderr=subprocess.STDOUT,
                            cwd=tmp)
    proc.mark, proc.gate = mark, gate
    return proc


def _marked(mark: str) -> bool:
    """Whether a process of the driver marked `mark` (itself, its JVM, its workers) lives."""
    needle = ("%s=%s" % (MARK_ENV, mark)).encode()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/environ" % pid, "rb") as f:
                if needle in f.read().split(b"\0"):
                    with open("/proc/%s/stat" % pid) as stat:
                        if stat.read().rsplit(")", 1)[1].split()[0] != "Z":
                            return True
        except OSError:
            continue
    return False


def release(standby, gone=None, timeout: float = 120) -> None:
    """Lets a standby driver run its job, once the driver `gone` (killed or stopped) and
    every process it started (its JVM, its Python workers) have ended: the restart then
    finds what a restart after a whole crash finds."""
    if gone is not None:
        assert gone.poll() is not None
        deadline = time.time() + timeout
        while _marked(gone.mark):
            assert time.time() < deadline, "the ended driver's processes still run"
            time.sleep(0.05)
    open(standby.gate, "w").close()


def end_all(*procs) -> None:
    """Kills what a failed test left running (a standby never released, a driver)."""
    for proc in procs:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()


def _records(ckpt):
    """file name -> batch id that read it (the job's source records in the checkpoint)."""
    read = {}
    for record in glob.glob(os.path.join(ckpt, "state", "sources", "*", "*")):
        if not os.path.basename(record).isdigit():
            continue   # "<batch>.tmp-<id>": the job is writing it (store.py writes, renames)
        for path, _ in json.loads(open(record).read()):
            read[os.path.basename(path)] = int(os.path.basename(record))
    return read


def _completed(ckpt, batch):
    return os.path.exists(os.path.join(ckpt, "state", "v%d" % batch, "_COMPLETED"))


def _wait_read_and_completed(proc, ckpt, name, timeout):
    """Waits until the batch that read `name` completed; False if the driver died first."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        batch = _records(ckpt).get(name)
        if batch is not None and _completed(ckpt, batch):
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.1)
    raise AssertionError("file %s was not processed within %d s" % (name, timeout))


def _add_file(in_dir, f):
    tmp = os.path.join(in_dir, ".f%02d.tmp" % f)   # hidden: not listed until renamed
    with open(tmp, "w") as out:
        out.write("\n".join(_file_lines(f)) + "\n")
    os.rename(tmp, os.path.join(in_dir, "f%02d.txt" % f))


def _stop(proc):
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=120) == 128 + signal.SIGTERM   # stopped in order, status of the signal


def _parts(out_dir):
    """Contents of every published part file (names carry a per-checkpoint id)."""
    files = [p for p in glob.glob(os.path.join(out_dir, "**", "*"), recursive=True)
             if os.path.isfile(p) and "/." not in p[len(out_dir):]]
    return sorted(open(p, "rb").read() for p in files)


def _run_stream(tmp, name, kills=(), backend="hashmap", worker_kill=None, n_files=N_FILES,
                stopped=None):
    """Feeds n_files one per batch; kills = [(file number, kill point)]: the driver is
    killed with SIGKILL at that point of the batch reading that file, then restarted (a
    standby started ahead, released once the killed driver is gone); worker_kill: the file
    whose batch loses a Python worker (Spark retries its task). `stopped`: a list the
    stopped driver is appended to (for a release() after it)."""
    base = os.path.join(str(tmp), name)
    in_dir, out_dir, ckpt = (os.path.join(base, d) for d in ("in", "out", "ckpt"))
    os.makedirs(in_dir)
    kills = dict(kills)
    trigger = os.path.join(base, "kill-now")
    worker_trigger = os.path.join(base, "kill-a-worker-now")

    def start(after: int, standby: bool = False):
        """A driver armed with the next kill point (if any) after file `after`."""
        following = [f for f in sorted(kills) if f > after]
        fault = "%s:%s" % (kills[following[0]], trigger) if following else None
        return start_driver(base, JOB, [in_dir, out_dir, ckpt, "stream", backend, "2"],
                            fault, worker_trigger if worker_kill is not None else None,
                            standby=standby)

    proc = start(-1)
    # the restart after each kill, started ahead
    standby = start(min(kills), standby=True) if kills else None
    try:
        restarts = 0
        timeout = START_TIMEOUT
        for f in range(n_files):
            point = kills.get(f)
            if point is not None:
                open(trigger, "w").close()
            if f == worker_kill:
                open(worker_trigger, "w").close()
            _add_file(in_dir, f)
            done = _wait_read_and_completed(proc, ckpt, "f%02d.txt" % f, timeout)
            timeout = BATCH_TIMEOUT
            if point is not None:
                # after_complete kills after the state version completed (before Spark's
                # commit)
                assert not done or point == "after_complete", "%s: batch completed" % point
                assert proc.wait(timeout=BATCH_TIMEOUT) == -signal.SIGKILL, point
                os.remove(trigger)
                restarts += 1
                release(standby, gone=proc)
                proc, standby = standby, None
                if any(k > f for k in kills):
                    standby = start(min(k for k in kills if k > f), standby=True)
                assert _wait_read_and_completed(proc, ckpt, "f%02d.txt" % f, START_TIMEOUT)
            if f == worker_kill:   # a worker took the trigger and died; the batch completed
                assert not os.path.exists(worker_trigger)
        _stop(proc)
        if stopped is not None:
            stopped.append(proc)
    finally:
        end_all(proc, standby)
    assert restarts == len(kills)
    return out_dir, in_dir


def _per_key(parts):
    """(kind, key) -> [(timestamp, total)] sorted by timestamp (a key's records are in
    timestamp order at the source, so this is their processing order); sessions by start."""
    per = {}
    for content in parts:
        for line in content.decode().splitlines():
            kind, key, ts, total = line.split(",")[:4]
            per.setdefault((kind, key), []).append((int(ts), int(total)))
    return {k: sorted(v) for k, v in per.items()}


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    """The uninterrupted run (HashMap, p=2) over N_FILES files, one per batch, stopped:
    started at once in a thread, beside what the test asking for it runs (a driver mostly
    waits, for its JVM and for files). Its value, a future: (its parts, its directories
    and its stopped driver, the p=3 driver started as a standby once it stopped). That
    p=3 standby continues this run's checkpoint in the rescale test: the p=2 run it restarts
    from is this one, so the module starts one driver less."""
    base = str(tmp_path_factory.mktemp("plain"))
    stopped, rescaled = [], []

    def run():
        out_dir, in_dir = _run_stream(base, "plain", stopped=stopped)
        parts = _parts(out_dir)   # before the p=3 driver may write more
        ckpt = os.path.join(os.path.dirname(out_dir), "ckpt")
        rescaled.append(start_driver(os.path.dirname(out_dir), JOB,
                                     [in_dir, out_dir, ckpt, "stream", "hashmap", "3"],
                                     standby=True))
        return parts, in_dir, out_dir, ckpt, stopped[0], rescaled[0]

    pool = concurrent.futures.ThreadPoolExecutor(1)
    try:
        yield pool.submit(run)
    finally:
        pool.shutdown()
        end_all(*rescaled)


@pytest.fixture(scope="module")
def bounded(spark, tmp_path_factory):
    """The bounded run over the N_FILES + RESCALED_FILES files, per key (_per_key): what
    both tests below compare their streamed running sums with. The same job script, run in
    this process on its shared Spark session (the `spark` fixture; script_runner runs it as
    `run` and `compat` do) rather than by a driver process of its own: it is the reference,
    and the driver's process, its kills, restarts and checkpoints are what the streaming
    runs test (a driver process costs a JVM and a Spark start, ~26 CPU-s)."""
    from pyflink_on_spark.cli.script_runner import run_script
    base = str(tmp_path_factory.mktemp("bounded"))
    in_dir, out_dir = os.path.join(base, "in"), os.path.join(base, "out")
    os.makedirs(in_dir)
    for f in range(N_FILES + RESCALED_FILES):
        _add_file(in_dir, f)
    run_script(JOB, [in_dir, out_dir, os.path.join(base, "ckpt"), "bounded"])
    return _per_key(_parts(out_dir))


def _before(per_key, n_files: int):
    """per_key's entries of the first n_files files (timestamps below n_files * 100)."""
    return {k: [(ts, total) for ts, total in v if ts < n_files * 100]
            for k, v in per_key.items()}


def test_kill_9_at_the_batch_stages_then_restart_loses_and_duplicates_nothing(plain,
                                                                             bounded,
                                                                             tmp_path):
    # the uninterrupted run (the plain fixture) runs beside the killed one
    # RocksDB here, HashMap in the plain run: both backends give the same bytes
    killed_out, _ = _run_stream(tmp_path, "killed", backend="rocksdb",
                                worker_kill=N_FILES - 1,
                                kills=[(1 + i, p) for i, p in enumerate(KILL_POINTS)])
    plain_parts = plain.result()[0]
    killed = _parts(killed_out)
    lines = [line for p in plain_parts for line in p.decode().splitlines()]
    assert len(lines) > N_FILES * 11   # sums, timers and sessions
    assert {line.split(",")[0] for line in lines} == {"sum", "timer", "session"}
    # the broadcast state grew batch by batch (every record's key is broadcast)
    assert {line.split(",")[4] for line in lines if line.startswith("sum,")} == \
        {"3", "5"}
    assert killed == plain_parts
    # the bounded run over the same files: per key, the same running sums in the same order
    # (timers differ by design: the bounded run fires them at the end of input)
    streamed = _per_key(plain_parts)
    reference = _before(bounded, N_FILES)
    assert {k: v for k, v in streamed.items() if k[0] == "sum"} == \
        {k: v for k, v in reference.items() if k[0] == "sum"}
    fired = {(k, ts) for (kind, k), v in streamed.items() if kind == "timer" for ts, _ in v}
    assert fired and fired <= {(k, ts) for (kind, k), v in reference.items()
                               if kind == "timer" for ts, _ in v}


def test_a_restart_with_another_parallelism_redistributes_the_keyed_state(plain, bounded):
    """p=2 (the plain run's N_FILES files), stopped, then p=3 on the same checkpoint
    directory (Flink's rescale from a checkpoint) over RESCALED_FILES more: per-key running
    sums continue where they were, as in the bounded run."""
    _, in_dir, out_dir, ckpt, first, rescaled = plain.result()
    try:
        release(rescaled, gone=first)
        timeout = START_TIMEOUT
        for f in range(N_FILES, N_FILES + RESCALED_FILES):
            _add_file(in_dir, f)
            assert _wait_read_and_completed(rescaled, ckpt, "f%02d.txt" % f, timeout)
            timeout = BATCH_TIMEOUT
        _stop(rescaled)
    finally:
        end_all(rescaled)
    sums = {k: v for k, v in _per_key(_parts(out_dir)).items() if k[0] == "sum"}
    assert sum(len(v) for v in sums.values()) == (N_FILES + RESCALED_FILES) * 11
    assert sums == {k: v for k, v in bounded.items() if k[0] == "sum"}
