"""Fixtures of the state backend tests: every semantic test runs on both backends."""
import pytest

from pyflink_on_spark.runtime.state.heap import HeapKeyedStateBackend
from pyflink_on_spark.runtime.state.rocksdb import RocksDBKeyedStateBackend


class FakeClock(object):
    """Processing time under test control (ms)."""

    def __init__(self, now=1000):
        self.now = now

    def __call__(self):
        return self.now

    def advance(self, ms):
        self.now += ms


@pytest.fixture
def clock():
    return FakeClock()


def make_backend(kind, tmp_path, clock, **kw):
    if kind == "heap":
        return HeapKeyedStateBackend(128, clock)
    return RocksDBKeyedStateBackend(128, clock, path=str(tmp_path / ("db-" + kind)), **kw)


@pytest.fixture(params=["heap", "rocksdb", "rocksdb-tiny-cache"])
def backend(request, tmp_path, clock):
    kw = {"cache_entries": 2} if request.param == "rocksdb-tiny-cache" else {}
    b = make_backend(request.param, tmp_path, clock, **kw)
    b.kind = request.param
    yield b
    b.close()
