"""A job run as users run it (`pyflink-on-spark run job.py` on a local master), attacked
while it runs: its processes (the driver, its JVM, the Python workers) listen on the loopback
only, and an unauthenticated pickle sent to every TCP port they listen on runs no code and
leaves the job's output unchanged. With Spark's own authentication and encryption on, the job
opens no port of its own (spark/driver_channel.py spark_guards_its_network); with
SPARK_REMOTE=local, pyspark's Connect server in the client process and its Spark listen on the
loopback too (spark/session.py LOCAL_CONNECT_SETTINGS)."""
import contextlib
import os
import pickle
import socket
import stat
import struct
import subprocess
import sys
import time

import pytest

from pyflink_on_spark.spark.tests.local_connect import one_local_connect_server
from pyflink_on_spark.tests.processes import listeners

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))

# a map that holds the job until the test lets it go, so that it is attacked mid-run
HELD_JOB = '''
import os, time
from pyflink.datastream import StreamExecutionEnvironment


def hold(x):
    open(os.environ["HELD_JOB_STARTED"], "w").close()
    deadline = time.time() + 120
    while not os.path.exists(os.environ["HELD_JOB_FLAG"]) and time.time() < deadline:
        time.sleep(0.05)
    return x * 10


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection([1, 2, 3]).map(hold).print()
env.execute("held")
'''


class _Marker:
    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def _attack(port: int, marker: str) -> None:
    """What an attacker on the network would send: a length, then a pickle that runs code."""
    data = pickle.dumps(_Marker(marker))
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
            conn.sendall(struct.pack("!I", len(data)) + data)
            conn.settimeout(2)
            try:
                conn.recv(1024)
            except OSError:
                pass
    except OSError:
        pass


def _private_to_us(path: str) -> bool:
    info = os.stat(os.path.dirname(path))
    return info.st_uid == os.getuid() and not info.st_mode & (stat.S_IRWXG | stat.S_IRWXO)


def _run_held(tmp_path, extra_args, remote=None):
    script = tmp_path / "held_job.py"
    script.write_text(HELD_JOB)
    flag, started = tmp_path / "go", tmp_path / "started"
    env = dict(os.environ, HELD_JOB_FLAG=str(flag), HELD_JOB_STARTED=str(started),
               PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("SPARK_REMOTE", None)
    if remote is not None:
        env["SPARK_REMOTE"] = remote
    env["PYFLINK_ON_SPARK_STATE_DIR"] = str(tmp_path / "state")   # no `serve` to find
    proc = subprocess.Popen([sys.executable, "-m", "pyflink_on_spark.cli.main", "run"]
                            + extra_args + [str(script)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=str(tmp_path))
    return proc, flag, started


def _wait_for(path, proc, seconds=180.0):
    deadline = time.monotonic() + seconds
    while not path.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            out, err = proc.communicate()
            pytest.fail("the job did not reach its map: %s" % err[-3000:])
        time.sleep(0.05)


@pytest.mark.parametrize("extra_args,remote,own_port", [
    ([], None, True),
    (["--conf", "spark.authenticate=true", "--conf", "spark.authenticate.secret=s3cret-of-test",
      "--conf", "spark.network.crypto.enabled=true"], None, False),
    # pyspark's own Connect server inside the client process (its port, its Spark UI)
    ([], "local", False),
], ids=["plain", "spark-auth-and-crypto", "spark-remote-local"])
def test_a_running_job_listens_on_loopback_only_and_a_strangers_pickle_runs_nothing(
        tmp_path, extra_args, remote, own_port):
    marker = str(tmp_path / "pwned")
    with one_local_connect_server() if remote == "local" else contextlib.nullcontext():
        proc, flag, started = _run_held(tmp_path, extra_args, remote)
        try:
            _wait_for(started, proc)
            found = listeners(proc.pid)
            assert found, "the job's processes listen on nothing?"
            assert [l for l in found if not l.loopback] == []
            named = [l.address for l in found
                     if l.kind == "unix" and l.address.startswith("/")]
            assert [path for path in named if not _private_to_us(path)] == []
            if remote is None:
                # the driver channel is the only port of the job's Python driver, if any
                driver_ports = [l for l in found if l.pid == proc.pid and l.kind == "tcp"]
                assert len(driver_ports) == (1 if own_port else 0)
            for listener in found:
                if listener.kind == "tcp":
                    _attack(listener.port, marker)
        finally:
            flag.write_text("")
        out, err = proc.communicate(timeout=180)
    assert proc.returncode == 0, err[-3000:]
    assert out == "10\n20\n30\n"
    assert not os.path.exists(marker)
    if own_port:
        assert "the driver channel refused 1 connection(s)" in err
