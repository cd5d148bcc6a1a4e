"""An unbounded job on a Spark standalone cluster whose executors have nothing of ours, its
input, checkpoints and FileSink output on shared object storage (an S3-API server:
spark/tests/s3_server.py says why S3), the way a team runs it: its driver killed with SIGKILL
mid-batch and restarted, and an executor JVM killed mid-batch (Spark starts another and runs
the lost tasks again). The FileSink output equals an uninterrupted run's on a local Spark, byte
for byte."""
import concurrent.futures
import json
import os
import signal
import subprocess
import sys
import time

from pyflink_on_spark.spark.class_cache import CLASS_CACHE_ENV, class_cache_for
from pyflink_on_spark.spark.streaming.faults import FAULT_ENV, WORKER_FAULT_ENV
from pyflink_on_spark.spark.streaming.tests.test_streaming_recovery import (
    JOB, _file_lines, _parts, _run_stream)
from pyflink_on_spark.spark.tests.s3_server import CHECKSUM_ENV

N_FILES = 3
DRIVER_KILL = (1, "mid_batch")   # (file, kill point): the driver dies in that file's batch
EXECUTOR_KILL = 2                # the file whose batch loses an executor
START_TIMEOUT = 300              # a cold driver and two executors on a loaded 2-core machine
BATCH_TIMEOUT = 180              # a lost executor: a new one starts before the batch ends


class Run:
    """One run of the job: its paths on the store and its driver processes."""

    def __init__(self, cluster, s3, tmp, name: str):
        self.cluster, self.s3, self.fs = cluster, s3, s3.filesystem()
        self.bucket = name
        s3.create_bucket(name)
        self.local = os.path.join(str(tmp), name)
        os.makedirs(self.local)
        self.uri = {d: "s3a://%s/%s" % (name, d) for d in ("in", "out", "ckpt")}
        self.driver_trigger = os.path.join(self.local, "kill-the-driver-now")
        self.executor_trigger = os.path.join(self.local, "kill-an-executor-now")
        self.drivers = []

    def start(self, driver_fault=None, executor_fault=False) -> subprocess.Popen:
        env = self.cluster.env()
        conf = self.s3.spark_conf()
        if executor_fault:
            conf.append(("spark.executorEnv." + WORKER_FAULT_ENV,
                         "executor:" + self.executor_trigger))
        env["PYFLINK_ON_SPARK_CONF"] = "\n".join(
            [env["PYFLINK_ON_SPARK_CONF"]] + ["%s=%s" % kv for kv in conf])
        env.update(CHECKSUM_ENV)
        env.pop(FAULT_ENV, None)
        if not _archive_to_map(dict(conf)["spark.driver.extraClassPath"]):
            env[CLASS_CACHE_ENV] = "0"
        if driver_fault is not None:
            env[FAULT_ENV] = "%s:%s" % (driver_fault, self.driver_trigger)
        log = open(os.path.join(self.local, "driver-%d.log" % time.monotonic_ns()), "w")
        self.drivers.append(subprocess.Popen(
            [sys.executable, "-m", "pyflink_on_spark.cli.main", "run", JOB,
             self.uri["in"], self.uri["out"], self.uri["ckpt"], "stream", "hashmap", "2"],
            env=env, stdout=log, stderr=subprocess.STDOUT, cwd=self.local,
            stdin=subprocess.DEVNULL))
        return self.drivers[-1]

    def kill_drivers(self) -> None:
        for proc in self.drivers:
            if proc.poll() is None:
                proc.kill()
                proc.wait()

    def key(self, uri: str) -> str:
        return uri[len("s3a://"):]

    def add_file(self, f: int) -> None:
        # one PUT: the file appears whole
        with self.fs.open_output_stream(self.key(self.uri["in"]) + "/f%02d.txt" % f) as out:
            out.write(("\n".join(_file_lines(f)) + "\n").encode())

    def _files(self, uri: str):
        from pyarrow import fs as pafs
        selector = pafs.FileSelector(self.key(uri), recursive=True, allow_not_found=True)
        return [i.path for i in self.fs.get_file_info(selector) if i.type == pafs.FileType.File]

    def batch_that_read(self, name: str):
        """The batch id whose source record names the file (the job's checkpointed reads)."""
        for path in self._files(self.uri["ckpt"] + "/state/sources"):
            batch = path.rsplit("/", 1)[1]
            if batch.isdigit():
                with self.fs.open_input_stream(path) as f:
                    if any(p.endswith("/" + name) for p, _ in json.loads(f.read())):
                        return int(batch)
        return None

    def completed(self, batch: int) -> bool:
        from pyarrow import fs as pafs
        path = self.key(self.uri["ckpt"]) + "/state/v%d/_COMPLETED" % batch
        return self.fs.get_file_info(path).type == pafs.FileType.File

    def wait_processed(self, proc, f: int, timeout: float) -> bool:
        """Waits until the batch that read file f completed; False if the driver died."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            batch = self.batch_that_read("f%02d.txt" % f)
            if batch is not None and self.completed(batch):
                return True
            if proc.poll() is not None:
                return False
            time.sleep(0.2)
        raise AssertionError("file %d was not processed within %d s:\n%s\n%s" % (
            f, timeout, self.driver_logs(), self.cluster.executor_log_tails()))

    def driver_logs(self) -> str:
        return "\n".join(open(os.path.join(self.local, n), errors="replace").read()[-3000:]
                         for n in sorted(os.listdir(self.local)) if n.endswith(".log"))

    def parts(self):
        """The contents of every published part file (hidden staging files left out)."""
        out = self.key(self.uri["out"])
        files = [p for p in self._files(self.uri["out"]) if "/." not in p[len(out):]]
        contents = []
        for path in files:
            with self.fs.open_input_stream(path) as f:
                contents.append(f.read())
        return sorted(contents)

    def stop(self, proc) -> None:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=120) == 128 + signal.SIGTERM, self.driver_logs()


def _archive_to_map(driver_class_path: str) -> bool:
    """Whether the drivers' class path has a finished class-data-sharing archive
    (spark/class_cache.py) to map. The s3a jars make a class path of its own, so an archive
    of its own: without this, the first of these drivers that exits normally (the restarted
    one, at the stop) writes one at its exit (~190 MB, ~60 CPU-s on the 2-core machine,
    which stop() waits for) that only a later run of this test on the same Spark install
    could map, never a CI run (a fresh install each time). So they map one when there is
    one, and write none."""
    from pyflink_on_spark.spark.session import java_binary
    from pyflink_on_spark.spark.tests.standalone_cluster import spark_home
    cache = class_cache_for(java_binary(), spark_home(), driver_class_path)
    return cache is not None and os.path.exists(cache.archive)


def _executors_started(cluster) -> int:
    """Executors the workers have started for every application so far."""
    return sum(len(os.listdir(os.path.join(w, app))) for w in cluster.work_dirs
               if os.path.isdir(w) for app in os.listdir(w))


def test_a_driver_and_an_executor_killed_mid_batch_on_a_cluster_lose_and_duplicate_nothing(
        s3_server, standalone_cluster, tmp_path):
    # s3_server first: its JVM starts while the cluster's do (it is ready at its first use)
    # the uninterrupted run on a local Spark over local files, one file per batch as below:
    # the same job gives the same bytes anywhere (and a third cluster driver would cost ~40 s).
    # It runs beside the cluster's: both drivers mostly wait (for JVMs, executors, files).
    local = concurrent.futures.ThreadPoolExecutor(1)
    plain = local.submit(_run_stream, tmp_path, "plain", n_files=N_FILES)

    killed = Run(standalone_cluster, s3_server, tmp_path, "killed")
    try:
        kill_file, kill_point = DRIVER_KILL
        proc = killed.start(driver_fault=kill_point, executor_fault=True)
        for f in range(N_FILES):
            if f == kill_file:
                open(killed.driver_trigger, "w").close()
            if f == EXECUTOR_KILL:
                executors_before = _executors_started(standalone_cluster)
                open(killed.executor_trigger, "w").close()
            killed.add_file(f)
            done = killed.wait_processed(proc, f, START_TIMEOUT if f == 0 else BATCH_TIMEOUT)
            if f == kill_file:
                assert not done, "the batch completed although its driver was to die"
                assert proc.wait(timeout=BATCH_TIMEOUT) == -signal.SIGKILL, killed.driver_logs()
                os.remove(killed.driver_trigger)
                proc = killed.start(executor_fault=True)   # the same checkpoint directory
                assert killed.wait_processed(proc, f, START_TIMEOUT), killed.driver_logs()
            if f == EXECUTOR_KILL:
                assert done, killed.driver_logs()
                # an executor took the trigger and died; the master started a new one
                assert not os.path.exists(killed.executor_trigger)
                assert _executors_started(standalone_cluster) > executors_before
        killed.stop(proc)
    finally:
        killed.kill_drivers()   # a failed run leaves no driver (and its JVM) behind

    plain_out, _ = plain.result(timeout=START_TIMEOUT)
    local.shutdown()
    expected = _parts(plain_out)
    lines = [line for p in expected for line in p.decode().splitlines()]
    assert len(lines) > N_FILES * 11   # running sums, timers and sessions of every file
    assert {line.split(",")[0] for line in lines} == {"sum", "timer", "session"}
    assert killed.parts() == expected
    # the killed driver's staging directory went at the restart, the last one at the stop
    assert not [p for p in killed._files(killed.uri["out"]) if "/." in p]
