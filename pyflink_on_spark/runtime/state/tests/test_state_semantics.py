"""Semantics of every keyed state kind, on the heap and the RocksDB backend.

Where PyFlink's behaviour is not obvious, the expected values were taken from running the
same calls in a KeyedProcessFunction on PyFlink 1.20.
"""
import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.functions import AggregateFunction, ReduceFunction
from pyflink_on_spark.datastream.state import (
    AggregatingState, AggregatingStateDescriptor, ListState, ListStateDescriptor, MapState,
    MapStateDescriptor, ReducingState, ReducingStateDescriptor, ValueState,
    ValueStateDescriptor)
from pyflink_on_spark.runtime.state import VOID_NAMESPACE


class SumTimesTen(AggregateFunction):
    def create_accumulator(self):
        return 0

    def add(self, value, accumulator):
        return accumulator + value

    def get_result(self, accumulator):
        return accumulator * 10

    def merge(self, acc_a, acc_b):
        return acc_a + acc_b


class AvgAgg(AggregateFunction):
    def create_accumulator(self):
        return [0, 0]

    def add(self, value, accumulator):
        accumulator[0] += value
        accumulator[1] += 1
        return accumulator

    def get_result(self, accumulator):
        return accumulator[0] / accumulator[1]

    def merge(self, a, b):
        return [a[0] + b[0], a[1] + b[1]]


def value_desc(name="v"):
    return ValueStateDescriptor(name, Types.PICKLED_BYTE_ARRAY())


def list_desc(name="l"):
    return ListStateDescriptor(name, Types.PICKLED_BYTE_ARRAY())


def map_desc(name="m"):
    return MapStateDescriptor(name, Types.PICKLED_BYTE_ARRAY(), Types.PICKLED_BYTE_ARRAY())


def reducing_desc(name="r", fn=lambda a, b: a + b):
    return ReducingStateDescriptor(name, fn, Types.LONG())


def agg_desc(name="a", fn=None):
    return AggregatingStateDescriptor(name, fn or SumTimesTen(), Types.LONG())


# -- ValueState ---------------------------------------------------------------------------------

def test_value_state_unset_is_none_and_update_reads_back(backend):
    v = backend.get_partitioned_state(value_desc())
    assert isinstance(v, ValueState)
    backend.set_current_key("a")
    assert v.value() is None
    v.update({"x": 1})
    assert v.value() == {"x": 1}
    v.update(0)
    assert v.value() == 0  # falsy values are values
    v.update("")
    assert v.value() == ""


def test_value_state_update_none_clears(backend):
    v = backend.get_partitioned_state(value_desc())
    backend.set_current_key(1)
    v.update(5)
    v.update(None)
    assert v.value() is None
    assert list(backend.keys_for_state(value_desc())) == []


def test_value_state_clear(backend):
    v = backend.get_partitioned_state(value_desc())
    backend.set_current_key(1)
    v.update(5)
    v.clear()
    assert v.value() is None
    v.clear()  # clearing nothing is fine
    assert v.value() is None


def test_value_state_isolated_per_key(backend):
    v = backend.get_partitioned_state(value_desc())
    for k in ["a", "b", "c"]:
        backend.set_current_key(k)
        v.update(k * 2)
    for k in ["c", "a", "b"]:
        backend.set_current_key(k)
        assert v.value() == k * 2
    assert backend.get_current_key() == "b"


def test_value_state_count_many_updates(backend):
    v = backend.get_partitioned_state(value_desc("count"))
    for i in range(500):
        backend.set_current_key(i % 7)
        cur = v.value()
        v.update(1 if cur is None else cur + 1)
    for k in range(7):
        backend.set_current_key(k)
        assert v.value() == len([i for i in range(500) if i % 7 == k])


@pytest.mark.parametrize("key", [
    "s", 0, -12345678901234567890, 2.5, b"raw", ("t", 1, (2, "x")), None, True,
    frozenset({"a", "b"}), ("a", "a"),
])
def test_value_state_key_types(backend, key):
    v = backend.get_partitioned_state(value_desc())
    backend.set_current_key(key)
    v.update("val")
    backend.set_current_key("other")
    assert v.value() is None
    backend.set_current_key(key)
    assert v.value() == "val"
    assert list(backend.keys_for_state(value_desc())) == [key]


def test_state_objects_are_per_name_and_kind_checked(backend):
    v1 = backend.get_partitioned_state(value_desc("x"))
    v2 = backend.get_partitioned_state(value_desc("x"))
    assert v1 is v2
    with pytest.raises(ValueError, match="already in use"):
        backend.get_partitioned_state(list_desc("x"))


def test_two_states_do_not_interfere(backend):
    a = backend.get_partitioned_state(value_desc("a"))
    b = backend.get_partitioned_state(value_desc("b"))
    backend.set_current_key("k")
    a.update(1)
    b.update(2)
    assert (a.value(), b.value()) == (1, 2)
    a.clear()
    assert (a.value(), b.value()) == (None, 2)


def test_rocksdb_value_is_a_copy_heap_value_is_the_object(backend):
    v = backend.get_partitioned_state(value_desc())
    backend.set_current_key("k")
    stored = [1]
    v.update(stored)
    stored.append(2)  # mutation without update()
    if backend.kind == "heap":
        assert v.value() == [1, 2]  # Flink's heap backend keeps the object
    else:
        assert v.value() == [1]  # Flink's RocksDB backend keeps serialized bytes


# -- ListState ------------------------------------------------------------------------------------

def test_list_state_empty_get_is_empty_iterable(backend):
    l_ = backend.get_partitioned_state(list_desc())
    assert isinstance(l_, ListState)
    backend.set_current_key("a")
    got = l_.get()
    assert got is not None
    assert list(got) == []
    assert list(iter(l_)) == []


def test_list_state_add_add_all_update_clear(backend):
    l_ = backend.get_partitioned_state(list_desc())
    backend.set_current_key("a")
    l_.add(1)
    l_.add(2)
    l_.add_all([3, 4])
    assert list(l_.get()) == [1, 2, 3, 4]
    assert list(l_) == [1, 2, 3, 4]
    l_.update([9, 8])
    assert list(l_.get()) == [9, 8]
    l_.add_all([])
    assert list(l_.get()) == [9, 8]
    l_.update([])
    assert list(l_.get()) == []
    assert list(backend.keys_for_state(list_desc())) == []
    l_.add(7)
    l_.clear()
    assert list(l_.get()) == []


def test_list_state_add_none_is_stored(backend):
    # PyFlink 1.20 keeps a None added to a ListState.
    l_ = backend.get_partitioned_state(list_desc())
    backend.set_current_key("a")
    l_.add(None)
    assert list(l_.get()) == [None]


def test_list_state_update_none_clears_then_raises(backend):
    # PyFlink 1.20: update(None) raises TypeError after clearing.
    l_ = backend.get_partitioned_state(list_desc())
    backend.set_current_key("a")
    l_.add(1)
    with pytest.raises(TypeError):
        l_.update(None)
    assert list(l_.get()) == []


def test_list_state_get_returns_a_snapshot(backend):
    l_ = backend.get_partitioned_state(list_desc())
    backend.set_current_key("a")
    l_.add_all([1, 2])
    got = l_.get()
    l_.add(3)
    assert list(got) == [1, 2]
    assert list(l_.get()) == [1, 2, 3]


def test_list_state_per_key_and_large(backend):
    l_ = backend.get_partitioned_state(list_desc())
    for i in range(300):
        backend.set_current_key(i % 3)
        l_.add(i)
    for k in range(3):
        backend.set_current_key(k)
        assert list(l_.get()) == list(range(k, 300, 3))
    assert sorted(backend.keys_for_state(list_desc())) == [0, 1, 2]


def test_list_state_add_all_accepts_any_iterable(backend):
    l_ = backend.get_partitioned_state(list_desc())
    backend.set_current_key("a")
    l_.add_all(x * 2 for x in range(3))
    l_.update(iter([5, 6]))
    assert list(l_.get()) == [5, 6]


# -- MapState -------------------------------------------------------------------------------------

def test_map_state_basic_operations(backend):
    m = backend.get_partitioned_state(map_desc())
    assert isinstance(m, MapState)
    backend.set_current_key("a")
    assert m.is_empty()
    assert m.get("x") is None
    assert list(m.keys()) == []
    m.put("x", 1)
    m.put("y", 2)
    assert not m.is_empty()
    assert m.get("x") == 1
    assert m.contains("y") and not m.contains("z")
    assert sorted(m.keys()) == ["x", "y"]
    assert sorted(m.values()) == [1, 2]
    assert sorted(m.items()) == [("x", 1), ("y", 2)]
    m.remove("x")
    m.remove("not there")
    assert sorted(m.items()) == [("y", 2)]
    m.clear()
    assert m.is_empty()
    assert list(backend.keys_for_state(map_desc())) == []


def test_map_state_dunder_methods(backend):
    m = backend.get_partitioned_state(map_desc())
    backend.set_current_key("a")
    m["k1"] = "v1"
    m[("t", 1)] = [1, 2]
    assert m["k1"] == "v1"
    assert m[("t", 1)] == [1, 2]
    assert "k1" in m and "nope" not in m
    assert m["missing"] is None  # PyFlink returns None, no KeyError
    assert sorted(iter(m), key=repr) == sorted(["k1", ("t", 1)], key=repr)
    del m["k1"]
    assert "k1" not in m


def test_map_state_none_value(backend):
    # PyFlink 1.20: a None value is stored (items, is_empty) but contains() says False.
    m = backend.get_partitioned_state(map_desc())
    backend.set_current_key("a")
    m.put("x", None)
    assert m.get("x") is None
    assert m.contains("x") is False
    assert m.is_empty() is False
    assert list(m.items()) == [("x", None)]


def test_map_state_put_all_dict_and_pairs(backend):
    m = backend.get_partitioned_state(map_desc())
    backend.set_current_key("a")
    m.put_all({"a": 1, "b": 2})
    m.put_all([("c", 3)])
    m.put_all({})
    assert sorted(m.items()) == [("a", 1), ("b", 2), ("c", 3)]


def test_map_state_remove_while_iterating(backend):
    m = backend.get_partitioned_state(map_desc())
    backend.set_current_key("a")
    m.put_all({i: i * i for i in range(20)})
    for k in m.keys():
        if k % 2:
            m.remove(k)
    assert sorted(m.keys()) == list(range(0, 20, 2))


def test_map_state_isolated_per_key(backend):
    m = backend.get_partitioned_state(map_desc())
    backend.set_current_key("a")
    m.put("x", 1)
    backend.set_current_key("b")
    assert m.get("x") is None and m.is_empty()
    m.put("x", 2)
    backend.set_current_key("a")
    assert m.get("x") == 1


def test_map_state_user_key_types(backend):
    m = backend.get_partitioned_state(map_desc())
    backend.set_current_key("a")
    keys = [1, "1", 1.5, (1, "x"), b"1", None, frozenset([1, 2])]
    for i, k in enumerate(keys):
        m.put(k, i)
    for i, k in enumerate(keys):
        assert m.get(k) == i
    assert sorted(m.values()) == list(range(len(keys)))


# -- ReducingState --------------------------------------------------------------------------------

def test_reducing_state(backend):
    r = backend.get_partitioned_state(reducing_desc())
    assert isinstance(r, ReducingState)
    backend.set_current_key("a")
    assert r.get() is None
    r.add(5)
    assert r.get() == 5
    r.add(6)
    assert r.get() == 11
    backend.set_current_key("b")
    assert r.get() is None
    r.add(1)
    backend.set_current_key("a")
    assert r.get() == 11
    r.clear()
    assert r.get() is None


def test_reducing_state_with_reduce_function_object_and_order(backend):
    class Concat(ReduceFunction):
        def reduce(self, value1, value2):
            return value1 + value2

    r = backend.get_partitioned_state(reducing_desc("r2", Concat()))
    backend.set_current_key("k")
    for s in ["a", "b", "c"]:
        r.add(s)
    assert r.get() == "abc"  # reduce(old, new)


def test_reducing_state_reduce_error_propagates(backend):
    r = backend.get_partitioned_state(reducing_desc())
    backend.set_current_key("k")
    r.add(1)
    with pytest.raises(TypeError):
        r.add(None)  # 1 + None, as in PyFlink
    assert r.get() == 1


# -- AggregatingState -----------------------------------------------------------------------------

def test_aggregating_state(backend):
    a = backend.get_partitioned_state(agg_desc())
    assert isinstance(a, AggregatingState)
    backend.set_current_key("a")
    assert a.get() is None
    a.add(3)
    assert a.get() == 30
    a.add(4)
    assert a.get() == 70
    a.clear()
    assert a.get() is None


def test_aggregating_state_add_none_clears(backend):
    # PyFlink 1.20: AggregatingState.add(None) clears the state.
    a = backend.get_partitioned_state(agg_desc())
    backend.set_current_key("a")
    a.add(3)
    a.add(None)
    assert a.get() is None


def test_aggregating_state_mutable_accumulator(backend):
    a = backend.get_partitioned_state(agg_desc("avg", AvgAgg()))
    for i, k in enumerate(["x", "y", "x", "x", "y"]):
        backend.set_current_key(k)
        a.add(i)
    backend.set_current_key("x")
    assert a.get() == (0 + 2 + 3) / 3
    backend.set_current_key("y")
    assert a.get() == (1 + 4) / 2


# -- keys ---------------------------------------------------------------------------------------

def test_keys_for_state_and_all_keys(backend):
    v = backend.get_partitioned_state(value_desc())
    l_ = backend.get_partitioned_state(list_desc())
    m = backend.get_partitioned_state(map_desc())
    backend.set_current_key("a")
    v.update(1)
    backend.set_current_key("b")
    l_.add_all([1, 2, 3])
    backend.set_current_key("c")
    m.put_all({1: 1, 2: 2})
    backend.set_current_key(("t", 1))
    v.update(2)
    assert sorted(backend.keys_for_state(value_desc()), key=repr) == sorted(
        ["a", ("t", 1)], key=repr)
    assert list(backend.keys_for_state("l")) == ["b"]
    assert list(backend.keys_for_state(map_desc())) == ["c"]
    assert sorted(backend.all_keys(), key=repr) == sorted(["a", "b", "c", ("t", 1)], key=repr)
    assert list(backend.keys_for_state("never-registered")) == []


def test_keys_for_state_allows_modification_while_iterating(backend):
    v = backend.get_partitioned_state(value_desc())
    for k in range(50):
        backend.set_current_key(k)
        v.update(k)
    for k in backend.keys_for_state(value_desc()):
        backend.set_current_key(k)
        if k % 2:
            v.clear()
        else:
            v.update(k + 1000)
    assert sorted(backend.keys_for_state(value_desc())) == list(range(0, 50, 2))
    backend.set_current_key(4)
    assert v.value() == 1004


def test_clear_current_key(backend):
    v = backend.get_partitioned_state(value_desc())
    l_ = backend.get_partitioned_state(list_desc())
    backend.set_current_key("a")
    v.update(1)
    l_.add(1)
    backend.set_current_key("b")
    v.update(2)
    backend.set_current_key("a")
    backend.clear_current_key()
    assert v.value() is None and list(l_.get()) == []
    backend.set_current_key("b")
    assert v.value() == 2


def test_default_namespace_is_void(backend):
    assert backend.get_current_namespace() is VOID_NAMESPACE
    v = backend.get_partitioned_state(value_desc())
    assert v.get_current_namespace() is VOID_NAMESPACE


def test_map_views_are_iterators_like_pyflink(backend):
    m = backend.get_partitioned_state(map_desc())
    backend.set_current_key("a")
    m.put("x", 1)
    assert next(m.keys()) == "x"
    assert next(m.values()) == 1
    assert next(m.items()) == ("x", 1)
    backend.set_current_key("empty")
    assert list(m.keys()) == [] and list(m.items()) == []


def test_map_views_are_bound_to_the_key_current_when_created(backend):
    m = backend.get_partitioned_state(map_desc())
    backend.set_current_key("a")
    m.put("a-key", 1)
    backend.set_current_key("b")
    m.put("b-key", 2)
    backend.set_current_key("a")
    items, keys, values = m.items(), m.keys(), m.values()
    backend.set_current_key("b")
    assert list(items) == [("a-key", 1)]
    assert list(keys) == ["a-key"]
    assert list(values) == [1]


def test_a_key_stored_as_is_is_the_key_set_current_key_would_set(backend):
    """keys_stored_as_is: the key classes a caller may store into `_key` itself (the
    keyed operator's loop over a row of records); for them, the state is the same as
    after set_current_key. RocksDB encodes every key: none."""
    from pyflink_on_spark.datastream.state import ValueStateDescriptor
    from pyflink_on_spark.common.typeinfo import Types
    as_is = backend.keys_stored_as_is()
    if backend.kind != "heap":
        assert as_is == frozenset()
        return
    assert {str, int, bool} <= as_is and tuple not in as_is and list not in as_is
    state = backend.get_partitioned_state(ValueStateDescriptor("v", Types.INT()))
    for key, value in [("a", 1), (1, 2), (None, 3), (b"b", 4)]:
        backend.set_current_key(key)
        state.update(value)
    for key, value in [("a", 1), (1, 2), (None, 3), (b"b", 4)]:
        assert key.__class__ in as_is
        backend._key = key
        assert state.value() == value and backend.get_current_key() == key
