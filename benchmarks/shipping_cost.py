"""What shipping the shim to workers that lack it costs (issue 38's target: under 1 s on the
first job, nothing on later ones; spark/package_shipping.py).

    python benchmarks/shipping_cost.py [--pairs 3] [--jobs 4] [--cluster]

Each run is a fresh process that starts its Spark session (timed apart: the first job's time
is the job's own) and runs the same small keyed job `--jobs` times on local[2] (--cluster: a
standalone cluster of two 1-core workers on this machine, started here), whose workers run a plain PySpark virtualenv (pyspark, pyarrow, pandas, numpy: the test suite's
bare Python):
- shipped: the workers lack the shim; before the first job the driver asks the executors'
  Python its version (probe_workers: on local[2] it runs that Python itself, on a cluster
  one task pipes through it) and ships its zip (addPyFile);
- shipped, probe stubbed: the same, but the probe answers what the driver is without asking
  (no Spark job): the first job's difference from `shipped` is what the probe adds (a first
  Spark job in a new SparkContext costs more than later ones, and without the probe the
  job's own first stage pays that instead);
- installed: the same workers with the shim importable from this checkout (a .pth file in a
  copy of that virtualenv) and PYFLINK_ON_SPARK_SHIP=0: neither.
Runs alternate, round by round. The shipped runs also time their probe: the first job's (on a
cluster it includes waiting for the executors to register, which the job would wait for
otherwise), how many later jobs probed (none should), and one more probe after the jobs, on
ready executors. Also timed in this process: building the zip from nothing (once per
version of the checkout) and finding it in the cache.
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
import json, os, sys, time
from pyflink_on_spark.common import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
import io, contextlib

from pyspark import SparkContext
from pyflink_on_spark.spark import package_shipping
from pyflink_on_spark.spark.session import get_session

probes = []          # how long each probe of the executors' Python took, in the jobs
_probe = package_shipping.probe_workers


def timed_probe(context):
    start = time.perf_counter()
    try:
        return _probe(context)
    finally:
        probes.append(time.perf_counter() - start)


def stub(context):
    python, platform = package_shipping._driver_python()
    return {"python": python, "platform": platform, "packages": {}}


package_shipping.probe_workers = stub if os.environ.get("PROBE_STUB") else timed_probe
start = time.perf_counter()
get_session()        # started apart: the first job's time is the job's own
print("SESSION " + json.dumps(time.perf_counter() - start))
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
warm = None
if probes:           # one more, on executors that are up
    start = time.perf_counter()
    _probe(SparkContext._active_spark_context)
    warm = time.perf_counter() - start
print("PROBES " + json.dumps({"in_jobs": probes, "warm": warm}))
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


def _run(job: str, jobs: int, worker_python: str, ship: bool, cluster=None,
         stub: bool = False) -> tuple:
    """The job's times, its probes' (PROBES in JOB) and its session's start."""
    env = cluster.env() if cluster is not None else dict(
        os.environ, PYFLINK_ON_SPARK_MASTER="local[2]")
    env.update(PYSPARK_PYTHON=worker_python, PYTHONPATH=REPO)
    env.pop("PROBE_STUB", None)
    if stub:
        env["PROBE_STUB"] = "1"
    env["PYFLINK_ON_SPARK_SHIP"] = "1" if ship else "0"
    proc = subprocess.run([sys.executable, job, str(jobs)], capture_output=True, text=True,
                          env=env, timeout=600)
    found = {line.split(" ", 1)[0]: json.loads(line.split(" ", 1)[1])
             for line in proc.stdout.splitlines()
             if line.startswith(("TIMES ", "PROBES ", "SESSION "))}
    if proc.returncode != 0 or len(found) != 3:
        raise SystemExit("the job failed:\n" + proc.stderr[-3000:])
    return [found["SESSION"]] + found["TIMES"], found["PROBES"]


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--pairs", type=int, default=3)
    p.add_argument("--jobs", type=int, default=4)
    p.add_argument("--cluster", action="store_true",
                   help="on a standalone cluster of two 1-core workers, not local[2]")
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
        cluster = None
        if args.cluster:
            from pyflink_on_spark.spark.tests.standalone_cluster import start_cluster
            cluster = start_cluster(workers=2)
        shipped, unprobed, local, probes = [], [], [], []
        try:
            for _ in range(args.pairs):
                times, probed = _run(job, args.jobs, bare, True, cluster)
                shipped.append(times)
                probes.append(probed)
                unprobed.append(_run(job, args.jobs, bare, True, cluster, stub=True)[0])
                local.append(_run(job, args.jobs, installed, False, cluster)[0])
        finally:
            if cluster is not None:
                cluster.stop()
    m = statistics.median

    def row(what, pick, digits):
        s_, u_, i_ = ([pick(run) for run in runs] for runs in (shipped, unprobed, local))
        cells = [m(s_), m(u_), m(i_), m(a - b for a, b in zip(s_, i_)),
                 m(a - b for a, b in zip(s_, u_))]
        print(("| %s |" % what) + "".join(" %.*f |" % (digits, c) if n < 3 else
                                           " %+.*f |" % (digits, c)
                                           for n, c in enumerate(cells)))

    print("Shipping the shim on %s, %d rounds of fresh processes, %d jobs each, load average "
          "%.1f" % ("a standalone cluster" if args.cluster else "local[2]", args.pairs,
                    args.jobs, os.getloadavg()[0]))
    print()
    print("| | shipped s | shipped, probe stubbed s | shim installed on the workers s | "
          "shipping adds s | the probe adds s |")
    print("|---|---|---|---|---|---|")
    row("the session's start (median)", lambda run: run[0], 2)
    row("first job (median)", lambda run: run[1], 2)
    row("later jobs (median)", lambda run: m(run[2:]), 3)
    print()
    print("The probe of the executors' Python: %.3f s in the first job (median), %.3f s on "
          "ready executors; later jobs probed %d times in all." % (
              m(p["in_jobs"][0] for p in probes), m(p["warm"] for p in probes),
              sum(len(p["in_jobs"]) - 1 for p in probes)))
    print()
    print("Building the zip from nothing: %.2f s (once per version of the checkout); found "
          "in the cache: %.3f s." % (build_s, cached_s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
