"""The standalone-cluster fixture (standalone_cluster.py) is what issue 38 needs: a real Spark
cluster whose executors run a Python with PySpark and nothing of ours, so that a job that
passes on it would pass on any Spark as it is; and the shim's own jobs run on it."""
import importlib.util
import json
import os
import select
import subprocess
import sys
import time
from importlib import metadata

import pytest

import pyflink_on_spark
from pyflink_on_spark.spark.tests import standalone_cluster as sc_module
from pyflink_on_spark.spark.tests.standalone_cluster import (
    BARE_MUST_IMPORT, BARE_MUST_NOT_IMPORT, Cluster, probe_python, start_cluster,
    with_class_sharing)

CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(pyflink_on_spark.__file__)))

# Plain PySpark, nothing of ours: where each task's Python ran, and what it could import.
PLAIN_JOB = r'''
import importlib.util, json, os, sys, time
from pyspark.sql import SparkSession

spark = (SparkSession.builder.master(sys.argv[1]).appName("plain-pyspark")
         .config("spark.driver.host", "127.0.0.1").config("spark.ui.enabled", "false")
         .config("spark.executor.cores", "1").config("spark.executor.memory", "512m")
         .getOrCreate())
sc = spark.sparkContext
# both executors registered before the tasks are scheduled, or the first takes them all
# (the driver is among the executor infos too)
deadline = time.time() + 120
while len(sc._jsc.sc().statusTracker().getExecutorInfos()) < 3 and time.time() < deadline:
    time.sleep(0.2)

def where(_):
    time.sleep(0.5)   # a task each at once on both executors
    return {"executable": sys.executable, "prefix": sys.prefix, "pid": os.getpid(),
            "cwd": os.getcwd(),
            "has_shim": importlib.util.find_spec("pyflink_on_spark") is not None}

print(json.dumps(sc.parallelize(range(4), 4).map(where).collect()))
spark.stop()
'''

def _run_client(args, cluster: Cluster, tmp_path, cwd):
    # the plain driver maps the shim's class-data-sharing archive: JVM options only
    return cluster.run_client(args, str(tmp_path), cwd, env=with_class_sharing(cluster.env()))


def test_the_bare_python_has_pyspark_and_nothing_of_ours(bare_python):
    seen = probe_python(bare_python, BARE_MUST_IMPORT + BARE_MUST_NOT_IMPORT)
    for name in BARE_MUST_IMPORT:
        assert seen["imports"][name] is None, seen
    for name in BARE_MUST_NOT_IMPORT:
        assert (seen["imports"][name] or "").startswith("ModuleNotFoundError"), seen
    assert os.path.realpath(seen["prefix"]) != os.path.realpath(sys.prefix)
    assert not seen["user_site"]
    # not for want of them: the interpreter running the tests has them
    for name in ("pyflink_on_spark", "cloudpickle", "rocksdict"):
        assert importlib.util.find_spec(name) is not None, name


def test_a_python_with_one_of_ours_is_not_taken_for_bare(tmp_path):
    dists = sc_module._bare_distributions() + [metadata.distribution("cloudpickle")]
    with pytest.raises(RuntimeError, match="imports cloudpickle, which it must not have"):
        sc_module._build_bare(str(tmp_path / "venv"), dists)


def test_a_plain_pyspark_job_runs_on_both_workers_with_the_bare_python(
        standalone_cluster, tmp_path):
    cluster = standalone_cluster
    assert cluster.alive_workers() == 2
    started = time.monotonic()
    code, out, err = _run_client([sys.executable, "-c", PLAIN_JOB, cluster.master_url],
                                 cluster, tmp_path, cwd=str(tmp_path))
    elapsed = time.monotonic() - started
    assert code == 0, "%s\n%s" % (err[-3000:], cluster.executor_log_tails())
    tasks = json.loads(out.strip().splitlines()[-1])
    assert len(tasks) == 4
    assert {t["executable"] for t in tasks} == {cluster.bare_python}, tasks
    assert {os.path.realpath(t["prefix"]) for t in tasks} == {
        os.path.realpath(os.path.dirname(os.path.dirname(cluster.bare_python)))}, tasks
    assert not any(t["has_shim"] for t in tasks), tasks
    # each worker's executor ran tasks, in its work directory: the cluster's, not local mode
    used = {next((w for w in cluster.work_dirs
                  if os.path.realpath(t["cwd"]).startswith(os.path.realpath(w) + os.sep)),
                 t["cwd"]) for t in tasks}
    assert used == set(cluster.work_dirs), (tasks, cluster.work_dirs)
    assert len({t["pid"] for t in tasks}) >= 2, tasks
    print("plain PySpark job on the standalone cluster: %.1f s" % elapsed)


# Holds an executor and its Python workers until it is killed.
HOLDING_JOB = r'''
import sys, time
from pyspark.sql import SparkSession
spark = (SparkSession.builder.master(sys.argv[1]).config("spark.driver.host", "127.0.0.1")
         .config("spark.ui.enabled", "false").config("spark.executor.memory", "512m")
         .getOrCreate())
spark.sparkContext.parallelize([1], 1).map(lambda x: x).collect()
print("ready", flush=True)
time.sleep(600)
'''


def _alive(pid: int) -> bool:
    try:
        with open("/proc/%d/stat" % pid) as f:   # an exited child not yet reaped is a zombie
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _cmdline(pid: int) -> str:
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds processes through /proc")
def test_stop_leaves_no_process_of_the_cluster_behind_while_a_job_holds_executors(tmp_path):
    # the client's driver starts while the worker does (once the master is up, so that the
    # driver registers at once): its JVM start hides the worker's
    cluster = start_cluster(workers=1, wait_for_workers=False)
    client = None
    err_path = tmp_path / "client.err"
    try:
        with open(err_path, "w") as err:
            client = subprocess.Popen(
                [sys.executable, "-c", HOLDING_JOB, cluster.master_url],
                env=with_class_sharing(cluster.env()),
                stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL, text=True)
        cluster.wait_for_workers()
        ready, _, _ = select.select([client.stdout], [], [], sc_module.CLIENT_TIMEOUT_S)
        assert ready and client.stdout.readline().strip() == "ready", (
            err_path.read_text()[-3000:], cluster.executor_log_tails())
        daemons = [d.process.pid for d in cluster._daemons]
        inside = sc_module._processes_inside(cluster.root)
        running = [_cmdline(pid) for pid in inside]
        # the executor's JVM and its Python workers (a process group of their own) are
        # there to be ended
        assert any("CoarseGrainedExecutorBackend" in c for c in running), running
        assert any("pyspark.daemon" in c for c in running), running
    finally:
        cluster.stop()
        if client is not None:
            client.kill()
            client.wait()
    left = [(pid, _cmdline(pid)) for pid in daemons + inside if _alive(pid)]
    assert left == [], left
    assert not os.path.exists(cluster.root)
