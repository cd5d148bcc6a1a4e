"""Fixtures shared by the engine's tests."""
import pytest

from pyflink_on_spark.datastream import StreamExecutionEnvironment


@pytest.fixture
def env():
    """An environment at parallelism 1 whose jobs the tests compile and run directly."""
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    return env
