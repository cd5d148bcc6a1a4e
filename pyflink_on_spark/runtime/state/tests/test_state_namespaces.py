"""Namespaces (window-scoped state) and merging of namespaces (merging windows)."""
from dataclasses import dataclass

import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.functions import AggregateFunction
from pyflink_on_spark.datastream.state import (
    AggregatingStateDescriptor, ListStateDescriptor, MapStateDescriptor,
    ReducingStateDescriptor, ValueStateDescriptor)
from pyflink_on_spark.runtime.state import VOID_NAMESPACE, VoidNamespace


@dataclass(frozen=True)
class Win:
    start: int
    end: int


class Sum(AggregateFunction):
    def create_accumulator(self):
        return 0

    def add(self, value, accumulator):
        return accumulator + value

    def get_result(self, accumulator):
        return "sum=%d" % accumulator

    def merge(self, acc_a, acc_b):
        return acc_a + acc_b


def _list(name="l"):
    return ListStateDescriptor(name, Types.PICKLED_BYTE_ARRAY())


def _value(name="v"):
    return ValueStateDescriptor(name, Types.PICKLED_BYTE_ARRAY())


def _reducing(name="r"):
    return ReducingStateDescriptor(name, lambda a, b: a + b, Types.PICKLED_BYTE_ARRAY())


def _agg(name="a"):
    return AggregatingStateDescriptor(name, Sum(), Types.LONG())


def test_void_namespace_singleton():
    import pickle
    assert VoidNamespace() is VOID_NAMESPACE
    assert pickle.loads(pickle.dumps(VOID_NAMESPACE)) is VOID_NAMESPACE
    assert VOID_NAMESPACE == VoidNamespace() and VOID_NAMESPACE != "VoidNamespace"


def test_backend_namespace_scopes_all_states(backend):
    v = backend.get_partitioned_state(_value())
    backend.set_current_key("k")
    v.update("void")
    backend.set_current_namespace(Win(0, 10))
    assert backend.get_current_namespace() == Win(0, 10)
    assert v.value() is None
    v.update("w0")
    # a state created while a namespace is current starts in that namespace
    l_ = backend.get_partitioned_state(_list())
    l_.add(1)
    backend.set_current_namespace(Win(10, 20))
    assert v.value() is None and list(l_.get()) == []
    v.update("w1")
    backend.set_current_namespace(Win(0, 10))
    assert v.value() == "w0" and list(l_.get()) == [1]
    backend.set_current_namespace(VOID_NAMESPACE)
    assert v.value() == "void" and list(l_.get()) == []


def test_per_state_namespace(backend):
    v = backend.get_partitioned_state(_value())
    m = backend.get_partitioned_state(MapStateDescriptor(
        "m", Types.PICKLED_BYTE_ARRAY(), Types.PICKLED_BYTE_ARRAY()))
    backend.set_current_key("k")
    v.set_current_namespace(Win(0, 5))
    v.update(1)
    m.put("in-void", True)  # m still in VoidNamespace
    assert v.get_current_namespace() == Win(0, 5)
    assert m.get_current_namespace() is VOID_NAMESPACE
    v.set_current_namespace(VOID_NAMESPACE)
    assert v.value() is None
    m.set_current_namespace(Win(0, 5))
    assert m.is_empty()


def test_equal_namespace_objects_address_the_same_state(backend):
    v = backend.get_partitioned_state(_value())
    backend.set_current_key(1)
    v.set_current_namespace(Win(0, 10))
    v.update("x")
    v.set_current_namespace(("other",))
    v.set_current_namespace(Win(0, 10))  # a different but equal object
    assert v.value() == "x"


def test_keys_for_state_by_namespace(backend):
    v = backend.get_partitioned_state(_value())
    for key, ns in [("a", Win(0, 10)), ("b", Win(0, 10)), ("c", Win(10, 20)), ("d", None)]:
        backend.set_current_key(key)
        v.set_current_namespace(VOID_NAMESPACE if ns is None else ns)
        v.update(key)
    assert sorted(backend.keys_for_state(_value(), Win(0, 10))) == ["a", "b"]
    assert sorted(backend.keys_for_state(_value(), Win(10, 20))) == ["c"]
    assert sorted(backend.keys_for_state(_value())) == ["d"]
    assert sorted(backend.all_keys()) == ["a", "b", "c", "d"]
    assert set(backend.namespaces_for_state(_value())) == {
        Win(0, 10), Win(10, 20), VOID_NAMESPACE}


def test_cleared_namespaces_leave_nothing_behind(backend):
    v = backend.get_partitioned_state(_value())
    backend.set_current_key("a")
    for i in range(20):
        v.set_current_namespace(Win(i, i + 1))
        v.update(i)
        v.clear()
    v.set_current_namespace(VOID_NAMESPACE)
    assert list(backend.all_keys()) == []
    assert backend.namespaces_for_state(_value()) == []


def test_merge_list_state(backend):
    l_ = backend.get_partitioned_state(_list())
    backend.set_current_key("k")
    for ns, vals in [(Win(0, 5), [1, 2]), (Win(3, 8), [3]), (Win(6, 9), [4, 5])]:
        l_.set_current_namespace(ns)
        l_.add_all(vals)
    l_.set_current_namespace(VOID_NAMESPACE)
    backend.merge_namespaces(_list(), Win(0, 5), [Win(3, 8), Win(6, 9)])
    assert l_.get_current_namespace() is VOID_NAMESPACE  # restored
    l_.set_current_namespace(Win(0, 5))
    assert list(l_.get()) == [1, 2, 3, 4, 5]  # target first, then sources in order
    l_.set_current_namespace(Win(3, 8))
    assert list(l_.get()) == []
    l_.set_current_namespace(Win(6, 9))
    assert list(l_.get()) == []
    assert list(backend.keys_for_state(_list(), Win(3, 8))) == []


def test_merge_into_empty_target_and_from_empty_sources(backend):
    l_ = backend.get_partitioned_state(_list())
    backend.set_current_key("k")
    l_.set_current_namespace(Win(1, 2))
    l_.add("x")
    l_.merge_namespaces(Win(0, 9), [Win(5, 6), Win(1, 2), Win(7, 8)])
    l_.set_current_namespace(Win(0, 9))
    assert list(l_.get()) == ["x"]
    l_.merge_namespaces(Win(20, 30), [Win(40, 50)])  # nothing anywhere: nothing happens
    l_.set_current_namespace(Win(20, 30))
    assert list(l_.get()) == []


def test_merge_reducing_state(backend):
    r = backend.get_partitioned_state(_reducing())
    backend.set_current_key("k")
    for ns, s in [(Win(0, 1), "t"), (Win(1, 2), "a"), (Win(2, 3), "b")]:
        r.set_current_namespace(ns)
        r.add(s)
    r.merge_namespaces(Win(0, 1), [Win(1, 2), Win(2, 3)])
    r.set_current_namespace(Win(0, 1))
    assert r.get() == "tab"  # reduce(target, reduce(s1, s2))
    r.set_current_namespace(Win(1, 2))
    assert r.get() is None


def test_merge_aggregating_state(backend):
    a = backend.get_partitioned_state(_agg())
    backend.set_current_key("k")
    for ns, x in [(Win(0, 1), 1), (Win(1, 2), 2), (Win(2, 3), 3)]:
        a.set_current_namespace(ns)
        a.add(x)
    backend.merge_namespaces(_agg(), Win(5, 6), [Win(0, 1), Win(1, 2), Win(2, 3)])
    a.set_current_namespace(Win(5, 6))
    assert a.get() == "sum=6"
    a.set_current_namespace(Win(0, 1))
    assert a.get() is None


def test_merge_only_affects_current_key(backend):
    l_ = backend.get_partitioned_state(_list())
    for key in ["a", "b"]:
        backend.set_current_key(key)
        l_.set_current_namespace(Win(0, 1))
        l_.add(key + "0")
        l_.set_current_namespace(Win(1, 2))
        l_.add(key + "1")
    backend.set_current_key("a")
    l_.merge_namespaces(Win(0, 1), [Win(1, 2)])
    backend.set_current_key("b")
    l_.set_current_namespace(Win(1, 2))
    assert list(l_.get()) == ["b1"]
    l_.set_current_namespace(Win(0, 1))
    assert list(l_.get()) == ["b0"]
    backend.set_current_key("a")
    assert list(l_.get()) == ["a0", "a1"]


def test_merge_value_or_map_state_is_rejected(backend):
    backend.set_current_key("k")
    with pytest.raises(TypeError, match="only list, reducing and aggregating"):
        backend.merge_namespaces(_value(), Win(0, 1), [Win(1, 2)])
    with pytest.raises(TypeError):
        backend.merge_namespaces(
            MapStateDescriptor("m", Types.PICKLED_BYTE_ARRAY(), Types.PICKLED_BYTE_ARRAY()),
            Win(0, 1), [Win(1, 2)])
