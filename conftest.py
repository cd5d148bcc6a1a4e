"""Test-session wide set-up: one SparkSession for every Spark test (a cold start costs ~5 s),
and the project's own pytest plugin for users' jobs (pyflink_on_spark.testing), registered
here too so that it loads from a checkout that is not installed."""
import pytest


def pytest_configure(config):
    from pyflink_on_spark.testing import plugin
    if not config.pluginmanager.is_registered(plugin):
        config.pluginmanager.register(plugin, "pyflink_on_spark")


@pytest.fixture(scope="session")
def spark():
    from pyflink_on_spark.spark.session import get_session
    return get_session()
