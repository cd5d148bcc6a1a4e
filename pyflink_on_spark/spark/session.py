"""The one SparkSession of this process: started once, quiet, reused by every execute().

Set-up facts measured on this machine: workers must run this interpreter (PYSPARK_PYTHON),
adaptive execution must not coalesce partitions (a partition is a Flink subtask), and the
default 200 shuffle partitions are pointless here (every exchange names its own count).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from typing import Dict, Optional

_lock = threading.Lock()
_session = None

# Set by the CLI (`--master`, `--conf`, `--verbose`) before the session starts.
MASTER_ENV = "PYFLINK_ON_SPARK_MASTER"
CONF_ENV = "PYFLINK_ON_SPARK_CONF"        # "k1=v1\nk2=v2"
VERBOSE_ENV = "PYFLINK_ON_SPARK_VERBOSE"

_LOG4J = """rootLogger.level = {level}
rootLogger.appenderRef.stderr.ref = STDERR
appender.stderr.type = Console
appender.stderr.name = STDERR
appender.stderr.target = SYSTEM_ERR
appender.stderr.layout.type = PatternLayout
appender.stderr.layout.pattern = %d{{yy/MM/dd HH:mm:ss}} %p %c{{1}}: %m%n
logger.executor.name = org.apache.spark.executor.Executor
logger.executor.level = {task_level}
logger.tsm.name = org.apache.spark.scheduler.TaskSetManager
logger.tsm.level = {task_level}
logger.python.name = org.apache.spark.api.python
logger.python.level = {task_level}
logger.nativeload.name = org.apache.hadoop.util.NativeCodeLoader
logger.nativeload.level = ERROR
"""


class JavaNotFoundError(RuntimeError):
    pass


def check_java() -> None:
    """One clear line when Java is missing or too old (Spark 4 needs Java 17)."""
    java = os.path.join(os.environ["JAVA_HOME"], "bin", "java") \
        if os.environ.get("JAVA_HOME") else shutil.which("java")
    if not java or not os.path.exists(java):
        raise JavaNotFoundError("Java 17 is needed to run pyflink_on_spark (Spark 4): no "
                                "'java' found on PATH or in JAVA_HOME.")
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True,
                             timeout=30).stderr
    except (OSError, subprocess.SubprocessError) as e:
        raise JavaNotFoundError("Java 17 is needed to run pyflink_on_spark: running %s "
                                "failed (%s)." % (java, e))
    match = re.search(r'version "(\d+)(?:\.(\d+))?', out)
    major = int(match.group(1)) if match else 0
    if major == 1 and match.group(2):
        major = int(match.group(2))
    if major < 17:
        raise JavaNotFoundError("Java 17 is needed to run pyflink_on_spark (Spark 4); found "
                                "%s." % (out.strip().splitlines()[0] if out else java))


def _extra_conf() -> Dict[str, str]:
    conf = {}
    for line in os.environ.get(CONF_ENV, "").splitlines():
        if "=" in line:
            key, value = line.split("=", 1)
            conf[key.strip()] = value.strip()
    return conf


def _quiet_logging(verbose: bool) -> None:
    if os.environ.get("SPARK_CONF_DIR"):
        return
    conf_dir = tempfile.mkdtemp(prefix="pyflink-on-spark-conf-")
    with open(os.path.join(conf_dir, "log4j2.properties"), "w") as f:
        f.write(_LOG4J.format(level="WARN" if verbose else "ERROR",
                              task_level="WARN" if verbose else "OFF"))
    os.environ["SPARK_CONF_DIR"] = conf_dir


def get_session():
    """The process's SparkSession (created on first use)."""
    global _session
    with _lock:
        if _session is not None and not _session.sparkContext._jsc.sc().isStopped():
            return _session
        from pyspark.sql import SparkSession
        active = SparkSession.getActiveSession()
        if active is not None:  # e.g. under spark-submit or inside a notebook
            _session = _configure(active)
            return _session
        check_java()
        verbose = bool(os.environ.get(VERBOSE_ENV))
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
        _quiet_logging(verbose)
        builder = SparkSession.builder.appName("pyflink-on-spark")
        master = os.environ.get(MASTER_ENV)
        if master:
            builder = builder.master(master)
        elif not os.environ.get("SPARK_HOME_SUBMIT") and "spark.master" not in _extra_conf():
            builder = builder.master("local[*]")
        defaults = {
            "spark.ui.enabled": "false",
            "spark.ui.showConsoleProgress": "false",
            "spark.sql.adaptive.enabled": "false",
            "spark.sql.shuffle.partitions": str(os.cpu_count() or 2),
            "spark.sql.execution.arrow.pyspark.enabled": "true",
            "spark.python.worker.reuse": "true",
            "spark.driver.extraJavaOptions": "-Dlog4j2.level=ERROR",
        }
        defaults.update(_extra_conf())
        for key, value in defaults.items():
            builder = builder.config(key, value)
        session = builder.getOrCreate()
        session.sparkContext.setLogLevel("WARN" if verbose else "ERROR")
        _session = _configure(session)
        return _session


def _configure(session):
    # A partition is a Flink subtask: adaptive execution must never coalesce or split them.
    session.conf.set("spark.sql.adaptive.enabled", "false")
    return session


def stop_session() -> None:
    global _session
    with _lock:
        if _session is not None:
            _session.stop()
            _session = None
