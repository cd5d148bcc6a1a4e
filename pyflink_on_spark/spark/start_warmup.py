"""Work a cold SparkSession start does one step after another, begun ahead in a thread
(issue 14: small-job latency).

pyspark starts a local Spark in three steps, each waiting on the last: launch the JVM
(~1 s, this process idle), create the SparkContext (~0.5 s), create the SparkSession (~1 s of
JVM work, one thread). Two pieces of that are started early here, on the core that is idle:

- pandas: pyspark's Py4J converter (pyspark.sql.types) imports pyspark.testing.utils, which
  imports pandas, in the middle of the SparkContext's creation. Imported here while the JVM
  launches, it is ready by then (0.2-0.3 s off the start).
- JVM singletons the SparkSession and the first job initialise on first use: Scala's
  runtime reflection (0.4-0.5 s: the SparkSession registers functions through it), Spark
  SQL's configuration registry, its function registry, its collations, the Janino compiler,
  the Arrow converters. Initialised from this thread over Py4J as soon as the JVM answers,
  side by side with the SparkContext's creation. A thread that reaches one of them while it
  is being initialised waits for it, as it would have waited to initialise it itself.

Measured on the 2-core development machine: the SparkSession 0.1-0.2 s sooner (medians of 6).
Each step is best effort: a class a Spark version lacks is skipped.
"""
from __future__ import annotations

import threading

# pyspark imports this itself while creating the SparkContext (see the module's docstring)
PYSPARK_LATE_IMPORTS = ("pyspark.testing.utils",)

# Scala objects (initialised by loading their class) the SparkSession and the first job use
JVM_SINGLETONS = (
    "org.apache.spark.sql.internal.SQLConf$",
    "org.apache.spark.sql.catalyst.util.CollationFactory$Collation$CollationSpecICU",
    "org.apache.spark.sql.catalyst.analysis.FunctionRegistry$",
    "org.apache.spark.sql.catalyst.expressions.codegen.CodeCompiler$",
    "org.apache.spark.sql.util.ArrowUtils$",
    "org.apache.spark.sql.execution.arrow.ArrowConverters$",
)


def start_warmup(started: threading.Event) -> threading.Thread:
    """Begin the warm-up, before pyspark launches the JVM; the (daemon) thread. Set
    `started` when the session start has ended (made or failed): a warm-up still waiting
    for the JVM then stops."""
    thread = threading.Thread(target=_warm_up, args=(started,),
                              name="pyflink-on-spark-warmup", daemon=True)
    thread.start()
    return thread


def _warm_up(started: threading.Event) -> None:
    import importlib
    for name in PYSPARK_LATE_IMPORTS:
        try:
            importlib.import_module(name)
        except Exception:   # noqa: BLE001 - pyspark imports it again and reports it
            pass
    jvm = _wait_for_jvm(started)
    if jvm is not None:
        warm_jvm(jvm)


def _wait_for_jvm(started: threading.Event):
    """The JVM view pyspark sets once its JVM answers (None: the start ended first)."""
    from pyspark import SparkContext
    while SparkContext._jvm is None:
        if started.wait(0.01):
            return None
    return SparkContext._jvm


def warm_jvm(jvm) -> int:
    """Initialise Scala's runtime reflection and JVM_SINGLETONS; how many were."""
    done = 0
    try:
        jvm.scala.reflect.runtime.package.universe()
        done += 1
    except Exception:   # noqa: BLE001 - best effort (see the module's docstring)
        pass
    try:
        loader = jvm.java.lang.Thread.currentThread().getContextClassLoader()
    except Exception:   # noqa: BLE001 - the JVM went away (a failed start)
        return done
    for name in JVM_SINGLETONS:
        try:
            jvm.java.lang.Class.forName(name, True, loader)
            done += 1
        except Exception:   # noqa: BLE001 - not in this Spark version
            pass
    return done
