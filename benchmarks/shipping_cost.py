"""What shipping the shim to workers that lack it costs (issue 38's target: under 1 s on the
first job, nothing on later ones; spark/package_shipping.py).

    python benchmarks/shipping_cost.py [--pairs 3] [--jobs 4]

Each run is a fresh process running the same small keyed job `--jobs` times on local[2],
whose workers run a plain PySpark virtualenv (pyspark, pyarrow, pandas, numpy: the test
suite's bare Python):
- shipped: the workers lack the shim; the driver ships its zip (addPyFile) before the first job;
- installed: the same workers with the shim importable from this checkout (a .pth file in a
  copy of that virtualenv) and PYFLINK_ON_SPARK_SHIP=0.
Runs alternate, pair by pair. Also timed in this process: building the zip from nothing (once
per version of the checkout) and finding it in the cache.
Prints a markdown table of medians.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

JOB = r'''
import json, sys, time
from pyflink_on_spark.common import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
import io, contextlib

times = []
for _ in range(int(sys.argv[1])):
    start = time.perf_counter()
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    env.from_collection([("a", 1), ("b", 2), ("a", 3)] * 100) \
        .key_by(lambda r: r[0]).reduce(lambda a, b: (a[0], a[1] + b[1])).print()
    with contextlib.redirect_stdout(io.StringIO()):
        env.execute("small")
    times.append(time.perf_counter() - start)
print("TIMES " + json.dumps(times))
'''


def _installed_copy(bare: str, scratch: str) -> str:
    """A copy of the bare virtualenv whose site-packages also holds the shim (a .pth file
    naming this checkout): workers that have it installed."""
    venv = os.path.dirname(os.path.dirname(bare))
    copy = os.path.join(scratch, "installed-venv")
    shutil.copytree(venv, copy, symlinks=True)
    site = subprocess.run([os.path.join(copy, "bin", "python"), "-c",
                           "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    deps = os.path.dirname(os.path.dirname(os.path.abspath(
        __import__("cloudpickle").__file__)))
    with open(os.path.join(site, "shim.pth"), "w") as f:
        f.write(REPO + "\n")
    # the shim's own pure dependency, from this interpreter's site-packages
    os.symlink(os.path.join(deps, "cloudpickle"), os.path.join(site, "cloudpickle"))
    return os.path.join(copy, "bin", "python")


def _run(job: str, jobs: int, worker_python: str, ship: bool) -> list:
    env = dict(os.environ, PYSPARK_PYTHON=worker_python, PYFLINK_ON_SPARK_MASTER="local[2]",
               PYTHONPATH=REPO)
    env["PYFLINK_ON_SPARK_SHIP"] = "1" if ship else "0"
    proc = subprocess.run([sys.executable, job, str(jobs)], capture_output=True, text=True,
                          env=env, timeout=600)
    line = [l for l in proc.stdout.splitlines() if l.startswith("TIMES ")]
    if proc.returncode != 0 or not line:
        raise SystemExit("the job failed:\n" + proc.stderr[-3000:])
    return json.loads(line[0][len("TIMES "):])


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--pairs", type=int, default=3)
    p.add_argument("--jobs", type=int, default=4)
    args = p.parse_args()
    from pyflink_on_spark.spark import package_shipping
    from pyflink_on_spark.spark.tests.standalone_cluster import bare_python
    bare = bare_python()
    with tempfile.TemporaryDirectory() as scratch:
        start = time.perf_counter()
        package_shipping.package_zip(os.path.join(scratch, "cache"))
        build_s = time.perf_counter() - start
        start = time.perf_counter()
        package_shipping.package_zip(os.path.join(scratch, "cache"))
        cached_s = time.perf_counter() - start
        installed = _installed_copy(bare, scratch)
        job = os.path.join(scratch, "job.py")
        with open(job, "w") as f:
            f.write(JOB)
        shipped, local = [], []
        for _ in range(args.pairs):
            shipped.append(_run(job, args.jobs, bare, ship=True))
            local.append(_run(job, args.jobs, installed, ship=False))
    m = statistics.median
    first_s = [s[0] for s in shipped]
    first_i = [i[0] for i in local]
    later_s = [m(s[1:]) for s in shipped]
    later_i = [m(i[1:]) for i in local]
    print("Shipping the shim, %d pairs of fresh processes, %d jobs each, load average %.1f"
          % (args.pairs, args.jobs, os.getloadavg()[0]))
    print()
    print("| | workers lack the shim (shipped) s | shim installed on the workers s | "
          "added s |")
    print("|---|---|---|---|")
    print("| first job (median) | %.2f | %.2f | %+.2f |" % (m(first_s), m(first_i),
                                                           m(a - b for a, b in
                                                             zip(first_s, first_i))))
    print("| later jobs (median) | %.3f | %.3f | %+.3f |" % (m(later_s), m(later_i),
                                                            m(a - b for a, b in
                                                              zip(later_s, later_i))))
    print()
    print("Building the zip from nothing: %.2f s (once per version of the checkout); found "
          "in the cache: %.3f s." % (build_s, cached_s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
