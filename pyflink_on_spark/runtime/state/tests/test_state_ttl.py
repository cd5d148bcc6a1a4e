"""State TTL with a fake processing-time clock, on both backends."""
import pytest

from pyflink_on_spark.common.time import Time
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.functions import AggregateFunction
from pyflink_on_spark.datastream.state import (
    AggregatingStateDescriptor, ListStateDescriptor, MapStateDescriptor,
    ReducingStateDescriptor, StateTtlConfig, ValueStateDescriptor)
from pyflink_on_spark.runtime.state import VOID_NAMESPACE

TTL = 100


def ttl_config(return_expired=False, read_and_write=False, ttl=TTL):
    b = StateTtlConfig.new_builder(Time.milliseconds(ttl))
    if return_expired:
        b.return_expired_if_not_cleaned_up()
    if read_and_write:
        b.update_ttl_on_read_and_write()
    return b.build()


def with_ttl(descriptor, **kw):
    descriptor.enable_time_to_live(ttl_config(**kw))
    return descriptor


def value_desc(**kw):
    return with_ttl(ValueStateDescriptor("v", Types.PICKLED_BYTE_ARRAY()), **kw)


def list_desc(**kw):
    return with_ttl(ListStateDescriptor("l", Types.PICKLED_BYTE_ARRAY()), **kw)


def map_desc(**kw):
    return with_ttl(MapStateDescriptor("m", Types.PICKLED_BYTE_ARRAY(),
                                       Types.PICKLED_BYTE_ARRAY()), **kw)


def reducing_desc(**kw):
    return with_ttl(ReducingStateDescriptor("r", lambda a, b: a + b, Types.LONG()), **kw)


class Sum(AggregateFunction):
    def create_accumulator(self):
        return 0

    def add(self, value, accumulator):
        return accumulator + value

    def get_result(self, accumulator):
        return accumulator

    def merge(self, a, b):
        return a + b


def agg_desc(**kw):
    return with_ttl(AggregatingStateDescriptor("a", Sum(), Types.LONG()), **kw)


# -- ValueState ---------------------------------------------------------------------------------

def test_value_expires_at_ttl(backend, clock):
    v = backend.get_partitioned_state(value_desc())
    backend.set_current_key("k")
    v.update("x")
    clock.advance(TTL - 1)
    assert v.value() == "x"
    clock.advance(1)  # ts + ttl <= now: expired
    assert v.value() is None
    clock.advance(-TTL)  # even if time went back: the expired read removed the value
    assert v.value() is None


def test_value_on_create_and_write_reads_do_not_extend(backend, clock):
    v = backend.get_partitioned_state(value_desc())
    backend.set_current_key("k")
    v.update("x")
    for _ in range(3):
        clock.advance(40)
        v.value()
    # 120 ms after the write
    assert v.value() is None


def test_value_on_read_and_write_reads_extend(backend, clock):
    v = backend.get_partitioned_state(value_desc(read_and_write=True))
    backend.set_current_key("k")
    v.update("x")
    for _ in range(5):
        clock.advance(60)
        assert v.value() == "x"
    clock.advance(TTL)
    assert v.value() is None


def test_value_writes_extend(backend, clock):
    v = backend.get_partitioned_state(value_desc())
    backend.set_current_key("k")
    v.update(1)
    clock.advance(60)
    v.update(2)
    clock.advance(60)
    assert v.value() == 2


def test_value_return_expired_if_not_cleaned_up_returns_once(backend, clock):
    v = backend.get_partitioned_state(value_desc(return_expired=True))
    backend.set_current_key("k")
    v.update("old")
    clock.advance(TTL + 5)
    assert v.value() == "old"  # still stored: returned, and cleaned up by this read
    assert v.value() is None


def test_ttl_is_per_key(backend, clock):
    v = backend.get_partitioned_state(value_desc())
    backend.set_current_key("a")
    v.update(1)
    clock.advance(60)
    backend.set_current_key("b")
    v.update(2)
    clock.advance(60)
    assert v.value() == 2
    backend.set_current_key("a")
    assert v.value() is None


# -- ListState ----------------------------------------------------------------------------------

def test_list_elements_expire_individually(backend, clock):
    l_ = backend.get_partitioned_state(list_desc())
    backend.set_current_key("k")
    l_.add("a")
    clock.advance(60)
    l_.add_all(["b", "c"])
    clock.advance(50)
    assert list(l_.get()) == ["b", "c"]
    clock.advance(60)
    assert list(l_.get()) == []
    assert list(backend.keys_for_state(list_desc())) == []  # all expired: cleared


def test_list_update_resets_timestamps(backend, clock):
    l_ = backend.get_partitioned_state(list_desc())
    backend.set_current_key("k")
    l_.add("a")
    clock.advance(90)
    l_.update(["x", "y"])
    clock.advance(90)
    assert list(l_.get()) == ["x", "y"]


def test_list_read_and_write_extends_unexpired(backend, clock):
    l_ = backend.get_partitioned_state(list_desc(read_and_write=True))
    backend.set_current_key("k")
    l_.add("a")
    clock.advance(60)
    l_.add("b")
    clock.advance(50)  # a expired, b not
    assert list(l_.get()) == ["b"]
    clock.advance(90)  # b was refreshed by the read
    assert list(l_.get()) == ["b"]


def test_list_return_expired(backend, clock):
    l_ = backend.get_partitioned_state(list_desc(return_expired=True))
    backend.set_current_key("k")
    l_.add("a")
    clock.advance(60)
    l_.add("b")
    clock.advance(50)
    assert list(l_.get()) == ["a", "b"]  # "a" expired but not cleaned up
    clock.advance(100)
    assert list(l_.get()) == ["a", "b"]  # everything expired: returned once, then cleared
    assert list(l_.get()) == []


def test_list_merge_keeps_element_timestamps(backend, clock):
    l_ = backend.get_partitioned_state(list_desc())
    backend.set_current_key("k")
    l_.set_current_namespace("w1")
    l_.add("old")
    clock.advance(60)
    l_.set_current_namespace("w2")
    l_.add("new")
    l_.merge_namespaces("w3", ["w1", "w2"])
    l_.set_current_namespace("w3")
    assert list(l_.get()) == ["old", "new"]
    clock.advance(50)
    assert list(l_.get()) == ["new"]


# -- MapState -----------------------------------------------------------------------------------

def test_map_entries_expire_individually(backend, clock):
    m = backend.get_partitioned_state(map_desc())
    backend.set_current_key("k")
    m.put("a", 1)
    clock.advance(60)
    m.put("b", 2)
    clock.advance(50)
    assert m.get("a") is None
    assert m.get("b") == 2
    assert m.contains("b") and not m.contains("a")
    assert sorted(m.items()) == [("b", 2)]
    assert list(m.keys()) == ["b"]
    assert list(m.values()) == [2]
    assert not m.is_empty()
    clock.advance(60)
    assert m.is_empty()
    assert list(m.items()) == []


def test_map_put_all_and_overwrite_refresh(backend, clock):
    m = backend.get_partitioned_state(map_desc())
    backend.set_current_key("k")
    m.put_all({"a": 1, "b": 2})
    clock.advance(90)
    m.put("a", 10)
    clock.advance(20)
    assert sorted(m.items()) == [("a", 10)]


def test_map_read_and_write(backend, clock):
    m = backend.get_partitioned_state(map_desc(read_and_write=True))
    backend.set_current_key("k")
    m.put("a", 1)
    m.put("b", 2)
    clock.advance(80)
    assert m.get("a") == 1  # refreshes a only
    clock.advance(80)
    assert sorted(m.items()) == [("a", 1)]


def test_map_return_expired(backend, clock):
    m = backend.get_partitioned_state(map_desc(return_expired=True))
    backend.set_current_key("k")
    m.put("a", 1)
    m.put("b", 2)
    clock.advance(TTL)
    assert m.get("a") == 1
    assert m.get("a") is None
    assert sorted(m.items()) == [("b", 2)]
    assert list(m.items()) == []


# -- Reducing / Aggregating ---------------------------------------------------------------------

def test_reducing_state_ttl(backend, clock):
    r = backend.get_partitioned_state(reducing_desc())
    backend.set_current_key("k")
    r.add(1)
    clock.advance(60)
    r.add(2)  # write refreshes
    clock.advance(60)
    assert r.get() == 3
    clock.advance(TTL)
    r.add(10)  # expired accumulator is dropped before adding
    assert r.get() == 10
    clock.advance(TTL)
    assert r.get() is None


def test_aggregating_state_ttl(backend, clock):
    a = backend.get_partitioned_state(agg_desc())
    backend.set_current_key("k")
    a.add(1)
    a.add(2)
    assert a.get() == 3
    clock.advance(TTL)
    assert a.get() is None
    a.add(5)
    assert a.get() == 5
    clock.advance(TTL)
    a.add(7)
    assert a.get() == 7


def test_aggregating_state_return_expired(backend, clock):
    a = backend.get_partitioned_state(agg_desc(return_expired=True))
    backend.set_current_key("k")
    a.add(4)
    clock.advance(TTL + 1)
    assert a.get() == 4
    assert a.get() is None


def test_reducing_merge_drops_expired_sources(backend, clock):
    r = backend.get_partitioned_state(reducing_desc())
    backend.set_current_key("k")
    r.set_current_namespace("old")
    r.add(100)
    clock.advance(60)
    r.set_current_namespace("new")
    r.add(1)
    r.set_current_namespace("target")
    r.add(10)
    clock.advance(50)  # "old" expired
    r.merge_namespaces("target", ["old", "new"])
    r.set_current_namespace("target")
    assert r.get() == 11
    r.set_current_namespace("old")
    assert r.get() is None


def test_aggregating_merge_with_ttl(backend, clock):
    a = backend.get_partitioned_state(agg_desc())
    backend.set_current_key("k")
    for ns, x in [("w1", 1), ("w2", 2)]:
        a.set_current_namespace(ns)
        a.add(x)
    a.merge_namespaces("w1", ["w2"])
    a.set_current_namespace("w1")
    assert a.get() == 3
    a.set_current_namespace(VOID_NAMESPACE)


# -- cleanup, config ------------------------------------------------------------------------

def test_cleanup_expired_removes_everything_expired(backend, clock):
    v = backend.get_partitioned_state(value_desc())
    l_ = backend.get_partitioned_state(list_desc())
    m = backend.get_partitioned_state(map_desc())
    for k in range(10):
        backend.set_current_key(k)
        v.update(k)
        l_.add(k)
        m.put("x", k)
    clock.advance(60)
    for k in range(5):
        backend.set_current_key(k)
        v.update(k)
        l_.add(k + 100)
        m.put("y", k)
    clock.advance(50)
    removed = backend.cleanup_expired()
    assert removed == 5 + 10 + 10
    assert sorted(backend.keys_for_state(value_desc())) == list(range(5))
    assert sorted(backend.keys_for_state(list_desc())) == list(range(5))
    assert sorted(backend.keys_for_state(map_desc())) == list(range(5))
    backend.set_current_key(3)
    assert list(l_.get()) == [103]
    assert sorted(m.items()) == [("y", 3)]
    assert backend.cleanup_expired() == 0


def test_disabled_update_type_means_no_ttl(backend, clock):
    d = ValueStateDescriptor("v", Types.PICKLED_BYTE_ARRAY())
    d.enable_time_to_live(StateTtlConfig.new_builder(Time.milliseconds(10))
                          .set_update_type(StateTtlConfig.UpdateType.Disabled).build())
    v = backend.get_partitioned_state(d)
    backend.set_current_key("k")
    v.update(1)
    clock.advance(10_000)
    assert v.value() == 1


def test_ttl_given_in_seconds(backend, clock):
    d = ValueStateDescriptor("v", Types.PICKLED_BYTE_ARRAY())
    d.enable_time_to_live(StateTtlConfig.new_builder(Time.seconds(2)).build())
    v = backend.get_partitioned_state(d)
    backend.set_current_key("k")
    v.update(1)
    clock.advance(1999)
    assert v.value() == 1
    clock.advance(1)
    assert v.value() is None


def test_non_positive_ttl_is_rejected(backend):
    d = ValueStateDescriptor("v", Types.PICKLED_BYTE_ARRAY())
    d.enable_time_to_live(StateTtlConfig.new_builder(Time.milliseconds(0)).build())
    with pytest.raises(ValueError, match="positive"):
        backend.get_partitioned_state(d)
