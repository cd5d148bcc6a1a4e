"""The keyed state backend contract shared by the heap and the RocksDB backends.

A backend holds the keyed state of one keyed operator instance. The operator sets the current
key before it calls the user function (``set_current_key``); state objects handed out by
``get_partitioned_state`` always act on the current key and on their current namespace.

Namespaces: every state object has its own current namespace (as Flink's InternalKvState),
VOID_NAMESPACE unless changed. ``KeyedStateBackend.set_current_namespace`` sets it on every
state of the backend at once (and on states created later); ``state.set_current_namespace``
changes one state only. Window operators use namespaces for windows and
``merge_namespaces`` for merging (session) windows.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple

from pyflink_on_spark.datastream.state import (
    AggregatingStateDescriptor, ListStateDescriptor, MapStateDescriptor,
    ReducingStateDescriptor, StateDescriptor, ValueStateDescriptor)


class VoidNamespace(object):
    """The namespace of state that is not scoped to a window. A singleton."""

    __slots__ = ()
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self):
        return "VoidNamespace"

    def __reduce__(self):
        return (VoidNamespace, ())

    def __eq__(self, other):
        return other is self

    def __hash__(self):
        return 0x5A17


VOID_NAMESPACE = VoidNamespace()
VoidNamespace.INSTANCE = VOID_NAMESPACE

# State kinds.
VALUE = "value"
LIST = "list"
MAP = "map"
REDUCING = "reducing"
AGGREGATING = "aggregating"

_KIND_NAMES = {
    VALUE: "value state", LIST: "list state", MAP: "map state",
    REDUCING: "reducing state", AGGREGATING: "aggregating state",
}


def state_kind(descriptor: StateDescriptor) -> str:
    """The kind of state a descriptor describes."""
    if isinstance(descriptor, ValueStateDescriptor):
        return VALUE
    if isinstance(descriptor, ListStateDescriptor):
        return LIST
    if isinstance(descriptor, MapStateDescriptor):
        return MAP
    if isinstance(descriptor, ReducingStateDescriptor):
        return REDUCING
    if isinstance(descriptor, AggregatingStateDescriptor):
        return AGGREGATING
    raise TypeError("Unsupported state descriptor: %r" % (descriptor,))


class InternalKvState(object):
    """What the engine needs from a state object beyond the public interface."""

    __slots__ = ()

    def set_current_namespace(self, namespace) -> None:
        raise NotImplementedError

    def get_current_namespace(self):
        raise NotImplementedError


class MergingStateMixin(object):
    """merge_namespaces for list / reducing / aggregating states, written against three hooks
    every such state implements on its current key and namespace:

    * ``_merge_take()``: remove and return the stored contents (None if nothing is stored);
    * ``_merge_combine(a, b)``: combine two contents (b after a);
    * ``_merge_into_current(merged)``: merge contents into what is stored (or store them).

    Same order as Flink: the sources are combined in the given order, then the target's
    contents are combined with that result (target first)."""

    __slots__ = ()

    def merge_namespaces(self, target, sources: Iterable) -> None:
        saved = self.get_current_namespace()
        try:
            merged = None
            for source in sources:
                if source is None:
                    continue
                self.set_current_namespace(source)
                part = self._merge_take()
                if part is None:
                    continue
                merged = part if merged is None else self._merge_combine(merged, part)
            if merged is not None:
                self.set_current_namespace(target)
                self._merge_into_current(merged)
        finally:
            self.set_current_namespace(saved)


class KeyedStateBackend(ABC):
    """Keyed state of one keyed operator instance (see module doc)."""

    def __init__(self, max_parallelism: int, clock: Callable[[], int]):
        self.max_parallelism = max_parallelism
        self.clock = clock
        self._states = {}  # type: Dict[str, Any]
        self._kinds = {}  # type: Dict[str, str]
        self._descriptors = {}  # type: Dict[str, StateDescriptor]
        # state name -> its declaration in the checkpoint this backend was restored from
        self._restored_declarations = {}  # type: Dict[str, Tuple[str, str, bool]]
        self._namespace = VOID_NAMESPACE
        self._closed = False

    # -- keys ---------------------------------------------------------------------------------

    @abstractmethod
    def set_current_key(self, key) -> None:
        """Makes ``key`` the key all state objects act on."""

    @abstractmethod
    def get_current_key(self):
        """The current key (None before the first set_current_key)."""

    def keys_stored_as_is(self) -> frozenset:
        """The key classes for which set_current_key(key) only stores the key in `_key`: a
        caller setting a key per record (keyed_process.process_keyed_many) may store such a
        key itself, one Python call per record less. None here."""
        return frozenset()

    # -- namespaces ---------------------------------------------------------------------------

    def set_current_namespace(self, namespace) -> None:
        """Sets the current namespace of every state of this backend (and of states created
        later)."""
        self._namespace = namespace
        for state in self._states.values():
            state.set_current_namespace(namespace)

    def get_current_namespace(self):
        return self._namespace

    # -- states ------------------------------------------------------------------------------

    def get_partitioned_state(self, descriptor: StateDescriptor):
        """The state object for ``descriptor`` (one object per state name), acting on the
        current key and namespace."""
        name = descriptor.name
        state = self._states.get(name)
        kind = state_kind(descriptor)
        if state is not None:
            if self._kinds[name] != kind:
                raise ValueError("The state name '%s' is already in use and not a %s."
                                 % (name, _KIND_NAMES[kind]))
            return state
        from pyflink_on_spark.runtime.state.ttl import TtlSettings, wrap_with_ttl
        ttl = TtlSettings.of(descriptor)
        self._check_declaration(name, declaration(kind, descriptor, ttl is not None))
        if ttl is None:
            state = self._create_state(kind, name, descriptor)
        else:
            raw_kind = {VALUE: VALUE, REDUCING: VALUE, AGGREGATING: VALUE,
                        LIST: LIST, MAP: MAP}[kind]
            raw = self._create_state(raw_kind, name, descriptor)
            state = wrap_with_ttl(kind, raw, descriptor, ttl, self.clock)
        if self._namespace is not VOID_NAMESPACE:
            state.set_current_namespace(self._namespace)
        self._states[name] = state
        self._kinds[name] = kind
        self._descriptors[name] = descriptor
        return state

    @abstractmethod
    def _create_state(self, kind: str, name: str, descriptor: StateDescriptor):
        """A new state object of ``kind`` storing raw values under ``name``."""

    def merge_namespaces(self, descriptor: StateDescriptor, target, sources) -> None:
        """Merges the state of ``sources`` into ``target`` for the current key (list, reducing
        and aggregating states); the sources are cleared."""
        state = self.get_partitioned_state(descriptor)
        merge = getattr(state, "merge_namespaces", None)
        if merge is None:
            raise TypeError("State '%s' is a %s; only list, reducing and aggregating states "
                            "can be merged." % (descriptor.name,
                                                _KIND_NAMES[self._kinds[descriptor.name]]))
        merge(target, sources)

    def registered_states(self) -> Dict[str, StateDescriptor]:
        """Name -> descriptor of every state obtained so far."""
        return dict(self._descriptors)

    # -- declarations across a restore (a changed job started from a savepoint) ---------------

    def state_declarations(self) -> Dict[str, Tuple[str, str, bool]]:
        """Name -> (kind, declared type, TTL on) of every state this backend holds: what a
        checkpoint records beside the values (restored ones not asked for again included)."""
        from pyflink_on_spark.runtime.state.ttl import TtlSettings
        found = dict(self._restored_declarations)
        for name, descriptor in self._descriptors.items():
            found[name] = declaration(self._kinds[name], descriptor,
                                      TtlSettings.of(descriptor) is not None)
        return found

    def restore_declarations(self, parts: List[dict]) -> None:
        """Takes the declarations of the checkpoint descriptions restored (every old
        subtask's after rescaling: the same declarations)."""
        from pyflink_on_spark.runtime.state.ttl import TtlSettings
        for description in parts:
            for name, value in (description.get("declarations") or {}).items():
                self._restored_declarations[name] = tuple(value)
        # states the operator's open() asked for before the restore
        for name, descriptor in self._descriptors.items():
            self._check_declaration(name, declaration(self._kinds[name], descriptor,
                                                      TtlSettings.of(descriptor) is not None))

    def _check_declaration(self, name: str, now: Tuple[str, str, bool]) -> None:
        """A restored state asked for under another declaration fails, naming it. PyFlink
        1.20.5 does not check: a ValueState saved as Types.INT() and declared Types.STRING()
        after a restart from a savepoint returned the integer's bytes as the string '\\x00\\x7f'
        (docs/compatibility.md); here the pickled values would be misread (another kind of
        state, TTL switched on or off) or silently mistyped the same way."""
        then = self._restored_declarations.get(name)
        if then is None or tuple(then) == now:
            return
        raise StateDeclarationChanged(
            "The state '%s' was checkpointed as %s and is now declared as %s: the restored "
            "values cannot be read under the new declaration. Keep the old declaration, or "
            "give the changed state a new name (it then starts empty) and run the job from "
            "its savepoint again." % (name, _describe(then), _describe(now)))

    # -- iteration over keys ------------------------------------------------------------------

    @abstractmethod
    def keys_for_state(self, descriptor_or_name, namespace=VOID_NAMESPACE) -> Iterator:
        """The keys holding state ``descriptor_or_name`` under ``namespace`` (a snapshot:
        changing state while iterating is allowed)."""

    def all_keys(self) -> Iterator:
        """Every key holding any state in any namespace (each once)."""
        seen = set()
        for name in list(self._states):
            for key in self._keys_any_namespace(name):
                marker = _hashable_marker(key)
                if marker not in seen:
                    seen.add(marker)
                    yield key

    @abstractmethod
    def namespaces_for_state(self, descriptor_or_name) -> list:
        """The namespaces under which state ``descriptor_or_name`` holds anything, for any
        key."""

    @abstractmethod
    def _keys_any_namespace(self, name: str) -> Iterator:
        """Keys holding state ``name`` under any namespace (duplicates allowed)."""

    def clear_current_key(self) -> None:
        """Clears every state of the current key in the current namespaces."""
        for state in self._states.values():
            state.clear()

    def discard_ended_keys(self) -> None:
        """BATCH mode with key-sorted input: every key so far has ended and none comes back,
        so their state may go (Flink's batch state backend keeps only the current key's).
        A backend holding state in memory drops it; one on disk may keep it."""

    # -- TTL / lifecycle ------------------------------------------------------------------------

    @abstractmethod
    def cleanup_expired(self) -> int:
        """Removes every expired entry of TTL states now; returns how many were removed."""

    @abstractmethod
    def snapshot(self, path: str) -> None:
        """Writes a copy of all state into the new directory ``path``."""

    @abstractmethod
    def restore(self, path: str) -> None:
        """Replaces all state with a snapshot written by ``snapshot`` (same backend kind)."""

    # -- checkpoints of unbounded jobs (runtime/checkpoint) ----------------------------------

    # the "kind" of the description snapshot_to_store returns ("heap", "rocksdb"): a restore
    # takes only descriptions of its own kind
    checkpoint_kind: Optional[str] = None

    def snapshot_to_store(self, store, version: int, state_id: str, subtask: int) -> dict:
        """All state as part of checkpoint ``version`` of ``store`` (runtime/checkpoint/
        store.py's SnapshotStore), for operator ``state_id``'s ``subtask``: returns the
        description the operator's snapshot keeps (``{"kind": checkpoint_kind, ...}``);
        what is too large for it goes into the store's files."""
        raise NotImplementedError("%s has no checkpoints" % type(self).__name__)

    def restore_from_store(self, store, version: int, state_id: str,
                           parts: List[Tuple[int, dict]],
                           keep: Optional[Callable[[Any], bool]]) -> None:
        """Fills this (new) backend from checkpoint ``version`` of ``store``: ``parts``
        [(old subtask, description snapshot_to_store returned)], one (this subtask's own)
        at the same parallelism, every old subtask's when the operator was rescaled;
        ``keep``: key -> whether this subtask owns it (None: every key)."""
        raise NotImplementedError("%s has no checkpoints" % type(self).__name__)

    @abstractmethod
    def close(self) -> None:
        """Releases resources (RocksDB: closes and deletes the database files)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    @staticmethod
    def _name_of(descriptor_or_name) -> str:
        if isinstance(descriptor_or_name, str):
            return descriptor_or_name
        return descriptor_or_name.name


def _hashable_marker(key):
    try:
        hash(key)
        return (type(key), key)
    except TypeError:
        from pyflink_on_spark.runtime.state.encoding import encode_key
        return encode_key(key)


class StateDeclarationChanged(ValueError):
    """A state asked for with another kind, type or TTL than the checkpoint recorded."""


_PICKLED = "PickledByteArrayTypeInfo"


def declaration(kind: str, descriptor: StateDescriptor, ttl: bool) -> Tuple[str, str, bool]:
    """(kind, declared type, TTL on) of a state descriptor; no type is PyFlink's pickled
    default, so None and Types.PICKLED_BYTE_ARRAY() are one declaration."""
    type_info = getattr(descriptor, "type_info", None)
    text = _PICKLED if type_info is None else str(type_info)
    return (kind, text, bool(ttl))


def _describe(declared) -> str:
    kind, type_text, ttl = declared
    return "a %s of %s%s" % (_KIND_NAMES.get(kind, kind), type_text,
                             " with TTL" if ttl else "")
