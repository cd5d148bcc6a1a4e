"""Installing the test servers once per test process, and early.

A server's install (Debian packages with apt-get, jars with Maven, a bare virtualenv) runs
once however many callers ask for it: the session fixture that starts the server waits for
it, and so does the early start that server_fixtures/early_installs.py makes when collection
ends, in the background, for every server the collected tests will ask for. The downloads
then overlap the tests that run first instead of adding to the session's time. apt-get
installs run one after the other (dpkg takes a lock), Maven downloads one after the other
beside them (one local repository).
"""
from __future__ import annotations

import functools
import importlib
import threading
from concurrent.futures import Future
from typing import Callable, Dict, Iterable, List, Tuple

_futures: Dict[str, Future] = {}
_lock = threading.Lock()


def installed_once(name: str) -> Callable:
    """Decorator: the install function runs once per process (later calls, and calls made
    while it runs, get its result or its exception)."""
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
                    future.set_result(install(*args, **kwargs))
                except BaseException as e:
                    future.set_exception(e)
            return future.result()
        return once
    return decorate


# fixture -> the installs it needs first: (queue, "module:function"); "apt" installs run
# one at a time, "download" ones beside them
EARLY: Dict[str, List[Tuple[str, str]]] = {
    "postgres": [("apt", "pyflink_on_spark.tests.postgres_server:ensure_installed")],
    "mariadb": [("apt", "pyflink_on_spark.tests.mariadb_server:ensure_installed")],
    "rabbitmq": [("apt", "pyflink_on_spark.tests.rabbitmq_server:ensure_installed")],
    "kafka_broker": [
        ("download", "pyflink_on_spark.spark.tests.kafka_broker:install_broker")],
    "cassandra": [("download", "pyflink_on_spark.tests.cassandra_server:install_cassandra")],
    "elasticsearch": [
        ("download", "pyflink_on_spark.tests.elasticsearch_server:install_node")],
    "bare_python": [
        ("download", "pyflink_on_spark.spark.tests.standalone_cluster:bare_python")],
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
    for fixture in sorted(set(fixtures)):
        for queue, target in EARLY.get(fixture, ()):
            queues.setdefault(queue, []).append(target)
    threads = []
    for queue, targets in sorted(queues.items()):
        thread = threading.Thread(target=lambda ts=targets: [_call(t) for t in ts],
                                  name="early installs (%s)" % queue, daemon=True)
        thread.start()
        threads.append(thread)
    return threads
