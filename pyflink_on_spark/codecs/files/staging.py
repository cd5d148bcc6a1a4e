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
Local paths only; remote file systems keep their directories (noted in docs/faults.md).
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import time
from typing import List, Optional

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
    """Create the staging directory with this process as its owner (local paths)."""
    if not is_local(staging_dir):
        return
    path = local_path(staging_dir)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, OWNER_FILE), "w") as f:
        json.dump(owner_record(), f)


def is_abandoned(path: str, now: Optional[float] = None) -> bool:
    """True when the staging directory's owner is certainly gone."""
    try:
        with open(os.path.join(path, OWNER_FILE)) as f:
            owner = json.load(f)
    except FileNotFoundError:
        try:
            age = (now or time.time()) - os.stat(path).st_mtime
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
    if not is_local(base_path):
        return []
    base = local_path(base_path)
    try:
        names = os.listdir(base)
    except OSError:
        return []
    removed = []
    for name in sorted(names):
        path = os.path.join(base, name)
        if name.startswith(STAGING_PREFIX) and os.path.isdir(path) and is_abandoned(path):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed
