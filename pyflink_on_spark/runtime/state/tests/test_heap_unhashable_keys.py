"""Keys Python cannot hash (a key selector returning a list) key the heap state as PyFlink
keys state: by the key's serialized form."""
from pyflink_on_spark.datastream.state import ValueStateDescriptor
from pyflink_on_spark.runtime.state.heap import HeapKeyedStateBackend


def test_list_keys_hold_separate_state_and_come_back_as_given():
    backend = HeapKeyedStateBackend()
    state = backend.get_partitioned_state(ValueStateDescriptor("v", None))
    for key, value in [(["a", 1], 1), (["b", 1], 2), (["a", 1], 3)]:
        backend.set_current_key(key)
        state.update((state.value() or 0) + value)
    assert backend.get_current_key() == ["a", 1]
    keys = list(backend.keys_for_state("v"))
    assert keys == [["a", 1], ["b", 1]]
    totals = {}
    for key in keys:
        backend.set_current_key(key)
        totals[tuple(key)] = state.value()
    assert totals == {("a", 1): 4, ("b", 1): 2}


def test_hashable_keys_are_stored_unchanged():
    backend = HeapKeyedStateBackend()
    state = backend.get_partitioned_state(ValueStateDescriptor("v", None))
    backend.set_current_key(("t", 1))
    state.update(5)
    assert list(backend.keys_for_state("v")) == [("t", 1)]
