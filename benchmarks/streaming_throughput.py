"""Sustained throughput of a keyed ValueState job, streaming vs bounded vs the plain-Python
floor (issue 11, benchmark 1), on the same files.

Streaming: the job starts on an empty directory; once its first micro-batches ran (Spark and
the Python workers warm), the files are moved in; the micro-batch that reads them is timed
from its planning (recorded in the checkpoint) to its completed state version.

    python benchmarks/streaming_throughput.py [--records 1000000] [--keys 1000] [--files 4]
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
JOB = os.path.join(HERE, "jobs", "streaming_keyed_count.py")


def write_files(directory: str, records: int, keys: int, files: int) -> list:
    """`files` files "key,n" of records // files lines each under `directory`; returns
    the lines."""
    per_file = records // files
    lines = []
    for f in range(files):
        rows = ["k%d,%d" % ((f * per_file + i) % keys, i) for i in range(per_file)]
        lines.extend(rows)
        with open(os.path.join(directory, "f%d.txt" % f), "w") as out:
            out.write("\n".join(rows) + "\n")
    return lines


def _run(args, env):
    return subprocess.Popen([sys.executable, "-m", "pyflink_on_spark.cli.main", "run", JOB]
                            + args, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


def _batch_reading_files(ckpt):
    for record in glob.glob(os.path.join(ckpt, "state", "sources", "*", "*")):
        if json.loads(open(record).read()):
            return int(os.path.basename(record))
    return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=1000)
    parser.add_argument("--files", type=int, default=4)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="stream-bench-")
    staged, in_dir, ckpt = (os.path.join(work, d) for d in ("staged", "in", "ckpt"))
    os.makedirs(staged)
    os.makedirs(in_dir)
    lines = write_files(staged, args.records, args.keys, args.files)
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))

    # the floor: the same counting in a plain loop
    start = time.perf_counter()
    counts = {}
    for line in lines:
        key = line.split(",", 1)[0]
        counts[key] = counts.get(key, 0) + 1
    floor = time.perf_counter() - start

    proc = _run([in_dir, "stream", ckpt], env)
    deadline = time.time() + 600
    while not os.path.exists(os.path.join(ckpt, "state", "v1", "_COMPLETED")):
        if time.time() > deadline or proc.poll() is not None:
            raise SystemExit("the streaming job did not start: %s" % proc.stderr.read())
        time.sleep(0.2)
    for name in sorted(os.listdir(staged)):
        os.rename(os.path.join(staged, name), os.path.join(in_dir, name))
    batch = None
    while batch is None or not os.path.exists(
            os.path.join(ckpt, "state", "v%d" % batch, "_COMPLETED")):
        if time.time() > deadline:
            raise SystemExit("the batch did not complete")
        batch = _batch_reading_files(ckpt)
        time.sleep(0.05)
    planned = int(open(os.path.join(ckpt, "state", "batches", str(batch))).read()) / 1000
    completed = os.path.getmtime(os.path.join(ckpt, "state", "v%d" % batch, "_COMPLETED"))
    streaming = completed - planned
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=120)

    bounded_proc = _run([in_dir, "bounded", ckpt], env)
    _, err = bounded_proc.communicate(timeout=900)
    bounded = float([l for l in err.splitlines() if l.startswith("BOUNDED_SECONDS")][0].split()[1])
    n = args.records
    print("records %d, keys %d, files %d, parallelism 2" % (n, args.keys, args.files))
    print("streaming (one micro-batch, incl. snapshot): %.2f s  %.0f rec/s" % (streaming,
                                                                              n / streaming))
    print("bounded (second run in the process):         %.2f s  %.0f rec/s" % (bounded,
                                                                              n / bounded))
    print("plain Python floor:                          %.2f s  %.0f rec/s" % (floor, n / floor))
    print("streaming time / bounded time: %.2f" % (streaming / bounded))


if __name__ == "__main__":
    main()
