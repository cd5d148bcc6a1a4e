"""Test-session wide set-up: one SparkSession for every Spark test (a cold start costs ~5 s),
one Kafka broker, one PostgreSQL server and one Spark standalone cluster (with a bare Python
for its executors) for the tests that need them; and the project's own pytest plugin for
users' jobs (pyflink_on_spark.testing), named here too so that it loads from a checkout that
is not installed (its entry point has the same name, so it is never registered twice).

The suite runs in pytest-xdist workers (`-n auto`, README): each worker is a test session
of its own, so the tests that ask for a server are kept in one worker, which starts each
server once (see pytest_collection_modifyitems)."""
import os

import pytest

# Session fixtures that start a server, a cluster or its bare Python: the tests asking for
# any of them run in one xdist worker (group "servers"), as they ran in one session before
SERVER_FIXTURES = frozenset({
    "kafka_broker", "postgres", "mariadb", "cassandra", "rabbitmq", "elasticsearch",
    "standalone_cluster", "bare_python", "s3_server", "client_jobs_on_the_cluster"})
SERVERS_GROUP = "servers"
# Each worker starts a Spark session of its own (a driver JVM, ~1 GB): past 4 workers the
# machine's memory, not its cores, would bound a run
MOST_WORKERS = 4


def pytest_configure(config) -> None:
    # the test session's JVM lives for the whole run: it maps the class-data-sharing archive
    # when there is one but never writes it (it would dump only at the run's end, holding the
    # key until then: spark/class_cache.py). A job of the controller's writes it as the run
    # starts (pytest_sessionstart); the drivers the tests start, as users start them, map it.
    from pyflink_on_spark.spark.class_cache import map_only_in_this_process
    map_only_in_this_process()
    config.addinivalue_line(
        "markers", "uses_servers(*fixtures): the test asks for these server fixtures while "
        "it runs (request.getfixturevalue), so it runs in the servers' xdist worker")


def pytest_xdist_auto_num_workers(config) -> int:
    return max(1, min(len(os.sched_getaffinity(0)), MOST_WORKERS))


def _xdist_group(item):
    """The xdist group of a test: the servers' group for a test that asks for a server;
    its module for a test that asks for a fixture shared by a module or a class (the
    fixture is set up once per worker that runs a test of the module); none otherwise (the
    test goes to whichever worker is free)."""
    servers = set(getattr(item, "fixturenames", ()))
    marker = item.get_closest_marker("uses_servers")
    if marker is not None:
        servers.update(marker.args)
    if servers & SERVER_FIXTURES:
        return SERVERS_GROUP
    info = getattr(item, "_fixtureinfo", None)
    for definitions in (info.name2fixturedefs.values() if info is not None else ()):
        if definitions and definitions[-1].scope in ("module", "class", "package"):
            return item.nodeid.split("::")[0]
    return None


@pytest.hookimpl(tryfirst=True)   # before xdist's own hook reads the groups
def pytest_collection_modifyitems(config, items) -> None:
    for item in items:
        group = _xdist_group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


def _server_fixture_modules() -> list:
    """Every module of pyflink_on_spark/tests/server_fixtures (one per connector server)."""
    import pkgutil
    from pyflink_on_spark.tests import server_fixtures
    return ["%s.%s" % (server_fixtures.__name__, module.name)
            for module in pkgutil.iter_modules(server_fixtures.__path__)]


pytest_plugins = ["pyflink_on_spark.testing.plugin"] + _server_fixture_modules()


def pytest_sessionstart(session) -> None:
    """The class-data-sharing archive's writing starts (spark/tests/class_cache_prime.py).
    With PYTHONDONTWRITEBYTECODE set (as CI machines often have it), no process writes the
    checkout's bytecode, so every driver, client and Python worker the tests start compiles
    the shim's modules from source again: the checkout's package is compiled once here
    instead (~3 s of CPU; __pycache__ is ignored by git and left out of what the shim ships).
    Bytecode read from __pycache__ runs the same code: tracebacks still name the sources."""
    import sys
    if hasattr(session.config, "workerinput"):
        return      # an xdist worker: the controller did both before starting them
    # the drivers the tests start map the class-data-sharing archive as soon as this writes it
    from pyflink_on_spark.spark.tests.class_cache_prime import start_priming
    session.config._class_cache_priming = start_priming()
    if not sys.dont_write_bytecode:
        return      # each process writes what it compiles: nothing to gain
    import compileall
    import os
    package = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyflink_on_spark")
    compileall.compile_dir(package, quiet=2)


def pytest_sessionfinish(session) -> None:
    from pyflink_on_spark.spark.tests.class_cache_prime import wait_for_priming
    problem = wait_for_priming(getattr(session.config, "_class_cache_priming", None))
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if problem and reporter is not None:
        reporter.write_line("WARNING: " + problem, yellow=True)


def _uses_kafka(session) -> bool:
    return any("kafka_broker" in getattr(item, "fixturenames", ())
               for item in session.items)


@pytest.fixture(scope="session")
def spark(request):
    from pyflink_on_spark.spark.session import get_session
    if _uses_kafka(request.session):
        # packages are read when the session starts: the shared session carries Spark's
        # Kafka connector whenever a collected test talks to the broker
        from pyflink_on_spark.spark.kafka_package import EXCLUDES
        from pyflink_on_spark.spark.session import require_package
        from pyflink_on_spark.spark.tests.kafka_broker import install_spark_kafka_package
        require_package(install_spark_kafka_package(), EXCLUDES)
    return get_session()


@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL server of its own on loopback (pyflink_on_spark/tests/postgres_server.py):
    its JDBC URL, also in the environment for programs the tests run."""
    import os
    from pyflink_on_spark.tests.postgres_server import URL_ENV, start_server
    server = start_server()
    os.environ[URL_ENV] = server.url
    try:
        yield server.url
    finally:
        os.environ.pop(URL_ENV, None)
        server.stop()


@pytest.fixture(scope="session")
def kafka_broker():
    """bootstrap.servers of a single-node Kafka broker (KRaft) on loopback, started once per
    test session (its jars are fetched with Maven when missing) and stopped at the end; also
    in the environment for programs the tests run."""
    import os
    from pyflink_on_spark.spark.tests.kafka_broker import BOOTSTRAP_ENV, start_broker
    broker = start_broker()
    os.environ[BOOTSTRAP_ENV] = broker.bootstrap_servers
    try:
        yield broker.bootstrap_servers
    finally:
        os.environ.pop(BOOTSTRAP_ENV, None)
        # Kafka clients that programs run in this process left behind (a compat case's
        # module-level producer, kept by the cycles of its functions' globals) are freed
        # now: alive when the broker stops, librdkafka prints connection errors at exit
        import gc
        gc.collect()
        broker.stop()


@pytest.fixture(scope="session")
def bare_python() -> str:
    """The interpreter of a virtualenv with only a plain PySpark environment and nothing of
    ours (pyflink_on_spark/spark/tests/standalone_cluster.py), built once and cached."""
    from pyflink_on_spark.spark.tests.standalone_cluster import bare_python as build
    return build()


@pytest.fixture(scope="session")
def standalone_cluster(bare_python):
    """A Spark standalone cluster (a master and two 1-core workers on loopback, from the
    installed pyspark's bin/spark-class) whose executors run `bare_python`: started once
    per test session, at the first test that asks for it (a run that collects none never
    starts it), stopped at the end."""
    from pyflink_on_spark.spark.tests.standalone_cluster import start_cluster
    cluster = start_cluster(workers=2)
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def s3_server():
    """An S3-API object store (S3Proxy, in memory) on loopback, started once per test session
    (its jar fetched with Maven when missing): pyflink_on_spark/spark/tests/s3_server.py. It
    is ready at its first use: a test that asks for it before standalone_cluster has both
    JVMs start together."""
    from pyflink_on_spark.spark.tests.s3_server import start_s3_server
    server = start_s3_server(wait=False)
    try:
        yield server
    finally:
        server.stop()
