"""The configuration directories of Spark Connect servers (spark/connect_server.py): removed
when the server is stopped, or, for a server that is gone, when the next one starts."""
import os
import subprocess
import time

from pyflink_on_spark.spark.connect_server import (CONF_PREFIX, ServerInfo,
                                                   remove_orphaned_conf_dirs, stop_server)

DEAD_PID = 2 ** 22 + 12345   # above Linux's pid_max default: never a live process


def _conf_dir(root, name, pid=None, age_s=0.0):
    path = root / (CONF_PREFIX + name)
    path.mkdir()
    (path / "log4j2.properties").write_text("")
    if pid is not None:
        (path / "server.pid").write_text(str(pid))
    if age_s:
        then = time.time() - age_s
        os.utime(path, (then, then))
    return path


def test_stopping_a_server_removes_its_directory(tmp_path):
    conf = _conf_dir(tmp_path, "stopped")
    process = subprocess.Popen(["sleep", "60"], start_new_session=True)
    stop_server(ServerInfo(pid=process.pid, port=1, log="", conf_dir=str(conf)), timeout_s=5)
    assert process.poll() is not None
    assert not conf.exists()


def test_directories_of_servers_that_are_gone_are_removed(tmp_path):
    gone = _conf_dir(tmp_path, "gone", pid=DEAD_PID)
    running = _conf_dir(tmp_path, "running", pid=os.getpid())
    legacy_old = _conf_dir(tmp_path, "legacy-old", age_s=2 * 24 * 3600)
    legacy_new = _conf_dir(tmp_path, "legacy-new")
    other = tmp_path / "something-else"
    other.mkdir()
    assert remove_orphaned_conf_dirs(str(tmp_path)) == 2
    assert not gone.exists() and not legacy_old.exists()
    assert running.exists() and legacy_new.exists() and other.exists()
