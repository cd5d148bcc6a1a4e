"""A function that cannot be serialized fails where it is passed in (PyFlink fails in map()),
with the pickling error first and the function named."""
import threading

import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import MapFunction, StreamExecutionEnvironment


class LockedMap(MapFunction):
    def __init__(self):
        self.lock = threading.Lock()

    def map(self, value):
        return value


def _stream():
    env = StreamExecutionEnvironment.get_execution_environment()
    return env.from_collection([1, 2], type_info=Types.INT())


def test_map_with_a_lock_fails_at_map_naming_the_function():
    lock = threading.Lock()

    def with_lock(x):       # a closure is pickled by value, with its lock
        with lock:
            return x
    with pytest.raises(TypeError) as raised:
        _stream().map(with_lock, output_type=Types.INT())
    text = str(raised.value)
    assert text.startswith("cannot pickle '_thread.lock' object")
    assert "with_lock" in text and "test_serializability.py" in text and "MapFunction" in text


def test_function_objects_and_key_selectors_are_checked_too():
    with pytest.raises(TypeError, match="the LockedMap object given as a MapFunction"):
        _stream().map(LockedMap())
    with pytest.raises(TypeError, match="KeySelector"):
        lock = threading.Lock()
        _stream().key_by(lambda x: (lock, x)[1])


def test_serializable_functions_pass():
    _stream().map(lambda x: x + 1).key_by(lambda x: x).reduce(lambda a, b: a + b)
