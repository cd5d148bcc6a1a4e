"""Test-session wide set-up: one SparkSession for every Spark test (a cold start costs ~5 s),
and the project's own pytest plugin for users' jobs (pyflink_on_spark.testing), named here
too so that it loads from a checkout that is not installed (its entry point has the same
name, so it is never registered twice)."""
import pytest

pytest_plugins = ["pyflink_on_spark.testing.plugin"]


@pytest.fixture(scope="session")
def spark():
    from pyflink_on_spark.spark.session import get_session
    return get_session()
