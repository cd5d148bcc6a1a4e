"""MergingWindowSet: in-flight session windows, their state windows, and merge callbacks."""
import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.state import MapStateDescriptor
from pyflink_on_spark.datastream.window import EventTimeSessionWindows, TimeWindow
from pyflink_on_spark.runtime.state.heap import HeapKeyedStateBackend
from pyflink_on_spark.runtime.window.merging_window_set import MergingWindowSet

W = TimeWindow


def _state():
    backend = HeapKeyedStateBackend(128, lambda: 0)
    backend.set_current_key("k")
    return backend.get_partitioned_state(
        MapStateDescriptor("merging-window-set", Types.PICKLED_BYTE_ARRAY(),
                           Types.PICKLED_BYTE_ARRAY()))


class Merges:
    def __init__(self):
        self.calls = []

    def __call__(self, merge_result, merged_windows, state_window, merged_state_windows):
        self.calls.append((merge_result, list(merged_windows), state_window,
                           list(merged_state_windows)))


def test_new_windows_are_their_own_state_windows():
    windows = MergingWindowSet(EventTimeSessionWindows(3), _state())
    merges = Merges()
    assert windows.add_window(W(0, 3), merges) == W(0, 3)
    assert windows.add_window(W(10, 13), merges) == W(10, 13)
    assert windows.mapping == {W(0, 3): W(0, 3), W(10, 13): W(10, 13)}
    assert merges.calls == []


def test_a_window_inside_an_existing_one_merges_without_moving_state():
    windows = MergingWindowSet(EventTimeSessionWindows(3), _state())
    merges = Merges()
    windows.add_window(W(0, 5), merges)
    assert windows.add_window(W(1, 4), merges) == W(0, 5)
    assert windows.mapping == {W(0, 5): W(0, 5)}
    assert merges.calls == []


def test_extending_a_window_keeps_its_state_window():
    windows = MergingWindowSet(EventTimeSessionWindows(3), _state())
    merges = Merges()
    windows.add_window(W(0, 3), merges)
    assert windows.add_window(W(2, 5), merges) == W(0, 5)
    assert windows.mapping == {W(0, 5): W(0, 3)}
    assert merges.calls == [(W(0, 5), [W(0, 3)], W(0, 3), [])]


def test_a_bridging_window_merges_two_sessions_into_one_state_window():
    windows = MergingWindowSet(EventTimeSessionWindows(3), _state())
    merges = Merges()
    windows.add_window(W(0, 3), merges)
    windows.add_window(W(4, 7), merges)
    assert windows.add_window(W(2, 5), merges) == W(0, 7)
    # PyFlink's set order picks [0, 3) as the state window (it printed [0, 4, 2])
    assert windows.mapping == {W(0, 7): W(0, 3)}
    assert merges.calls == [(W(0, 7), [W(0, 3), W(4, 7)], W(0, 3), [W(4, 7)])]


def test_persist_and_reload_through_map_state():
    state = _state()
    windows = MergingWindowSet(EventTimeSessionWindows(3), state)
    windows.add_window(W(0, 3), Merges())
    windows.add_window(W(2, 5), Merges())
    windows.persist()
    again = MergingWindowSet(EventTimeSessionWindows(3), state)
    assert again.mapping == {W(0, 5): W(0, 3)}
    assert again.get_state_window(W(0, 5)) == W(0, 3)
    assert again.get_state_window(W(0, 3)) is None
    again.retire_window(W(0, 5))
    again.persist()
    assert dict(state.items()) == {}
    with pytest.raises(Exception, match="is not in in-flight window set"):
        again.retire_window(W(0, 5))


def test_an_in_flight_window_added_again_keeps_its_state_window():
    windows = MergingWindowSet(EventTimeSessionWindows(3), _state())
    windows.add_window(W(0, 3), Merges())
    windows.add_window(W(2, 5), Merges())
    assert windows.add_window(W(0, 5), Merges()) == W(0, 5)
    assert windows.mapping == {W(0, 5): W(0, 3)}
