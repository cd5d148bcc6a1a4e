"""Installing the test servers once per test process, and early.

A server's install (Debian packages with apt-get, jars with Maven, a bare virtualenv) runs
once however many callers ask for it, and one process at a time (the suite runs in several
pytest-xdist workers: each install takes a file lock of its own, and a second process finds
what the first installed): the session fixture that starts the server waits for it, and so does the early start that server_fixtures/early_installs.py makes when collection
ends, in the background, for every server the collected tests will ask for. The downloads
then overlap the tests that run first instead of adding to the session's time. apt-get
installs run one after the other (dpkg takes a lock), Maven downloads one after the other
beside them (one local repository).
"""
from __future__ import annotations

import contextlib
import functools
import importlib
import os
import re
import tempfile
import threading
from concurrent.futures import Future
from typing import Callable, Dict, Iterable, List, Tuple

from pyflink_on_spark.tests.server_tools import file_lock

_futures: Dict[str, Future] = {}
_lock = threading.Lock()


@contextlib.contextmanager
def _across_processes(name: str):
    """Holds the file lock of install `name`, which every test process of this user shares:
    two pytest-xdist workers must not build the same virtualenv or fetch the same jars into
    one directory at once (the install functions check what is there first, so the second
    one finds the first one's result and returns)."""
    directory = os.path.join(tempfile.gettempdir(), "pyflink-on-spark-installs-%d" % os.getuid())
    os.makedirs(directory, mode=0o700, exist_ok=True)
    with file_lock(os.path.join(directory, re.sub(r"[^A-Za-z0-9_.-]", "_", name) + ".lock")):
        yield


def installed_once(name: str) -> Callable:
    """Decorator: the install function runs once per process (later calls, and calls made
    while it runs, get its result or its exception), and in one process at a time."""
    def decorate(install: Callable) -> Callable:
        @functools.wraps(install)
        def once(*args, **kwargs):
            with _lock:
                future = _futures.get(name)
                owner = future is None
                if owner:
                    future = _futures[name] = Future()
            if owner:
                try:
                    with _across_processes(name):
                        result = install(*args, **kwargs)
                    future.set_result(result)
                except BaseException as e:
                    future.set_exception(e)
            return future.result()
        return once
    return decorate


# fixture -> the installs it needs first: (queue, "module:function"); "apt" installs run
# one at a time, "download" ones beside them, each queue in the order of this table: what the
# first tests of a full run need comes first (the plan picture tests run first, and waited
# ~50 s for the dpkg lock behind MariaDB's and RabbitMQ's installs when sorted by name)
EARLY: Dict[str, List[Tuple[str, str]]] = {
    "graphviz_dot": [("apt", "pyflink_on_spark.cli.plan.tests.picture_tools:install_graphviz")],
    "chromium": [("apt", "pyflink_on_spark.cli.plan.tests.picture_tools:install_chromium")],
    "postgres": [("apt", "pyflink_on_spark.tests.postgres_server:ensure_installed")],
    "mariadb": [("apt", "pyflink_on_spark.tests.mariadb_server:ensure_installed")],
    "rabbitmq": [("apt", "pyflink_on_spark.tests.rabbitmq_server:ensure_installed")],
    # Spark's Kafka connector: the shared session needs it at its start when a collected
    # test talks to the broker (conftest.py's `spark` fixture)
    "kafka_broker": [
        ("download", "pyflink_on_spark.spark.tests.kafka_broker:install_spark_kafka_package"),
        ("download", "pyflink_on_spark.spark.tests.kafka_broker:install_broker")],
    "cassandra": [("download", "pyflink_on_spark.tests.cassandra_server:install_cassandra")],
    "elasticsearch": [
        ("download", "pyflink_on_spark.tests.elasticsearch_server:install_node")],
    "bare_python": [
        ("download", "pyflink_on_spark.spark.tests.standalone_cluster:bare_python")],
    # S3Proxy's jar and the s3a connector's (a ~700 MB AWS SDK bundle among them)
    "s3_server": [("download", "pyflink_on_spark.spark.tests.s3_server:install_s3_jars")],
}


def _call(target: str) -> None:
    module, _, function = target.partition(":")
    try:
        install = getattr(importlib.import_module(module), function)
        if getattr(install, "__wrapped__", None) is None:
            return      # not installed_once: running it beside its fixture could collide
        install()
    except BaseException:   # noqa: BLE001 - the fixture that needs it raises it again
        pass


def install_early(fixtures: Iterable[str]) -> List[threading.Thread]:
    """Starts, in background threads, the installs of the servers ``fixtures`` name."""
    queues: Dict[str, List[str]] = {}
    wanted = set(fixtures)
    for fixture in [f for f in EARLY if f in wanted]:   # EARLY's order
        for queue, target in EARLY[fixture]:
            queues.setdefault(queue, []).append(target)
    threads = []
    for queue, targets in sorted(queues.items()):
        thread = threading.Thread(target=lambda ts=targets: [_call(t) for t in ts],
                                  name="early installs (%s)" % queue, daemon=True)
        thread.start()
        threads.append(thread)
    return threads
