"""The `mariadb` session fixture: a MariaDB server of its own on loopback
(pyflink_on_spark/tests/mariadb_server.py), started when a collected test asks for it."""
import os

import pytest


@pytest.fixture(scope="session")
def mariadb():
    """The server's JDBC URL (jdbc:mariadb://127.0.0.1:port/test?user=root), also in the
    environment for programs the tests run (compat cases)."""
    from pyflink_on_spark.tests.mariadb_server import URL_ENV, start_server
    server = start_server()
    os.environ[URL_ENV] = server.url
    try:
        yield server.url
    finally:
        os.environ.pop(URL_ENV, None)
        server.stop()
