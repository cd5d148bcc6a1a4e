"""End-to-end latency of an unbounded job (issue 11): record written -> result visible, for
the shim and real PyFlink 1.20 on the same job (benchmarks/jobs/streaming_latency_job.py:
monitored directory -> key_by -> keyed ValueState counter -> print), one run each.

A generator publishes a file of "key,written_us" lines every 100 ms (rate / 10 records per
file, 1000 keys), written under a hidden name and renamed into the monitored directory; each
line carries the wall-clock time its file was written (microseconds), so "written" is when
the record became visible to the source, give or take the rename. The job prints one line
per record; the harness reads the job's stdout line by line and stamps each line when it
arrives. Latency = arrival - written, for the records written after the warm-up.

Print is the sink because it is visible at once in both: the shim prints a micro-batch's
lines when the batch's tasks finished (before the checkpoint completes); PyFlink prints as
its tasks emit. A FileSink would not compare: PyFlink's parts become visible only when a
checkpoint completes.

    python benchmarks/streaming_latency.py [--rates 1000,10000] [--seconds 30] [--warmup 15]
        [--interval-ms 1000] [--runners shim,pyflink] [--reference /opt/venvs/flink/bin/python]
        [--job-conf KEY=VALUE ...]

(run it with the shim's Python, e.g. `/work/main/.venv/bin/python benchmarks/...`; the
checkpoint interval is the shim's micro-batch interval, and the same setting for PyFlink.)
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from typing import List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
JOB = os.path.join(HERE, "jobs", "streaming_latency_job.py")
TICK_S = 0.1
KEYS = 1000
START_TIMEOUT_S = 300
DRAIN_TIMEOUT_S = 60


def _command(runner: str, reference: str, args: List[str]) -> Tuple[List[str], dict]:
    env = dict(os.environ)
    if runner == "shim":
        env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
        env.pop("SPARK_REMOTE", None)
        return [sys.executable, "-m", "pyflink_on_spark.cli.main", "run", JOB] + args, env
    env.pop("PYTHONPATH", None)
    # PyFlink's Python workers start `python` from PATH
    env["PATH"] = os.path.dirname(reference) + os.pathsep + env["PATH"]
    return [reference, JOB] + args, env


class Arrivals(threading.Thread):
    """Reads the job's stdout line by line; keeps (arrival time, line)."""

    def __init__(self, stream) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.lines: List[Tuple[float, bytes]] = []

    def run(self) -> None:
        append, now = self.lines.append, time.time
        for line in self.stream:
            append((now(), line))


def _publish(in_dir: str, n: int, count: int, first_key: int) -> None:
    hidden = os.path.join(in_dir, ".f%06d.tmp" % n)
    written = int(time.time() * 1_000_000)
    with open(hidden, "w") as out:
        out.write("".join("k%d,%d\n" % ((first_key + i) % KEYS, written)
                          for i in range(count)))
    os.rename(hidden, os.path.join(in_dir, "f%06d.txt" % n))


def _written_us(line: bytes):
    try:
        return int(line.rsplit(b",", 1)[1])
    except (IndexError, ValueError):
        return None


def run_one(runner: str, reference: str, rate: int, seconds: float, warmup: float,
            interval_ms: int, job_conf=()) -> dict:
    work = tempfile.mkdtemp(prefix="stream-latency-")
    in_dir, ckpt = os.path.join(work, "in"), os.path.join(work, "ckpt")
    os.makedirs(in_dir)
    command, env = _command(runner, reference, [in_dir, ckpt, str(interval_ms)] + list(job_conf))
    err = open(os.path.join(work, "stderr.txt"), "wb")
    started = time.time()
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=err,
                            start_new_session=True)
    arrivals = Arrivals(proc.stdout)
    arrivals.start()
    try:
        # started: one file's records came out
        _publish(in_dir, 0, 10, 0)
        while not arrivals.lines:
            if proc.poll() is not None or time.time() - started > START_TIMEOUT_S:
                raise SystemExit("%s did not start: see %s" % (runner, err.name))
            time.sleep(0.05)
        per_file = max(1, int(rate * TICK_S))
        ticks = int((warmup + seconds) / TICK_S)
        measured_from_us = None
        t0 = time.time()
        for k in range(ticks):
            pause = t0 + k * TICK_S - time.time()
            if pause > 0:
                time.sleep(pause)
            if measured_from_us is None and k * TICK_S >= warmup:
                measured_from_us = int(time.time() * 1_000_000)
            _publish(in_dir, k + 1, per_file, k * per_file)
        generated_until = time.time()
        expected = int(seconds / TICK_S) * per_file
        seen = 0
        while time.time() - generated_until < DRAIN_TIMEOUT_S:
            lines = arrivals.lines[:]
            seen = sum(1 for _, line in lines if (_written_us(line) or 0) >= measured_from_us)
            if seen >= expected or proc.poll() is not None:
                break
            time.sleep(0.5)
        drained = time.time() - generated_until
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        err.close()
    latencies = sorted(arrival - w / 1e6 for arrival, line in arrivals.lines
                       for w in [_written_us(line)] if w is not None and w >= measured_from_us)
    shutil.rmtree(work, ignore_errors=True)
    result = {"runner": runner, "rate": rate, "expected": expected, "seen": len(latencies),
              "drain_s": drained}
    if latencies:
        result.update(p50=_pct(latencies, 50), p99=_pct(latencies, 99), max=latencies[-1])
    return result


def _pct(ordered: List[float], p: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rates", default="1000,10000")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=15)
    parser.add_argument("--interval-ms", type=int, default=1000)
    parser.add_argument("--runners", default="shim,pyflink")
    parser.add_argument("--reference", default="/opt/venvs/flink/bin/python")
    parser.add_argument("--job-conf", action="append", default=[],
                        help="KEY=VALUE configuration for the job's environment (repeatable)")
    args = parser.parse_args()
    print("| runner | records/s | checkpoint interval | p50 s | p99 s | max s | "
          "records seen / written | load (1 min) |")
    print("|---|---|---|---|---|---|---|---|")
    for rate in [int(r) for r in args.rates.split(",")]:
        for runner in args.runners.split(","):
            r = run_one(runner, args.reference, rate, args.seconds, args.warmup,
                        args.interval_ms, args.job_conf)
            load = os.getloadavg()[0]
            if "p50" in r:
                print("| %s | %d | %d ms | %.3f | %.3f | %.3f | %d / %d | %.1f |" % (
                    runner, rate, args.interval_ms, r["p50"], r["p99"], r["max"], r["seen"],
                    r["expected"], load), flush=True)
            else:
                print("| %s | %d | %d ms | - | - | - | 0 / %d | %.1f |" % (
                    runner, rate, args.interval_ms, r["expected"], load), flush=True)


if __name__ == "__main__":
    main()
