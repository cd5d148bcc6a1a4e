"""Broadcast (operator) state: one dict per state name, replicated in every subtask."""
from __future__ import annotations

from typing import Dict

from pyflink_on_spark.datastream.state import (
    BroadcastState, MapStateDescriptor, OperatorStateStore, ReadOnlyBroadcastState)


class HeapBroadcastState(BroadcastState):
    """Read/write broadcast state (the broadcast side of a broadcast connection)."""

    def __init__(self, name: str):
        self.name = name
        self._data = {}  # type: Dict

    def get(self, key):
        return self._data.get(key)

    def contains(self, key) -> bool:
        return key in self._data

    # iterators over a snapshot, as PyFlink's
    def items(self):
        return iter(list(self._data.items()))

    def keys(self):
        return iter(list(self._data))

    def values(self):
        return iter(list(self._data.values()))

    def is_empty(self) -> bool:
        return not self._data

    def clear(self) -> None:
        self._data.clear()

    def put(self, key, value) -> None:
        self._data[key] = value

    def put_all(self, dict_value) -> None:
        items = dict_value.items() if hasattr(dict_value, "items") else dict_value
        for k, v in items:
            self._data[k] = v

    def remove(self, key) -> None:
        self._data.pop(key, None)

    def read_only(self) -> 'ReadOnlyBroadcastStateView':
        return ReadOnlyBroadcastStateView(self)


class ReadOnlyBroadcastStateView(ReadOnlyBroadcastState):
    """Read access to a HeapBroadcastState (the non-broadcast side). Writing raises."""

    def __init__(self, state: HeapBroadcastState):
        self._state = state

    def get(self, key):
        return self._state.get(key)

    def contains(self, key) -> bool:
        return self._state.contains(key)

    def items(self):
        return self._state.items()

    def keys(self):
        return self._state.keys()

    def values(self):
        return self._state.values()

    def is_empty(self) -> bool:
        return self._state.is_empty()

    def clear(self) -> None:
        raise RuntimeError("The broadcast state is read-only on the non-broadcast side.")


class HeapOperatorStateStore(OperatorStateStore):
    """Broadcast states of one operator instance, by name."""

    def __init__(self):
        self._states = {}  # type: Dict[str, HeapBroadcastState]

    def get_broadcast_state(self, state_descriptor: MapStateDescriptor) -> HeapBroadcastState:
        if not isinstance(state_descriptor, MapStateDescriptor):
            raise TypeError("Broadcast state is described by a MapStateDescriptor, got %r"
                            % (state_descriptor,))
        state = self._states.get(state_descriptor.name)
        if state is None:
            state = self._states[state_descriptor.name] = HeapBroadcastState(
                state_descriptor.name)
        return state

    def get_read_only_broadcast_state(
            self, state_descriptor: MapStateDescriptor) -> ReadOnlyBroadcastStateView:
        return self.get_broadcast_state(state_descriptor).read_only()

    def snapshot(self) -> Dict[str, dict]:
        return {name: dict(s._data) for name, s in self._states.items()}

    def restore(self, data: Dict[str, dict]) -> None:
        for name, values in data.items():
            state = self._states.get(name)
            if state is None:
                state = self._states[name] = HeapBroadcastState(name)
            state._data = dict(values)
