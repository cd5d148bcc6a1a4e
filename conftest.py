"""Test-session wide set-up: one SparkSession for every Spark test (a cold start costs ~5 s)."""
import pytest


@pytest.fixture(scope="session")
def spark():
    from pyflink_on_spark.spark.session import get_session
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
