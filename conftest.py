"""Test-session wide set-up: one SparkSession for every Spark test (a cold start costs ~5 s)."""
import pytest


@pytest.fixture(scope="session")
def spark():
    from pyflink_on_spark.spark.session import get_session
    return get_session()
