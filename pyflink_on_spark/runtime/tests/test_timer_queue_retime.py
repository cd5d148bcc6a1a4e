"""TimerQueue.retime and rename (a growing session's timer held through a row of records:
WindowOperator._session_rows) against move(), which the record-by-record path calls: the
same heap array after every step (timestamps and keys in heap order, so the same firing
order of equal timestamps), the same queue once the held timers are renamed, and retime
declining exactly where move() takes its two steps."""
import random

import pytest

from pyflink_on_spark.runtime.timers import TimerQueue


DECLINED = []   # retime's declines in each random run (the last test asserts some)


def _array(queue):
    return [(element[0], element[2]) for element in queue._heap]


def _positions_hold(queue):
    return all(element[4] == i for i, element in enumerate(queue._heap))


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("spread", [3, 100_000])
def test_retimed_timers_leave_the_heap_move_leaves(seed, spread):
    """Keys in turn (the old timer at the heap's root: heapreplace's C sift) or at random,
    timestamps that often tie (spread 3) or rarely, rows of random length: one queue moves
    each timer record by record (move), the other holds each key's timer through a row
    (retime, rename at the row's end; move where retime declines)."""
    rng = random.Random(seed)
    moved, held_queue = TimerQueue(), TimerQueue()
    keys = list(range(rng.randint(1, 40)))
    current = {}   # key -> (timestamp, namespace)
    now = 0
    for key in keys:
        now += rng.randint(0, spread)
        current[key] = (now, ("w", key, 0))
        for queue in (moved, held_queue):
            queue.register(key, current[key][1], now)
    in_turn = seed % 2 == 0
    turn = 0
    declined = retimed = 0
    for _ in range(60):   # rows
        held = {}   # key -> [handle, namespace]
        for _ in range(rng.randint(1, 30)):
            if in_turn:
                key = keys[turn % len(keys)]
                turn += 1
            else:
                key = rng.choice(keys)
            old_timestamp, old_namespace = current[key]
            timestamp = old_timestamp + (rng.randint(0, spread) if rng.random() < 0.9 else 0)
            namespace = ("w", key, timestamp if timestamp != old_timestamp
                         else old_namespace[2] + 1)
            moved.move(key, namespace, timestamp, old_namespace, old_timestamp)
            entry = held.get(key)
            if entry is None:
                handle = held_queue.timer_handle(key, old_namespace, old_timestamp)
                assert handle is not None
                entry = held[key] = [handle, old_namespace]
            if held_queue.retime(entry[0], timestamp):
                entry[1] = namespace
                retimed += 1
            else:   # move's two steps: the held timer renamed first, then moved
                declined += 1
                held_queue.rename(entry[0], old_namespace)
                del held[key]
                held_queue.move(key, namespace, timestamp, old_namespace, old_timestamp)
            current[key] = (timestamp, namespace)
            assert _array(held_queue) == _array(moved)
        for handle, namespace in held.values():
            held_queue.rename(handle, namespace)
        assert held_queue.export() == moved.export()
        assert held_queue._index.keys() == moved._index.keys()
        assert held_queue._stamps == moved._stamps
        assert _positions_hold(held_queue)
    assert retimed > 0
    DECLINED.append(declined)
    # the same firing order to the end
    assert held_queue.pop_all_due(10 ** 12) == moved.pop_all_due(10 ** 12)


def test_retime_declines_where_the_register_would_sift_up():
    queue = TimerQueue()
    for key, timestamp in (("a", 1), ("b", 5), ("c", 9), ("d", 3)):
        queue.register(key, None, timestamp)
    # register would append at slot 4, under slot 1 (timestamp 3): 2 sifts up there
    handle = queue.timer_handle("a", None, 1)
    before = _array(queue)
    assert not queue.retime(handle, 2)
    assert _array(queue) == before and handle[0] == 1
    assert queue.retime(handle, 3)   # not earlier than that parent: in place
    queue.rename(handle, "grown")
    assert queue.export() == [(3, "a", "grown"), (3, "d", None), (9, "c", None),
                              (5, "b", None)]


def test_the_random_runs_saw_retime_decline():
    assert sum(DECLINED) > 0
