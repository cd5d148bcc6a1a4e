"""A filesystem csv table read in BATCH mode: wall time and the Python workers' peak RSS.

    python benchmarks/table_csv_read.py [--megabytes 100] [--quoted] [--parallelism 2]

Generates (once, under /tmp, never committed) a csv file of about N MB with columns BIGINT,
DOUBLE, STRING, TIMESTAMP(3) (`--quoted`: the text quoted, as the shim's writer quotes a
value holding a space), then times `SELECT COUNT(*), SUM(b) FROM t` over it after a warm-up
on a small file. Run another tree's code with PYTHONPATH=<tree> (benchmarks/RESULTS.md).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from run import WorkerMemorySampler, cpu_seconds  # noqa: E402


def generated_csv(megabytes: float, quoted: bool) -> str:
    directory = os.path.join("/tmp", "pyflink-on-spark-bench",
                             "csv-%sMB%s" % (megabytes, "-quoted" if quoted else ""))
    path = os.path.join(directory, "data.csv")
    if os.path.exists(path):
        return directory
    os.makedirs(directory, exist_ok=True)
    rng = random.Random(7)
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
    target = int(megabytes * 1024 * 1024)
    written, i = 0, 0
    with open(path + ".tmp", "w") as f:
        while written < target:
            lines = []
            for _ in range(10000):
                text = "%s %s" % (rng.choice(words), i) if quoted else "%s_%d" % (
                    rng.choice(words), i)
                if quoted:
                    text = '"%s"' % text
                lines.append("%d,%.6f,%s,2024-%02d-%02d %02d:%02d:%02d.%03d\n" % (
                    i, rng.random() * 1000, text, 1 + i % 12, 1 + i % 28, i % 24, i % 60,
                    (i * 7) % 60, i % 1000))
                i += 1
            chunk = "".join(lines)
            f.write(chunk)
            written += len(chunk)
    os.replace(path + ".tmp", path)
    return directory


def run(t_env, directory: str, name: str):
    t_env.execute_sql(
        "CREATE TABLE %s (a BIGINT, b DOUBLE, c STRING, ts TIMESTAMP(3)) WITH ("
        "'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')" % (name, directory))
    with t_env.sql_query("SELECT COUNT(*), SUM(b) FROM %s" % name).execute().collect() as rows:
        return [tuple(r) for r in rows]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--megabytes", type=float, default=100)
    parser.add_argument("--quoted", action="store_true")
    parser.add_argument("--parallelism", type=int, default=2)
    args = parser.parse_args()
    from pyflink_on_spark.aliasing import install_pyflink_alias
    install_pyflink_alias()
    from pyflink.table import EnvironmentSettings, TableEnvironment
    big = generated_csv(args.megabytes, args.quoted)
    small = generated_csv(0.1, args.quoted)
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.get_config().set("parallelism.default", str(args.parallelism))
    run(t_env, small, "warm")
    sampler = WorkerMemorySampler()
    sampler.start()
    cpu, start = cpu_seconds(), time.perf_counter()
    try:
        result = run(t_env, big, "t")
    finally:
        seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
        sampler.stop()
    size = os.path.getsize(os.path.join(big, "data.csv"))
    print("file=%.0fMB quoted=%s result=%s seconds=%.1f cpu_seconds=%.1f "
          "worker_peak_rss_mb=%.0f workers_total_rss_mb=%.0f load=%.1f"
          % (size / 2 ** 20, args.quoted, result, seconds, cpu,
             sampler.peak_process_kb / 1024, sampler.peak_total_kb / 1024, os.getloadavg()[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
