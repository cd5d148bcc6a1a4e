"""pyspark's Python worker daemon, importing pyspark from the installed package rather than
from Spark's pyspark.zip (spark.python.daemon.module of a local Spark this tool starts).

Spark puts `$SPARK_HOME/python/lib/pyspark.zip` (and py4j's zip) first on its Python
workers' path. The zip pip installs holds sources only, and Python cannot cache bytecode in
a zip, so every worker daemon compiled pyspark's modules again: importing pyspark.daemon and
pyspark.worker took 0.69-0.81 s from the zip against 0.15-0.17 s from the installed package,
on the critical path of each run's first task. When the zip is the one inside the pyspark
package this Python imports anyway (pip's layout: `<site>/pyspark/python/lib/pyspark.zip`),
both hold the same code, and the zips move to the end of the path.

Run as `python -m pyflink_on_spark.spark.worker_daemon pyspark.worker`, as Spark runs
pyspark.daemon; nothing that starts a thread is imported before the daemon forks. Its
workers also end quietly when Spark hangs up on them (quiet_when_the_jvm_is_gone), and
their imports are kept out of the collection pyspark runs after every task
(imports_frozen_after_the_first_task).
"""
from __future__ import annotations

import gc
import os
import sys
from typing import Any, Callable, List, Optional


def installed_pyspark_first(path: List[str]) -> List[str]:
    """`path` with Spark's pyspark.zip moved to its end when it lies inside an installed
    pyspark package on `path` (the same code, with bytecode); py4j's zip beside it too when
    the installed py4j is the zip's version."""
    moved = []
    for entry in path:
        site = _site_of_installed_pyspark(entry, path)
        if site is None:
            continue
        moved.append(entry)
        lib = os.path.dirname(entry)
        for name in os.listdir(lib):
            if name.startswith("py4j-") and name.endswith("-src.zip"):
                version = name[len("py4j-"):-len("-src.zip")]
                if os.path.isdir(os.path.join(site, "py4j-%s.dist-info" % version)):
                    moved.extend(other for other in path
                                 if other == os.path.join(lib, name))
    return [entry for entry in path if entry not in moved] + moved


def _site_of_installed_pyspark(entry: str, path: List[str]) -> Optional[str]:
    """The site directory when `entry` is <site>/pyspark/python/lib/pyspark.zip and <site>
    is on `path`."""
    if os.path.basename(entry) != "pyspark.zip":
        return None
    package = os.path.dirname(os.path.dirname(os.path.dirname(entry)))
    site = os.path.dirname(package)
    if os.path.basename(package) != "pyspark" or \
            not os.path.isfile(os.path.join(package, "__init__.py")):
        return None
    on_path = any(entry_ and os.path.abspath(entry_) == os.path.abspath(site)
                  for entry_ in path)
    return site if on_path else None


def quiet_when_the_jvm_is_gone(worker: Callable[[Any, bool], int]) -> Callable[[Any, bool], int]:
    """pyspark.daemon's `worker` (one forked worker's loop over its tasks), ending the worker
    quietly when the JVM has closed its socket. When Spark stops, it closes the sockets of
    its idle reused workers; a worker between tasks then fails to flush and, in pyspark 4,
    raises the BrokenPipeError out of the daemon's child, whose traceback reached the job's
    stderr at the end of successful runs (seen on runs that stop Spark as they exit, about
    one in twenty under load). The worker still ends (a non-zero code stops its loop):
    nothing is left to tell a JVM that has hung up."""
    def worker_or_quiet_end(sock: Any, authenticated: bool) -> int:
        try:
            return worker(sock, authenticated)
        except (BrokenPipeError, ConnectionResetError):
            return 1
    return worker_or_quiet_end


def imports_frozen_after_the_first_task(worker: Callable[[Any, bool], int],
                                        freeze: Callable[[], None] = gc.freeze) \
        -> Callable[[Any, bool], int]:
    """pyspark.daemon's `worker`, the objects that outlived the worker's first task frozen
    out of the garbage collector's reach (gc.freeze) before its second task. pyspark's daemon
    runs a full collection after every task of a reused worker; it walked every object of the
    modules the tasks import (pyspark, pyarrow, this package): 25-48 ms per task on the
    development machine, on both cores at once between a job's stages, where the next
    stage's task waited for its worker to finish collecting. What outlives a first task and
    the collection after it is that, imports and their caches, which live as long as the
    worker; later tasks' objects are collected as before."""
    tasks = [0]

    def worker_after_first_frozen(sock: Any, authenticated: bool) -> int:
        if tasks[0] == 1:
            freeze()
        tasks[0] += 1
        return worker(sock, authenticated)
    return worker_after_first_frozen


def main() -> None:
    sys.path[:] = installed_pyspark_first(sys.path)
    from pyspark import daemon
    daemon.worker = imports_frozen_after_the_first_task(
        quiet_when_the_jvm_is_gone(daemon.worker))
    daemon.manager()


if __name__ == "__main__":
    main()
