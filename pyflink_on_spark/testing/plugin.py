"""The pytest plugin (entry point `pytest11`): fixtures for testing PyFlink jobs on the shim.

Jobs of `flink_env` run on Spark: the process's one SparkSession, started by the first job
and shared by every test of the session (a cold start costs seconds; a job on a warm session
a fraction of one). Jobs of `flink_direct_env` run in this process on the direct runner.
"""
from __future__ import annotations

import importlib.util

import pytest


def pytest_configure(config) -> None:
    # Users' jobs import `pyflink`: without real PyFlink installed, that is the shim.
    if importlib.util.find_spec("pyflink") is None:
        from pyflink_on_spark.aliasing import install_pyflink_alias
        install_pyflink_alias()


def _new_env():
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    return env


@pytest.fixture
def flink_env(request):
    """A fresh StreamExecutionEnvironment (parallelism 1) on the session's SparkSession.
    The test file's directory is importable in Spark's Python workers (functions and
    classes defined in the test module are pickled by reference to it)."""
    from pyflink_on_spark.spark.entry import add_script_dir
    add_script_dir(str(request.path.parent))
    env = _new_env()
    yield env
    env.close()


@pytest.fixture
def flink_direct_env():
    """A fresh StreamExecutionEnvironment whose bounded jobs run in this process, without
    Spark (the direct runner: the same engine and exchange contract, for quick tests)."""
    from pyflink_on_spark.direct import runner
    from pyflink_on_spark.spark.entry import bounded_jobs_run_by
    env = _new_env()
    with bounded_jobs_run_by(runner):
        yield env
    env.close()


@pytest.fixture
def collecting_sink():
    """A factory of CollectingSinks released after the test: `sink = collecting_sink()`."""
    from pyflink_on_spark.testing.sinks import CollectingSink
    made = []

    def make() -> CollectingSink:
        sink = CollectingSink()
        made.append(sink)
        return sink
    yield make
    for sink in made:
        sink.close()
