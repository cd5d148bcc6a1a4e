"""A local Spark Connect server started from the pip pyspark (its jars ship the server:
org.apache.spark.sql.connect.service.SparkConnectServer), for `pyflink-on-spark serve` (kept
running between jobs, so a job skips JVM start and Spark's warm-up) and for the tests.

The server's Python workers run this interpreter with this package importable, as a Spark
started in-process would. Its state (pid, port, token) is a small JSON file in the user's
state directory, readable by the user only; `run` finds the server there.

Spark Connect runs whatever Python a client sends, as the user who started the server, so the
server listens on loopback unless told otherwise and always requires a token (Spark's
pre-shared key: the client sends it as a bearer token). pyspark's client sends a token to
`localhost` over gRPC's local credentials, to any other host only over TLS: the URL clients
use names `localhost`.
"""
from __future__ import annotations

import ipaddress
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from dataclasses import asdict, dataclass, fields
from typing import Dict, Optional

from pyflink_on_spark.codecs.files.staging import process_alive
from pyflink_on_spark.private_files import (ensure_owned, makedirs_private, open_private,
                                            private_dir)
from pyflink_on_spark.spark.temp_dirs import remove_left_behind, untouched_for

SERVER_CLASS = "org.apache.spark.sql.connect.service.SparkConnectServer"
START_TIMEOUT_S = 180.0     # a cold JVM on a busy 2-core machine
STATE_ENV = "PYFLINK_ON_SPARK_STATE_DIR"
# Spark's Connect server reads its token from spark.connect.authenticate.token, else from this
# variable (Connect$.getAuthenticateToken); pyspark's client reads it too. The server gets it
# in its environment, which other users cannot read, not on its command line, which `ps`
# shows everyone.
TOKEN_ENV = "SPARK_CONNECT_AUTHENTICATE_TOKEN"
TOKEN_KEY = "spark.connect.authenticate.token"
BINDING_ADDRESS_KEY = "spark.connect.grpc.binding.address"
LOOPBACK = "127.0.0.1"
DEFAULT_CONNECT_PORT = 15002   # pyspark's, for a URL without a port
_WILDCARDS = ("", "*", "0.0.0.0", "::", "[::]")


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
    # The token it requires. "" in the state file of an earlier version: a server that
    # requires none and listens on every interface, which `run` must not use.
    token: str = ""
    host: str = ""       # the address it listens on; "" (earlier versions): every interface

    @property
    def url(self) -> str:
        """The URL to show: without the token (authenticated_url adds it when connecting)."""
        url = "sc://localhost:%d" % self.port
        return url + "/;session_id=" + self.session_id if self.session_id else url


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or an address, IPv6 ones in brackets or not) is this machine's
    loopback only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def answers_localhost(host: str) -> bool:
    """Whether a server listening on `host` answers at localhost (its loopback, or every
    interface), where clients on this machine connect."""
    return host in _WILDCARDS or is_loopback(host)


def state_dir() -> str:
    """$PYFLINK_ON_SPARK_STATE_DIR, else $XDG_STATE_HOME/pyflink-on-spark, else
    ~/.local/state/pyflink-on-spark."""
    if os.environ.get(STATE_ENV):
        return os.environ[STATE_ENV]
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                             "state")
    return os.path.join(base, "pyflink-on-spark")


def state_file() -> str:
    """The file naming the server `serve` started (its pid, port and token)."""
    return os.path.join(state_dir(), "serve.json")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _probe_address(host: str) -> str:
    """Where to try a server listening on `host`: loopback for every interface."""
    return LOOPBACK if host in _WILDCARDS else host.strip("[]")


def _accepting(port: int, host: str = LOOPBACK) -> bool:
    try:
        with socket.create_connection((_probe_address(host), port), timeout=0.5):
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
    if os.environ.get("SPARK_CONF_DIR"):
        env["SPARK_CONF_DIR"] = conf_dir
    else:
        # Spark's default (SPARK_HOME/conf), which starts the class path as a local session's
        # does: the class-data-sharing archive needs the same class path (_server_java);
        # the log configuration is named by a system property instead
        env.pop("SPARK_CONF_DIR", None)
    for name in ("SPARK_REMOTE", "SPARK_CONNECT_MODE_ENABLED", "SPARK_API_MODE"):
        env.pop(name, None)
    return env


def start_server(port: Optional[int] = None, master: Optional[str] = None,
                 conf: Optional[Dict[str, str]] = None, log_path: Optional[str] = None,
                 verbose: bool = False, host: Optional[str] = None) -> ServerInfo:
    """Starts a server in the background (its own process group: it outlives this process)
    and waits until it accepts connections. It listens on `host` (else the conf's
    spark.connect.grpc.binding.address, else loopback) and requires a token: the conf's
    spark.connect.authenticate.token, else a new random one."""
    from pyflink_on_spark.spark.session import DEFAULT_MASTER, check_java, \
        is_local_master, local_defaults, local_master_settings, write_log_config
    check_java()
    port = port or free_port()
    master = master or DEFAULT_MASTER
    remove_orphaned_conf_dirs()
    conf_dir = tempfile.mkdtemp(prefix=CONF_PREFIX)
    write_log_config(conf_dir, verbose)
    # the server's worker sockets live with its configuration (a local master's only: a
    # cluster's executors run on other machines), and its shuffle stays on this machine
    sockets = local_master_settings(master, lambda: conf_dir)
    settings = {**local_defaults(), **sockets, **(conf or {})}
    java_options = _server_java(settings, conf_dir)
    if java_options:
        settings["spark.driver.extraJavaOptions"] = java_options
    token = settings.pop(TOKEN_KEY, "") or secrets.token_urlsafe(32)
    host = host or settings.get(BINDING_ADDRESS_KEY) or LOOPBACK
    settings[BINDING_ADDRESS_KEY] = host
    settings["spark.connect.grpc.binding.port"] = str(port)
    command = [os.path.join(_spark_home(), "bin", "spark-submit"), "--class", SERVER_CLASS,
               "--name", "pyflink-on-spark connect server", "--master", master]
    for key, value in settings.items():
        command += ["--conf", "%s=%s" % (key, value)]
    env = _server_env(conf_dir)
    env[TOKEN_ENV] = token
    if is_local_master(master):
        # A local master's driver serves only this machine. Spark binds its UI (if turned
        # on) to SPARK_LOCAL_IP, else every interface, and its RPC and block manager to the
        # address of the machine's name unless SPARK_LOCAL_IP (or spark.driver.bindAddress,
        # which local_master_settings sets) says otherwise.
        env.setdefault("SPARK_LOCAL_IP", LOOPBACK)
    if log_path is None:
        log_path = os.path.join(conf_dir, "server.log")
    with open_private(log_path, "ab") as log:
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    with open(os.path.join(conf_dir, _PID_FILE), "w") as f:
        f.write(str(process.pid))
    info = ServerInfo(pid=process.pid, port=port, log=log_path, conf_dir=conf_dir,
                      token=token, host=host)
    deadline = time.monotonic() + START_TIMEOUT_S
    while not _accepting(port, host):
        if process.poll() is not None:
            raise ConnectServerError("the Spark Connect server exited while starting (code "
                                     "%s); its log: %s" % (process.returncode, log_path))
        if time.monotonic() > deadline:
            _end_process_group(info.pid, 30.0)   # its directory (and log) stays to read
            raise ConnectServerError("the Spark Connect server did not open port %d within "
                                     "%d s; its log: %s" % (port, START_TIMEOUT_S, log_path))
        time.sleep(0.2)
    return info


def _server_java(settings: Dict[str, str], conf_dir: str) -> str:
    """The server JVM's options: its log configuration (unless SPARK_CONF_DIR holds it,
    _server_env) and the class-data-sharing archive of a local session's driver JVM
    (spark/class_cache.py), mapped when there is one (never written here: the server is
    stopped by a signal, and killed when slow to stop). Measured on the 2-core machine: a
    session's start and first job took 21 s of JVM CPU without the archive, 10 s with it."""
    from pyflink_on_spark.spark.session import driver_class_cache, log_config_option
    java_options = settings.get("spark.driver.extraJavaOptions", "")
    if os.environ.get("SPARK_CONF_DIR"):
        return java_options
    java_options = log_config_option(java_options, conf_dir)
    cache = driver_class_cache(settings)
    if cache is None or any(flag in java_options for flag in _CDS_FLAGS):
        return java_options
    return ("%s %s" % (java_options, cache.mapping_options())).strip()


_CDS_FLAGS = ("SharedArchiveFile", "ArchiveClassesAtExit", "-Xshare")


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


def private_state_dir() -> str:
    """state_dir(), made if missing (0700: the server's token and log are in it). The
    default directory, ours alone, is made private if an earlier version left it open; a
    directory the user named is only checked to be theirs and not a symlink (it may hold
    other things), and the token in it is private either way (save_served)."""
    path = state_dir()
    if os.environ.get(STATE_ENV):
        makedirs_private(path)
        ensure_owned(path, "the state directory")
        return path
    return private_dir(path, "the state directory")


def save_served(info: ServerInfo) -> str:
    """Writes the state file (with the token: readable and writable by the user only; a
    symlink or another user's file in its place is refused)."""
    private_state_dir()
    path = state_file()
    with open_private(path, "w") as f:
        json.dump(asdict(info), f)
    return path


def _saved() -> Optional[ServerInfo]:
    """The state file's server, running or not; None without a readable state file."""
    try:
        with open(state_file()) as f:
            saved = json.load(f)
        known = {field.name for field in fields(ServerInfo)}
        # a field a later version added is no reason to lose track of its server
        return ServerInfo(**{k: v for k, v in saved.items() if k in known})
    except (OSError, ValueError, TypeError, AttributeError):
        return None


def running_served() -> Optional[ServerInfo]:
    """The server `serve` started, if it is still running and accepting connections, with
    or without a token (`serve --stop` stops either)."""
    info = _saved()
    if info is None or not process_alive(info.pid) or not _accepting(info.port, info.host):
        return None
    return info


def served() -> Optional[ServerInfo]:
    """The server `serve` started, if it is running, accepting connections and requires a
    token: one an earlier version started requires none and listens on every interface, so
    nothing here uses it (unauthenticated_served says so)."""
    info = running_served()
    return info if info is not None and info.token else None


def unauthenticated_served() -> Optional[str]:
    """What to tell the user about a running server that an earlier version started without
    a token; None if there is none."""
    info = running_served()
    return unauthenticated_note(info) if info is not None and not info.token else None


def unauthenticated_note(info: ServerInfo) -> str:
    """What to tell the user about `info`, a server an earlier version started without a
    token."""
    return ("the Spark Connect server on port %d (pid %d) was started by an earlier "
            "pyflink-on-spark: it requires no token and listens on every interface, so "
            "anyone who can reach it can run code as you. Stop it with `pyflink-on-spark "
            "serve --stop`, then start a new one with `pyflink-on-spark serve`"
            % (info.port, info.pid))


def authenticated_url(url: str) -> str:
    """The URL to connect to `url` with: when `url` names the server `serve` started (this
    machine, its port) and carries no token, and $SPARK_CONNECT_AUTHENTICATE_TOKEN does not
    give one, `url` with that server's token, on host `localhost` (pyspark's client sends a
    token to any other name of this machine only over TLS); else `url` unchanged."""
    if not url.startswith("sc://") or os.environ.get(TOKEN_ENV):
        return url
    # pyspark's own parsing (client/core.py DefaultChannelBuilder): http URL, ';' params
    parsed = urllib.parse.urlparse("http" + url[2:])
    params = [p for p in parsed.params.split(";") if p]
    if any(p.split("=", 1)[0] == "token" for p in params) or parsed.path not in ("", "/"):
        return url
    try:
        port = parsed.port or DEFAULT_CONNECT_PORT
    except ValueError:   # not a port: pyspark says so
        return url
    if not parsed.hostname or not is_loopback(parsed.hostname):
        return url
    info = _saved()
    if info is None or not info.token or info.port != port or not process_alive(info.pid):
        return url
    params.append("token=" + urllib.parse.quote(info.token, safe=""))
    return "sc://localhost:%d/;%s" % (port, ";".join(params))


def forget_served() -> None:
    try:
        os.remove(state_file())
    except FileNotFoundError:
        pass
