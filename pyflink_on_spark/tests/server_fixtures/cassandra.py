"""The Cassandra test node's session fixture (pyflink_on_spark/tests/cassandra_server.py)."""
from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def cassandra():
    """host:port (CQL) of a single-node Cassandra 5.0 on loopback, started once per test
    session (its jars are fetched with Maven when missing) and killed at the end; also in
    the environment for programs the tests run."""
    from pyflink_on_spark.tests.cassandra_server import HOST_PORT_ENV, start_server
    server = start_server()
    os.environ[HOST_PORT_ENV] = server.host_port
    try:
        yield server.host_port
    finally:
        os.environ.pop(HOST_PORT_ENV, None)
        server.stop()
