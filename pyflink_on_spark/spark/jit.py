"""The JIT mode of a local Spark's JVM (issue 14: small-job latency).

A local Spark runs its executors inside the driver JVM, so that JVM's JIT compilers set the
pace of a job's JVM side: planning, code generation, exchanges, sorts, Arrow. Measured on the
2-core development machine (benchmarks/RESULTS.md, "JIT mode of a local Spark"):

- with the C1 compiler only (-XX:TieredStopAtLevel=1), a cold one-job run is 1.3-1.4 s
  shorter, and 5M-record benchmark jobs (4-6 s) take 7-20% less time: the JVM's start-up
  and planning code runs compiled without profiling, and no C2 compiler thread competes
  with the Python workers for the two cores;
- a 30 s job (a 50 MB word count) showed no consistent difference: from 10% faster to 11%
  slower over seven pairs. A job that long is where C2's code starts to pay back.

So a local Spark this tool starts runs C1 only ("quick"), as developer tools that start
JVMs for short runs do (Leiningen's default), except for an unbounded job, which runs for
as long as it is let run: there C2 has all the time it needs to pay back. (A session that
`pyflink-on-spark run` starts while the script loads, spark/prestart.py, is started before
the job is known: an unbounded job's script other than a Kafka one, which is not started
ahead, gets C1 there unless PYFLINK_ON_SPARK_JIT=full.)

PYFLINK_ON_SPARK_JIT=full keeps the JVM's own tiered JIT (a long local backfill); Java
options of the user's own that choose a JIT mode always win (spark.driver.extraJavaOptions,
JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS). A Spark on a cluster is untouched: there the driver JVM
does not run the tasks.
"""
from __future__ import annotations

import os
from typing import Optional

JIT_ENV = "PYFLINK_ON_SPARK_JIT"          # "quick" (default for a local Spark) or "full"
QUICK_JIT_OPTION = "-XX:TieredStopAtLevel=1"
# the user's own Java options choose the JIT when they name any of these
JIT_FLAGS = ("TieredStopAtLevel", "TieredCompilation", "CompilationMode", "-Xint", "-Xcomp")


def wants_quick_jit(master: Optional[str], long_running: bool) -> bool:
    """C1 only for a local Spark (see the module's docstring)."""
    mode = os.environ.get(JIT_ENV, "quick").strip().lower()
    if mode not in ("quick", "full"):
        raise ValueError("%s must be 'quick' or 'full', not %r"
                         % (JIT_ENV, os.environ.get(JIT_ENV)))
    if mode == "full" or long_running:
        return False
    return bool(master) and master.strip().startswith("local")


# options every JVM of the user's reads first (a JIT flag there is the user's choice too)
_JVM_OPTION_ENVS = ("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS")


def with_jit_mode(java_options: str, master: Optional[str], long_running: bool) -> str:
    """`java_options` plus the quick JIT's flag where it applies."""
    users = " ".join([java_options] + [os.environ.get(env, "") for env in _JVM_OPTION_ENVS])
    if not wants_quick_jit(master, long_running) or \
            any(flag in users for flag in JIT_FLAGS):
        return java_options
    return ("%s %s" % (java_options, QUICK_JIT_OPTION)).strip()
