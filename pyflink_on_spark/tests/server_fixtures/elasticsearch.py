"""The Elasticsearch test node's session fixture (pyflink_on_spark/tests/elasticsearch_server.py)."""
from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def elasticsearch():
    """http://127.0.0.1:port of a single-node Elasticsearch 7.17 on loopback, started once per
    test session (its jars are fetched with Maven when missing) and stopped at the end; also in
    the environment for programs the tests run."""
    from pyflink_on_spark.tests.elasticsearch_server import URL_ENV, start_node
    node = start_node()
    os.environ[URL_ENV] = node.url
    try:
        yield node.url
    finally:
        os.environ.pop(URL_ENV, None)
        node.stop()
