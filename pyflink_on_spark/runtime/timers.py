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
from heapq import heappop, heapreplace
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

    __slots__ = ("_heap", "_index", "_stamps", "_run", "_stale")

    def __init__(self) -> None:
        # _heap[0..n-1]: [timestamp, position, ident, key, namespace]: Flink's 1-based heap
        # shifted by one (element i's children at 2i+1 and 2i+2: the same tree, so the same
        # moves), 0-based as heapq's C functions take it (move, _pop_each). An element keeps
        # its own position, as Flink's heap elements keep their internal index: a move
        # stores an int into the element instead of hashing its ident into _index again (a
        # pop moves ~log2(n) elements). The position second makes the elements compare as
        # (timestamp, position): heapq's sifts then break ties as Flink's do (see move).
        # _index: ident -> element. _stamps: timestamp -> how many timers have it, kept
        # from a queue's first move() on (None before: other queues do not pay for it):
        # when there are as many timestamps as timers, no two are equal, and heapq's sift
        # moves exactly the elements Flink's does whatever the positions say, so they may
        # be left stale (below).
        self._heap: List[Any] = []
        self._index: Dict[Tuple[int, Any, Any], list] = {}
        self._stamps: Optional[Dict[Any, int]] = None
        # _run: moves from the root through heapreplace since a position was last read
        # (_settle). Once a run is longer than a quarter of the heap (+16), such moves no
        # longer walk the path to write the positions of the elements heapreplace moved up
        # (~3k instructions a move): the positions are _stale until the next read of one
        # (a delete, a move from inside the heap or with equal timestamps), which rebuilds
        # them all at once, at most a few hundred instructions a move of the run. Sessions
        # of keys reporting in turn move the root's timer with every record and read no
        # position: they stop paying for the walk.
        self._run = 0
        self._stale = False

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
        element = [timestamp, 0, ident, key, namespace]
        self._index[ident] = element
        stamps = self._stamps
        if stamps is not None:
            stamps[timestamp] = stamps.get(timestamp, 0) + 1
        position = len(heap)
        heap.append(element)
        # a timer no earlier than its parent (windows registered in time order) stays where
        # it lands: _sift_up's first test inline, without its call
        if position and timestamp < heap[(position - 1) >> 1][0]:
            self._sift_up(element, position)
        else:
            element[1] = position

    def delete(self, key: Any, namespace: Any, timestamp: int) -> None:
        element = self._index.get((timestamp, hashable_key(key), namespace))
        if element is not None:
            if self._run:
                self._settle()
            self._remove_at(element[1])

    def move(self, key: Any, namespace: Any, timestamp: int, old_namespace: Any,
             old_timestamp: int) -> None:
        """register(key, namespace, timestamp) then delete(key, old_namespace, old_timestamp),
        leaving the same heap: a growing session's timer move (EventTimeTrigger.on_merge, then
        clear). The usual move costs one sift instead of two: when the new element stays
        where the register appends it (it is not earlier than its parent there), the delete
        takes exactly it as the last element into the old one's place, so it goes there
        directly (no append, no pop) and sifts from there as the delete's filler would.
        When that place is the root, the sift is heapq.heapreplace's, in C. Without equal
        timestamps its bottom-up sift (down to a leaf through the earlier child, then back
        up) puts every element where Flink's top-down one does. With equal ones the
        elements' positions decide (rebuilt first if stale), the new element's set to
        -1: between two children of one timestamp the left one (the lower position) counts
        as earlier, so the path down is Flink's (which takes the right child only when it
        is strictly earlier), and on the way back up the new element passes every element
        of its timestamp or later, so it stops below the path's last strictly earlier
        element, where Flink's sift stops. Then the positions of the elements it moved up
        (the path from the root to the new element) are written, or, without equal
        timestamps and after a long run of such moves, left stale until one is read (see
        __init__)."""
        heap = self._heap
        last = len(heap)   # where register would append the new element
        if last and timestamp >= heap[(last - 1) >> 1][0]:   # and where it would stay
            index = self._index
            ident = (timestamp, key, namespace)
            element = [timestamp, last, ident, key, namespace]
            try:
                held = index.setdefault(ident, element)   # register's look-up and insert
            except TypeError:   # an unhashable key: the two steps below
                held = None
            if held is element:
                old = index.pop((old_timestamp, key, old_namespace), None)
                stamps = self._stamps
                if stamps is None:   # the queue's first move: count them from now on
                    stamps = self._count_stamps()
                if old is None:   # nothing to delete: the register's append alone
                    stamps[timestamp] = stamps.get(timestamp, 0) + 1
                    heap.append(element)
                    return
                if old is element:   # the same timer, new: registered and deleted again
                    return
                count = stamps[old_timestamp]
                if count == 1:
                    del stamps[old_timestamp]
                    if heap[0] is old and len(stamps) == last - 1 and timestamp not in stamps:
                        # the root's sift in C, no equal timestamps (see above)
                        stamps[timestamp] = 1
                        heapreplace(heap, element)
                        run = self._run
                        # stale already (the heap may have grown since the run passed
                        # its threshold): the walk below would follow stale positions
                        if self._stale or run >= (last >> 2) + 16:
                            self._stale = True
                            return
                        self._run = run + 1
                        position = 0
                        moved = heap[0]
                        while moved is not element:   # each moved up from its old place
                            below = moved[1]
                            moved[1] = position
                            position = below
                            moved = heap[position]
                        element[1] = position
                        return
                else:
                    stamps[old_timestamp] = count - 1
                stamps[timestamp] = stamps.get(timestamp, 0) + 1
                if heap[0] is old:
                    # the root's sift in C with equal timestamps: the positions break the
                    # ties, the new element's (-1) below every other (see above)
                    if self._run:
                        self._settle()
                    element[1] = -1
                    heapreplace(heap, element)
                    position = 0
                    moved = heap[0]
                    while moved is not element:   # each moved up from its old place
                        below = moved[1]
                        moved[1] = position
                        position = below
                        moved = heap[position]
                    element[1] = position
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
        if self._run:
            self._settle()
        position = start = old[1]
        size = last - 1   # the last index
        child = position + position + 1
        while child < size:   # both children there
            moved = heap[child]
            right = heap[child + 1]
            if right[0] < moved[0]:
                moved = right
                child += 1
            if moved[0] >= timestamp:
                break
            heap[position] = moved
            moved[1] = position
            position = child
            child += child + 1
        else:
            if child == size:   # a left child without a right one
                moved = heap[child]
                if moved[0] < timestamp:
                    heap[position] = moved
                    moved[1] = position
                    position = child
        if position == start:
            self._sift_up(element, position)
        else:
            heap[position] = element
            element[1] = position

    def peek_timestamp(self):
        heap = self._heap
        return heap[0][0] if heap else None

    def pop_due(self, up_to: int):
        """Remove and return the next timer with timestamp <= up_to, or None."""
        heap = self._heap
        if not heap or heap[0][0] > up_to:
            return None
        removed = self._remove_at(0)
        return removed[0], removed[3], removed[4]

    def pop_all_due(self, up_to: int) -> List[Tuple[int, Any, Any]]:
        """Remove and return every timer with timestamp <= up_to, in firing order: one
        firing round (timers registered while the round fires wait for the next one).
        Of the timers of one timestamp, those _pop_equal can take leave together, the rest
        one by one."""
        due: List[Tuple[int, Any, Any]] = []
        heap = self._heap
        while heap and heap[0][0] <= up_to:
            timestamp = heap[0][0]
            size = len(heap)
            if size > 1 and heap[1][0] == timestamp or size > 2 and heap[2][0] == timestamp:
                self._pop_equal(timestamp, due)
            self._pop_each(timestamp, due)
        return due

    def _pop_each(self, timestamp: int, due: list) -> None:
        """Pop the timers at ``timestamp`` (the earliest) one by one, as Flink does."""
        heap = self._heap
        index = self._index
        popped = len(due)
        # _remove_at(0) inline: the last element takes the root's place and sifts down
        # (from the root it cannot go up), in C: heappop's sift with the positions breaking
        # ties, the filler's (-1) below every other (see move); then the positions of the
        # elements it moved up, the path from the root to the filler
        if self._run:
            self._settle()
        while heap and heap[0][0] == timestamp:
            last = heap[-1]
            if last is heap[0]:
                removed = heap.pop()
            else:
                last[1] = -1
                removed = heappop(heap)
                position = 0
                moved = heap[0]
                while moved is not last:   # each moved up from its old place
                    below = moved[1]
                    moved[1] = position
                    position = below
                    moved = heap[position]
                last[1] = position
            del index[removed[2]]
            due.append((timestamp, removed[3], removed[4]))
        popped = len(due) - popped
        stamps = self._stamps
        if popped and stamps is not None:
            left = stamps[timestamp] - popped
            if left:
                stamps[timestamp] = left
            else:
                del stamps[timestamp]

    def _pop_equal(self, timestamp: int, due: list) -> None:
        """Pop the first of the timers at ``timestamp`` (the earliest; more than one timer
        has it) in the order and to the heap Flink's pops one by one give, without their
        sifts: as many as have a filler from outside them (see below), when those are
        enough to pay for the walk; _pop_each pops the rest.

        The timers at the earliest timestamp fill a subtree E of the heap at its root (each
        one's parent is no later). While the element a pop moves to the root (the last
        one) is from outside E, it is later than every timer of E and sifts down through E
        always to the left child in E, else the right one in E, and leaves E where neither
        child is in E. The element at the root is moved up from the left subtree's while
        that has timers of E, then from the right's: so the timers fire in E's preorder,
        and the fillers end in E's positions in E's postorder (a pop's path ends at the
        first such leaf of what is left of E), from where each sifts down outside E as the
        pops one by one would sift it. The first k pops have fillers from outside E, k the
        positions after E's last. After them the timers left in E sit in E's positions
        left, both in preorder: a subtree's position holds the first of its timers left,
        its left subtree the next ones. Rounds of tumbling windows fire ~keys timers of one
        window end: ~log2(heap) Python moves a timer become a few."""
        heap = self._heap
        size = len(heap)
        # E at the last position or at three quarters of the heap: as good as none of its
        # pops have a filler from outside E (E would fill three quarters of the heap at
        # least, where a window's timers are registered in order), not worth the walk
        if heap[size - 1][0] == timestamp or heap[(3 * size) >> 2][0] == timestamp:
            return
        preorder: List[int] = []
        postorder: List[int] = []
        add_pre, add_post = preorder.append, postorder.append

        def walk(position: int) -> None:
            add_pre(position)
            child = position + position + 1
            if child < size and heap[child][0] == timestamp:
                walk(child)
            child += 1
            if child < size and heap[child][0] == timestamp:
                walk(child)
            add_post(position)

        walk(0)
        count = len(preorder)
        taken = size - 1 - max(preorder)
        if 3 * taken < count:   # too few to pay for the walk and the placing after
            return
        if taken > count:
            taken = count
        timers = [heap[position] for position in preorder]
        index = self._index
        for removed in timers[:taken]:
            del index[removed[2]]
            due.append((timestamp, removed[3], removed[4]))
        pop, sift_down = heap.pop, self._sift_down
        for position in postorder[:taken]:
            sift_down(pop(), position)
        stamps = self._stamps
        if stamps is not None:
            if taken == count:
                del stamps[timestamp]
            else:
                stamps[timestamp] = count - taken
        if taken == count:
            return
        ends = set(postorder[:taken])
        left = [position for position in preorder if position not in ends]
        for position, element in zip(left, timers[taken:]):
            heap[position] = element
            element[1] = position

    def __len__(self) -> int:
        return len(self._heap)

    def keys_with_timers(self):
        return [ident[1] for ident in self._index]

    def export(self) -> List[Tuple[int, Any, Any]]:
        """The timers as (timestamp, key, namespace) in heap-array order: registering them
        again in this order rebuilds the same heap (so the same firing order)."""
        return [(element[0], element[3], element[4]) for element in self._heap]

    def restore(self, timers, keep: Optional[Callable[[Any], bool]] = None) -> None:
        """Replaces the timers with ``timers`` (as export gives them) whose key ``keep``
        accepts (None: all)."""
        self._heap = []
        self._index = {}
        self._stamps = None
        self._run = 0
        self._stale = False
        for timestamp, key, namespace in timers:
            if keep is None or keep(key):
                self.register(key, namespace, timestamp)

    def _count_stamps(self) -> Dict[Any, int]:
        """_stamps counted in the heap (a queue's first move; the element it deletes is
        still there, the one it adds not yet)."""
        stamps: Dict[Any, int] = {}
        get = stamps.get
        for element in self._heap:
            timestamp = element[0]
            stamps[timestamp] = get(timestamp, 0) + 1
        self._stamps = stamps
        return stamps

    # -- Flink's HeapPriorityQueue (0-based here: see __init__) ---------------------------------

    def _settle(self) -> None:
        """Before a position is read: the positions rebuilt if stale, the run ended."""
        if self._stale:
            for position, element in enumerate(self._heap):
                element[1] = position
            self._stale = False
        self._run = 0

    def _remove_at(self, position: int) -> list:
        heap = self._heap
        removed = heap[position]
        del self._index[removed[2]]
        stamps = self._stamps
        if stamps is not None:
            _uncount(stamps, removed[0])
        last = heap.pop()
        if position < len(heap):
            # the last element takes the hole: down if later than a child, else up
            if not self._sift_down(last, position):
                self._sift_up(last, position)
        return removed

    def _sift_up(self, element: list, position: int) -> None:
        heap = self._heap
        timestamp = element[0]
        while position:
            parent = (position - 1) >> 1
            moved = heap[parent]
            if not timestamp < moved[0]:
                break
            heap[position] = moved
            moved[1] = position
            position = parent
        heap[position] = element
        element[1] = position

    def _sift_down(self, element: list, position: int) -> bool:
        """Place ``element`` at ``position`` or below; True if it moved down."""
        heap = self._heap
        size = len(heap)
        timestamp = element[0]
        start = position
        child = position + position + 1
        if child + 1 < size and heap[child + 1][0] < heap[child][0]:
            child += 1
        while child < size and heap[child][0] < timestamp:
            moved = heap[child]
            heap[position] = moved
            moved[1] = position
            position = child
            child += child + 1
            if child + 1 < size and heap[child + 1][0] < heap[child][0]:
                child += 1
        heap[position] = element
        element[1] = position
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


def _uncount(stamps: Dict[int, int], timestamp: int) -> None:
    """One timer fewer at `timestamp` in a queue's count of timers per timestamp."""
    count = stamps[timestamp]
    if count == 1:
        del stamps[timestamp]
    else:
        stamps[timestamp] = count - 1
