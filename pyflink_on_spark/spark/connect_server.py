"""A local Spark Connect server started from the pip pyspark (its jars ship the server:
org.apache.spark.sql.connect.service.SparkConnectServer), for `pyflink-on-spark serve` (kept
running between jobs, so a job skips JVM start and Spark's warm-up) and for the tests.

The server's Python workers run this interpreter with this package importable, as a Spark
started in-process would. Its state (pid, port) is a small JSON file in the user's state
directory; `run` finds the server there.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from typing import Dict, Optional

from pyflink_on_spark.codecs.files.staging import process_alive
from pyflink_on_spark.spark.temp_dirs import remove_left_behind, untouched_for

SERVER_CLASS = "org.apache.spark.sql.connect.service.SparkConnectServer"
START_TIMEOUT_S = 180.0     # a cold JVM on a busy 2-core machine
STATE_ENV = "PYFLINK_ON_SPARK_STATE_DIR"


class ConnectServerError(RuntimeError):
    pass


@dataclass(frozen=True)
class ServerInfo:
    pid: int
    port: int
    log: str
    # `serve`: every run joins this one server-side session. Spark starts Python workers per
    # session (the session's id is in their environment), so a new session per run would
    # start and import everything in new workers; one session keeps them warm.
    session_id: str = ""
    conf_dir: str = ""   # its configuration and worker sockets: removed when it is stopped

    @property
    def url(self) -> str:
        url = "sc://localhost:%d" % self.port
        return url + "/;session_id=" + self.session_id if self.session_id else url


def state_dir() -> str:
    """$PYFLINK_ON_SPARK_STATE_DIR, else $XDG_STATE_HOME/pyflink-on-spark, else
    ~/.local/state/pyflink-on-spark."""
    if os.environ.get(STATE_ENV):
        return os.environ[STATE_ENV]
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                             "state")
    return os.path.join(base, "pyflink-on-spark")


def _state_file() -> str:
    return os.path.join(state_dir(), "serve.json")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _accepting(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def _spark_home() -> str:
    import pyspark
    return os.path.dirname(os.path.abspath(pyspark.__file__))


def _server_env(conf_dir: str) -> Dict[str, str]:
    env = dict(os.environ)
    package_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
        __file__))))
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (package_root, env.get("PYTHONPATH", "")) if p)
    env["PYSPARK_PYTHON"] = env.get("PYSPARK_PYTHON") or sys.executable
    env["SPARK_HOME"] = _spark_home()
    env["SPARK_CONF_DIR"] = conf_dir
    for name in ("SPARK_REMOTE", "SPARK_CONNECT_MODE_ENABLED", "SPARK_API_MODE"):
        env.pop(name, None)
    return env


def start_server(port: Optional[int] = None, master: Optional[str] = None,
                 conf: Optional[Dict[str, str]] = None, log_path: Optional[str] = None,
                 verbose: bool = False) -> ServerInfo:
    """Starts a server in the background (its own process group: it outlives this process)
    and waits until it accepts connections."""
    from pyflink_on_spark.spark.session import DEFAULT_MASTER, check_java, local_defaults, \
        local_master_settings, write_log_config
    check_java()
    port = port or free_port()
    remove_orphaned_conf_dirs()
    conf_dir = tempfile.mkdtemp(prefix=CONF_PREFIX)
    write_log_config(conf_dir, verbose)
    # the server's worker sockets live with its configuration (a local master's only: a
    # cluster's executors run on other machines), and its shuffle stays on this machine
    sockets = local_master_settings(master or DEFAULT_MASTER, lambda: conf_dir)
    settings = {**local_defaults(), **sockets, **(conf or {}),
                "spark.connect.grpc.binding.port": str(port)}
    command = [os.path.join(_spark_home(), "bin", "spark-submit"), "--class", SERVER_CLASS,
               "--name", "pyflink-on-spark connect server", "--master",
               master or DEFAULT_MASTER]
    for key, value in settings.items():
        command += ["--conf", "%s=%s" % (key, value)]
    if log_path is None:
        log_path = os.path.join(conf_dir, "server.log")
    with open(log_path, "ab") as log:
        process = subprocess.Popen(command, env=_server_env(conf_dir), stdout=log,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
    with open(os.path.join(conf_dir, _PID_FILE), "w") as f:
        f.write(str(process.pid))
    info = ServerInfo(pid=process.pid, port=port, log=log_path, conf_dir=conf_dir)
    deadline = time.monotonic() + START_TIMEOUT_S
    while not _accepting(port):
        if process.poll() is not None:
            raise ConnectServerError("the Spark Connect server exited while starting (code "
                                     "%s); its log: %s" % (process.returncode, log_path))
        if time.monotonic() > deadline:
            _end_process_group(info.pid, 30.0)   # its directory (and log) stays to read
            raise ConnectServerError("the Spark Connect server did not open port %d within "
                                     "%d s; its log: %s" % (port, START_TIMEOUT_S, log_path))
        time.sleep(0.2)
    return info


def stop_server(info: ServerInfo, timeout_s: float = 30.0) -> None:
    """SIGTERM to the server's process group (Spark's shutdown hooks run), SIGKILL if it is
    still there after `timeout_s`; then its configuration directory goes."""
    if _end_process_group(info.pid, timeout_s) and info.conf_dir:
        shutil.rmtree(info.conf_dir, ignore_errors=True)


def _end_process_group(pid: int, timeout_s: float) -> bool:
    """True once the process has ended."""
    for sig, wait in ((signal.SIGTERM, timeout_s), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(pid, sig)
        except ProcessLookupError:
            return True
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    return True
            except ChildProcessError:   # not our child (serve --stop): poll its pid
                if not process_alive(pid):
                    return True
            time.sleep(0.1)
    return not process_alive(pid)


CONF_PREFIX = "pyflink-on-spark-connect-conf-"
_PID_FILE = "server.pid"
_UNOWNED_CONF_AGE_S = 24 * 3600


def remove_orphaned_conf_dirs(root: Optional[str] = None) -> int:
    """Removes the configuration directories of servers that are gone (a server killed
    without `serve --stop`), and those of earlier versions (without a pid file) a day old;
    how many. 81 of them were in /tmp here."""
    def orphaned(entry) -> bool:
        try:
            with open(os.path.join(entry.path, _PID_FILE)) as f:
                pid = int(f.read().strip())
        except (OSError, ValueError):
            return untouched_for(entry, _UNOWNED_CONF_AGE_S)
        return not process_alive(pid)
    return remove_left_behind(CONF_PREFIX, orphaned, root)


def save_served(info: ServerInfo) -> str:
    os.makedirs(state_dir(), exist_ok=True)
    path = _state_file()
    with open(path, "w") as f:
        json.dump(asdict(info), f)
    return path


def served() -> Optional[ServerInfo]:
    """The server `serve` started, if it is still running and accepting connections."""
    try:
        with open(_state_file()) as f:
            info = ServerInfo(**json.load(f))
    except (OSError, ValueError, TypeError):
        return None
    if not process_alive(info.pid) or not _accepting(info.port):
        return None
    return info


def forget_served() -> None:
    try:
        os.remove(_state_file())
    except FileNotFoundError:
        pass
