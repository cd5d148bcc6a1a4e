"""Big keyed state on EmbeddedRocksDB in an unbounded job (issue 41): what each micro-batch's
snapshot costs while N distinct keys are loaded and then while a small set of them keeps
changing, and the restart after `kill -9` of the driver.

    python benchmarks/rocksdb_big_state.py [--keys 1000000] [--per-file 1000000]
        [--hot 10000] [--updates 10] [--interval-ms 1000] [--parallelism 2]
        [--verify-sample 10000]

The job (benchmarks/jobs/rocksdb_big_state_job.py: monitored directory -> key_by -> ValueState
count on EmbeddedRocksDBStateBackend(incremental) -> print for flagged lines) runs as
`pyflink-on-spark run` in its own process group. The harness

1. loads: publishes --keys distinct keys in files of --per-file lines, one file at a time
   (the next when the job printed the file's last, flagged, line: one file per micro-batch);
2. updates: publishes --updates files of the --hot keys (k0 ... k<hot-1>), one every
   trigger interval;
3. kills the driver's process group with SIGKILL half a trigger interval after the last
   update file (a batch is usually running then), starts the job again on the same
   checkpoint directory, and times start -> the first state version newer than the last
   one completed before the kill;
4. reads back: once that batch (which reads every file the killed run had not) completed,
   publishes a file flagging --verify-sample random loaded keys and every hot key; each count
   printed must be 2 (loaded, read back) or 2 + updates (hot keys).

Meanwhile a poller reads every completed version's task metrics (the `.metrics` JSON beside
each snapshot: runtime/checkpoint/micro_batch.py) before retention removes them: per
micro-batch, the keyed subtasks' records in, snapshot time (snapshotMs) and bytes written
(checkpointedSize: the snapshot plus the SST files it uploaded; SSTs earlier versions
uploaded are referenced, not copied), and the size of the state directory.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from typing import Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
JOB = os.path.join(HERE, "jobs", "rocksdb_big_state_job.py")
START_TIMEOUT_S = 600
BATCH_TIMEOUT_S = 900


def _dir_bytes(path: str) -> int:
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                total += os.path.getsize(os.path.join(root, name))
            except OSError:
                pass
    return total


class Versions(threading.Thread):
    """Completed state versions as they appear: version -> (time seen, metrics docs,
    state directory bytes, load average)."""

    def __init__(self, state_dir: str) -> None:
        super().__init__(daemon=True)
        self.state_dir = state_dir
        self.seen: Dict[int, tuple] = {}
        self.stop = False

    def newest(self) -> int:
        return max(self.seen, default=-1)

    def run(self) -> None:
        while not self.stop:
            try:
                names = os.listdir(self.state_dir)
            except OSError:
                names = []
            for name in names:
                if not (name.startswith("v") and name[1:].isdigit()):
                    continue
                version = int(name[1:])
                directory = os.path.join(self.state_dir, name)
                if version in self.seen or \
                        not os.path.exists(os.path.join(directory, "_COMPLETED")):
                    continue
                docs = []
                try:
                    for entry in os.listdir(directory):
                        if entry.endswith(".metrics"):
                            with open(os.path.join(directory, entry)) as f:
                                docs.append(json.load(f))
                except (OSError, ValueError):
                    continue    # removed by retention meanwhile
                self.seen[version] = (time.time(), docs, _dir_bytes(self.state_dir),
                                     os.getloadavg()[0])
            time.sleep(0.1)


def _descendants(root: int) -> List[int]:
    """`root` and every process under it (the driver's JVM runs in a session of its own:
    spark/gateway.py; the Python workers under the JVM)."""
    children: Dict[int, List[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open("/proc/%s/stat" % name) as f:
                    stat = f.read()
                children.setdefault(int(stat[stat.rindex(")") + 2:].split()[1]),
                                    []).append(int(name))
            except (OSError, ValueError):
                pass
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


class Lines(threading.Thread):
    def __init__(self, stream) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.lines: List[str] = []

    def run(self) -> None:
        for line in self.stream:
            # print() at parallelism > 1 prefixes "<subtask + 1>> ", as Flink's
            self.lines.append(line.decode().strip().split("> ", 1)[-1])


def _publish(in_dir: str, name: str, lines) -> None:
    hidden = os.path.join(in_dir, "." + name + ".tmp")
    with open(hidden, "w") as out:
        out.writelines(lines)
    os.rename(hidden, os.path.join(in_dir, name))


def _start(args, in_dir: str, ckpt: str, err_path: str):
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("SPARK_REMOTE", None)
    err = open(err_path, "ab")
    job = subprocess.Popen([sys.executable, "-m", "pyflink_on_spark.cli.main", "run", JOB,
                            in_dir, ckpt, str(args.interval_ms), str(args.parallelism)],
                           env=env, stdout=subprocess.PIPE, stderr=err,
                           start_new_session=True)
    lines = Lines(job.stdout)
    lines.start()
    return job, lines, err


def _wait_line(job, lines: Lines, wanted: str, timeout: float, err_path: str) -> None:
    deadline = time.time() + timeout
    while wanted not in lines.lines[-50:] and wanted not in lines.lines:
        if job.poll() is not None or time.time() > deadline:
            raise SystemExit("no %r from the job: see %s" % (wanted, err_path))
        time.sleep(0.1)


def _keyed(docs) -> List[dict]:
    """The keyed subtasks' documents (every task but the source's)."""
    return sorted((d for d in docs if not d.get("task", "").startswith("Source")),
                  key=lambda d: d.get("subtask", 0))


def _batch_row(version: int, seen: tuple, before, t_start: float) -> str:
    """One version: its keyed subtasks' records in (the counts are per live task: a
    difference with the version before, unless the task was rebuilt), snapshot ms, bytes
    written, the state directory's size and the load when it was seen."""
    when, docs, state_bytes, load = seen
    keyed = _keyed(docs)
    counts = [d["system"].get("numRecordsIn", 0) for d in keyed]
    then = [d["system"].get("numRecordsIn", 0) for d in _keyed(before[1])] if before else []
    if len(then) == len(counts) and all(a >= b for a, b in zip(counts, then)):
        records = "%d" % sum(a - b for a, b in zip(counts, then))
    else:
        records = "%d (since the task started)" % sum(counts)
    snap = [d.get("snapshotMs", float("nan")) for d in keyed]
    written = sum(d.get("checkpointedSize", 0) for d in keyed)
    return "| %d | %.1f | %s | %s | %.2f | %.1f | %.1f |" % (
        version, when - t_start, records, " / ".join("%.0f" % s for s in snap), written / 1e6,
        state_bytes / 1e6, load)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keys", type=int, default=1_000_000)
    parser.add_argument("--per-file", type=int, default=1_000_000)
    parser.add_argument("--hot", type=int, default=10_000)
    parser.add_argument("--updates", type=int, default=10)
    parser.add_argument("--interval-ms", type=int, default=1000)
    parser.add_argument("--parallelism", type=int, default=2)
    parser.add_argument("--verify-sample", type=int, default=10_000)
    parser.add_argument("--work", help="work directory (default: a fresh temporary one, "
                                       "removed at the end)")
    args = parser.parse_args(argv)
    work = args.work or tempfile.mkdtemp(prefix="rocksdb-big-state-")
    in_dir, ckpt = os.path.join(work, "in"), os.path.join(work, "ckpt")
    os.makedirs(in_dir, exist_ok=True)
    err_path = os.path.join(work, "stderr.txt")
    versions = Versions(os.path.join(ckpt, "state"))
    versions.start()
    load = []
    t_start = time.time()
    job, lines, err = _start(args, in_dir, ckpt, err_path)
    try:
        # 1. load
        files = (args.keys + args.per_file - 1) // args.per_file
        for f in range(files):
            first, last = f * args.per_file, min(args.keys, (f + 1) * args.per_file)
            body = ["k%d,-\n" % n for n in range(first, last - 1)] + ["k%d,v\n" % (last - 1)]
            published = time.time()
            _publish(in_dir, "load-%03d.txt" % f, body)
            _wait_line(job, lines, "k%d,1" % (last - 1),
                       START_TIMEOUT_S if f == 0 else BATCH_TIMEOUT_S, err_path)
            load.append((last - first, time.time() - published, os.getloadavg()[0]))
            print("loaded file %d (%d keys): %.1f s from publishing to its last record "
                  "printed, load %.1f" % ((f,) + load[-1]), flush=True)
        loaded_at = time.time()
        # 2. updates, one file per trigger interval
        hot = min(args.hot, args.keys)
        body = ["k%d,-\n" % n for n in range(hot)]
        for u in range(args.updates):
            _publish(in_dir, "update-%03d.txt" % u, body)
            time.sleep(args.interval_ms / 1000)
        # 3. kill -9 the driver's process group in the middle of a trigger interval
        time.sleep(args.interval_ms / 2000)
        while not versions.seen or versions.newest() < 0:
            time.sleep(0.1)
        completed_before = versions.newest()
        # the driver's whole process tree at once (its Python, its JVM with the local
        # executor, the Python workers): the driver's machine gone
        doomed = _descendants(job.pid)
        for pid in doomed:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        killed = time.time()
        job.wait()
        err.close()
        time.sleep(0.3)
        completed_before = max(completed_before, versions.newest())
        restarted = time.time()
        job, lines, err = _start(args, in_dir, ckpt, err_path)
        while versions.newest() <= completed_before:
            if job.poll() is not None or time.time() - restarted > START_TIMEOUT_S:
                raise SystemExit("no batch after the restart: see %s" % err_path)
            time.sleep(0.05)
        first_new = versions.newest()
        restore_s = versions.seen[first_new][0] - restarted
        # that batch may be the re-run of the one the kill interrupted (its recorded input):
        # the next one lists every file published before
        while versions.newest() <= first_new:
            if job.poll() is not None or time.time() - restarted > START_TIMEOUT_S:
                raise SystemExit("no second batch after the restart: see %s" % err_path)
            time.sleep(0.05)
        # 4. read back: every file the killed run published was listed by that batch
        sample = random.Random(41).sample(range(hot, args.keys),
                                          min(args.verify_sample, args.keys - hot))
        _publish(in_dir, "verify.txt", ["k%d,v\n" % n for n in sample + list(range(hot))])
        expected = {"k%d" % n: 2 for n in sample}
        expected.update({"k%d" % n: 2 + args.updates for n in range(hot)})
        deadline = time.time() + BATCH_TIMEOUT_S
        counts: Dict[str, int] = {}
        while len(counts) < len(expected) and time.time() < deadline and job.poll() is None:
            for line in lines.lines[:]:
                key, _, count = line.partition(",")
                if key in expected and count.isdigit():
                    counts[key] = int(count)
            time.sleep(0.5)
        time.sleep(2 * args.interval_ms / 1000)
        # the same job's cold start without state, at the same load: what of the restart
        # is starting a job at all
        os.killpg(job.pid, signal.SIGTERM)
        job.wait(timeout=60)
        err.close()
        cold_dir = os.path.join(work, "cold")
        os.makedirs(os.path.join(cold_dir, "in"))
        cold_versions = Versions(os.path.join(cold_dir, "ckpt", "state"))
        cold_versions.start()
        cold_started = time.time()
        job, lines, err = _start(args, os.path.join(cold_dir, "in"),
                                 os.path.join(cold_dir, "ckpt"), err_path)
        while not cold_versions.seen and time.time() - cold_started < START_TIMEOUT_S \
                and job.poll() is None:
            time.sleep(0.05)
        cold_s = min((t for t, *_ in cold_versions.seen.values()), default=float("nan")) \
            - cold_started
        cold_versions.stop = True
    finally:
        try:
            os.killpg(job.pid, signal.SIGTERM)
            job.wait(timeout=60)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(job.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        versions.stop = True
        err.close()
    wrong = {k: (counts.get(k), v) for k, v in expected.items() if counts.get(k) != v}
    print("\nrocksdb_big_state: %d keys loaded in files of %d, then %d keys updated by %d "
          "files, p=%d, trigger %d ms (total %.0f s)" % (
              args.keys, args.per_file, hot, args.updates, args.parallelism,
              args.interval_ms, time.time() - t_start))
    print("  load: %.1f s for %d keys (%.0f keys/s)" % (
        loaded_at - t_start, args.keys, args.keys / max(1e-9, sum(s for _, s, _ in load))))
    print("  kill -9 at %.1f s; restart -> version %d (first after %d) completed: %.1f s" % (
        killed - t_start, first_new, completed_before, restore_s))
    print("  the same job started on an empty checkpoint directory -> its first batch "
          "completed: %.1f s (load %.1f)" % (cold_s, os.getloadavg()[0]))
    print("  read back: %d of %d counts as expected%s" % (
        len(expected) - len(wrong), len(expected),
        "" if not wrong else "; WRONG (got, expected) e.g. %s" % list(wrong.items())[:5]))
    print("\n| version | completed (s) | records in (keyed) | snapshot ms per keyed subtask | MB written "
          "(snapshot + new SSTs) | state dir MB | load now |")
    print("|---|---|---|---|---|---|---|")
    previous = None
    for version in sorted(versions.seen):
        print(_batch_row(version, versions.seen[version], previous, t_start))
        previous = versions.seen[version]
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if not wrong else 1


if __name__ == "__main__":
    sys.exit(main())
