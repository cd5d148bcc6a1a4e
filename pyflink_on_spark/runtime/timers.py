"""Keyed timers: per key (and namespace), deduplicated by timestamp, fired in time order.

Equal timestamps fire in registration order: Flink leaves that order open; this is the
shim's deterministic choice. Deleted timers are removed from the live set and skipped lazily
when they surface in the heap.
"""
from __future__ import annotations

import heapq
import pickle
from typing import Any, Callable, Dict, List, Tuple


def hashable_key(key: Any):
    try:
        hash(key)
        return key
    except TypeError:
        return ("__unhashable__", pickle.dumps(key, protocol=4))


class TimerQueue:
    """One time domain's timers."""

    __slots__ = ("_heap", "_live", "_seq")

    def __init__(self) -> None:
        self._heap: List[Tuple[int, int, Any, Any, Any]] = []
        self._live: Dict[Tuple[int, Any, Any], None] = {}
        self._seq = 0

    def register(self, key: Any, namespace: Any, timestamp: int) -> None:
        # hot path (windows register per element): hashable keys skip hashable_key()
        ident = (timestamp, key, namespace)
        try:
            if ident in self._live:
                return
        except TypeError:
            ident = (timestamp, hashable_key(key), namespace)
            if ident in self._live:
                return
        self._live[ident] = None
        self._seq += 1
        heapq.heappush(self._heap, (timestamp, self._seq, ident, key, namespace))

    def delete(self, key: Any, namespace: Any, timestamp: int) -> None:
        self._live.pop((timestamp, hashable_key(key), namespace), None)

    def peek_timestamp(self):
        heap = self._heap
        while heap and heap[0][2] not in self._live:
            heapq.heappop(heap)
        return heap[0][0] if heap else None

    def pop_due(self, up_to: int):
        """Remove and return the next live timer with timestamp <= up_to, or None."""
        heap = self._heap
        while heap:
            timestamp, _, ident, key, namespace = heap[0]
            if ident not in self._live:
                heapq.heappop(heap)
                continue
            if timestamp > up_to:
                return None
            heapq.heappop(heap)
            del self._live[ident]
            return timestamp, key, namespace
        return None

    def pop_all_due(self, up_to: int) -> List[Tuple[int, Any, Any]]:
        """Remove and return every live timer with timestamp <= up_to, in firing order: one
        firing round (timers registered while the round fires wait for the next one)."""
        due = []
        heap = self._heap
        live = self._live
        while heap:
            timestamp, _, ident, key, namespace = heap[0]
            if ident not in live:
                heapq.heappop(heap)
                continue
            if timestamp > up_to:
                break
            heapq.heappop(heap)
            del live[ident]
            due.append((timestamp, key, namespace))
        return due

    def __len__(self) -> int:
        return len(self._live)

    def keys_with_timers(self):
        return [ident[1] for ident in self._live]


class InternalTimerService:
    """Event-time and processing-time timers of one keyed operator."""

    def __init__(self, clock: Callable[[], int]) -> None:
        self.event_time = TimerQueue()
        self.processing_time = TimerQueue()
        self.current_watermark = -(2 ** 63)
        self._clock = clock

    def current_processing_time(self) -> int:
        return self._clock()
