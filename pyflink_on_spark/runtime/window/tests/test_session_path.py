"""Event-time session windows' own path (WindowOperator._process_session and
_on_session_timer) against the general one (_process and _on_timer with a MergingWindowSet):
the same outputs, late records, state left and timers in the same heap order, for random
records (out of order, bridging sessions, late within and beyond the allowed lateness) and
every window function kind; and where the path is not taken."""
import random

import pytest

from pyflink_on_spark.common.time import Time
from pyflink_on_spark.datastream.functions import (
    AggregateFunction, ProcessWindowFunction, wrap_key_selector)
from pyflink_on_spark.datastream.window import (
    ContinuousEventTimeTrigger, EventTimeSessionWindows, EventTimeTrigger, PurgingTrigger,
    SessionWindowTimeGapExtractor)
from pyflink_on_spark.runtime.state.backend import VOID_NAMESPACE
from pyflink_on_spark.runtime.testing import OperatorHarness
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK
from pyflink_on_spark.runtime.window.operator import WindowOperator
from pyflink_on_spark.runtime.window.tests.window_harness import (
    LATE, Harness, aggregate_op, process_op, reduce_op)


class Sequence(AggregateFunction):
    """Keeps the values in the order they were added and merged: a merge in another order
    shows."""

    def create_accumulator(self):
        return ()

    def add(self, value, accumulator):
        return accumulator + (value[1],)

    def get_result(self, accumulator):
        return list(accumulator)

    def merge(self, acc_a, acc_b):
        return acc_a + ("merge",) + acc_b


class Elements(ProcessWindowFunction):
    """The window, its elements, and whether it was cleared (clear() after the firing)."""

    def __init__(self):
        self.cleared = []

    def process(self, key, context, elements):
        yield key, repr(context.window()), [e[1] for e in elements]

    def clear(self, context):
        self.cleared.append(repr(context.window()))


def _concat(a, b):
    return a[0], "%s+%s" % (a[1], b[1])


class _GapOfSecondField(SessionWindowTimeGapExtractor):
    def __init__(self):
        self.calls = 0

    def extract(self, element):
        self.calls += 1
        return 2 + element[1] % 4


def _operator(kind, gap, **kw):
    assigner = EventTimeSessionWindows.with_dynamic_gap(_GapOfSecondField()) if gap is None \
        else EventTimeSessionWindows.with_gap(Time.milliseconds(gap))
    if kind == "reduce":
        return reduce_op(assigner, _concat, **kw)
    if kind == "aggregate":
        return aggregate_op(assigner, Sequence(), **kw)
    return process_op(assigner, Elements(), **kw)


def _general(harness):
    operator = harness.operator
    operator._element_logic, operator._timer_logic = operator._process, operator._on_timer
    return harness


def _state(harness):
    operator = harness.operator
    return (operator.backend.export_tables(), operator.timers.event_time.export(),
            harness.out, harness.late)


def _random_run(seed, kind, gap, lateness, late_tag, rows=False):
    """Random records and watermarks into the session path and the general one; with
    `rows`, the session path takes the records between two watermarks as one row
    (process_keyed_stamped_many, the task's call)."""
    rng = random.Random(seed)
    kw = {"allowed_lateness": lateness, "late_tag": LATE if late_tag else None}
    fast, general = Harness(_operator(kind, gap, **kw)), _general(
        Harness(_operator(kind, gap, **kw)))
    assert fast.operator._element_logic == fast.operator._process_session
    row = []
    watermark = -1
    for step in range(61):
        if rng.random() < 0.15 or step == 60:
            if row and fast.operator.process_keyed_stamped_many is None:   # dynamic gaps
                fast.elements(row)
            elif row:
                fast.operator.process_keyed_stamped_many(
                    [value[0] for value, _ in row], [value for value, _ in row],
                    [timestamp for _, timestamp in row])
            row = []
            watermark += rng.randint(0, 6)
            for h in (fast, general):
                h.watermark(watermark)
        else:
            key = rng.choice("abc")
            timestamp = max(0, watermark + rng.randint(-8, 12))
            value = (key, timestamp) if rng.random() < 0.95 else (key, step)
            if rows:
                row.append((value, timestamp))
                general.element(value, timestamp)
                continue
            for h in (fast, general):
                h.element(value, timestamp)
        assert _state(fast) == _state(general), (seed, step)
    for h in (fast, general):
        h.watermark(MAX_WATERMARK)
    assert _state(fast) == _state(general), seed
    if kind == "process":
        assert fast.operator.function._wrapped_function.cleared == \
            general.operator.function._wrapped_function.cleared
    return fast


@pytest.mark.parametrize("kind", ["reduce", "aggregate", "process"])
@pytest.mark.parametrize("gap", [3, None])
@pytest.mark.parametrize("lateness,late_tag", [(0, False), (0, True), (5, True)])
def test_the_session_path_leaves_what_the_general_path_leaves(kind, gap, lateness, late_tag):
    outputs = lates = 0
    for seed in range(25):
        h = _random_run(seed, kind, gap, lateness, late_tag, rows=seed % 2 == 1)
        outputs += len(h.out)
        lates += len(h.late)
    assert outputs > 100   # the runs fired sessions, and records came late
    if late_tag:
        assert lates > 0


def test_rows_of_a_static_gap_take_one_loop():
    h = Harness(_operator("aggregate", 3))
    assert h.operator.process_keyed_stamped_many == h.operator._session_rows
    assert Harness(_operator("aggregate", None)).operator.process_keyed_stamped_many is None


@pytest.mark.parametrize("kind", ["reduce", "aggregate", "process"])
def test_sessions_fired_without_side_outputs_carry_the_timers_timestamp(kind):
    # (the window Harness always has a side output; a task's operator often has none)
    h = OperatorHarness(WindowOperator(_operator(kind, 3), wrap_key_selector(lambda v: v[0])),
                        name="Window")
    assert not h.operator.output.routes_side_outputs
    h.elements([(("a", 0), 0), (("b", 1), 1), (("a", 2), 2)]).watermark(4)
    assert [timestamp for _, timestamp in h.out] == [3, 4]
    h.element(("a", 9), 9).watermark(MAX_WATERMARK)
    assert [timestamp for _, timestamp in h.out] == [3, 4, 11]


def test_a_session_extended_in_place_moves_its_one_timer():
    h = Harness(aggregate_op(EventTimeSessionWindows.with_gap(Time.milliseconds(3)),
                             Sequence()))
    h.elements([(("a", 0), 0), (("a", 2), 2), (("a", 1), 1), (("a", 4), 4)])
    # one session [0, 7): one timer at its end, its contents in the first window's namespace
    assert h.operator.timers.event_time.export() == [(6, "a", (0, 7))]
    tables = h.operator.backend.export_tables()
    assert tables["window-contents"] == {(0, 3): {"a": (0, 2, 1, 4)}}
    assert tables["merging-window-set"] == {VOID_NAMESPACE: {"a": {(0, 7): (0, 3)}}}
    h.watermark(6)
    assert h.values() == [[0, 2, 1, 4]]
    assert h.operator.backend.export_tables() == {"merging-window-set": {},
                                                  "window-contents": {}}
    assert len(h.operator.timers.event_time) == 0


def test_a_bridging_record_merges_the_accumulators_in_flinks_order():
    h = Harness(aggregate_op(EventTimeSessionWindows.with_gap(Time.milliseconds(3)),
                             Sequence()))
    h.elements([(("a", 0), 0), (("a", 4), 4), (("a", 2), 2)]).end()
    assert h.values() == [[0, "merge", 4, 2]]


def test_late_records_within_and_beyond_the_allowed_lateness():
    h = Harness(_operator("process", 3, allowed_lateness=5, late_tag=LATE))
    h.element(("a", 10), 10).watermark(14)                     # [10, 13) fires at 12
    assert h.values() == [("a", "TimeWindow(start=10, end=13)", [10])]
    h.element(("a", 11), 11)           # within the lateness: in the session, fires at once
    assert h.take()[-1:] == [("a", "TimeWindow(start=10, end=14)", [10, 11])]
    h.watermark(20)                    # the cleanup at 13 + 5
    h.element(("a", 12), 12).end()     # beyond: late
    assert h.late == [(("a", 12), 12)]
    assert h.operator.function._wrapped_function.cleared == ["TimeWindow(start=10, end=14)"]


def test_dynamic_gaps_call_the_users_extractor_once_a_record():
    op = _operator("reduce", None)
    extractor = op.assigner._session_window_time_gap_extractor
    h = Harness(op)
    h.elements([(("a", t), t) for t in (0, 8, 3, 2, 30)]).watermark(5).element(("a", 1), 1)
    assert extractor.calls == 6


@pytest.mark.parametrize("trigger", [
    PurgingTrigger.of(EventTimeTrigger.create()),
    ContinuousEventTimeTrigger.of(Time.milliseconds(2))])
def test_another_trigger_takes_the_general_path(trigger):
    h = Harness(_operator("process", 3, trigger=trigger))
    assert h.operator._element_logic == h.operator._process
    assert h.operator._timer_logic == h.operator._on_timer


def test_state_off_the_heap_takes_the_general_path(tmp_path):
    h = Harness(_operator("aggregate", 3), state_backend="rocksdb", work_dir=str(tmp_path))
    assert h.operator._element_logic == h.operator._process
    h.elements([(("a", 0), 0), (("a", 4), 4)])
    # (a task holds its head's row method from before open(): the rows go one by one)
    h.operator.process_keyed_stamped_many(["a", "a"], [("a", 2), ("a", 20)], [2, 20])
    h.end()
    assert h.values() == [[0, "merge", 4, 2], [20]]


@pytest.mark.parametrize("kind", ["reduce", "aggregate", "process"])
@pytest.mark.parametrize("seed", range(4))
def test_keys_in_turn_through_rows_leave_what_records_one_by_one_leave(kind, seed):
    """Keys reporting in turn within the gap (a record grows its key's one session, whose
    timer is then often the heap's root: TimerQueue.move's sift in C, positions left stale
    after a long run of them), equal timestamps often, now and then a record out of order
    or far ahead (a key's second session), pauses that end every session, in rows of
    random length (_session_rows) against the same records one by one through the general
    path: the same state, timers in the same heap order and outputs after every row and
    watermark."""
    rng = random.Random(seed)
    rows = Harness(_operator(kind, 50))
    general = _general(Harness(_operator(kind, 50)))
    keys = [chr(ord("a") + i) for i in range(rng.randint(2, 12))]
    now, watermark, turn = 0, -1, 0
    for _ in range(40):
        row = []
        if rng.random() < 0.3:
            now += 60   # a pause beyond the gap: every session ends
        for _ in range(rng.randint(1, 40)):
            key = keys[turn % len(keys)]
            turn += 1
            now += rng.choice((0, 0, 1, 2, 3))
            timestamp = now
            if rng.random() < 0.1:
                timestamp = max(0, now - rng.randint(0, 20))
            elif rng.random() < 0.03:
                timestamp = now + 200
            row.append((key, timestamp))
            general.element((key, timestamp), timestamp)
        rows.operator.process_keyed_stamped_many(
            [key for key, _ in row], row, [timestamp for _, timestamp in row])
        assert _state(rows) == _state(general), seed
        watermark = max(watermark, now - rng.randint(0, 120))
        for h in (rows, general):
            h.watermark(watermark)
        assert _state(rows) == _state(general), seed
    for h in (rows, general):
        h.watermark(MAX_WATERMARK)
    assert _state(rows) == _state(general)
    assert len(rows.out) > 10   # sessions fired along the way
