"""The SparkSession started while the job script is still loading (issue 14: small-job
latency).

`pyflink-on-spark run` knows before the script runs that it will need a SparkSession, which
on a cold local run costs seconds (a JVM and a SparkContext) spent waiting on another
process. prestart() starts it in a background thread, so it overlaps with what the script
does before its first execute(): its imports, building and compiling its graph. execute()
then finds the session made, or being made (get_session() waits for it).

Tried and left out: also running a tiny warm-up job in that thread (to start the Python
workers and generate the plan's code before the first job). With the short scripts of the
latency benchmark, the script's own job was submitted 0.3 s after the session was up, so the
two jobs ran side by side on the two cores and the run got slower, not faster. A warm-up of
the JVM alone (the same exchange and sort, no Python) changed nothing measurable either: 4
pairs, median 6.85 s with it, 6.44 s without.

Only where it cannot cost the job anything: a session this process would start itself (not
--remote / Spark Connect), and not for scripts that name Kafka (their session needs the Kafka
package at start: spark/kafka_package.py would restart a session started without it).
"""
from __future__ import annotations

import os
import threading
from typing import Optional

PRESTART_ENV = "PYFLINK_ON_SPARK_PRESTART"     # "0": start Spark only when a job runs
_thread: Optional[threading.Thread] = None


def wants_prestart(script_text: str) -> bool:
    """Scripts whose session is the default one (see the module's docstring)."""
    if os.environ.get(PRESTART_ENV, "1").strip().lower() in ("0", "false", "no", "off"):
        return False
    return "Kafka" not in script_text


def prestart() -> Optional[threading.Thread]:
    """Start the session in a background (daemon) thread; the thread (None: already done)."""
    global _thread
    if _thread is not None:
        return None
    _thread = threading.Thread(target=_start, name="pyflink-on-spark-prestart", daemon=True)
    _thread.start()
    return _thread


def _start() -> None:
    try:
        from pyflink_on_spark.spark.session import get_session
        get_session()
    except BaseException:   # noqa: B036 - the job's own get_session() reports the problem
        pass


def settle(timeout_s: float = 120.0) -> None:
    """Waits for a session start still under way. A script that ends without running a job
    would otherwise end the interpreter while the thread is inside the JVM's start-up: the
    process then died by SIGSEGV at exit (seen in CI, the prestart test's control run)."""
    thread = _thread
    if thread is not None and thread.is_alive():
        thread.join(timeout_s)
