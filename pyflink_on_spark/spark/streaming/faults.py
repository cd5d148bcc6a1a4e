"""Fault injection for the crash tests (never set in normal runs).

``PYFLINK_ON_SPARK_FAULT="<point>:<trigger file>"`` kills the driver with SIGKILL at that
point of the first batch that reads new input once the trigger file exists (points:
before_batch, mid_batch, before_commit, mid_commit, after_complete: executor.py).

``PYFLINK_ON_SPARK_WORKER_FAULT="<trigger file>"`` kills the Python worker running a
micro-batch task with SIGKILL after it processed its first input rows, once, when the
trigger file exists: the worker that removes the file dies (Spark then retries the task).
``"executor:<trigger file>"`` kills the worker's executor JVM instead (its nearest ancestor
process that is a JVM): on a cluster the executor is lost, and Spark starts another and runs
the lost tasks again.

``PYFLINK_ON_SPARK_STANDBY="<gate file>"`` makes a driver a standby, for the tests that
restart a killed or stopped driver: it starts as any driver does (the job script compiled,
its Spark session and JVM up), then waits until the gate file exists before it touches its
checkpoint directory, sources or sinks. A test starts it while the driver it replaces still
runs and opens the gate once that one is gone, so the restart does not wait for a cold
JVM; what the restarted driver reads and writes is as it would be from a cold start.
"""
from __future__ import annotations

import os
import signal
import sys
import time

FAULT_ENV = "PYFLINK_ON_SPARK_FAULT"
WORKER_FAULT_ENV = "PYFLINK_ON_SPARK_WORKER_FAULT"
STANDBY_ENV = "PYFLINK_ON_SPARK_STANDBY"


def driver_fault_point(point: str, has_input: bool) -> None:
    spec = os.environ.get(FAULT_ENV)
    if not spec or not has_input:
        return
    wanted, _, trigger = spec.partition(":")
    if wanted == point and os.path.exists(trigger):
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGKILL)


def standby_gate() -> None:
    """A standby driver (STANDBY_ENV) waits here, its session up, until its gate opens."""
    gate = os.environ.get(STANDBY_ENV)
    if not gate:
        return
    while not os.path.exists(gate):
        time.sleep(0.02)


def worker_fault_point() -> None:
    spec = os.environ.get(WORKER_FAULT_ENV)
    if not spec:
        return
    target, _, trigger = spec.rpartition(":") if spec.startswith("executor:") else ("", "", spec)
    try:
        os.remove(trigger)   # only one worker wins the removal
    except OSError:
        return
    os.kill(_executor_jvm() if target == "executor" else os.getpid(), signal.SIGKILL)


def _executor_jvm() -> int:
    """The nearest ancestor process that is a JVM (/proc: its command name is java)."""
    pid = os.getppid()
    while pid > 1:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
        name = stat[stat.index("(") + 1: stat.rindex(")")]
        if name == "java":
            return pid
        pid = int(stat[stat.rindex(")") + 2:].split()[1])
    raise RuntimeError("no JVM among this Python worker's ancestors")
