"""State time-to-live, as Flink's TTL state decorators do it, for both backends.

A TTL state wraps a raw state of the backend that stores ``(user_value, last_access_ms)``
pairs: value, reducing and aggregating state wrap a raw value state; list state wraps a raw
list state (one timestamp per element); map state wraps a raw map state (one timestamp per
entry). Time is the backend's processing-time clock (ms).

Semantics (Flink's):

* an entry written at ``ts`` is expired from ``ts + ttl`` on (``ts + ttl <= now``);
* OnCreateAndWrite refreshes the timestamp on writes, OnReadAndWrite also on reads;
* reading an expired entry removes it; NeverReturnExpired then answers as if it was absent,
  ReturnExpiredIfNotCleanedUp returns the expired value this one time;
* a list element / map entry expires on its own; a list whose elements all expired is
  cleared on read;
* reducing and aggregating state drop an expired accumulator before adding;
* merging namespaces drops expired contents of reducing/aggregating sources; list elements
  keep their own timestamps.

``KeyedStateBackend.cleanup_expired()`` removes every expired entry at once (what Flink's
background cleanup strategies do eventually).
"""
from __future__ import annotations

from typing import Callable, Optional

from pyflink_on_spark.datastream.state import (
    AggregatingState, ListState, MapState, ReducingState, StateTtlConfig, ValueState)
from pyflink_on_spark.runtime.state.backend import (
    AGGREGATING, LIST, MAP, REDUCING, VALUE, MergingStateMixin)

_LONG_MAX = 2 ** 63 - 1


class TtlSettings(object):
    """The parts of a StateTtlConfig the engine needs."""

    __slots__ = ("ttl", "update_on_read", "return_expired", "config")

    def __init__(self, ttl: int, update_on_read: bool, return_expired: bool, config=None):
        if ttl <= 0:
            raise ValueError("The TTL of state must be positive, got %d ms" % ttl)
        self.ttl = ttl
        self.update_on_read = update_on_read
        self.return_expired = return_expired
        self.config = config

    @staticmethod
    def of(descriptor) -> Optional['TtlSettings']:
        config = getattr(descriptor, "_ttl_config", None)
        if config is None or not config.is_enabled():
            return None
        if config.get_ttl_time_characteristic() != \
                StateTtlConfig.TtlTimeCharacteristic.ProcessingTime:
            raise ValueError("Only processing-time TTL is supported, got %s"
                             % config.get_ttl_time_characteristic())
        return TtlSettings(
            config._ttl_millis(),
            config.get_update_type() == StateTtlConfig.UpdateType.OnReadAndWrite,
            config.get_state_visibility() ==
            StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp,
            config)

    def expired(self, ts: int, now: int) -> bool:
        return expiration_time(ts, self.ttl) <= now

    def __repr__(self):
        return "TtlSettings(ttl=%d, update_on_read=%s, return_expired=%s)" % (
            self.ttl, self.update_on_read, self.return_expired)


def expiration_time(ts: int, ttl: int) -> int:
    t = ts + ttl
    return t if t <= _LONG_MAX else _LONG_MAX


class TtlStateBase(object):
    """Common part of the TTL decorators: the raw state, the settings, the clock."""

    def __init__(self, raw, settings: TtlSettings, clock: Callable[[], int]):
        self.raw = raw
        self.settings = settings
        self._ttl = settings.ttl
        self._update_on_read = settings.update_on_read
        self._return_expired = settings.return_expired
        self._clock = clock

    def set_current_namespace(self, namespace) -> None:
        self.raw.set_current_namespace(namespace)

    def get_current_namespace(self):
        return self.raw.get_current_namespace()

    def clear(self) -> None:
        self.raw.clear()

    def _is_expired(self, ts: int, now: int) -> bool:
        return ts + self._ttl <= now

    def _read_single(self):
        """(found, value) of a raw value state holding (value, ts), with TTL applied."""
        raw = self.raw
        entry = raw.value()
        if entry is None:
            return False, None
        value, ts = entry
        now = self._clock()
        if ts + self._ttl <= now:
            raw.clear()
            if self._return_expired:
                return True, value
            return False, None
        if self._update_on_read:
            raw.update((value, now))
        return True, value


class TtlValueState(TtlStateBase, ValueState):

    def value(self):
        return self._read_single()[1]

    def update(self, value) -> None:
        if value is None:
            self.raw.clear()
        else:
            self.raw.update((value, self._clock()))


class TtlListState(TtlStateBase, MergingStateMixin, ListState):

    def get(self):
        raw = self.raw
        elements = raw.get()
        elements = elements if isinstance(elements, list) else list(elements)
        if not elements:
            return []
        now = self._clock()
        ttl = self._ttl
        unexpired = [e for e in elements if e[1] + ttl > now]
        if len(unexpired) == len(elements):
            result = [e[0] for e in elements]
            if self._update_on_read:
                raw.update([(e[0], now) for e in elements])
            return result
        result = [e[0] for e in (elements if self._return_expired else unexpired)]
        if not unexpired:
            raw.clear()
        elif self._update_on_read:
            raw.update([(e[0], now) for e in unexpired])
        return result

    def add(self, value) -> None:
        self.raw.add((value, self._clock()))

    def add_all(self, values) -> None:
        now = self._clock()
        self.raw.add_all([(v, now) for v in values])

    def update(self, values) -> None:
        self.raw.clear()
        now = self._clock()
        pairs = [(v, now) for v in values]
        if pairs:
            self.raw.add_all(pairs)

    # merge: elements keep their own timestamps
    def _merge_take(self):
        return self.raw._merge_take()

    def _merge_combine(self, a, b):
        return self.raw._merge_combine(a, b)

    def _merge_into_current(self, merged):
        self.raw._merge_into_current(merged)


class TtlMapState(TtlStateBase, MapState):

    def get(self, key):
        raw = self.raw
        entry = raw.get(key)
        if entry is None:
            return None
        value, ts = entry
        now = self._clock()
        if ts + self._ttl <= now:
            raw.remove(key)
            return value if self._return_expired else None
        if self._update_on_read:
            raw.put(key, (value, now))
        return value

    def put(self, key, value) -> None:
        self.raw.put(key, (value, self._clock()))

    def put_all(self, dict_value) -> None:
        now = self._clock()
        items = dict_value.items() if hasattr(dict_value, "items") else dict_value
        self.raw.put_all([(k, (v, now)) for k, v in items])

    def remove(self, key) -> None:
        self.raw.remove(key)

    def contains(self, key) -> bool:
        return self.get(key) is not None

    def _iter_entries(self):
        # bound to the current key and namespace now, not at the first next()
        return self._ttl_filter(self.raw.items(), self._clock())

    def _ttl_filter(self, entries, now):
        raw = self.raw
        ttl = self._ttl
        return_expired = self._return_expired
        update_on_read = self._update_on_read
        for key, (value, ts) in entries:
            if ts + ttl <= now:
                raw.remove(key)
                if return_expired:
                    yield key, value
            else:
                if update_on_read:
                    raw.put(key, (value, now))
                yield key, value

    def items(self):
        return self._iter_entries()

    def keys(self):
        return (k for k, _ in self._iter_entries())

    def values(self):
        return (v for _, v in self._iter_entries())

    def is_empty(self) -> bool:
        for _ in self._iter_entries():
            return False
        return True


class _TtlAccumulatingBase(TtlStateBase, MergingStateMixin):
    """Reducing / aggregating state over a raw value state of (accumulator, ts)."""

    def _merge_take(self):
        raw = self.raw
        entry = raw.value()
        if entry is None:
            return None
        raw.clear()
        if entry[1] + self._ttl <= self._clock():
            return None
        return entry

    def _merge_combine(self, a, b):
        return (self._combine(a[0], b[0]), self._clock())

    def _merge_into_current(self, merged):
        raw = self.raw
        entry = raw.value()
        now = self._clock()
        if entry is None:
            raw.update(merged)
        elif entry[1] + self._ttl <= now:
            raw.update((merged[0], now))
        else:
            raw.update((self._combine(entry[0], merged[0]), now))


class TtlReducingState(_TtlAccumulatingBase, ReducingState):

    def __init__(self, raw, settings, clock, reduce_function):
        super().__init__(raw, settings, clock)
        self._reduce = reduce_function.reduce

    def _combine(self, a, b):
        return self._reduce(a, b)

    def get(self):
        return self._read_single()[1]

    def add(self, value) -> None:
        raw = self.raw
        entry = raw.value()
        now = self._clock()
        if entry is None or entry[1] + self._ttl <= now:
            new = value
        else:
            new = self._reduce(entry[0], value)
        if new is None:
            raw.clear()
        else:
            raw.update((new, now))


class TtlAggregatingState(_TtlAccumulatingBase, AggregatingState):

    def __init__(self, raw, settings, clock, agg_function):
        super().__init__(raw, settings, clock)
        self._agg = agg_function

    def _combine(self, a, b):
        return self._agg.merge(a, b)

    def get(self):
        found, acc = self._read_single()
        if not found or acc is None:
            return None
        return self._agg.get_result(acc)

    def add(self, value) -> None:
        raw = self.raw
        if value is None:
            raw.clear()
            return
        entry = raw.value()
        now = self._clock()
        if entry is None or entry[1] + self._ttl <= now:
            acc = self._agg.create_accumulator()
        else:
            acc = entry[0]
        acc = self._agg.add(value, acc)
        if acc is None:
            raw.clear()
        else:
            raw.update((acc, now))


def wrap_with_ttl(kind: str, raw, descriptor, settings: TtlSettings, clock):
    if kind == VALUE:
        return TtlValueState(raw, settings, clock)
    if kind == LIST:
        return TtlListState(raw, settings, clock)
    if kind == MAP:
        return TtlMapState(raw, settings, clock)
    if kind == REDUCING:
        return TtlReducingState(raw, settings, clock, descriptor.get_reduce_function())
    if kind == AGGREGATING:
        return TtlAggregatingState(raw, settings, clock, descriptor.get_agg_function())
    raise ValueError(kind)


def entry_expired(entry, ttl: int, now: int) -> bool:
    """Whether a raw (value, ts) pair is expired."""
    return entry[1] + ttl <= now
