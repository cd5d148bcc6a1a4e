"""Run a benchmark job on the shim, optionally on real PyFlink, and as a plain Python loop;
print records/s and the ratios from this one run.

    python benchmarks/run.py map_keyby_reduce [--records N] [--reference /opt/venvs/flink/bin/python]

The shim is timed inside the job (execute to last result), with the SparkSession already
warm, as a long-lived user session would be; the cold start is reported apart. Real PyFlink
is timed the same way inside the job (its ~6 s mini-cluster start falls in its number, as it
does for every PyFlink job).
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RESULT = re.compile(r"RESULT records=(\d+) keys=(\d+) seconds=([\d.]+) checksum=(\d+)")


def floor_map_keyby_reduce(n: int, keys: int) -> float:
    """The same user functions driven by a plain Python loop: the floor."""
    def to_pair(value):
        return (value % keys, value)

    def add(a, b):
        return (a[0], a[1] + b[1])

    def key(pair):
        return pair[0]

    start = time.perf_counter()
    state = {}
    for i in range(n):
        pair = to_pair(i)
        k = key(pair)
        current = state.get(k)
        state[k] = pair if current is None else add(current, pair)
    return time.perf_counter() - start


def floor_window_aggregate(n: int, keys: int) -> float:
    """window_aggregate's work in a plain Python loop: per record, key and 10 s window, then
    (count, min, max) per key and window in a dict (the floor)."""
    def to_pair(value):
        return (value % keys, value)

    def add(value, acc):
        count, low, high = acc
        v = value[1]
        return (count + 1, v if low is None or v < low else low,
                v if high is None or v > high else high)

    start = time.perf_counter()
    state = {}
    for i in range(n):
        pair = to_pair(i)
        slot = (pair[0], i - i % 10000)
        state[slot] = add(pair, state.get(slot, (0, None, None)))
    return time.perf_counter() - start


FLOORS = {"map_keyby_reduce": floor_map_keyby_reduce,
          "window_aggregate": floor_window_aggregate}


def _parse(out: str):
    match = RESULT.search(out)
    if not match:
        raise RuntimeError("benchmark job printed no RESULT line:\n" + out[-3000:])
    return int(match.group(1)), float(match.group(3)), int(match.group(4))


def run_shim(job: str, args) -> tuple:
    from pyflink_on_spark.cli.script_runner import run_script_captured
    from pyflink_on_spark.spark.session import get_session
    start = time.perf_counter()
    get_session()
    cold = time.perf_counter() - start
    # warm-up run on small data (first job pays Python worker start-up)
    run_script_captured(job, ["1000", str(args.keys), str(args.parallelism)])
    out, error = run_script_captured(job, [str(args.records), str(args.keys),
                                           str(args.parallelism)])
    if error is not None:
        raise error
    return _parse(out) + (cold,)


def run_reference(job: str, args) -> tuple:
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(args.reference) + os.pathsep + env.get("PATH", "")
    proc = subprocess.run([args.reference, job, str(args.records), str(args.keys),
                           str(args.parallelism)], capture_output=True, text=True, env=env,
                          timeout=3600)
    return _parse(proc.stdout + proc.stderr)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("job", nargs="?", default="map_keyby_reduce")
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=1000)
    parser.add_argument("--parallelism", type=int, default=2)
    parser.add_argument("--reference", help="python of a venv with apache-flink 1.20")
    args = parser.parse_args(argv)
    job = os.path.join(HERE, "jobs", args.job + ".py")
    n, shim_s, shim_sum, cold = run_shim(job, args)
    rows = [("shim (pyflink_on_spark)", shim_s)]
    if args.reference:
        ref_n, ref_s, ref_sum = run_reference(job, args)
        if ref_sum != shim_sum:
            print("WARNING: checksums differ: shim %d, PyFlink %d" % (shim_sum, ref_sum))
        rows.append(("real PyFlink 1.20", ref_s))
    floor_s = FLOORS[args.job](args.records, args.keys)
    rows.append(("plain Python loop (floor)", floor_s))
    print("%s: %d records, %d keys, parallelism %d (SparkSession cold start %.1f s, not "
          "counted)" % (args.job, n, args.keys, args.parallelism, cold))
    for name, seconds in rows:
        print("  %-28s %8.2f s  %12.0f rec/s  %6.2fx the floor's time" % (
            name, seconds, n / seconds, seconds / floor_s))
    if args.reference:
        print("  shim / PyFlink time ratio: %.2f" % (shim_s / rows[1][1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
