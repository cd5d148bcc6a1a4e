"""Broadcast (operator) state."""
import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.state import (
    BroadcastState, MapStateDescriptor, ReadOnlyBroadcastState, ValueStateDescriptor)
from pyflink_on_spark.runtime.state import HeapOperatorStateStore


def _desc(name="rules"):
    return MapStateDescriptor(name, Types.STRING(), Types.PICKLED_BYTE_ARRAY())


def test_broadcast_state_read_write():
    store = HeapOperatorStateStore()
    s = store.get_broadcast_state(_desc())
    assert isinstance(s, BroadcastState)
    assert s is store.get_broadcast_state(_desc())
    assert s.is_empty() and s.get("a") is None
    s.put("a", 1)
    s["b"] = 2
    s.put_all({"c": 3})
    assert s["a"] == 1 and "b" in s and s.contains("c")
    assert sorted(s.keys()) == ["a", "b", "c"]
    assert sorted(s.items()) == [("a", 1), ("b", 2), ("c", 3)]
    assert sorted(iter(s)) == ["a", "b", "c"]
    del s["a"]
    s.remove("zz")
    assert sorted(s.values()) == [2, 3]
    s.clear()
    assert s.is_empty()


def test_read_only_view_sees_writes_and_cannot_write():
    store = HeapOperatorStateStore()
    s = store.get_broadcast_state(_desc())
    ro = store.get_read_only_broadcast_state(_desc())
    assert isinstance(ro, ReadOnlyBroadcastState) and not isinstance(ro, BroadcastState)
    s.put("k", "v")
    assert ro.get("k") == "v" and ro["k"] == "v" and "k" in ro
    assert list(ro.items()) == [("k", "v")] and not ro.is_empty()
    assert not hasattr(ro, "put")
    with pytest.raises(RuntimeError, match="read-only"):
        ro.clear()


def test_snapshot_restore_and_descriptor_check():
    store = HeapOperatorStateStore()
    store.get_broadcast_state(_desc("a")).put(1, 2)
    snap = store.snapshot()
    other = HeapOperatorStateStore()
    other.restore(snap)
    assert other.get_broadcast_state(_desc("a")).get(1) == 2
    with pytest.raises(TypeError, match="MapStateDescriptor"):
        store.get_broadcast_state(ValueStateDescriptor("v", Types.STRING()))
