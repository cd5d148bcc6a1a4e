"""Keyed state backends of the engine: heap (dicts) and RocksDB (rocksdict), with TTL."""
from pyflink_on_spark.runtime.state.backend import (  # noqa: F401
    VOID_NAMESPACE, KeyedStateBackend, VoidNamespace, state_kind)
from pyflink_on_spark.runtime.state.factory import create_keyed_state_backend  # noqa: F401
from pyflink_on_spark.runtime.state.heap import HeapKeyedStateBackend  # noqa: F401
from pyflink_on_spark.runtime.state.operator_state import (  # noqa: F401
    HeapBroadcastState, HeapOperatorStateStore, ReadOnlyBroadcastStateView)


def __getattr__(name):
    # RocksDB (and rocksdict) only load when asked for.
    if name == "RocksDBKeyedStateBackend":
        from pyflink_on_spark.runtime.state.rocksdb import RocksDBKeyedStateBackend
        return RocksDBKeyedStateBackend
    raise AttributeError(name)


__all__ = [
    "KeyedStateBackend", "HeapKeyedStateBackend", "RocksDBKeyedStateBackend",
    "create_keyed_state_backend", "VoidNamespace", "VOID_NAMESPACE", "state_kind",
    "HeapOperatorStateStore", "HeapBroadcastState", "ReadOnlyBroadcastStateView",
]
