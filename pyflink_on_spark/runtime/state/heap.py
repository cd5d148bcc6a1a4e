"""HeapKeyedStateBackend: keyed state in Python dicts (HashMapStateBackend).

Layout per state: ``namespace -> {key -> stored}``, like Flink's heap state tables. Every
state object caches the dict of its current namespace (``_map``), so the per-record path is
``self._map.get(self._b._key)``: no allocation, no hashing beyond the user's key.

Stored values:
  value / reducing / aggregating: the value / accumulator itself (never None: None means
  absent); list: a non-empty Python list; map: a non-empty dict.
As in Flink's heap backend, values are stored by reference (a value mutated after update()
is mutated in the state too).
"""
from __future__ import annotations

import os
import pickle
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from pyflink_on_spark.datastream.state import (
    AggregatingState, ListState, MapState, ReducingState, ValueState)
from pyflink_on_spark.private_files import open_private
from pyflink_on_spark.runtime.state.backend import (
    AGGREGATING, LIST, MAP, REDUCING, VALUE, VOID_NAMESPACE, KeyedStateBackend,
    MergingStateMixin)
from pyflink_on_spark.runtime.state.ttl import TtlStateBase

_EMPTY = ()
_SNAPSHOT_FILE = "heap-keyed-state.pickle"


class _HeapKvState(object):
    """Namespace handling shared by all heap states."""

    def __init__(self, backend: 'HeapKeyedStateBackend', name: str):
        self._b = backend
        self._name = name
        self._tables = {VOID_NAMESPACE: {}}
        self._ns = VOID_NAMESPACE
        self._map = self._tables[VOID_NAMESPACE]

    def set_current_namespace(self, namespace) -> None:
        current = self._ns
        if namespace is current:
            return
        tables = self._tables
        old = self._map
        if not old and current is not VOID_NAMESPACE and tables.get(current) is old:
            del tables[current]
        m = tables.get(namespace)
        if m is None:
            m = tables[namespace] = {}
        self._ns = namespace
        self._map = m

    def get_current_namespace(self):
        return self._ns

    def _ns_reset(self) -> None:
        """Re-resolves the current namespace's table after the tables were replaced."""
        ns = self._ns
        self._ns = VOID_NAMESPACE
        self._map = self._tables[VOID_NAMESPACE]
        self.set_current_namespace(ns)

    def clear(self) -> None:
        self._map.pop(self._b._key, None)

    # merge hooks (used by list / reducing / aggregating)
    def _merge_take(self):
        return self._map.pop(self._b._key, None)


class HeapValueState(_HeapKvState, ValueState):

    def value(self):
        return self._map.get(self._b._key)

    def update(self, value) -> None:
        if value is None:
            self._map.pop(self._b._key, None)
        else:
            self._map[self._b._key] = value


class HeapListState(_HeapKvState, MergingStateMixin, ListState):

    def get(self):
        stored = self._map.get(self._b._key)
        if stored is None:
            return []
        return list(stored)

    def add(self, value) -> None:
        m = self._map
        key = self._b._key
        stored = m.get(key)
        if stored is None:
            m[key] = [value]
        else:
            stored.append(value)

    def add_all(self, values) -> None:
        values = list(values)
        if not values:
            return
        m = self._map
        key = self._b._key
        stored = m.get(key)
        if stored is None:
            m[key] = values
        else:
            stored.extend(values)

    def update(self, values) -> None:
        m = self._map
        key = self._b._key
        m.pop(key, None)
        values = list(values)
        if values:
            m[key] = values

    def _merge_combine(self, a, b):
        a.extend(b)
        return a

    def _merge_into_current(self, merged):
        self.add_all(merged)


class HeapMapState(_HeapKvState, MapState):

    def get(self, key):
        stored = self._map.get(self._b._key)
        if stored is None:
            return None
        return stored.get(key)

    def put(self, key, value) -> None:
        m = self._map
        k = self._b._key
        stored = m.get(k)
        if stored is None:
            m[k] = {key: value}
        else:
            stored[key] = value

    def put_all(self, dict_value) -> None:
        items = dict_value.items() if hasattr(dict_value, "items") else dict_value
        m = self._map
        k = self._b._key
        stored = m.get(k)
        new = stored if stored is not None else {}
        for uk, uv in items:
            new[uk] = uv
        if stored is None and new:
            m[k] = new

    def remove(self, key) -> None:
        m = self._map
        k = self._b._key
        stored = m.get(k)
        if stored is not None:
            stored.pop(key, None)
            if not stored:
                del m[k]

    def contains(self, key) -> bool:
        stored = self._map.get(self._b._key)
        return stored is not None and stored.get(key) is not None

    # Iterators over a snapshot, as PyFlink's (single pass; changing the map meanwhile is
    # allowed).
    def items(self):
        stored = self._map.get(self._b._key)
        return iter(list(stored.items()) if stored else _EMPTY)

    def keys(self):
        stored = self._map.get(self._b._key)
        return iter(list(stored) if stored else _EMPTY)

    def values(self):
        stored = self._map.get(self._b._key)
        return iter(list(stored.values()) if stored else _EMPTY)

    def is_empty(self) -> bool:
        return not self._map.get(self._b._key)


class HeapReducingState(_HeapKvState, MergingStateMixin, ReducingState):

    def __init__(self, backend, name, reduce_function):
        super().__init__(backend, name)
        self._reduce = reduce_function.reduce

    def get(self):
        return self._map.get(self._b._key)

    def add(self, value) -> None:
        m = self._map
        key = self._b._key
        current = m.get(key)
        if current is None:
            if value is not None:
                m[key] = value
            return
        result = self._reduce(current, value)
        if result is None:
            del m[key]
        else:
            m[key] = result

    def _merge_combine(self, a, b):
        return self._reduce(a, b)

    def _merge_into_current(self, merged):
        m = self._map
        key = self._b._key
        current = m.get(key)
        result = merged if current is None else self._reduce(current, merged)
        if result is None:
            m.pop(key, None)
        else:
            m[key] = result


class HeapAggregatingState(_HeapKvState, MergingStateMixin, AggregatingState):

    def __init__(self, backend, name, agg_function):
        super().__init__(backend, name)
        self._agg = agg_function
        self._create = agg_function.create_accumulator
        self._add = agg_function.add
        self._result = agg_function.get_result

    @property
    def aggregate_function(self):
        """The AggregateFunction this state folds with (an operator inlining add reads its
        create_accumulator and add once)."""
        return self._agg

    def get(self):
        acc = self._map.get(self._b._key)
        if acc is None:
            return None
        return self._result(acc)

    def add(self, value) -> None:
        m = self._map
        key = self._b._key
        if value is None:
            m.pop(key, None)
            return
        acc = m.get(key)
        if acc is None:
            acc = self._create()
        acc = self._add(value, acc)
        if acc is None:
            m.pop(key, None)
        else:
            m[key] = acc

    def _merge_combine(self, a, b):
        return self._agg.merge(a, b)

    def _merge_into_current(self, merged):
        m = self._map
        key = self._b._key
        current = m.get(key)
        result = merged if current is None else self._agg.merge(current, merged)
        if result is None:
            m.pop(key, None)
        else:
            m[key] = result


_CLASSES = {VALUE: HeapValueState, LIST: HeapListState, MAP: HeapMapState}


_PLAIN_KEY_TYPES = frozenset((str, int, bytes, bool, float, type(None)))


class UnhashableKey(object):
    """A key Python cannot hash (a key selector returning a list, a dict...): PyFlink keys
    state by the key's serialized bytes, so such keys work there; here the key's pickle
    stands in for it in the state tables."""

    __slots__ = ("key", "_data")

    def __init__(self, key) -> None:
        self.key = key
        self._data = pickle.dumps(key, protocol=4)

    def __eq__(self, other) -> bool:
        return type(other) is UnhashableKey and other._data == self._data

    def __hash__(self) -> int:
        return hash(self._data)

    def __getstate__(self):
        return (self.key, self._data)

    def __setstate__(self, state) -> None:
        self.key, self._data = state


def _table_key(key):
    try:
        hash(key)
        return key
    except TypeError:
        return UnhashableKey(key)


def _user_key(key):
    return key.key if type(key) is UnhashableKey else key


class HeapKeyedStateBackend(KeyedStateBackend):
    """Keyed state in memory."""

    def __init__(self, max_parallelism: int = 128, clock: Callable[[], int] = None):
        if clock is None:
            from pyflink_on_spark.runtime.context import wall_clock_ms
            clock = wall_clock_ms
        super().__init__(max_parallelism, clock)
        self._key = None
        self._raw = {}  # name -> raw heap state (below TTL decorators)
        self._restored = None  # state read by restore(), installed when a state is created

    def discard_ended_keys(self) -> None:
        for raw in self._raw.values():
            tables = raw._tables
            void = tables[VOID_NAMESPACE]
            if len(tables) == 1:   # no namespace but the void one: nothing to re-resolve
                if void:
                    void.clear()
                continue
            void.clear()
            raw._tables = {VOID_NAMESPACE: void}
            raw._ns_reset()

    # The hot path: a plain attribute store for the usual key types.
    def set_current_key(self, key) -> None:
        if type(key) not in _PLAIN_KEY_TYPES:
            key = _table_key(key)
        self._key = key

    def get_current_key(self):
        key = self._key
        return key.key if type(key) is UnhashableKey else key

    def keys_stored_as_is(self) -> frozenset:
        if type(self).set_current_key is not HeapKeyedStateBackend.set_current_key:
            return frozenset()
        return _PLAIN_KEY_TYPES

    def _create_state(self, kind, name, descriptor):
        if kind == REDUCING:
            state = HeapReducingState(self, name, descriptor.get_reduce_function())
        elif kind == AGGREGATING:
            state = HeapAggregatingState(self, name, descriptor.get_agg_function())
        else:
            state = _CLASSES[kind](self, name)
        self._raw[name] = state
        if self._restored:
            self._install(name, state)
        return state

    def keys_for_state(self, descriptor_or_name, namespace=VOID_NAMESPACE) -> Iterator:
        raw = self._raw.get(self._name_of(descriptor_or_name))
        if raw is None:
            return iter(_EMPTY)
        table = raw._tables.get(namespace)
        return iter([_user_key(k) for k in table]) if table else iter(_EMPTY)

    def _keys_any_namespace(self, name):
        raw = self._raw.get(name)
        if raw is None:
            return
        for table in list(raw._tables.values()):
            yield from [_user_key(k) for k in table]

    def namespaces_for_state(self, descriptor_or_name) -> list:
        """Namespaces under which state ``descriptor_or_name`` holds anything."""
        raw = self._raw.get(self._name_of(descriptor_or_name))
        if raw is None:
            return []
        return [ns for ns, table in raw._tables.items() if table]

    def cleanup_expired(self) -> int:
        now = self.clock()
        removed = 0
        for name, state in self._states.items():
            if not isinstance(state, TtlStateBase):
                continue
            ttl = state.settings.ttl
            kind = self._kinds[name]
            for table in self._raw[name]._tables.values():
                for key, stored in list(table.items()):
                    if kind == LIST:
                        kept = [e for e in stored if e[1] + ttl > now]
                        removed += len(stored) - len(kept)
                        if not kept:
                            del table[key]
                        elif len(kept) != len(stored):
                            table[key] = kept
                    elif kind == MAP:
                        for uk, e in list(stored.items()):
                            if e[1] + ttl <= now:
                                del stored[uk]
                                removed += 1
                        if not stored:
                            del table[key]
                    elif stored[1] + ttl <= now:
                        del table[key]
                        removed += 1
        return removed

    # -- snapshots ------------------------------------------------------------------------------

    def export_tables(self) -> Dict[str, dict]:
        """All state: name -> namespace -> key -> stored value (the live tables, not
        copies; namespaces without entries left out)."""
        return {name: {ns: table for ns, table in raw._tables.items() if table}
                for name, raw in self._raw.items()}

    def import_tables(self, data: Dict[str, dict]) -> None:
        """Replaces all state with ``data`` (as export_tables gives it; copied). States
        not created yet get theirs when they are, as restore() does."""
        self._restored = {name: {ns: dict(table) for ns, table in tables.items()}
                          for name, tables in data.items()}
        for name, raw in self._raw.items():
            raw._tables = {VOID_NAMESPACE: {}}
            raw._ns_reset()
            self._install(name, raw)

    # Checkpoints of unbounded jobs: the tables travel inside the operator's snapshot.
    checkpoint_kind = "heap"

    def snapshot_to_store(self, store, version: int, state_id: str, subtask: int) -> dict:
        return {"kind": "heap", "data": self.export_tables(),
                "declarations": self.state_declarations()}

    def restore_from_store(self, store, version: int, state_id: str,
                           parts: List[Tuple[int, dict]], keep) -> None:
        self.restore_declarations([description for _, description in parts])
        tables = [description["data"] for _, description in parts]
        if keep is None and len(tables) == 1:
            self.import_tables(tables[0])
        else:   # rescaled: the keys this subtask owns, from every old subtask
            self.import_tables(merge_tables(tables, keep))

    def snapshot(self, path: str) -> None:
        """Writes all state into the new directory ``path`` (one pickle file; cloudpickle for
        values pickle cannot handle)."""
        data = self.export_tables()
        try:
            payload = pickle.dumps(data, 5)
        except Exception:
            import cloudpickle
            payload = cloudpickle.dumps(data, 5)
        os.makedirs(path, mode=0o700)    # a pickle, loaded by restore(): this user's only
        tmp = os.path.join(path, _SNAPSHOT_FILE + ".tmp")
        with open_private(tmp, "xb") as f:
            f.write(payload)
        os.replace(tmp, os.path.join(path, _SNAPSHOT_FILE))

    def restore(self, path: str) -> None:
        """Replaces all state with a snapshot taken by ``snapshot``; states not obtained yet
        get their data when they are."""
        with open(os.path.join(path, _SNAPSHOT_FILE), "rb") as f:
            data = pickle.load(f)
        self._restored = data
        for name, raw in self._raw.items():
            raw._tables = {VOID_NAMESPACE: {}}
            raw._ns_reset()
            self._install(name, raw)

    def _install(self, name, raw):
        data = self._restored
        if not data or name not in data:
            return
        tables = data.pop(name)
        raw._tables = {VOID_NAMESPACE: {}}
        raw._tables.update(tables)
        raw._ns_reset()

    def close(self) -> None:
        self._closed = True
        for raw in self._raw.values():
            raw._tables = {VOID_NAMESPACE: {}}
            raw._ns_reset()

    def __repr__(self):
        return "HeapKeyedStateBackend(states=%s)" % sorted(self._raw)


def merge_tables(parts: List[Dict[str, dict]], keep: Optional[Callable[[Any], bool]]
                 ) -> Dict[str, dict]:
    """Several export_tables() results in one, with only the keys ``keep`` accepts (None:
    all): the state a subtask takes from every old subtask after rescaling."""
    merged: Dict[str, dict] = {}
    for data in parts:
        for name, tables in data.items():
            target = merged.setdefault(name, {})
            for ns, table in tables.items():
                into = target.setdefault(ns, {})
                for key, stored in table.items():
                    if keep is None or keep(key):
                        into[key] = stored
    return merged
