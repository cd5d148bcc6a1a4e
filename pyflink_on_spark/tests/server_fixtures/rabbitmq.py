"""The `rabbitmq` session fixture: one RabbitMQ broker for the test session
(pyflink_on_spark/tests/rabbitmq_server.py), started when a collected test asks for it."""
import os

import pytest


@pytest.fixture(scope="session")
def rabbitmq():
    """"host:port" of a RabbitMQ broker of its own on loopback (user guest, password guest,
    virtual host "/"); also in the environment for programs the tests run."""
    from pyflink_on_spark.tests.rabbitmq_server import ADDRESS_ENV, start_server
    server = start_server()
    os.environ[ADDRESS_ENV] = server.address
    try:
        yield server.address
    finally:
        os.environ.pop(ADDRESS_ENV, None)
        server.stop()
