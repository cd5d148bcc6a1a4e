"""Run a benchmark job on the shim, optionally on real PyFlink, and as a plain Python loop;
print records/s and the ratios from this one run.

    python benchmarks/run.py map_keyby_reduce [--records N] [--reference /opt/venvs/flink/bin/python]
    python benchmarks/run.py word_count_file [--megabytes 200] [--reference ...]

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


def generated_text_file(megabytes: int) -> str:
    """A text file of `megabytes` MB of words (Zipf-like vocabulary), generated under /tmp
    once and reused (never committed)."""
    import random
    directory = os.path.join("/tmp", "pyflink-on-spark-bench")
    path = os.path.join(directory, "words-%dMB.txt" % megabytes)
    if os.path.exists(path):
        return path
    os.makedirs(directory, exist_ok=True)
    rng = random.Random(42)
    vocabulary = ["w%d" % i for i in range(20000)]
    cumulative, total = [], 0.0
    for i in range(len(vocabulary)):
        total += 1.0 / (i + 1)
        cumulative.append(total)
    target = megabytes * 1024 * 1024
    written = 0
    with open(path + ".tmp", "w") as f:
        while written < target:
            words = rng.choices(vocabulary, cum_weights=cumulative, k=12 * 10000)
            lines = [" ".join(words[i:i + 12]) for i in range(0, len(words), 12)]
            text = "\n".join(lines) + "\n"
            f.write(text)
            written += len(text)
    os.replace(path + ".tmp", path)
    return path


def floor_word_count_file(path: str) -> float:
    """The same split + count as a plain Python loop over the file's lines."""
    def split(line):
        return [(word, 1) for word in line.split()]

    start = time.perf_counter()
    counts = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            for word, one in split(line):
                counts[word] = counts.get(word, 0) + one
    return time.perf_counter() - start


def job_argv(job: str, args, warm_up: bool = False) -> list:
    if job.endswith("word_count_file.py"):
        return [generated_text_file(1 if warm_up else args.megabytes), str(args.parallelism)]
    return ["1000" if warm_up else str(args.records), str(args.keys), str(args.parallelism)]


def _parse(out: str):
    match = RESULT.search(out)
    if not match:
        raise RuntimeError("benchmark job printed no RESULT line:\n" + out[-3000:])
    return int(match.group(1)), int(match.group(2)), float(match.group(3)), int(match.group(4))


def run_shim(job: str, args) -> tuple:
    from pyflink_on_spark.cli.script_runner import run_script_captured
    from pyflink_on_spark.spark.session import get_session
    start = time.perf_counter()
    get_session()
    cold = time.perf_counter() - start
    # warm-up run on small data (first job pays Python worker start-up)
    run_script_captured(job, job_argv(job, args, warm_up=True))
    out, error = run_script_captured(job, job_argv(job, args))
    if error is not None:
        raise error
    return _parse(out) + (cold,)


def run_reference(job: str, args) -> tuple:
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(args.reference) + os.pathsep + env.get("PATH", "")
    proc = subprocess.run([args.reference, job] + job_argv(job, args), capture_output=True,
                          text=True, env=env, timeout=3600)
    return _parse(proc.stdout + proc.stderr)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("job", nargs="?", default="map_keyby_reduce")
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=1000)
    parser.add_argument("--parallelism", type=int, default=2)
    parser.add_argument("--megabytes", type=int, default=200,
                        help="word_count_file: size of the generated text file")
    parser.add_argument("--reference", help="python of a venv with apache-flink 1.20")
    args = parser.parse_args(argv)
    job = os.path.join(HERE, "jobs", args.job + ".py")
    n, keys, shim_s, shim_sum, cold = run_shim(job, args)
    rows = [("shim (pyflink_on_spark)", shim_s)]
    if args.reference:
        ref_n, _, ref_s, ref_sum = run_reference(job, args)
        if ref_sum != shim_sum:
            print("WARNING: checksums differ: shim %d, PyFlink %d" % (shim_sum, ref_sum))
        rows.append(("real PyFlink 1.20", ref_s))
    if args.job == "word_count_file":
        floor_s = floor_word_count_file(job_argv(job, args)[0])
    else:
        floor_s = floor_map_keyby_reduce(args.records, args.keys)
    rows.append(("plain Python loop (floor)", floor_s))
    print("%s: %d records, %d keys, parallelism %d (SparkSession cold start %.1f s, not "
          "counted)" % (args.job, n, keys, args.parallelism, cold))
    for name, seconds in rows:
        print("  %-28s %8.2f s  %12.0f rec/s  %6.2fx the floor's time" % (
            name, seconds, n / seconds, seconds / floor_s))
    if args.reference:
        print("  shim / PyFlink time ratio: %.2f" % (shim_s / rows[1][1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
