"""Staging directories a crashed run left behind, and the owner marker that tells them apart
from a live job's.

A file sink's parts are written under <base>/.pyflink-on-spark-staging-<token>/ and the
driver removes that directory when the job ends, succeeded or not. A driver killed with
SIGKILL (or a lost machine) cannot: the directory stays. So the driver writes an owner marker
(host, pid, the process's start time) into its staging directory before the job runs, and
every later run into the same base directory removes staging directories whose owner is
gone: same host and the pid is dead or is another process now (start time differs). Another
host's directory is left alone (its owner cannot be checked from here), and so is one without
a marker until it is a day old (a job that has not written its marker yet, or a crash before).
The same on object stores and other remote file systems (the marker is an object there),
except that an unmarked directory is kept: such stores have no directory times.
"""
from __future__ import annotations

import json
import os
import socket
import time
from typing import List, Optional

from pyflink_on_spark.codecs.files import fs
from pyflink_on_spark.codecs.files.fs import is_local, local_path

STAGING_PREFIX = ".pyflink-on-spark-staging-"
OWNER_FILE = "_owner.json"
UNMARKED_MAX_AGE_S = 24 * 3600


def _start_time(pid: int) -> Optional[str]:
    """The process's start time in clock ticks since boot (/proc), None where unknown."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def process_alive(pid: int) -> bool:
    """Whether a process with this pid exists (ours or another user's)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def owner_record() -> dict:
    pid = os.getpid()
    return {"host": socket.gethostname(), "pid": pid, "start": _start_time(pid)}


def claim(staging_dir: str) -> None:
    """Create the staging directory with this process as its owner."""
    with fs.open_write(fs.join(staging_dir, OWNER_FILE)) as f:
        f.write(json.dumps(owner_record()).encode())


def is_abandoned(path: str, now: Optional[float] = None) -> bool:
    """True when the staging directory's owner is certainly gone."""
    try:
        owner = json.loads(fs.read_bytes(fs.join(path, OWNER_FILE)))
    except FileNotFoundError:
        if not is_local(path):
            return False
        try:
            age = (now or time.time()) - os.stat(local_path(path)).st_mtime
        except FileNotFoundError:
            return False
        return age > UNMARKED_MAX_AGE_S
    except (OSError, ValueError):
        return False
    if owner.get("host") != socket.gethostname():
        return False
    pid = int(owner.get("pid", -1))
    if pid <= 0 or not process_alive(pid):
        return True
    started = owner.get("start")
    return started is not None and _start_time(pid) not in (None, started)


def remove_abandoned(base_path: str) -> List[str]:
    """Remove the staging directories crashed runs left in base_path; returns their paths."""
    removed = []
    for name in fs.list_names(base_path):
        path = fs.join(base_path, name)
        if name.startswith(STAGING_PREFIX) and fs.is_dir(path) and is_abandoned(path):
            fs.remove_tree(path)
            removed.append(local_path(path) if is_local(path) else path)
    return removed
