"""How long `pyflink-on-spark migrate` takes over many files (target: 1,000 files < 10 s).

    python benchmarks/migrate_files.py [--files 1000]

Copies the migrate corpus (PyFlink's own examples and the synthetic programs, ~100 lines
each) round-robin into a temporary tree of N files, then times the whole report (parse,
analyse, rate every use, decisions, verdicts, JSON rendering) in this process. The statuses
of the shim's API are computed once per process; that start-up is reported apart.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from pyflink_on_spark.migrate.analyzer import python_files  # noqa: E402
from pyflink_on_spark.migrate.report import build_report, to_json  # noqa: E402

CORPUS = os.path.join(os.path.dirname(HERE), "pyflink_on_spark", "migrate", "tests", "corpus")


def make_tree(root: str, n: int) -> None:
    sources = [p for p in python_files([CORPUS]) if not p.endswith("__init__.py")
               and "mypackage" not in p]
    for i in range(n):
        directory = os.path.join(root, "team%02d" % (i % 20))
        os.makedirs(directory, exist_ok=True)
        shutil.copy(sources[i % len(sources)], os.path.join(directory, "job_%04d.py" % i))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        make_tree(root, args.files)
        lines = sum(open(p).read().count("\n") for p in python_files([root]))
        start = time.perf_counter()
        build_report([os.path.join(CORPUS, "synthetic", "import_forms.py")])
        warm = time.perf_counter() - start
        start, cpu_start = time.perf_counter(), time.process_time()
        report = build_report([root])
        text = to_json(report)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    # CPU time is what a loaded machine (2 cores shared) cannot inflate; wall time is the claim
    print("files=%d lines=%d uses=%d seconds=%.2f cpu_seconds=%.2f (%.1f ms/file; first-report "
          "start-up %.2f s) json_bytes=%d load=%.1f"
          % (len(report.files), lines, len(report.uses), seconds, cpu,
             1000 * seconds / max(len(report.files), 1), warm, len(text), os.getloadavg()[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
