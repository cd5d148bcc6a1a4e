"""The window operator, driven by hand: elements, watermarks and processing time in, exact
outputs out. Scenarios of PyFlink's own window tests plus lateness, purging, merging,
state scoping, BATCH mode and both state backends."""
import pytest

from pyflink_on_spark.common.constants import MAX_LONG_VALUE, MIN_LONG_VALUE
from pyflink_on_spark.common.time import Time
from pyflink_on_spark.datastream.functions import (
    AggregateFunction, ProcessWindowFunction, WindowFunction)
from pyflink_on_spark.datastream.output_tag import OutputTag
from pyflink_on_spark.datastream.state import ValueStateDescriptor
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.window import (
    ContinuousEventTimeTrigger, CountSlidingWindowAssigner, CountTrigger,
    CountTumblingWindowAssigner, EventTimeSessionWindows, EventTimeTrigger, GlobalWindows,
    ProcessingTimeSessionWindows, PurgingTrigger, SessionWindowTimeGapExtractor,
    SlidingEventTimeWindows, TumblingEventTimeWindows, TumblingProcessingTimeWindows)
from pyflink_on_spark.runtime.errors import UserFunctionError
from pyflink_on_spark.runtime.testing import ManualClock
from pyflink_on_spark.runtime.window.tests.window_harness import (
    LATE, Harness, aggregate_op, apply_op, process_op, reduce_op)


def _add(a, b):
    return (a[0], a[1] + b[1])


class Describe(ProcessWindowFunction):
    """(key, start, end, number of elements), like PyFlink's tests' CountWindowProcessFunction."""

    def process(self, key, context, elements):
        window = context.window()
        return [(key, window.start, window.end, len(list(elements)))]


class Elements(ProcessWindowFunction):
    def process(self, key, context, elements):
        yield (key, repr(context.window()), [e[1] for e in elements])


def tumbling(ms):
    return TumblingEventTimeWindows.of(Time.milliseconds(ms))


def stamped(values):
    """(key, n) records with timestamp n."""
    return [(v, v[1]) for v in values]


# -- event-time windows ------------------------------------------------------------------------

def test_tumbling_windows_fire_when_the_watermark_passes_their_end():
    h = Harness(reduce_op(tumbling(5), _add))
    h.elements(stamped([("a", 1), ("b", 2), ("a", 3), ("a", 6)]))
    h.watermark(3)
    assert h.out == []
    h.watermark(4)
    # window [0, 5) of a, then of b (timer registration order); timestamp = window end - 1
    assert h.out == [(("a", 4), 4), (("b", 2), 4)]
    h.element(("a", 9), 9).end()
    assert h.out[2:] == [(("a", 15), 9)]
    assert h.watermarks == [3, 4, MAX_LONG_VALUE]


def test_pyflink_event_time_tumbling_window_scenario():
    h = Harness(process_op(tumbling(5), Describe()))
    h.elements(stamped([("hi", t) for t in (1, 2, 3, 4, 5, 8, 9, 15)])).end()
    assert h.values() == [("hi", 0, 5, 4), ("hi", 5, 10, 3), ("hi", 15, 20, 1)]


def test_pyflink_event_time_sliding_window_scenario():
    h = Harness(process_op(SlidingEventTimeWindows.of(Time.milliseconds(5),
                                                      Time.milliseconds(2)), Describe()))
    h.elements(stamped([("hi", t) for t in (1, 2, 3, 4, 5, 8, 9, 15)])).end()
    assert h.values() == [("hi", -2, 3, 2), ("hi", 0, 5, 4), ("hi", 2, 7, 4), ("hi", 4, 9, 3),
                          ("hi", 6, 11, 2), ("hi", 8, 13, 2), ("hi", 12, 17, 1),
                          ("hi", 14, 19, 1)]


def test_late_elements_are_dropped_and_counted():
    h = Harness(reduce_op(tumbling(5), _add))
    h.element(("a", 1), 1).watermark(7)
    h.element(("a", 2), 2)              # window [0, 5) is gone
    h.element(("a", 6), 6).end()        # window [5, 10) is not
    assert h.values() == [("a", 1), ("a", 6)]
    assert h.late == []
    assert h.operator.late_records_dropped.get_count() == 1


def test_late_elements_go_to_the_late_data_side_output():
    h = Harness(process_op(tumbling(5), Describe(), late_tag=LATE))
    h.elements(stamped([("a", 0), ("a", 8)])).watermark(8)
    h.elements(stamped([("a", 4), ("a", 6)])).end()
    assert h.values() == [("a", 0, 5, 1), ("a", 5, 10, 2)]
    assert h.late == [(("a", 4), 4)]
    assert h.operator.late_records_dropped.get_count() == 0


def test_allowed_lateness_fires_again_for_late_elements_then_cleans_up():
    h = Harness(process_op(tumbling(5), Elements(), allowed_lateness=10, late_tag=LATE))
    h.element(("a", 1), 1).watermark(6)
    assert h.take() == [("a", "TimeWindow(start=0, end=5)", [1])]
    h.element(("a", 3), 3)              # within the lateness: the window fires at once
    assert h.out == [(("a", "TimeWindow(start=0, end=5)", [1, 3]), 3)]
    h.take()
    h.watermark(14)                     # cleanup time is 4 + 10 = 14
    h.element(("a", 2), 2)              # too late now
    h.end()
    assert h.values() == []
    assert h.late == [(("a", 2), 2)]


def test_late_window_is_skipped_but_element_is_not_late_if_another_window_takes_it():
    h = Harness(process_op(SlidingEventTimeWindows.of(Time.milliseconds(10),
                                                      Time.milliseconds(5)), Describe(),
                           late_tag=LATE))
    h.watermark(9)
    h.element(("a", 7), 7).end()        # [0, 10) is late, [5, 15) takes the element
    assert h.values() == [("a", 5, 15, 1)]
    assert h.late == []


def test_element_without_timestamp_fails_event_time_assignment():
    h = Harness(reduce_op(tumbling(5), _add))
    with pytest.raises(UserFunctionError) as info:
        h.element(("a", 1), None)
    assert "Long.MIN_VALUE timestamp" in str(info.value)


def test_default_trigger_path_and_generic_path_agree():
    class SameAsEventTimeTrigger(EventTimeTrigger):
        """A subclass: the operator cannot assume EventTimeTrigger and runs the generic path."""

    runs = []
    for trigger in (None, SameAsEventTimeTrigger()):
        h = Harness(process_op(tumbling(5), Elements(), trigger=trigger, allowed_lateness=3,
                               late_tag=LATE))
        h.elements(stamped([("a", 1), ("b", 2), ("a", 6)])).watermark(5)
        h.elements(stamped([("a", 4), ("b", 7), ("a", 0)])).watermark(8)
        h.elements(stamped([("a", 3), ("b", 9)])).end()
        runs.append((h.out, h.late))
    assert runs[0] == runs[1]
    assert runs[0][1] == [(("a", 3), 3)]


# -- count and global windows --------------------------------------------------------------------

class Sum(WindowFunction):
    def apply(self, key, window, inputs):
        return [(key, sum(i[0] for i in inputs))]


def test_pyflink_count_tumbling_window_scenario():
    h = Harness(apply_op(CountTumblingWindowAssigner.of(3), Sum()), key=lambda v: v[1])
    h.elements([((1, "hi"), None), ((2, "hello"), None), ((3, "hi"), None),
                ((4, "hello"), None), ((5, "hi"), None), ((6, "hello"), None),
                ((6, "hello"), None)]).end()
    assert h.values() == [("hi", 9), ("hello", 12)]


def test_pyflink_count_sliding_window_scenario():
    h = Harness(apply_op(CountSlidingWindowAssigner.of(2, 1), Sum()), key=lambda v: v[1])
    h.elements([((1, "hi"), None), ((2, "hello"), None), ((3, "hi"), None),
                ((4, "hello"), None), ((5, "hi"), None), ((6, "hello"), None)]).end()
    assert h.values() == [("hi", 4), ("hello", 6), ("hi", 8), ("hello", 10)]


def test_count_window_fires_with_the_element_timestamp():
    h = Harness(reduce_op(CountTumblingWindowAssigner.of(2), _add))
    h.elements(stamped([("a", 3), ("a", 4), ("a", 10), ("a", 2)])).end()
    assert h.out == [(("a", 7), 4), (("a", 12), 2)]


def test_pyflink_global_window_with_purging_count_trigger_scenario():
    h = Harness(process_op(GlobalWindows.create(), Elements(),
                           trigger=PurgingTrigger.of(CountTrigger.of(2))))
    h.elements([(("hi", i), 1) for i in range(7)]).end()
    assert h.values() == [("hi", "GlobalWindow", [0, 1]), ("hi", "GlobalWindow", [2, 3]),
                          ("hi", "GlobalWindow", [4, 5])]


def test_global_window_never_fires_by_default():
    h = Harness(reduce_op(GlobalWindows.create(), _add))
    h.elements(stamped([("a", 1), ("a", 2)])).end()
    assert h.out == []


def test_count_trigger_without_purge_keeps_the_contents():
    h = Harness(process_op(GlobalWindows.create(), Elements(), trigger=CountTrigger.of(2)))
    h.elements([(("k", i), None) for i in range(4)]).end()
    assert h.values() == [("k", "GlobalWindow", [0, 1]), ("k", "GlobalWindow", [0, 1, 2, 3])]


# -- merging (session) windows ----------------------------------------------------------------------

def sessions(ms):
    return EventTimeSessionWindows.with_gap(Time.milliseconds(ms))


def test_pyflink_event_time_session_window_scenario():
    h = Harness(process_op(sessions(5), Describe()))
    h.elements(stamped([("hi", t) for t in (1, 2, 3, 4, 8, 9, 15)])).end()
    assert h.values() == [("hi", 1, 14, 6), ("hi", 15, 20, 1)]


def test_pyflink_session_window_late_merge_scenario():
    h = Harness(process_op(sessions(5), Describe()))
    h.elements(stamped([("hi", 0), ("hi", 8), ("hi", 4)])).end()
    assert h.values() == [("hi", 0, 13, 3)]


def test_pyflink_session_window_with_purging_trigger_scenario():
    h = Harness(process_op(sessions(3), Describe(),
                           trigger=PurgingTrigger.of(EventTimeTrigger.create())))
    h.elements(stamped([("hi", t) for t in (1, 2, 3, 4, 8, 9, 15)])).end()
    assert h.values() == [("hi", 1, 7, 4), ("hi", 8, 12, 2), ("hi", 15, 18, 1)]


class _SecondField(SessionWindowTimeGapExtractor):
    def extract(self, element):
        return element[1]


def test_pyflink_dynamic_gap_session_window_scenario():
    h = Harness(process_op(EventTimeSessionWindows.with_dynamic_gap(_SecondField()),
                           Describe()))
    h.elements(stamped([("hi", t) for t in (1, 2, 3, 4, 9, 9, 15)])).end()
    assert h.values() == [("hi", 1, 8, 4), ("hi", 9, 30, 3)]


def test_session_reduce_keeps_both_sessions_an_element_bridges():
    # PyFlink 1.20 prints (a,2) for the first session (it loses 0 and 4); Java Flink's
    # semantics: the bridged session holds all three elements.
    h = Harness(reduce_op(sessions(3), _add))
    h.elements(stamped([("a", 0), ("a", 4), ("a", 2), ("a", 10)])).end()
    assert h.values() == [("a", 6), ("a", 10)]


class SumAgg(AggregateFunction):
    def create_accumulator(self):
        return 0

    def add(self, value, accumulator):
        return accumulator + value[1]

    def get_result(self, accumulator):
        return accumulator

    def merge(self, acc_a, acc_b):
        return acc_a + acc_b


def test_session_aggregate_merges_accumulators():
    h = Harness(aggregate_op(sessions(3), SumAgg()))
    h.elements(stamped([("a", 0), ("a", 4), ("a", 2), ("a", 10), ("a", 11)])).end()
    assert h.values() == [6, 21]


def test_merged_session_keeps_contents_in_pyflink_order():
    # PyFlink prints [0, 4, 2]: the state window of [0, 3) receives [4, 7)'s list, then 2
    h = Harness(process_op(sessions(3), Elements()))
    h.elements(stamped([("a", 0), ("a", 4), ("a", 2)])).end()
    assert h.values() == [("a", "TimeWindow(start=0, end=7)", [0, 4, 2])]


def test_merged_windows_timers_are_deleted():
    h = Harness(process_op(sessions(3), Elements()))
    h.elements(stamped([("a", 0), ("a", 2)]))        # [0, 3) and [2, 5) merge into [0, 5)
    h.watermark(3)                                      # [0, 3)'s timer (2) must not fire
    assert h.out == []
    h.watermark(4)
    assert h.values() == [("a", "TimeWindow(start=0, end=5)", [0, 2])]
    assert len(h.operator.timers.event_time) == 0


def test_session_windows_per_key_are_independent():
    h = Harness(reduce_op(sessions(2), _add))
    h.elements(stamped([("a", 1), ("b", 2), ("a", 2), ("b", 6), ("a", 9)])).end()
    assert sorted(h.values()) == [("a", 3), ("a", 9), ("b", 2), ("b", 6)]


def test_late_session_element_goes_to_side_output():
    h = Harness(process_op(sessions(3), Describe(), late_tag=LATE))
    h.element(("a", 10), 10).watermark(20)
    h.element(("a", 1), 1).end()
    assert h.values() == [("a", 10, 13, 1)]
    assert h.late == [(("a", 1), 1)]


def test_session_windows_on_rocksdb(tmp_path):
    h = Harness(process_op(sessions(3), Elements()), state_backend="rocksdb",
                work_dir=str(tmp_path))
    h.elements(stamped([("a", 0), ("b", 1), ("a", 4), ("a", 2), ("b", 9)])).end()
    assert sorted(h.values()) == [("a", "TimeWindow(start=0, end=7)", [0, 4, 2]),
                                  ("b", "TimeWindow(start=1, end=4)", [1]),
                                  ("b", "TimeWindow(start=9, end=12)", [9])]


# -- processing time --------------------------------------------------------------------------

def test_processing_time_windows_fire_on_the_clock_and_not_at_the_end():
    clock = ManualClock(now=1)
    h = Harness(reduce_op(TumblingProcessingTimeWindows.of(Time.milliseconds(10)), _add),
                clock=clock)
    h.elements([(("a", 1), None), (("a", 2), None)])
    h.processing_time(8)
    assert h.out == []
    h.processing_time(9)
    assert h.out == [(("a", 3), None)]
    h.element(("a", 5), None).end()     # pending processing-time windows do not fire
    assert h.values() == [("a", 3)]


def test_processing_time_sessions_merge():
    clock = ManualClock(now=0)
    h = Harness(process_op(ProcessingTimeSessionWindows.with_gap(Time.milliseconds(5)),
                           Elements()), clock=clock)
    h.element(("a", 1))
    clock.now = 3
    h.element(("a", 2))
    h.processing_time(6)                # [0, 5) and [3, 8) merged: 4 is not the end any more
    assert h.out == []
    h.processing_time(7)
    assert h.values() == [("a", "TimeWindow(start=0, end=8)", [1, 2])]


# -- triggers --------------------------------------------------------------------------------

def test_continuous_event_time_trigger_fires_early_then_at_the_end():
    h = Harness(reduce_op(tumbling(10), _add,
                          trigger=ContinuousEventTimeTrigger.of(Time.milliseconds(3))))
    h.elements(stamped([("a", 1), ("a", 2)])).watermark(3)
    h.element(("a", 4), 4).watermark(6)
    h.watermark(9)
    assert h.out == [(("a", 3), 3), (("a", 7), 6), (("a", 7), 9)]


# -- window function contexts ----------------------------------------------------------------

class Counting(ProcessWindowFunction):
    """Counts firings per window (window state) and per key (global state)."""

    per_window = ValueStateDescriptor("per-window", Types.INT())
    per_key = ValueStateDescriptor("per-key", Types.INT())

    def __init__(self):
        self.cleared = []

    def process(self, key, context, elements):
        window_count = context.window_state().get_state(self.per_window)
        key_count = context.global_state().get_state(self.per_key)
        window_count.update((window_count.value() or 0) + 1)
        key_count.update((key_count.value() or 0) + 1)
        yield (key, context.window().start, window_count.value(), key_count.value(),
               context.current_watermark())

    def clear(self, context):
        self.cleared.append((context.window().start,
                             context.window_state().get_state(self.per_window).value()))
        context.window_state().get_state(self.per_window).clear()


def test_process_window_function_window_state_global_state_and_clear():
    function = Counting()
    h = Harness(process_op(tumbling(5), function, trigger=CountTrigger.of(1),
                           allowed_lateness=100))
    h.elements(stamped([("a", 1), ("a", 2), ("a", 6)])).watermark(50)
    assert h.values() == [("a", 0, 1, 1, MIN_LONG_VALUE), ("a", 0, 2, 2, MIN_LONG_VALUE),
                          ("a", 5, 1, 3, MIN_LONG_VALUE)]
    assert function.cleared == []
    h.watermark(104)                    # cleanup of [0, 5) at 4 + 100
    assert function.cleared == [(0, 2)]
    h.end()
    assert function.cleared == [(0, 2), (5, 1)]


def test_merging_windows_refuse_per_window_state():
    class UsesWindowState(ProcessWindowFunction):
        def process(self, key, context, elements):
            context.window_state().get_state(ValueStateDescriptor("s", Types.INT()))
            return []

    h = Harness(process_op(sessions(3), UsesWindowState()))
    h.element(("a", 1), 1)
    with pytest.raises(UserFunctionError) as info:
        h.end()
    assert "Per-window state is not allowed when using merging windows." in str(info.value)


def test_process_window_function_side_output():
    tag = OutputTag("small", Types.PICKLED_BYTE_ARRAY())

    class Split(ProcessWindowFunction):
        def process(self, key, context, elements):
            for e in elements:
                if e[1] < 2:
                    yield tag, e
                else:
                    yield e

    h = Harness(process_op(tumbling(5), Split()))
    side = []
    h.operator.output.add_side_target(tag.tag_id, lambda v, t: side.append((v, t)),
                                      lambda w: None)
    h.elements(stamped([("a", 1), ("a", 3)])).end()
    assert h.out == [(("a", 3), 4)] and side == [(("a", 1), 4)]


def test_user_error_in_window_function_keeps_the_users_frame():
    class Broken(WindowFunction):
        def apply(self, key, window, inputs):
            return [1 // 0]

    h = Harness(apply_op(tumbling(5), Broken()))
    h.element(("a", 1), 1)
    with pytest.raises(UserFunctionError) as info:
        h.end()
    trace = info.value.user_traceback
    assert trace.rstrip().endswith("ZeroDivisionError: integer division or modulo by zero")
    assert "in apply" in trace and "return [1 // 0]" in trace
    assert "window/operator.py" not in trace.splitlines()[1]


def test_aggregate_with_process_window_function():
    class Show(ProcessWindowFunction):
        def process(self, key, context, elements):
            yield (key, context.window().start, list(elements))

    h = Harness(aggregate_op(tumbling(5), SumAgg(), window_function=Show()))
    h.elements(stamped([("a", 1), ("a", 2), ("b", 3), ("a", 7)])).end()
    assert h.values() == [("a", 0, [3]), ("b", 0, [3]), ("a", 5, [7])]


# -- BATCH mode --------------------------------------------------------------------------------

def test_batch_mode_processes_key_by_key_sorted_by_timestamp():
    h = Harness(process_op(tumbling(5), Elements()), batch=True)
    h.elements(stamped([("b", 1), ("a", 2), ("b", 6), ("a", 7), ("c", 3), ("a", 1)]))
    assert h.out == []
    h.end()
    # every window of a key fires when the key ends (PyFlink 1.20 emits nothing here for
    # list-state windows; reduce works there and gives the same windows)
    assert h.values() == [("a", "TimeWindow(start=0, end=5)", [1, 2]),
                          ("a", "TimeWindow(start=5, end=10)", [7]),
                          ("b", "TimeWindow(start=0, end=5)", [1]),
                          ("b", "TimeWindow(start=5, end=10)", [6]),
                          ("c", "TimeWindow(start=0, end=5)", [3])]


def test_batch_mode_fires_processing_time_windows_at_the_end_of_each_key():
    h = Harness(reduce_op(TumblingProcessingTimeWindows.of(Time.seconds(60)), _add),
                batch=True, clock=ManualClock(now=1000))
    h.elements([(("b", 1), None), (("a", 2), None), (("a", 7), None)]).end()
    assert h.values() == [("a", 9), ("b", 1)]


def test_batch_mode_count_windows_in_key_order():
    h = Harness(reduce_op(CountTumblingWindowAssigner.of(2), _add), batch=True)
    h.elements([(("b", 1), None), (("a", 2), None), (("b", 6), None), (("a", 7), None),
                (("c", 3), None), (("a", 1), None)]).end()
    assert h.values() == [("a", 9), ("b", 7)]


def test_continuous_processing_time_trigger_fires_on_the_clock():
    from pyflink_on_spark.datastream.window import ContinuousProcessingTimeTrigger
    clock = ManualClock(now=2)
    h = Harness(reduce_op(TumblingProcessingTimeWindows.of(Time.milliseconds(100)), _add,
                          trigger=ContinuousProcessingTimeTrigger.of(Time.milliseconds(10))),
                clock=clock)
    h.element(("a", 1))                 # next fire at 10
    h.processing_time(9)
    assert h.out == []
    h.processing_time(10)
    clock.now = 15
    h.element(("a", 2))
    h.processing_time(25)               # 20 fires; 30 is the next
    assert h.values() == [("a", 1), ("a", 3)]


def test_dynamic_processing_time_sessions():
    from pyflink_on_spark.datastream.window import DynamicProcessingTimeSessionWindows
    clock = ManualClock(now=0)
    h = Harness(reduce_op(DynamicProcessingTimeSessionWindows.with_dynamic_gap(_SecondField()),
                          _add), clock=clock)
    h.element(("a", 4))                 # [0, 4)
    clock.now = 3
    h.element(("a", 1))                 # [3, 4): inside, merges into [0, 4)
    h.processing_time(2)
    assert h.out == []
    h.processing_time(3)                # the merged window's max timestamp
    assert h.values() == [("a", 5)]


def test_merging_trigger_state_must_be_mergeable():
    class ValueStateTrigger(EventTimeTrigger):
        def on_merge(self, window, ctx):
            ctx.merge_partitioned_state(ValueStateDescriptor("v", Types.INT()))

    h = Harness(reduce_op(sessions(3), _add, trigger=ValueStateTrigger()))
    h.element(("a", 1), 1)
    with pytest.raises(UserFunctionError) as info:
        h.element(("a", 2), 2)
    assert "does not refer to a mergeable state" in str(info.value)
