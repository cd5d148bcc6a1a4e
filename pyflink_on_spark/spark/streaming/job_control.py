"""Reaching a running unbounded job from another shell (`pyflink-on-spark list`, `cancel`,
`savepoint`, `stop`: Flink's CLI verbs), for jobs this user runs on this machine.

Each unbounded job listens on a Unix socket in a private directory (0700, the user's own:
only the user gets in, as only the user could signal the process): ``<dir>/<job id>.sock``,
beside ``<job id>.json`` describing the job (name, pid, start time, checkpoint directory). A
request is one JSON line and so is its answer; nothing on the socket is a pickle. The files
go when the job ends; those of a process killed with -9 are removed by the next listing.
"""
from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
from concurrent.futures import Future
from dataclasses import asdict, dataclass
from typing import Dict, List, Optional

from pyflink_on_spark import private_files

JOBS_ENV = "PYFLINK_ON_SPARK_JOBS_DIR"     # another directory (tests keep theirs apart)
_MAX_REQUEST = 1 << 16
# a Unix socket's address holds at most 107 bytes of path (sockaddr_un.sun_path, NUL
# included in its 108): deeper directories are reached through /proc (short_socket_name)
_SOCKET_PATH_MAX = 107
_ANSWER_TIMEOUT_S = 3600.0     # a savepoint waits for the running micro-batch to complete


def jobs_dir(directory: Optional[str] = None) -> str:
    """The user's private directory of running jobs' sockets (created 0700): ``directory``,
    else $PYFLINK_ON_SPARK_JOBS_DIR, else one under the temporary directory."""
    named = directory or os.environ.get(JOBS_ENV)
    if named:
        return private_files.private_dir(named, "the jobs directory")
    return private_files.shared_temp_dir("pyflink-on-spark-jobs")


@dataclass(frozen=True)
class JobEntry:
    job_id: str
    name: str
    pid: int
    started_ms: int
    checkpoint_dir: str


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def list_jobs(directory: Optional[str] = None) -> List[JobEntry]:
    """The running jobs, oldest first; entries of processes that are gone are removed."""
    directory = jobs_dir(directory)
    found = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(directory, name)
        try:
            with open(path) as f:
                entry = JobEntry(**json.load(f))
        except (OSError, ValueError, TypeError):
            continue
        if not _alive(entry.pid):
            for stale in (path, path[:-len(".json")] + ".sock"):
                try:
                    os.remove(stale)
                except OSError:
                    pass
            continue
        found.append(entry)
    return sorted(found, key=lambda e: e.started_ms)


class JobNotFound(LookupError):
    pass


def find_job(wanted: str, directory: Optional[str] = None) -> JobEntry:
    """The running job whose id starts with ``wanted`` (or whose name is ``wanted``)."""
    jobs = list_jobs(directory)
    matches = [j for j in jobs if j.job_id.startswith(wanted.lower())] if wanted else []
    if not matches:
        matches = [j for j in jobs if j.name == wanted]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise JobNotFound("no running job matches %r (`pyflink-on-spark list` shows them)"
                          % wanted)
    raise JobNotFound("%r matches %d running jobs (%s): give more of the job id"
                      % (wanted, len(matches), ", ".join(j.job_id for j in matches)))


@contextlib.contextmanager
def short_socket_name(path: str):
    """A name of the socket file `path` that fits a Unix socket's address: `path` itself,
    or, when it is longer (a jobs directory deep in a home or a test's temporary
    directory), the same file through /proc/self/fd and the opened directory: Linux
    resolves that link to the directory, so bind and connect reach the same file."""
    if len(os.fsencode(path)) <= _SOCKET_PATH_MAX or not os.path.isdir("/proc/self/fd"):
        yield path
        return
    fd = os.open(os.path.dirname(path), os.O_RDONLY | os.O_DIRECTORY)
    try:
        yield "/proc/self/fd/%d/%s" % (fd, os.path.basename(path))
    finally:
        os.close(fd)


def ask_job(entry: JobEntry, verb: str, directory: Optional[str] = None,
            timeout: float = _ANSWER_TIMEOUT_S, **fields) -> Dict:
    """Sends one request to the job; its answer (``{"ok": bool, ...}``)."""
    path = os.path.join(jobs_dir(directory), entry.job_id + ".sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock, short_socket_name(path) as name:
        sock.settimeout(timeout)
        sock.connect(name)
        sock.sendall(json.dumps(dict(fields, verb=verb)).encode() + b"\n")
        answer = _read_line(sock)
    return json.loads(answer.decode())


def _read_line(sock: socket.socket) -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
        if len(data) > _MAX_REQUEST:
            raise ValueError("a control message longer than %d bytes" % _MAX_REQUEST)
    return data


class ControlServer:
    """The job's end of the socket: cancel (stop after the running micro-batch), savepoint,
    stop with a savepoint (``"drain": true``: drained first), status."""

    def __init__(self, entry: JobEntry, stop: threading.Event, savepoints,
                 directory: Optional[str] = None) -> None:
        self.entry = entry
        self.stop = stop
        self.savepoints = savepoints        # savepoint_requests.SavepointRequests
        self.directory = directory
        self._sock: Optional[socket.socket] = None
        self.socket_path = self.entry_path = None

    def start(self) -> "ControlServer":
        directory = jobs_dir(self.directory)
        self.socket_path = os.path.join(directory, self.entry.job_id + ".sock")
        self.entry_path = os.path.join(directory, self.entry.job_id + ".json")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        with short_socket_name(self.socket_path) as name:
            sock.bind(name)
        os.chmod(self.socket_path, 0o600)
        sock.listen(8)
        self._sock = sock
        with private_files.open_private(self.entry_path, "w", encoding="utf-8") as f:
            json.dump(asdict(self.entry), f)
        threading.Thread(target=self._accept, name="pyflink-on-spark job control",
                         daemon=True).start()
        return self

    def close(self) -> None:
        sock, self._sock = self._sock, None
        if sock is not None:
            sock.close()
        for path in (self.entry_path, self.socket_path):
            if path is None:
                continue
            try:
                os.remove(path)
            except OSError:
                pass

    def _accept(self) -> None:
        while self._sock is not None:
            try:
                connection, _ = self._sock.accept()
            except OSError:
                return          # closed: the job ended
            threading.Thread(target=self._answer, args=(connection,), daemon=True).start()

    def _answer(self, connection: socket.socket) -> None:
        with connection:
            try:
                request = json.loads(_read_line(connection).decode())
                answer = self._handle(request)
            except Exception as e:        # a bad request gets an answer, the job goes on
                answer = {"ok": False, "error": "%s: %s" % (type(e).__name__, e)}
            try:
                connection.sendall(json.dumps(answer).encode() + b"\n")
            except OSError:
                pass

    def _handle(self, request: Dict) -> Dict:
        verb = request.get("verb")
        if verb == "status":
            return {"ok": True, "status": "CANCELLING" if self.stop.is_set() else "RUNNING"}
        if verb == "cancel":
            self.stop.set()
            return {"ok": True}
        if verb in ("savepoint", "stop"):
            taken: Future = self.savepoints.ask(request.get("target"),
                                                then_stop=verb == "stop",
                                                drain=verb == "stop" and
                                                bool(request.get("drain")))
            try:
                return {"ok": True, "path": taken.result(timeout=_ANSWER_TIMEOUT_S)}
            except Exception as e:
                return {"ok": False, "error": str(e)}
        return {"ok": False, "error": "unknown request %r" % (verb,)}


def new_entry(job_id: str, name: str, checkpoint_dir: str) -> JobEntry:
    return JobEntry(job_id, name, os.getpid(), int(time.time() * 1000), checkpoint_dir)


def start_control(entry: JobEntry, stop: threading.Event, savepoints,
                  directory: Optional[str] = None) -> Optional[ControlServer]:
    """The job's control socket, listening; None (after one line on stderr) when it cannot
    be made: the job runs, only `pyflink-on-spark list / cancel / savepoint / stop` cannot
    reach it."""
    server = ControlServer(entry, stop, savepoints, directory)
    try:
        return server.start()
    except OSError as e:     # also UnsafePathError: the directory is not the user's
        server.close()
        import sys
        sys.stderr.write("pyflink_on_spark: job control is off for this job (%s); it runs, "
                         "but `pyflink-on-spark list / cancel / savepoint / stop` cannot "
                         "reach it\n" % e)
        return None
