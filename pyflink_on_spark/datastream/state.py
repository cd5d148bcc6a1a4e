"""State interfaces, state descriptors and TTL configuration (mirror of pyflink.datastream.state).

The classes here are the user-facing contract. The engine (``pyflink_on_spark.runtime.state``)
provides the implementations: a keyed state backend hands out objects implementing ValueState,
ListState, MapState, ReducingState and AggregatingState, bound to the key of the record being
processed.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from enum import Enum
from typing import Dict, Generic, Iterable, Iterator, List, Optional, Tuple, TypeVar

__all__ = [
    'ValueStateDescriptor',
    'ValueState',
    'ListStateDescriptor',
    'ListState',
    'MapStateDescriptor',
    'MapState',
    'ReducingStateDescriptor',
    'ReducingState',
    'AggregatingStateDescriptor',
    'AggregatingState',
    'ReadOnlyBroadcastState',
    'BroadcastState',
    'StateTtlConfig',
    'OperatorStateStore',
]

T = TypeVar('T')
K = TypeVar('K')
V = TypeVar('V')
IN = TypeVar('IN')
OUT = TypeVar('OUT')


def _types():
    # Imported on use: pyflink_on_spark.common imports nothing from here, but keeping the
    # import lazy keeps this module importable on its own (functions.py imports it early).
    from pyflink_on_spark.common.typeinfo import Types
    return Types


# ---------------------------------------------------------------------------------------------
# State interfaces
# ---------------------------------------------------------------------------------------------

class OperatorStateStore(ABC):
    """Gives access to operator (non-keyed) state; here: broadcast state."""

    @abstractmethod
    def get_broadcast_state(self, state_descriptor: 'MapStateDescriptor') -> 'BroadcastState':
        """Returns the broadcast state (read/write) described by a MapStateDescriptor."""
        pass


class State(ABC):
    """Base of all state kinds."""

    @abstractmethod
    def clear(self) -> None:
        """Removes the value held by this state for the current key (and namespace)."""
        pass


class ValueState(State, Generic[T]):
    """A single value per key. ``value()`` is None while nothing was stored."""

    @abstractmethod
    def value(self) -> T:
        """The current value, or None."""
        pass

    @abstractmethod
    def update(self, value: T) -> None:
        """Replaces the current value; None removes it."""
        pass


class AppendingState(State, Generic[IN, OUT]):
    """State to which values are added and from which a combined result is read."""

    @abstractmethod
    def get(self) -> OUT:
        """The current result for the current key."""
        pass

    @abstractmethod
    def add(self, value: IN) -> None:
        """Adds a value to the state of the current key."""
        pass


class MergingState(AppendingState[IN, OUT]):
    """An AppendingState whose contents under several namespaces can be merged (windows)."""
    pass


class ReducingState(MergingState[T, T]):
    """Values are combined with the descriptor's ReduceFunction on add."""
    pass


class AggregatingState(MergingState[IN, OUT]):
    """Values are folded into an accumulator with the descriptor's AggregateFunction."""
    pass


class ListState(MergingState[T, Iterable[T]]):
    """A list of values per key. ``get()`` of an empty state is an empty iterable."""

    @abstractmethod
    def update(self, values: List[T]) -> None:
        """Replaces the whole list with the given values."""
        pass

    @abstractmethod
    def add_all(self, values: List[T]) -> None:
        """Appends all given values."""
        pass

    def __iter__(self) -> Iterator[T]:
        return iter(self.get())


class MapState(State, Generic[K, V]):
    """A map of user keys to user values per key."""

    @abstractmethod
    def get(self, key: K) -> V:
        """The value mapped to ``key``, or None."""
        pass

    @abstractmethod
    def put(self, key: K, value: V) -> None:
        """Maps ``key`` to ``value``."""
        pass

    @abstractmethod
    def put_all(self, dict_value: Dict[K, V]) -> None:
        """Adds all mappings of ``dict_value``."""
        pass

    @abstractmethod
    def remove(self, key: K) -> None:
        """Removes the mapping of ``key`` if there is one."""
        pass

    @abstractmethod
    def contains(self, key: K) -> bool:
        """Whether ``key`` is mapped to a (non-None) value."""
        pass

    @abstractmethod
    def items(self) -> Iterable[Tuple[K, V]]:
        """All (key, value) mappings."""
        pass

    @abstractmethod
    def keys(self) -> Iterable[K]:
        """All user keys."""
        pass

    @abstractmethod
    def values(self) -> Iterable[V]:
        """All user values."""
        pass

    @abstractmethod
    def is_empty(self) -> bool:
        """Whether the map holds no mapping."""
        pass

    def __getitem__(self, key: K) -> V:
        return self.get(key)

    def __setitem__(self, key: K, value: V) -> None:
        self.put(key, value)

    def __delitem__(self, key: K) -> None:
        self.remove(key)

    def __contains__(self, key: K) -> bool:
        return self.contains(key)

    def __iter__(self) -> Iterator[K]:
        return iter(self.keys())


class ReadOnlyBroadcastState(State, Generic[K, V]):
    """Read access to broadcast state (the keyed side of a broadcast connection)."""

    @abstractmethod
    def get(self, key: K) -> V:
        """The value mapped to ``key``, or None."""
        pass

    @abstractmethod
    def contains(self, key: K) -> bool:
        """Whether ``key`` is mapped."""
        pass

    @abstractmethod
    def items(self) -> Iterable[Tuple[K, V]]:
        """All (key, value) mappings."""
        pass

    @abstractmethod
    def keys(self) -> Iterable[K]:
        """All keys."""
        pass

    @abstractmethod
    def values(self) -> Iterable[V]:
        """All values."""
        pass

    @abstractmethod
    def is_empty(self) -> bool:
        """Whether no mapping exists."""
        pass

    def __getitem__(self, key: K) -> V:
        return self.get(key)

    def __contains__(self, key: K) -> bool:
        return self.contains(key)

    def __iter__(self) -> Iterator[K]:
        return iter(self.keys())


class BroadcastState(ReadOnlyBroadcastState[K, V]):
    """Read/write access to broadcast state (the broadcast side)."""

    @abstractmethod
    def put(self, key: K, value: V) -> None:
        """Maps ``key`` to ``value``."""
        pass

    @abstractmethod
    def put_all(self, dict_value: Dict[K, V]) -> None:
        """Adds all mappings of ``dict_value``."""
        pass

    @abstractmethod
    def remove(self, key: K) -> None:
        """Removes the mapping of ``key``."""
        pass

    def __setitem__(self, key: K, value: V) -> None:
        self.put(key, value)

    def __delitem__(self, key: K) -> None:
        self.remove(key)


# ---------------------------------------------------------------------------------------------
# Descriptors
# ---------------------------------------------------------------------------------------------

class StateDescriptor(ABC):
    """Names a piece of partitioned state and says what it holds.

    ``name`` and ``type_info`` are public attributes, as in PyFlink.
    """

    def __init__(self, name: str, type_info):
        self.name = name
        self.type_info = type_info
        self._ttl_config = None  # type: Optional[StateTtlConfig]

    def get_name(self) -> str:
        """The state's name (unique per operator)."""
        return self.name

    def enable_time_to_live(self, ttl_config: 'StateTtlConfig'):
        """Gives the state a time-to-live (see StateTtlConfig)."""
        self._ttl_config = ttl_config

    def __repr__(self):
        return "%s(name=%r)" % (type(self).__name__, self.name)


class ValueStateDescriptor(StateDescriptor):
    """Describes a ValueState."""

    def __init__(self, name: str, value_type_info):
        super(ValueStateDescriptor, self).__init__(name, value_type_info)


class ListStateDescriptor(StateDescriptor):
    """Describes a ListState; ``type_info`` becomes Types.LIST(elem_type_info)."""

    def __init__(self, name: str, elem_type_info):
        super(ListStateDescriptor, self).__init__(name, _types().LIST(elem_type_info))
        self._elem_type_info = elem_type_info


class MapStateDescriptor(StateDescriptor):
    """Describes a MapState (and broadcast state); ``type_info`` becomes Types.MAP(k, v)."""

    def __init__(self, name: str, key_type_info, value_type_info):
        super(MapStateDescriptor, self).__init__(
            name, _types().MAP(key_type_info, value_type_info))
        self._key_type_info = key_type_info
        self._value_type_info = value_type_info


class ReducingStateDescriptor(StateDescriptor):
    """Describes a ReducingState; a plain callable is wrapped into a ReduceFunction."""

    def __init__(self, name: str, reduce_function, type_info):
        super(ReducingStateDescriptor, self).__init__(name, type_info)
        from pyflink_on_spark.datastream.functions import ReduceFunction, ReduceFunctionWrapper
        if not isinstance(reduce_function, ReduceFunction):
            if callable(reduce_function):
                reduce_function = ReduceFunctionWrapper(reduce_function)  # type: ignore
            elif not callable(getattr(reduce_function, "reduce", None)):
                raise TypeError("The input must be a ReduceFunction or a callable function!")
        self._reduce_function = reduce_function

    def get_reduce_function(self):
        """The ReduceFunction combining added values."""
        return self._reduce_function


class AggregatingStateDescriptor(StateDescriptor):
    """Describes an AggregatingState; ``state_type_info`` is the accumulator's type."""

    def __init__(self, name: str, agg_function, state_type_info):
        super(AggregatingStateDescriptor, self).__init__(name, state_type_info)
        from pyflink_on_spark.datastream.functions import AggregateFunction
        if not isinstance(agg_function, AggregateFunction) and not all(
                callable(getattr(agg_function, m, None))
                for m in ("create_accumulator", "add", "get_result")):
            raise TypeError("The input must be a pyflink.datastream.functions.AggregateFunction!")
        self._agg_function = agg_function

    def get_agg_function(self):
        """The AggregateFunction folding added values."""
        return self._agg_function


# ---------------------------------------------------------------------------------------------
# TTL
# ---------------------------------------------------------------------------------------------

def _default_periodic_compaction_time():
    from pyflink_on_spark.common.time import Duration
    return Duration.of_days(30)


class StateTtlConfig(object):
    """Time-to-live of keyed state: when a value expires, whether an expired value may still
    be returned, and which background cleanup is wanted."""

    class UpdateType(Enum):
        """When the last-access timestamp of a value is refreshed."""
        Disabled = 0
        OnCreateAndWrite = 1
        OnReadAndWrite = 2

    class StateVisibility(Enum):
        """Whether an expired value that is still stored may be returned."""
        ReturnExpiredIfNotCleanedUp = 0
        NeverReturnExpired = 1

    class TtlTimeCharacteristic(Enum):
        """The time TTL is measured in; only processing time exists."""
        ProcessingTime = 0

    def __init__(self,
                 update_type: 'StateTtlConfig.UpdateType',
                 state_visibility: 'StateTtlConfig.StateVisibility',
                 ttl_time_characteristic: 'StateTtlConfig.TtlTimeCharacteristic',
                 ttl,
                 cleanup_strategies: 'StateTtlConfig.CleanupStrategies'):
        self._update_type = update_type
        self._state_visibility = state_visibility
        self._ttl_time_characteristic = ttl_time_characteristic
        self._ttl = ttl
        self._cleanup_strategies = cleanup_strategies

    @staticmethod
    def new_builder(ttl):
        """A Builder for the given time-to-live (a ``Time``)."""
        return StateTtlConfig.Builder(ttl)

    def get_update_type(self) -> 'StateTtlConfig.UpdateType':
        return self._update_type

    def get_state_visibility(self) -> 'StateTtlConfig.StateVisibility':
        return self._state_visibility

    def get_ttl(self):
        return self._ttl

    def get_ttl_time_characteristic(self) -> 'StateTtlConfig.TtlTimeCharacteristic':
        return self._ttl_time_characteristic

    def is_enabled(self) -> bool:
        return self._update_type != StateTtlConfig.UpdateType.Disabled

    def get_cleanup_strategies(self) -> 'StateTtlConfig.CleanupStrategies':
        return self._cleanup_strategies

    def _ttl_millis(self) -> int:
        """The time-to-live in milliseconds (accepts Time, Duration-like or a number)."""
        return _to_millis(self._ttl)

    def __repr__(self):
        # PyFlink's text exactly, spacing included
        return ("StateTtlConfig<update_type={}, state_visibility={},"
                "ttl_time_characteristic ={},ttl={}>".format(
                    self._update_type, self._state_visibility,
                    self._ttl_time_characteristic, self._ttl))

    class Builder(object):
        """Builds a StateTtlConfig. Defaults: OnCreateAndWrite, NeverReturnExpired, processing
        time, cleanup in background."""

        def __init__(self, ttl):
            self._ttl = ttl
            self._update_type = StateTtlConfig.UpdateType.OnCreateAndWrite
            self._state_visibility = StateTtlConfig.StateVisibility.NeverReturnExpired
            self._ttl_time_characteristic = StateTtlConfig.TtlTimeCharacteristic.ProcessingTime
            self._is_cleanup_in_background = True
            self._strategies = {}  # type: Dict

        def set_update_type(self,
                            update_type: 'StateTtlConfig.UpdateType') -> 'StateTtlConfig.Builder':
            self._update_type = update_type
            return self

        def update_ttl_on_create_and_write(self) -> 'StateTtlConfig.Builder':
            return self.set_update_type(StateTtlConfig.UpdateType.OnCreateAndWrite)

        def update_ttl_on_read_and_write(self) -> 'StateTtlConfig.Builder':
            return self.set_update_type(StateTtlConfig.UpdateType.OnReadAndWrite)

        def set_state_visibility(
                self,
                state_visibility: 'StateTtlConfig.StateVisibility') -> 'StateTtlConfig.Builder':
            self._state_visibility = state_visibility
            return self

        def return_expired_if_not_cleaned_up(self) -> 'StateTtlConfig.Builder':
            return self.set_state_visibility(
                StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp)

        def never_return_expired(self) -> 'StateTtlConfig.Builder':
            return self.set_state_visibility(StateTtlConfig.StateVisibility.NeverReturnExpired)

        def set_ttl_time_characteristic(
                self,
                ttl_time_characteristic: 'StateTtlConfig.TtlTimeCharacteristic') \
                -> 'StateTtlConfig.Builder':
            self._ttl_time_characteristic = ttl_time_characteristic
            return self

        def use_processing_time(self) -> 'StateTtlConfig.Builder':
            return self.set_ttl_time_characteristic(
                StateTtlConfig.TtlTimeCharacteristic.ProcessingTime)

        def cleanup_full_snapshot(self) -> 'StateTtlConfig.Builder':
            strategies = StateTtlConfig.CleanupStrategies
            self._strategies[strategies.Strategies.FULL_STATE_SCAN_SNAPSHOT] = \
                strategies.EMPTY_STRATEGY
            return self

        def cleanup_incrementally(self,
                                  cleanup_size: int,
                                  run_cleanup_for_every_record) -> 'StateTtlConfig.Builder':
            strategies = StateTtlConfig.CleanupStrategies
            self._strategies[strategies.Strategies.INCREMENTAL_CLEANUP] = \
                strategies.IncrementalCleanupStrategy(cleanup_size, run_cleanup_for_every_record)
            return self

        def cleanup_in_rocksdb_compact_filter(
                self,
                query_time_after_num_entries,
                periodic_compaction_time=None) -> 'StateTtlConfig.Builder':
            strategies = StateTtlConfig.CleanupStrategies
            self._strategies[strategies.Strategies.ROCKSDB_COMPACTION_FILTER] = \
                strategies.RocksdbCompactFilterCleanupStrategy(
                    query_time_after_num_entries, periodic_compaction_time)
            return self

        def disable_cleanup_in_background(self) -> 'StateTtlConfig.Builder':
            self._is_cleanup_in_background = False
            return self

        def set_ttl(self, ttl) -> 'StateTtlConfig.Builder':
            self._ttl = ttl
            return self

        def build(self) -> 'StateTtlConfig':
            return StateTtlConfig(
                self._update_type,
                self._state_visibility,
                self._ttl_time_characteristic,
                self._ttl,
                StateTtlConfig.CleanupStrategies(dict(self._strategies),
                                                 self._is_cleanup_in_background))

    class CleanupStrategies(object):
        """The background cleanup strategies configured for expired state."""

        class Strategies(Enum):
            FULL_STATE_SCAN_SNAPSHOT = 0
            INCREMENTAL_CLEANUP = 1
            ROCKSDB_COMPACTION_FILTER = 2

        class CleanupStrategy(ABC):
            """Base of the cleanup strategy settings."""
            pass

        class EmptyCleanupStrategy(CleanupStrategy):
            """A strategy without settings (full snapshot cleanup)."""
            pass

        class IncrementalCleanupStrategy(CleanupStrategy):
            """Checks ``cleanup_size`` entries per state access (heap state)."""

            def __init__(self, cleanup_size: int, run_cleanup_for_every_record: bool):
                self._cleanup_size = cleanup_size
                self._run_cleanup_for_every_record = run_cleanup_for_every_record

            def get_cleanup_size(self) -> int:
                return self._cleanup_size

            def run_cleanup_for_every_record(self) -> bool:
                return self._run_cleanup_for_every_record

        class RocksdbCompactFilterCleanupStrategy(CleanupStrategy):
            """Drops expired entries while RocksDB compacts."""

            def __init__(self,
                         query_time_after_num_entries: int,
                         periodic_compaction_time=None):
                self._query_time_after_num_entries = query_time_after_num_entries
                self._periodic_compaction_time = periodic_compaction_time \
                    if periodic_compaction_time else _default_periodic_compaction_time()

            def get_query_time_after_num_entries(self) -> int:
                return self._query_time_after_num_entries

            def get_periodic_compaction_time(self):
                return self._periodic_compaction_time

        EMPTY_STRATEGY = EmptyCleanupStrategy()

        def __init__(self,
                     strategies: Dict,
                     is_cleanup_in_background: bool):
            self._strategies = strategies
            self._is_cleanup_in_background = is_cleanup_in_background

        def is_cleanup_in_background(self) -> bool:
            return self._is_cleanup_in_background

        def in_full_snapshot(self) -> bool:
            return (StateTtlConfig.CleanupStrategies.Strategies.FULL_STATE_SCAN_SNAPSHOT
                    in self._strategies)

        def get_incremental_cleanup_strategy(self) \
                -> 'StateTtlConfig.CleanupStrategies.IncrementalCleanupStrategy':
            cls = StateTtlConfig.CleanupStrategies
            default = cls.IncrementalCleanupStrategy(5, False) \
                if self._is_cleanup_in_background else None
            return self._strategies.get(cls.Strategies.INCREMENTAL_CLEANUP, default)

        def get_rocksdb_compact_filter_cleanup_strategy(self) \
                -> 'StateTtlConfig.CleanupStrategies.RocksdbCompactFilterCleanupStrategy':
            cls = StateTtlConfig.CleanupStrategies
            default = cls.RocksdbCompactFilterCleanupStrategy(1000) \
                if self._is_cleanup_in_background else None
            return self._strategies.get(cls.Strategies.ROCKSDB_COMPACTION_FILTER, default)


def _to_millis(t) -> int:
    """Milliseconds of a Time, a Duration, a datetime.timedelta or a number of ms."""
    if isinstance(t, bool):
        raise TypeError("Expected a Time or Duration, got %r" % (t,))
    if isinstance(t, int):
        return t
    if isinstance(t, float):
        return int(t)
    for attr in ("to_milliseconds", "_to_millis", "to_millis", "toMillis"):
        f = getattr(t, attr, None)
        if callable(f):
            return int(f())
    total_seconds = getattr(t, "total_seconds", None)
    if callable(total_seconds):
        return int(round(total_seconds() * 1000))
    raise TypeError("Cannot convert %r to milliseconds" % (t,))
