"""Fault injection for the crash tests (never set in normal runs).

``PYFLINK_ON_SPARK_FAULT="<point>:<trigger file>"`` kills the driver with SIGKILL at that
point of the first batch that reads new input once the trigger file exists (points:
before_batch, mid_batch, before_commit, mid_commit, after_complete: executor.py).

``PYFLINK_ON_SPARK_WORKER_FAULT="<trigger file>"`` kills the Python worker running a
micro-batch task with SIGKILL after it processed its first input rows, once, when the
trigger file exists: the worker that removes the file dies (Spark then retries the task).
"""
from __future__ import annotations

import os
import signal
import sys

FAULT_ENV = "PYFLINK_ON_SPARK_FAULT"
WORKER_FAULT_ENV = "PYFLINK_ON_SPARK_WORKER_FAULT"


def driver_fault_point(point: str, has_input: bool) -> None:
    spec = os.environ.get(FAULT_ENV)
    if not spec or not has_input:
        return
    wanted, _, trigger = spec.partition(":")
    if wanted == point and os.path.exists(trigger):
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGKILL)


def worker_fault_point() -> None:
    trigger = os.environ.get(WORKER_FAULT_ENV)
    if not trigger:
        return
    try:
        os.remove(trigger)   # only one worker wins the removal
    except OSError:
        return
    os.kill(os.getpid(), signal.SIGKILL)
