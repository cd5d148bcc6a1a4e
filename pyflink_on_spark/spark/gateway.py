"""The driver's JVM (PySpark's gateway), started by the shim: in a session of its own, and
its stderr without the line every start prints that is no part of the job.

A signal to the process group (Ctrl-C is ignored by the gateway already; `kill -TERM -PGID`,
`timeout`, a shell's job control) reached the JVM too, which then shut down under the
driver's feet: the driver's orderly stop after SIGTERM ended in a Py4J trace. In a session of
its own the JVM gets only what is sent to it; it still ends with the driver, when its stdin
(a pipe from the driver) closes.

Spark's launcher adds ``--add-modules=jdk.incubator.vector`` to every JVM it starts, and the
JVM then prints ``WARNING: Using incubator modules: jdk.incubator.vector`` on stderr at boot,
with no option to turn it off. A quiet run (the default; ``--verbose`` shows Spark's own
output) starts PySpark's gateway JVM itself, its stderr a pipe that a daemon thread copies to
where the JVM's stderr would have gone (the descriptor this process had then), that one line
left out. Everything else the JVM writes there (errors, Python workers' stderr in local mode)
passes through unchanged, as it arrives.
"""
from __future__ import annotations

import os
import threading

INCUBATOR_WARNING = b"WARNING: Using incubator modules: jdk.incubator.vector\n"


def start_gateway(options, quiet: bool = True) -> None:
    """Starts the gateway JVM a SparkSession builder with ``options`` would start, in its own
    session, its stderr filtered when ``quiet``; nothing when a gateway already exists or
    spark-submit gave one."""
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway
    if SparkContext._gateway is not None or "PYSPARK_GATEWAY_PORT" in os.environ:
        return
    conf = SparkConf()
    for key, value in options.items():
        conf.set(key, value)
    if not quiet:
        gateway = launch_gateway(conf, popen_kwargs={"start_new_session": True})
        SparkContext._ensure_initialized(gateway=gateway, conf=conf)
        return
    read_end, write_end = os.pipe()
    target = os.dup(2)
    try:
        gateway = launch_gateway(conf, popen_kwargs={"stderr": write_end,
                                                     "start_new_session": True})
    except BaseException:
        for fd in (read_end, target):
            os.close(fd)
        raise
    finally:
        os.close(write_end)   # the JVM holds its own copy
    threading.Thread(target=_copy, args=(read_end, target), daemon=True,
                     name="pyflink-on-spark jvm stderr").start()
    SparkContext._ensure_initialized(gateway=gateway, conf=conf)


def _copy(read_end: int, target: int) -> None:
    """Copies the JVM's stderr to `target` until the JVM ends, without the warning line
    (which comes whole in the first bytes the JVM writes)."""
    pending = b""
    try:
        while True:
            chunk = os.read(read_end, 65536)
            if not chunk:
                break
            if pending is not None:
                pending += chunk
                if len(pending) < len(INCUBATOR_WARNING) and \
                        INCUBATOR_WARNING.startswith(pending):
                    continue   # the line may still be arriving
                chunk = pending.replace(INCUBATOR_WARNING, b"", 1)
                pending = None
            _write_all(target, chunk)
        if pending:
            _write_all(target, pending)
    except OSError:
        pass
    finally:
        os.close(read_end)
        os.close(target)


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data):]
