"""The window operator's own paths give what the general ones give: a row's stamped records in
one call (WindowOperator.process_keyed_stamped_many) against the records one by one
(process_keyed), a window's timer in one step against _on_timer, and tumbling processing-time
windows' element path against _process."""
import random

import pytest

from pyflink_on_spark.common.time import Time
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.functions import AggregateFunction, ProcessWindowFunction
from pyflink_on_spark.datastream.state import ValueStateDescriptor
from pyflink_on_spark.datastream.window import (
    EventTimeTrigger, ProcessingTimeTrigger, SlidingEventTimeWindows, TumblingEventTimeWindows,
    TumblingProcessingTimeWindows)
from pyflink_on_spark.runtime.errors import UserFunctionError
from pyflink_on_spark.runtime.testing import ManualClock
from pyflink_on_spark.runtime.window.tests.window_harness import (
    LATE, Harness, aggregate_op, process_op, reduce_op)


class CountMinMax(AggregateFunction):
    """None for a key's accumulator after a record whose value is -1 (the state drops it)."""

    def create_accumulator(self):
        return 0, None, None

    def add(self, value, accumulator):
        if value[1] == -1:
            return None
        count, low, high = accumulator
        n = value[1]
        return (count + 1, n if low is None or n < low else low,
                n if high is None or n > high else high)

    def get_result(self, accumulator):
        return accumulator

    def merge(self, a, b):
        return a[0] + b[0], min(a[1], b[1]), max(a[2], b[2])


class Elements(ProcessWindowFunction):
    def process(self, key, context, elements):
        yield key, context.window().start, [e[1] for e in elements]


def _add(a, b):
    return a[0], a[1] + b[1]


FIRED = ValueStateDescriptor("fired", Types.INT())
CLEARED = ValueStateDescriptor("cleared", Types.INT())


class CountsFirings(ProcessWindowFunction):
    """Per-window state that clear() drops, and a global count of clears."""

    def process(self, key, context, elements):
        fired = context.window_state().get_state(FIRED)
        cleared = context.global_state().get_state(CLEARED)
        fired.update((fired.value() or 0) + 1)
        yield key, context.window().start, fired.value(), cleared.value() or 0, len(elements)

    def clear(self, context):
        context.window_state().get_state(FIRED).clear()
        cleared = context.global_state().get_state(CLEARED)
        cleared.update((cleared.value() or 0) + 1)


def tumbling(ms):
    return TumblingEventTimeWindows.of(Time.milliseconds(ms))


def sliding(size_ms, slide_ms, offset_ms=0):
    return SlidingEventTimeWindows.of(Time.milliseconds(size_ms), Time.milliseconds(slide_ms),
                                      Time.milliseconds(offset_ms))


OPERATORS = {
    "aggregate": lambda **kw: aggregate_op(tumbling(10), CountMinMax(), **kw),
    "reduce": lambda **kw: reduce_op(tumbling(10), _add, **kw),
    "process": lambda **kw: process_op(tumbling(10), Elements(), **kw),
    "sliding aggregate": lambda **kw: aggregate_op(sliding(10, 4, 1), CountMinMax(), **kw),
    "sliding process": lambda **kw: process_op(sliding(9, 3), Elements(), **kw),
    # windows with gaps between them: some records are in none
    "sparse sliding reduce": lambda **kw: reduce_op(sliding(4, 10, 3), _add, **kw),
    "counts_firings": lambda **kw: process_op(tumbling(10), CountsFirings(), **kw),
    # a window function after an aggregate or a reduce (its clear() with window state)
    "aggregate then process": lambda **kw: aggregate_op(tumbling(10), CountMinMax(),
                                                        Elements(), **kw),
    "reduce then counts_firings": lambda **kw: reduce_op(sliding(10, 5), _add,
                                                         CountsFirings(), **kw),
}
# str and int keys take the inline path, a tuple key and a float key the backend's calls
KEYS = ["a", "b", 7, 8, ("t", 1), 2.5]
# keys the heap backend stores as they are: every row of a tumbling window takes the loop
# that keeps the window of the record before (_tumbling_heap_rows)
PLAIN_KEYS = ["a", "b", 7, 8, 2.5]


def _rows(seed: int, keys=KEYS):
    """Rows of (key, value, timestamp) with a watermark after each: timestamps wander back
    behind the watermark now and then (late records, windows that fire at once)."""
    rng = random.Random(seed)
    rows, now = [], 0
    for _ in range(12):
        row = []
        for _ in range(rng.randint(1, 40)):
            now += rng.randint(0, 4)
            timestamp = now - rng.choice([0, 0, 0, 3, 15, 40])
            key = rng.choice(keys)
            row.append((key, (key, rng.choice([1, 2, 3, 5, -1])), timestamp))
        rows.append((row, now - rng.randint(0, 12)))
    return rows


def _run(kind: str, rows, in_one_call: bool, **harness):
    h = Harness(OPERATORS[kind](late_tag=LATE), **harness)
    operator = h.operator
    assert operator.process_keyed_stamped_many is not None
    for row, watermark in rows:
        if in_one_call:
            operator.process_keyed_stamped_many([r[0] for r in row], [r[1] for r in row],
                                                [r[2] for r in row])
        else:
            for key, value, timestamp in row:
                operator.process_keyed(key, value, timestamp)
        h.watermark(watermark)
    h.end()
    return h.out, h.late


@pytest.mark.parametrize("kind", sorted(OPERATORS))
@pytest.mark.parametrize("seed", range(6))
def test_a_rows_records_in_one_call_give_what_they_give_one_by_one(kind, seed):
    rows = _rows(seed)
    one_by_one = _run(kind, rows, False)
    assert one_by_one[0] and one_by_one[1]   # windows fired, and some records were late
    assert _run(kind, rows, True) == one_by_one


@pytest.mark.parametrize("kind", sorted(OPERATORS))
@pytest.mark.parametrize("seed", range(4))
def test_rows_of_plain_keys_give_what_they_give_one_by_one(kind, seed):
    rows = _rows(seed, PLAIN_KEYS)
    one_by_one = _run(kind, rows, False)
    assert one_by_one[0] and one_by_one[1]
    assert _run(kind, rows, True) == one_by_one


@pytest.mark.parametrize("kind", sorted(OPERATORS))
def test_on_rocksdb_too(kind, tmp_path):
    rows = _rows(1)
    expected = _run(kind, rows, False)
    got = _run(kind, rows, True, state_backend="rocksdb", work_dir=str(tmp_path))
    assert got == expected


def test_late_records_are_counted_as_one_by_one():
    h = Harness(aggregate_op(tumbling(10), CountMinMax()))
    h.watermark(30)
    h.operator.process_keyed_stamped_many(["a", "a", "b"], [("a", 1), ("a", 2), ("b", 3)],
                                          [5, 35, 12])
    h.end()
    assert h.values() == [(1, 2, 2)]
    assert h.operator.late_records_dropped.get_count() == 2


def test_an_error_in_the_users_add_names_the_window_with_the_users_frame():
    class Broken(CountMinMax):
        def add(self, value, accumulator):
            return 1 // 0

    h = Harness(aggregate_op(tumbling(10), Broken()))
    with pytest.raises(UserFunctionError) as info:
        h.operator.process_keyed_stamped_many(["a"], [("a", 1)], [3])
    assert info.value.operator_name == "Window"
    trace = info.value.user_traceback
    assert "in add" in trace and "return 1 // 0" in trace
    assert h.operator.current_key == "a"


def test_a_record_without_timestamp_fails_as_it_does_alone():
    h = Harness(aggregate_op(tumbling(10), CountMinMax()))
    with pytest.raises(UserFunctionError) as info:
        h.operator.process_keyed_stamped_many(["a", "b"], [("a", 1), ("b", 2)], [3, None])
    assert "Long.MIN_VALUE timestamp" in str(info.value)


class SameAsEventTimeTrigger(EventTimeTrigger):
    """Not EventTimeTrigger itself: the operator may not assume its logic."""


@pytest.mark.parametrize("make", [
    lambda: aggregate_op(tumbling(10), CountMinMax(), allowed_lateness=5),
    lambda: aggregate_op(sliding(10, 5), CountMinMax(), allowed_lateness=5),
    lambda: aggregate_op(tumbling(10), CountMinMax(), trigger=SameAsEventTimeTrigger()),
])
def test_other_windows_take_their_records_one_by_one(make):
    assert Harness(make()).operator.process_keyed_stamped_many is None


def test_batch_mode_takes_its_records_one_by_one():
    h = Harness(aggregate_op(tumbling(10), CountMinMax()), batch=True)
    assert h.operator.process_keyed_stamped_many is None


# -- a window's timer (WindowOperator._on_event_timer_no_lateness) -----------------------------

def _fired(kind: str, rows, general: bool):
    h = Harness(OPERATORS[kind](late_tag=LATE))
    operator = h.operator
    if general:
        operator._timer_logic = operator._on_timer
    else:
        assert operator._timer_logic == operator._on_event_timer_no_lateness
    for row, watermark in rows:
        operator.process_keyed_stamped_many([r[0] for r in row], [r[1] for r in row],
                                            [r[2] for r in row])
        h.watermark(watermark)
    h.operator.process_watermark(10 ** 6)   # every window fires, before the end
    tables = {namespace: dict(table) for state in operator.backend._raw.values()
              for namespace, table in state._tables.items() if table}
    return h.out, h.late, tables, len(operator._event_queue)


@pytest.mark.parametrize("kind", sorted(OPERATORS))
@pytest.mark.parametrize("seed", range(3))
def test_a_windows_timer_fires_and_cleans_up_as_the_general_path(kind, seed):
    rows = _rows(seed)
    general = _fired(kind, rows, True)
    out, late, tables, timers = general
    assert out and late and timers == 0
    assert _fired(kind, rows, False) == general


def test_a_windows_state_is_gone_once_it_fired():
    h = Harness(OPERATORS["counts_firings"]())
    h.operator.process_keyed_stamped_many(["a", "a", "b"], [("a", 1), ("a", 2), ("b", 3)],
                                          [1, 12, 15])
    h.watermark(19)
    assert sorted(h.values()) == [("a", 0, 1, 0, 1), ("a", 10, 1, 1, 1), ("b", 10, 1, 0, 1)]
    from pyflink_on_spark.runtime.state.backend import VOID_NAMESPACE
    left = {namespace for state in h.operator.backend._raw.values()
            for namespace, table in state._tables.items() if table}
    assert left == {VOID_NAMESPACE}   # the global clear counts; no window's state
    assert len(h.operator._event_queue) == 0


@pytest.mark.parametrize("general", [False, True])
def test_a_timer_at_another_time_than_the_windows_end_neither_fires_nor_clears(general):
    from pyflink_on_spark.datastream.time_domain import TimeDomain
    h = Harness(OPERATORS["aggregate"]())
    if general:
        h.operator._timer_logic = h.operator._on_timer
    h.operator.process_keyed_stamped_many(["a"], [("a", 4)], [4])
    window = h.operator._window_cache[0]
    h.operator._fire((5, "a", window), TimeDomain.EVENT_TIME)
    assert h.out == []
    h.watermark(9)
    assert h.values() == [(1, 4, 4)]


# -- tumbling processing-time windows (WindowOperator._process_processing_time) ----------------

PROCESSING = {
    "aggregate": lambda: aggregate_op(TumblingProcessingTimeWindows.of(
        Time.milliseconds(10), Time.milliseconds(3)), CountMinMax()),
    "reduce": lambda: reduce_op(TumblingProcessingTimeWindows.of(Time.milliseconds(7)), _add),
    "process": lambda: process_op(TumblingProcessingTimeWindows.of(Time.milliseconds(10)),
                                  CountsFirings()),
}


def _processing_run(kind: str, seed: int, general: bool, **harness):
    """Records at a clock that moves on, processing time advanced now and then (windows
    fire), then the end (pending windows do not fire)."""
    rng = random.Random(seed)
    clock = ManualClock(now=rng.randint(-20, 20))
    h = Harness(PROCESSING[kind](), clock=clock, **harness)
    operator = h.operator
    if general:
        operator._element_logic = operator._process
    else:
        assert operator._element_logic == operator._process_processing_time
    for _ in range(200):
        clock.now += rng.choice([0, 0, 1, 2, 5])
        if rng.random() < 0.1:
            h.processing_time(clock.now)
        key = rng.choice(["a", "b", 7, ("t", 1)])
        h.element((key, rng.choice([1, 2, 3, -1])), rng.choice([None, clock.now]))
    h.end()
    return h.out, len(operator.timers.processing_time)


@pytest.mark.parametrize("kind", sorted(PROCESSING))
@pytest.mark.parametrize("seed", range(4))
def test_tumbling_processing_time_windows_take_an_element_as_the_general_path(kind, seed):
    expected = _processing_run(kind, seed, True)
    assert expected[0] and expected[1]   # windows fired, and some were pending at the end
    assert _processing_run(kind, seed, False) == expected


def test_tumbling_processing_time_windows_on_rocksdb_too(tmp_path):
    assert _processing_run("aggregate", 1, False, state_backend="rocksdb",
                           work_dir=str(tmp_path)) == _processing_run("aggregate", 1, True)


def test_other_processing_time_windows_take_the_general_path():
    class SameAsProcessingTimeTrigger(ProcessingTimeTrigger):
        """Not ProcessingTimeTrigger itself."""

    h = Harness(aggregate_op(TumblingProcessingTimeWindows.of(Time.milliseconds(10)),
                             CountMinMax(), trigger=SameAsProcessingTimeTrigger()))
    assert h.operator._element_logic == h.operator._process


@pytest.mark.parametrize("timestamps", [[11, 9, 13], [9, 11, 10], [8, 13, 12]])
def test_sliding_windows_of_records_close_in_time_are_each_records_own(timestamps):
    """10 ms windows every 4 ms: 9 is in [0, 10), [4, 14), [8, 18); 11 and 13 are not in
    [0, 10); 12 and 13 are in [12, 22), 8 to 11 are not."""
    def run(in_one_call):
        h = Harness(aggregate_op(sliding(10, 4), CountMinMax()))
        values = [("a", t) for t in timestamps]
        if in_one_call:
            h.operator.process_keyed_stamped_many(["a"] * len(values), values, timestamps)
        else:
            for value, timestamp in zip(values, timestamps):
                h.operator.process_keyed("a", value, timestamp)
        h.end()
        return h.out
    assert run(True) == run(False)


def test_an_error_in_the_users_get_result_at_firing_names_the_window_with_the_users_frame():
    class Broken(CountMinMax):
        def get_result(self, accumulator):
            return accumulator[0] // 0

    h = Harness(aggregate_op(tumbling(10), Broken()))
    h.operator.process_keyed_stamped_many(["a", "b"], [("a", 1), ("b", 2)], [3, 4])
    with pytest.raises(UserFunctionError) as info:
        h.watermark(20)
    assert info.value.operator_name == "Window"
    trace = info.value.user_traceback
    assert "in get_result" in trace and "return accumulator[0] // 0" in trace
    assert h.operator.current_key == "a" and h.out == []   # the first timer, "a"'s, failed
