"""KeyedProcessOperator timers driven directly (no Spark, no graph): firing rounds, processing
time with an injected clock, BATCH end-of-key firing, timestamps of timer output."""
import random

import pytest

from pyflink_on_spark.datastream.functions import KeyedProcessFunction, wrap_key_selector
from pyflink_on_spark.datastream.state import ValueStateDescriptor
from pyflink_on_spark.datastream.time_domain import TimeDomain
from pyflink_on_spark.runtime.batch_order import batch_key_order
from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
from pyflink_on_spark.runtime.testing import ManualClock, OperatorHarness
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK, MIN_WATERMARK
from pyflink_on_spark.runtime.timers import TimerQueue


def run_operator(function, clock=None, batch=False):
    """(operator, records) where records collects (value, timestamp) of the main output."""
    harness = OperatorHarness(
        KeyedProcessOperator(function, wrap_key_selector(lambda v: v[0]),
                             batch_key_order(None) if batch else None),
        clock=clock or ManualClock(1_000), name="keyed")
    return harness.operator, harness.out


class Recorder(KeyedProcessFunction):
    """Registers timers named by the record; on_timer reports what it sees and may register
    or delete more timers (by a plan keyed by timer timestamp)."""

    def __init__(self, on_timer_plan=None):
        self.plan = on_timer_plan or {}

    def process_element(self, value, ctx):
        key, domain, ts = value
        timers = ctx.timer_service()
        if domain == "event":
            timers.register_event_time_timer(ts)
        else:
            timers.register_processing_time_timer(ts)
        return None

    def on_timer(self, timestamp, ctx):
        timers = ctx.timer_service()
        for action, ts in self.plan.get(timestamp, ()):
            getattr(timers, action)(ts)
        domain = "E" if ctx.time_domain() == TimeDomain.EVENT_TIME else "P"
        yield (domain, ctx.get_current_key(), timestamp, ctx.timestamp(),
               timers.current_watermark())


def test_timer_queue_pop_all_due_returns_one_round_in_firing_order():
    queue = TimerQueue()
    for key, ts in [("a", 30), ("b", 10), ("a", 10), ("c", 50), ("b", 20)]:
        queue.register(key, None, ts)
    queue.delete("b", None, 20)
    assert queue.pop_all_due(30) == [(10, "b", None), (10, "a", None), (30, "a", None)]
    assert queue.pop_all_due(30) == []
    assert len(queue) == 1


@pytest.mark.parametrize("seed", range(20))
def test_timer_queue_deletes_exactly_the_timer_named_after_any_moves(seed):
    """Random registers, deletes and rounds against a set of timers: a round returns
    exactly the timers due that are still registered, in timestamp order (the heap keeps
    each element's position; a wrong one would delete another timer)."""
    rng = random.Random(seed)
    queue, model = TimerQueue(), set()
    for _ in range(300):
        timer = (rng.randint(0, 60), rng.choice("abcdefgh"), rng.choice([None, 1, 2]))
        action = rng.random()
        if action < 0.6:
            queue.register(timer[1], timer[2], timer[0])
            model.add(timer)
        elif action < 0.9:
            queue.delete(timer[1], timer[2], timer[0])
            model.discard(timer)
        else:
            up_to = rng.randint(0, 60)
            due = queue.pop_all_due(up_to)
            assert sorted(due, key=repr) == sorted((t for t in model if t[0] <= up_to),
                                                   key=repr)
            assert [t[0] for t in due] == sorted(t[0] for t in due)
            model -= set(due)
        assert len(queue) == len(model)
    assert sorted(queue.export(), key=repr) == sorted(model, key=repr)


@pytest.mark.parametrize("seed", range(20))
def test_timer_queue_move_leaves_the_heap_of_a_register_then_a_delete(seed):
    """move against register + delete on a second queue, random timers (equal timestamps
    often, moves to earlier and later times, to a timer already there, from one that is not,
    unhashable keys): the same heap array after every step, the same rounds."""
    rng = random.Random(seed)
    moved, stepped = TimerQueue(), TimerQueue()
    for _ in range(400):
        key = rng.choice(["a", "b", "c", "d", "e", ("f",), ["g"]])
        namespace, timestamp = rng.choice([None, 1, 2]), rng.randint(0, 40)
        action = rng.random()
        if action < 0.35:
            for queue in (moved, stepped):
                queue.register(key, namespace, timestamp)
        elif action < 0.9:
            old_namespace, old_timestamp = rng.choice([None, 1, 2]), rng.randint(0, 40)
            held = [(t, n) for t, k, n in stepped.export() if k == key]
            if held and rng.random() < 0.8:   # mostly a timer the key has
                old_timestamp, old_namespace = rng.choice(held)
                timestamp = old_timestamp + rng.randint(-3, 12)
            moved.move(key, namespace, timestamp, old_namespace, old_timestamp)
            stepped.register(key, namespace, timestamp)
            stepped.delete(key, old_namespace, old_timestamp)
        else:
            up_to = rng.randint(0, 40)
            assert moved.pop_all_due(up_to) == stepped.pop_all_due(up_to)
        assert moved.export() == stepped.export()
        assert [element[1] for element in moved._heap] == list(range(len(moved)))
    assert moved.pop_all_due(40) == stepped.pop_all_due(40)


def test_timers_registered_in_on_timer_fire_in_the_next_round_after_all_due_timers():
    # b's timer 30 registers 5 (already passed) and 35: both wait until a's 50 and 70 fired
    plan = {30: [("register_event_time_timer", 35), ("register_event_time_timer", 5)]}
    operator, records = run_operator(Recorder(plan))
    for value in [("a", "event", 50), ("b", "event", 30), ("a", "event", 70)]:
        operator.process_element(value, None)
    operator.process_watermark(MAX_WATERMARK)
    assert [(r[0][1], r[0][2]) for r in records] == [
        ("b", 30), ("a", 50), ("a", 70), ("b", 5), ("b", 35)]


def test_rounds_repeat_until_no_timer_is_due_also_below_max_watermark():
    plan = {10: [("register_event_time_timer", 11)], 11: [("register_event_time_timer", 12)],
            12: [("register_event_time_timer", 500)]}
    operator, records = run_operator(Recorder(plan))
    operator.process_element(("k", "event", 10), None)
    operator.process_watermark(100)
    assert [r[0][2] for r in records] == [10, 11, 12]
    assert all(r[0][4] == 100 for r in records)
    operator.process_watermark(MAX_WATERMARK)
    assert [r[0][2] for r in records] == [10, 11, 12, 500]


def test_a_timer_deleted_by_an_earlier_timer_of_the_same_round_still_fires():
    # PyFlink sends a round's timers to Python before it sees the deletion
    plan = {10: [("delete_event_time_timer", 20)]}
    operator, records = run_operator(Recorder(plan))
    operator.process_element(("a", "event", 10), None)
    operator.process_element(("a", "event", 20), None)
    operator.process_element(("a", "event", 200), None)
    operator.process_watermark(100)
    assert [r[0][2] for r in records] == [10, 20]
    # a deletion before the round starts does prevent the firing
    operator.process_element(("a", "event", 300), None)
    operator.ctx.timer_service().delete_event_time_timer(300)
    operator.process_watermark(MAX_WATERMARK)
    assert [r[0][2] for r in records] == [10, 20, 200]


def test_processing_time_timers_fire_when_the_injected_clock_passes_them():
    clock = ManualClock(1_000)
    operator, records = run_operator(Recorder(), clock=clock)
    for value in [("a", "proc", 1_500), ("b", "proc", 1_200), ("a", "proc", 1_200),
                  ("a", "proc", 1_500)]:
        operator.process_element(value, None)
    assert operator.ctx.timer_service().current_processing_time() == 1_000
    operator.advance_processing_time(clock())
    assert records == []
    clock.now = 1_200
    operator.advance_processing_time(clock())
    assert [r[0][:3] for r in records] == [("P", "b", 1_200), ("P", "a", 1_200)]
    clock.now = 5_000
    operator.advance_processing_time(clock())
    assert [r[0][:3] for r in records][2:] == [("P", "a", 1_500)]  # deduplicated
    operator.advance_processing_time(clock())
    assert len(records) == 3


def test_processing_time_timer_reports_and_emits_its_timestamp_as_pyflink():
    clock = ManualClock(0)
    operator, records = run_operator(Recorder(), clock=clock)
    operator.process_element(("a", "proc", 70), None)
    operator.process_watermark(40)
    clock.now = 100
    operator.advance_processing_time(clock())
    (domain, key, timestamp, ctx_timestamp, watermark), out_ts = records[0]
    assert (domain, ctx_timestamp, watermark, out_ts) == ("P", 70, 40, 70)


def test_pending_processing_time_timers_do_not_fire_at_the_final_watermark():
    operator, records = run_operator(Recorder(), clock=ManualClock(0))
    operator.process_element(("a", "proc", 10), None)
    operator.process_element(("a", "event", 10), None)
    operator.process_watermark(MAX_WATERMARK)
    assert [r[0][0] for r in records] == ["E"]


def test_batch_fires_event_then_processing_time_timers_at_the_end_of_each_key():
    class Counting(Recorder):
        def open(self, runtime_context):
            self.count = runtime_context.get_state(ValueStateDescriptor("n", None))

        def process_element(self, value, ctx):
            self.count.update((self.count.value() or 0) + 1)
            super().process_element(value, ctx)
            yield ("element", value[0], ctx.timer_service().current_watermark())

    plan = {7: [("register_processing_time_timer", 3), ("register_event_time_timer", 1)]}
    operator, records = run_operator(Counting(plan), clock=ManualClock(0), batch=True)
    for value in [("b", "proc", 7), ("a", "event", 5), ("b", "event", 9), ("a", "proc", 6)]:
        operator.process_element(value, None)
    assert records == []
    operator.process_watermark(MAX_WATERMARK)
    assert [r[0][:3] for r in records] == [
        ("element", "a", MIN_WATERMARK), ("element", "a", MIN_WATERMARK),
        ("E", "a", 5), ("P", "a", 6),
        ("element", "b", MIN_WATERMARK), ("element", "b", MIN_WATERMARK),
        ("E", "b", 9), ("P", "b", 7), ("P", "b", 3), ("E", "b", 1)]
    assert all(r[0][4] == MAX_WATERMARK for r in records if r[0][0] in "EP")
    assert [ts for (v, ts) in records if v[0] == "P"] == [6, 7, 3]
    # (a domain's rounds run until it has nothing due, then the other domain's, repeated)
