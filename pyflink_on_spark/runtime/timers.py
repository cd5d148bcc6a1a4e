"""Keyed timers: per key (and namespace), deduplicated by timestamp, fired in time order.

Timers of equal timestamp fire in the order of Flink's heap timer queue: with the default
HashMap state backend, Flink keeps an operator's timers in one HeapPriorityQueueSet, a binary
heap (1-based array, elements move only when strictly earlier) ordered by timestamp alone, with
hash sets per key group for de-duplication. So equal timestamps do not fire in registration
order: the first registered fires first, then the last one (it replaces the head), and so on.
Observed on PyFlink 1.20.5 (compat case state/timer_order_same_timestamp); TimerQueue is a
port of that heap. (Flink's RocksDB timer queue orders equal timestamps by key group and
serialized key instead; not modelled.)
"""
from __future__ import annotations

import pickle
from typing import Any, Callable, Dict, List, Optional, Tuple

from pyflink_on_spark.runtime.watermarks import MIN_WATERMARK


def hashable_key(key: Any):
    try:
        hash(key)
        return key
    except TypeError:
        return ("__unhashable__", pickle.dumps(key, protocol=4))


class TimerQueue:
    """One time domain's timers: Flink's HeapPriorityQueueSet (timestamp order, set
    semantics on (timestamp, key, namespace))."""

    __slots__ = ("_heap", "_index")

    def __init__(self) -> None:
        # _heap[1..n]: [timestamp, ident, key, namespace, position] (_heap[0] is unused:
        # Flink's heap starts at index 1). An element keeps its own position, as Flink's
        # heap elements keep their internal index: a move stores an int into the element
        # instead of hashing its ident into _index again (a pop moves ~log2(n) elements).
        # _index: ident -> element.
        self._heap: List[Any] = [None]
        self._index: Dict[Tuple[int, Any, Any], list] = {}

    @property
    def registered_timers(self) -> Dict[Tuple[int, Any, Any], list]:
        """The registered timers by (timestamp, key, namespace), for membership tests only
        (`in`): a hot loop asks it before register() (WindowOperator). Read-only by contract."""
        return self._index

    def register(self, key: Any, namespace: Any, timestamp: int) -> None:
        # hot path (windows register per element): hashable keys skip hashable_key()
        ident = (timestamp, key, namespace)
        try:
            if ident in self._index:
                return
        except TypeError:
            ident = (timestamp, hashable_key(key), namespace)
            if ident in self._index:
                return
        heap = self._heap
        element = [timestamp, ident, key, namespace, 0]
        self._index[ident] = element
        heap.append(None)
        self._sift_up(element, len(heap) - 1)

    def delete(self, key: Any, namespace: Any, timestamp: int) -> None:
        element = self._index.get((timestamp, hashable_key(key), namespace))
        if element is not None:
            self._remove_at(element[4])

    def move(self, key: Any, namespace: Any, timestamp: int, old_namespace: Any,
             old_timestamp: int) -> None:
        """register(key, namespace, timestamp) then delete(key, old_namespace, old_timestamp),
        leaving the same heap: a growing session's timer move (EventTimeTrigger.on_merge, then
        clear). The usual move costs one sift instead of two: when the new element stays
        where the register appends it (it is not earlier than its parent there), the delete
        takes exactly it as the last element into the old one's place, so it goes there
        directly (no append, no pop) and sifts from there as the delete's filler would."""
        heap = self._heap
        last = len(heap)   # where register would append the new element
        if last > 1 and timestamp >= heap[last >> 1][0]:   # and where it would stay
            index = self._index
            ident = (timestamp, key, namespace)
            element = [timestamp, ident, key, namespace, last]
            try:
                held = index.setdefault(ident, element)   # register's look-up and insert
            except TypeError:   # an unhashable key: the two steps below
                held = None
            if held is element:
                old = index.pop((old_timestamp, key, old_namespace), None)
                if old is None:   # nothing to delete: the register's append alone
                    heap.append(element)
                    return
                if old is element:   # the same timer, new: registered and deleted again
                    return
            elif held is not None:   # registered already: the register does nothing
                self.delete(key, old_namespace, old_timestamp)
                return
        else:
            held = None
        if held is None:
            self.register(key, namespace, timestamp)
            self.delete(key, old_namespace, old_timestamp)
            return
        # the heap keeps its length: the new element fills the old one's place and sifts
        # down as _sift_down moves it (each child read once a level: the hot loop)
        position = start = old[4]
        size = last - 1
        child = position << 1
        while child < size:
            moved = heap[child]
            right = heap[child + 1]
            if right[0] < moved[0]:
                moved = right
                child += 1
            if moved[0] >= timestamp:
                break
            heap[position] = moved
            moved[4] = position
            position = child
            child += child
        else:
            if child == size:   # a left child without a right one
                moved = heap[child]
                if moved[0] < timestamp:
                    heap[position] = moved
                    moved[4] = position
                    position = child
        if position == start:
            self._sift_up(element, position)
        else:
            heap[position] = element
            element[4] = position

    def peek_timestamp(self):
        heap = self._heap
        return heap[1][0] if len(heap) > 1 else None

    def pop_due(self, up_to: int):
        """Remove and return the next timer with timestamp <= up_to, or None."""
        heap = self._heap
        if len(heap) < 2 or heap[1][0] > up_to:
            return None
        removed = self._remove_at(1)
        return removed[0], removed[2], removed[3]

    def pop_all_due(self, up_to: int) -> List[Tuple[int, Any, Any]]:
        """Remove and return every timer with timestamp <= up_to, in firing order: one
        firing round (timers registered while the round fires wait for the next one)."""
        due = []
        heap = self._heap
        index = self._index
        # _remove_at(1) inline: the last element takes the root's place and sifts down
        # (from the root it cannot go up), as _sift_down moves it
        while len(heap) > 1 and heap[1][0] <= up_to:
            removed = heap[1]
            del index[removed[1]]
            last = heap.pop()
            size = len(heap) - 1
            if size:
                timestamp = last[0]
                position, child = 1, 2
                if child < size and heap[3][0] < heap[2][0]:
                    child = 3
                while child <= size and heap[child][0] < timestamp:
                    moved = heap[child]
                    heap[position] = moved
                    moved[4] = position
                    position = child
                    child = position << 1
                    if child < size and heap[child + 1][0] < heap[child][0]:
                        child += 1
                heap[position] = last
                last[4] = position
            due.append((removed[0], removed[2], removed[3]))
        return due

    def __len__(self) -> int:
        return len(self._heap) - 1

    def keys_with_timers(self):
        return [ident[1] for ident in self._index]

    def export(self) -> List[Tuple[int, Any, Any]]:
        """The timers as (timestamp, key, namespace) in heap-array order: registering them
        again in this order rebuilds the same heap (so the same firing order)."""
        return [(element[0], element[2], element[3]) for element in self._heap[1:]]

    def restore(self, timers, keep: Optional[Callable[[Any], bool]] = None) -> None:
        """Replaces the timers with ``timers`` (as export gives them) whose key ``keep``
        accepts (None: all)."""
        self._heap = [None]
        self._index = {}
        for timestamp, key, namespace in timers:
            if keep is None or keep(key):
                self.register(key, namespace, timestamp)

    # -- Flink's HeapPriorityQueue ------------------------------------------------------------

    def _remove_at(self, position: int) -> list:
        heap = self._heap
        removed = heap[position]
        del self._index[removed[1]]
        last = heap.pop()
        if position < len(heap):
            # the last element takes the hole: down if later than a child, else up
            if not self._sift_down(last, position):
                self._sift_up(last, position)
        return removed

    def _sift_up(self, element: list, position: int) -> None:
        heap = self._heap
        timestamp = element[0]
        parent = position >> 1
        while parent > 0 and timestamp < heap[parent][0]:
            moved = heap[parent]
            heap[position] = moved
            moved[4] = position
            position = parent
            parent >>= 1
        heap[position] = element
        element[4] = position

    def _sift_down(self, element: list, position: int) -> bool:
        """Place ``element`` at ``position`` or below; True if it moved down."""
        heap = self._heap
        size = len(heap) - 1
        timestamp = element[0]
        start = position
        child = position << 1
        if child + 1 <= size and heap[child + 1][0] < heap[child][0]:
            child += 1
        while child <= size and heap[child][0] < timestamp:
            moved = heap[child]
            heap[position] = moved
            moved[4] = position
            position = child
            child = position << 1
            if child + 1 <= size and heap[child + 1][0] < heap[child][0]:
                child += 1
        heap[position] = element
        element[4] = position
        return position != start


class InternalTimerService:
    """Event-time and processing-time timers of one keyed operator."""

    def __init__(self, clock: Callable[[], int]) -> None:
        self.event_time = TimerQueue()
        self.processing_time = TimerQueue()
        self.current_watermark = -(2 ** 63)
        self._clock = clock

    def current_processing_time(self) -> int:
        return self._clock()

    # -- checkpoints of unbounded jobs (runtime/checkpoint) -----------------------------------

    def snapshot(self) -> dict:
        """Live timers of both domains in firing order, and the watermark."""
        return {"event": self.event_time.export(),
                "processing": self.processing_time.export(),
                "watermark": self.current_watermark}

    def restore(self, parts: List[dict], keep: Optional[Callable[[Any], bool]] = None
                ) -> None:
        """Replaces the timers with those of ``parts`` (snapshot() results: one, or every
        old subtask's after rescaling, merged in timestamp order) whose key ``keep`` accepts;
        the watermark is the smallest of theirs."""
        for queue, field in ((self.event_time, "event"), (self.processing_time, "processing")):
            merged = []
            for part in parts:
                merged.extend(part.get(field, ()))
            if len(parts) > 1:
                merged.sort(key=lambda t: t[0])
            queue.restore(merged, keep)
        self.current_watermark = min(part.get("watermark", MIN_WATERMARK) for part in parts)
