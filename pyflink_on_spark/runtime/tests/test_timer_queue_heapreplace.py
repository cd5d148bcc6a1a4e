"""TimerQueue's sifts from the root in C (heapq.heapreplace for a move, heapq.heappop for a
pop: with equal timestamps the positions break the ties) against an independent port of
Flink's HeapPriorityQueue: the same heap array after every step, with and without equal
timestamps, so the firing order stays Flink's."""
from __future__ import annotations

import random

import pytest

from pyflink_on_spark.runtime.timers import TimerQueue


class FlinkHeap:
    """Flink's HeapPriorityQueueSet as its Java reads: a 1-based array, an element moves
    only when strictly earlier; set semantics on (timestamp, key, namespace)."""

    def __init__(self) -> None:
        self.heap = [None]
        self.ids = set()

    def register(self, key, namespace, timestamp) -> None:
        ident = (timestamp, key, namespace)
        if ident in self.ids:
            return
        self.ids.add(ident)
        self.heap.append(ident)
        self._up(len(self.heap) - 1)

    def delete(self, key, namespace, timestamp) -> None:
        ident = (timestamp, key, namespace)
        if ident not in self.ids:
            return
        self.ids.remove(ident)
        heap = self.heap
        position = heap.index(ident)
        last = heap.pop()
        if position < len(heap):
            heap[position] = last
            if not self._down(position):
                self._up(position)

    def pop_all_due(self, up_to):
        due = []
        while len(self.heap) > 1 and self.heap[1][0] <= up_to:
            first = self.heap[1]
            self.delete(first[1], first[2], first[0])
            due.append(first)
        return due

    def export(self):
        return self.heap[1:]

    def _up(self, position) -> None:
        heap = self.heap
        element = heap[position]
        while position > 1 and element[0] < heap[position >> 1][0]:
            heap[position] = heap[position >> 1]
            position >>= 1
        heap[position] = element

    def _down(self, position) -> bool:
        heap, size, start = self.heap, len(self.heap) - 1, position
        element = heap[position]
        while True:
            child = position * 2
            if child + 1 <= size and heap[child + 1][0] < heap[child][0]:
                child += 1
            if child > size or not heap[child][0] < element[0]:
                break
            heap[position] = heap[child]
            position = child
        heap[position] = element
        return position != start


def _check(queue: TimerQueue, reference: FlinkHeap) -> None:
    assert queue.export() == reference.export()
    if not queue._stale:   # (stale after a long run of root replaces: test below)
        assert [element[1] for element in queue._heap] == list(range(len(queue)))
    stamps = queue._stamps
    if stamps is not None:   # kept from the first move on: exactly the heap's timestamps
        counted = {}
        for timestamp, _, _ in reference.export():
            counted[timestamp] = counted.get(timestamp, 0) + 1
        assert stamps == counted


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("spread", [10, 10_000])
def test_moves_leave_flinks_heap_with_and_without_equal_timestamps(seed, spread):
    """Sessions growing in turn (each move takes the root's timer to a later time: the C
    sift's case when timestamps are distinct), moves from inside the heap, registers that
    make equal timestamps (spread 10: often; 10,000: rarely), deletes and rounds."""
    rng = random.Random(seed)
    queue, reference = TimerQueue(), FlinkHeap()
    ends = {}
    clock = 0
    for step in range(600):
        action = rng.random()
        key = rng.randrange(40)
        if action < 0.55 and ends:
            # the key whose timer is earliest (the root), or any key
            if rng.random() < 0.7:
                key = min(ends, key=lambda k: (ends[k], k))
            else:
                key = rng.choice(sorted(ends))
            old = ends[key]
            clock += rng.randint(0, 3)
            new = old + rng.randint(0, spread) if rng.random() < 0.9 else clock
            queue.move(key, "w%d" % new, new, "w%d" % old, old)
            reference.register(key, "w%d" % new, new)
            reference.delete(key, "w%d" % old, old)
            ends[key] = new
        elif action < 0.75:
            timestamp = clock + rng.randint(0, spread)
            if key not in ends:
                ends[key] = timestamp
                queue.register(key, "w%d" % timestamp, timestamp)
                reference.register(key, "w%d" % timestamp, timestamp)
            else:   # another timer of the key (not tracked as its session's)
                queue.register(key, None, timestamp)
                reference.register(key, None, timestamp)
        elif action < 0.85:
            timestamp = rng.choice([t for t, _, _ in reference.export()] or [0])
            queue.delete(key, None, timestamp)
            reference.delete(key, None, timestamp)
        else:
            up_to = clock + rng.randint(0, spread // 2)
            due = queue.pop_all_due(up_to)
            assert due == reference.pop_all_due(up_to)
            for timestamp, fired, namespace in due:
                if ends.get(fired) == timestamp and namespace == "w%d" % timestamp:
                    del ends[fired]
        _check(queue, reference)
    assert queue.pop_all_due(10 ** 9) == reference.pop_all_due(10 ** 9)


def _counting(monkeypatch, name):
    """Calls of timers' heapq function `name`, counted (it still runs)."""
    import heapq

    from pyflink_on_spark.runtime import timers
    calls = []
    function = getattr(heapq, name)
    monkeypatch.setattr(timers, name, lambda *args: calls.append(1) or function(*args))
    return calls


def test_a_move_from_the_root_takes_heapreplace_with_and_without_equal_timestamps(
        monkeypatch):
    """The C sift is taken for every move of the root's timer (the cases the test above
    compares) and leaves Flink's heap: distinct timestamps, then equal ones."""
    calls = _counting(monkeypatch, "heapreplace")
    queue, reference = TimerQueue(), FlinkHeap()
    for key in range(100):
        queue.register(key, "w", 1000 + key * 7)
        reference.register(key, "w", 1000 + key * 7)
    for step in range(300):
        key = step % 100
        old, new = 1000 + key * 7 + 700 * (step // 100), 1000 + key * 7 + 700 * (step // 100 + 1)
        queue.move(key, "w", new, "w", old)
        reference.register(key, "w", new)
        reference.delete(key, "w", old)
        _check(queue, reference)
    assert len(calls) == 300
    # key 1's timestamp twice in the heap: the C sift with the ties broken by position
    queue.register("x", "w", 1007 + 2100)
    reference.register("x", "w", 1007 + 2100)
    queue.move(0, "w", 5000, "w", 1000 + 2100)
    reference.register(0, "w", 5000)
    reference.delete(0, "w", 1000 + 2100)
    _check(queue, reference)
    assert len(calls) == 301


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("grain", [1, 10, 100, 1000])
def test_root_moves_with_equal_timestamps_leave_flinks_heap(monkeypatch, seed, grain):
    """Sessions of keys in turn whose times are rounded to `grain` (many keys share a
    session end: the ties the C sift breaks by position), the new end sometimes no later
    than others (a shorter gap: the new timer stops above equal or later ones, where
    Flink's top-down sift stops), rounds of pops in between (one by one where they are
    not taken together): after every step the heap and the positions are Flink's."""
    moves = _counting(monkeypatch, "heapreplace")
    rng = random.Random(seed)
    queue, reference = TimerQueue(), FlinkHeap()
    keys = rng.choice([5, 40, 300])
    ends = {}
    clock = 0
    for step in range(1500):
        clock += rng.randint(0, 3)
        key = min(ends, key=lambda k: (ends[k], k)) if ends and rng.random() < 0.8 \
            else rng.randrange(keys)
        new = (clock + rng.choice((3000, 3000, 3000, 1500))) // grain * grain
        old = ends.get(key)
        if old is None:
            queue.register(key, "w", new)
            reference.register(key, "w", new)
        elif old != new:
            queue.move(key, "w", new, "w", old)
            reference.register(key, "w", new)
            reference.delete(key, "w", old)
        ends[key] = new
        _check(queue, reference)
        if rng.random() < 0.02 and ends:
            up_to = min(ends.values()) + rng.choice((0, grain, 10 * grain))
            due = queue.pop_all_due(up_to)
            assert due == reference.pop_all_due(up_to)
            for _, fired, _ in due:
                del ends[fired]
            _check(queue, reference)
    assert len(moves) > 150
    assert queue.pop_all_due(10 ** 9) == reference.pop_all_due(10 ** 9)


@pytest.mark.parametrize("seed", range(8))
def test_pops_one_by_one_with_equal_timestamps_leave_flinks_heap(monkeypatch, seed):
    """The pops pop_all_due takes one by one (heappop, the ties broken by position): timers
    registered in random order over few timestamps, so that the earliest timestamp's are
    not a subtree _pop_equal takes, deletes and moves between rounds; positions left stale
    by a run of root moves first in some runs. After every round the timers fired, their
    order, the heap and the positions are Flink's."""
    pops = _counting(monkeypatch, "heappop")
    rng = random.Random(seed)
    queue, reference = TimerQueue(), FlinkHeap()
    clock = 0
    for _ in range(40):
        clock += 10
        if rng.random() < 0.3:   # a long run of root moves: the positions left stale
            size = rng.randint(30, 80)
            for key in range(size):
                queue.register(("s", key), "w", clock + key)
                reference.register(("s", key), "w", clock + key)
            ends = {key: clock + key for key in range(size)}
            for step in range(size):
                key = min(ends, key=ends.get)
                new = clock + size + step
                queue.move(("s", key), "w", new, "w", ends[key])
                reference.register(("s", key), "w", new)
                reference.delete(("s", key), "w", ends[key])
                ends[key] = new
        for _ in range(rng.randint(5, 120)):
            stamp = clock + rng.choice((0, 0, 1, 2, 5, 20))
            key = rng.randrange(60)
            queue.register(key, "w", stamp)
            reference.register(key, "w", stamp)
        for stamp, key, window in rng.sample(reference.export(), min(3, len(queue))):
            queue.delete(key, window, stamp)
            reference.delete(key, window, stamp)
        up_to = clock + rng.choice((0, 1, 5, 30))
        due = queue.pop_all_due(up_to)
        assert due == reference.pop_all_due(up_to)
        _check(queue, reference)
        assert [element[1] for element in queue._heap] == list(range(len(queue)))
    assert len(pops) > 100
    assert queue.pop_all_due(10 ** 9) == reference.pop_all_due(10 ** 9)


@pytest.mark.parametrize("seed", range(4))
def test_positions_left_stale_by_a_run_of_root_replaces_are_rebuilt_where_read(seed):
    """Keys in turn (every move the root's timer to the latest time, heapreplace's case) for
    long enough that the positions are no longer written, then what reads a position: a
    delete inside the heap, a move from inside it, a move with an equal timestamp (the
    Python sift from the root), between runs again; fire rounds in between. The heap stays
    Flink's throughout, and the positions are right once read."""
    rng = random.Random(seed)
    queue, reference = TimerQueue(), FlinkHeap()
    size = rng.randint(20, 200)
    ends = {}
    for key in range(size):
        ends[key] = 10 * key
        queue.register(key, "w", 10 * key)
        reference.register(key, "w", 10 * key)
    clock = 10 * size
    stale_runs = 0
    for _ in range(8):
        for _ in range(rng.randint(size // 4 + 16, size * 2)):   # keys in turn
            key = min(ends, key=ends.get)
            clock += rng.randint(1, 5)
            queue.move(key, "w", clock, "w", ends[key])
            reference.register(key, "w", clock)
            reference.delete(key, "w", ends[key])
            ends[key] = clock
            _check(queue, reference)
        stale_runs += queue._stale
        action = rng.choice(("delete", "move", "equal", "round"))
        key = rng.choice(sorted(ends))
        if action == "delete":
            queue.delete(key, "w", ends[key])
            reference.delete(key, "w", ends[key])
            del ends[key]
        elif action == "move":   # from inside the heap to the latest time
            clock += 1
            queue.move(key, "w", clock, "w", ends[key])
            reference.register(key, "w", clock)
            reference.delete(key, "w", ends[key])
            ends[key] = clock
        elif action == "equal":   # the root's timer to the latest timestamp there is
            key = min(ends, key=ends.get)
            queue.move(key, "v", clock, "w", ends[key])
            reference.register(key, "v", clock)
            reference.delete(key, "w", ends[key])
            _check(queue, reference)
            queue.delete(key, "v", clock)
            reference.delete(key, "v", clock)
            del ends[key]
        else:
            up_to = min(ends.values()) + 30
            due = queue.pop_all_due(up_to)
            assert due == reference.pop_all_due(up_to)
            for _, fired, _ in due:
                del ends[fired]
        _check(queue, reference)
        if action != "round":
            assert not queue._stale
            assert [element[1] for element in queue._heap] == list(range(len(queue)))
        for key in range(size, size + 3):   # new sessions
            if key not in ends:
                clock += 1
                ends[key] = clock
                queue.register(key, "w", clock)
                reference.register(key, "w", clock)
        size += 3
    assert stale_runs >= 4
    assert queue.pop_all_due(10 ** 9) == reference.pop_all_due(10 ** 9)


def test_a_stale_run_stays_stale_when_the_heap_grows_past_its_threshold():
    """A run of root moves long enough to leave the positions stale, then many new timers
    (new keys' sessions), so that the run's count is under the grown heap's threshold
    again, then more root moves: they must not walk the stale positions (that walk
    followed wrong elements and never ended), and the heap stays Flink's."""
    queue, reference = TimerQueue(), FlinkHeap()
    ends = {}
    for key in range(20):
        ends[key] = 10 * key
        queue.register(key, "w", 10 * key)
        reference.register(key, "w", 10 * key)
    clock = 1000

    def root_moves(count):
        nonlocal clock
        for _ in range(count):
            key = min(ends, key=ends.get)
            clock += 1
            queue.move(key, "w", clock, "w", ends[key])
            reference.register(key, "w", clock)
            reference.delete(key, "w", ends[key])
            ends[key] = clock
            _check(queue, reference)

    root_moves(60)
    assert queue._stale
    for key in range(20, 400):
        clock += 1
        ends[key] = clock
        queue.register(key, "w", clock)
        reference.register(key, "w", clock)
    assert queue._run < (len(queue) >> 2) + 16
    root_moves(50)
    for key in sorted(ends)[:50]:   # deletes read the positions: rebuilt first
        queue.delete(key, "w", ends[key])
        reference.delete(key, "w", ends[key])
        _check(queue, reference)
    assert [element[1] for element in queue._heap] == list(range(len(queue)))
    assert queue.pop_all_due(10 ** 9) == reference.pop_all_due(10 ** 9)


@pytest.mark.parametrize("seed", range(12))
def test_rounds_of_equal_timestamps_leave_in_flinks_order_and_heap(seed):
    """pop_all_due against Flink's pops one by one where many timers share a timestamp:
    windows' timers registered in time order (a tumbling window's keys, the next window's
    beginning), in random order, with deletes and moves between rounds (whose heaps
    are not a window's), rounds over one timestamp and over several; the timers fired,
    their order and the heap left (with the positions) are Flink's after every round,
    whichever of a timestamp's timers leave together (all, or the first ones, the rest
    one by one) and which one by one."""
    rng = random.Random(seed)
    queue, reference = TimerQueue(), FlinkHeap()
    keys = rng.choice([3, 10, 50, 300])
    live = {}
    clock = 0
    rounds = {"all together": 0, "some together": 0}
    original = TimerQueue._pop_equal

    def counting(self, timestamp, due):
        before = len(due)
        original(self, timestamp, due)
        if len(due) > before:
            rounds["all together" if not self._heap or self._heap[0][0] != timestamp
                   else "some together"] += 1

    TimerQueue._pop_equal = counting
    try:
        for _ in range(30):
            clock += 10
            shape = rng.choice(("in order", "random", "few stamps"))
            for _ in range(rng.randint(0, 3 * keys)):
                key = rng.randrange(keys)
                if shape == "in order":
                    stamp = clock + 10 * rng.randint(0, 2)
                elif shape == "random":
                    stamp = clock + rng.randint(-10, 40)
                else:
                    stamp = clock + 10 * rng.randint(0, 1)
                window = "w%d" % rng.randint(0, 2)
                queue.register(key, window, stamp)
                reference.register(key, window, stamp)
                live[(stamp, key, window)] = True
            for _ in range(rng.randint(0, 4)):
                if live:
                    stamp, key, window = rng.choice(sorted(live))
                    if rng.random() < 0.5:
                        queue.delete(key, window, stamp)
                        reference.delete(key, window, stamp)
                    else:
                        new = stamp + rng.randint(1, 30)
                        queue.move(key, window, new, window, stamp)
                        reference.register(key, window, new)
                        reference.delete(key, window, stamp)
                        live[(new, key, window)] = True
                    del live[(stamp, key, window)]
            _check(queue, reference)
            up_to = clock + rng.choice([-5, 0, 5, 15, 25])
            due = queue.pop_all_due(up_to)
            assert due == [tuple(element) for element in reference.pop_all_due(up_to)]
            for timer in due:
                live.pop(timer, None)
            _check(queue, reference)
        assert queue.pop_all_due(10 ** 9) == \
            [tuple(element) for element in reference.pop_all_due(10 ** 9)]
    finally:
        TimerQueue._pop_equal = original
    assert rounds["all together"] > 0, rounds


@pytest.mark.parametrize("keys", [7, 100, 513])
@pytest.mark.parametrize("share", [1.0, 0.9, 0.6, 0.4, 0.25, 0.1, 0.0])
def test_tumbling_rounds_with_the_next_window_partly_registered(keys, share):
    """Tumbling windows' timers as a stream registers them: when a window's round fires,
    a share of the keys has registered its timer of the next window already. All of a
    round's timers leave together when the next window is full; with less of it, the first
    ones together and the rest one by one (placed where Flink's pops leave them); with
    little of it, all one by one. Order and heap are Flink's throughout."""
    queue, reference = TimerQueue(), FlinkHeap()
    taken = []
    original = TimerQueue._pop_equal

    def counting(self, timestamp, due):
        before = len(due)
        original(self, timestamp, due)
        taken.append(len(due) - before)

    for key in range(keys):
        queue.register(key, 0, 999)
        reference.register(key, 0, 999)
    TimerQueue._pop_equal = counting
    try:
        for window in range(1, 6):
            early = int(keys * share)
            order = list(range(keys))
            random.Random(window).shuffle(order)
            for key in order[:early]:
                queue.register(key, window, 1000 * window + 999)
                reference.register(key, window, 1000 * window + 999)
            due = queue.pop_all_due(1000 * window - 1)
            assert due == [tuple(element) for element in
                           reference.pop_all_due(1000 * window - 1)]
            assert len(due) == keys
            _check(queue, reference)
            for key in order[early:]:
                queue.register(key, window, 1000 * window + 999)
                reference.register(key, window, 1000 * window + 999)
    finally:
        TimerQueue._pop_equal = original
    if share == 1.0:
        assert taken and all(count == keys for count in taken)
    elif share >= 0.4 and keys > 7:
        assert taken and all(0 < count < keys for count in taken)
    elif share <= 0.1:
        assert not any(taken)
