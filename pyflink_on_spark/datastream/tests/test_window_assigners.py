"""Windows, assigners and triggers of pyflink_on_spark.datastream.window, without an operator."""
import pickle
from io import BytesIO

import pytest

from pyflink_on_spark.common.constants import MAX_LONG_VALUE, MIN_LONG_VALUE
from pyflink_on_spark.common.time import Time
from pyflink_on_spark.datastream.state import ReducingStateDescriptor
from pyflink_on_spark.datastream.window import (
    ContinuousEventTimeTrigger, ContinuousProcessingTimeTrigger, CountSlidingWindowAssigner,
    CountTrigger, CountTumblingWindowAssigner, CountWindow, CountWindowSerializer,
    DynamicEventTimeSessionWindows, DynamicProcessingTimeSessionWindows,
    EventTimeSessionWindows, EventTimeTrigger, GlobalWindow, GlobalWindows,
    GlobalWindowSerializer, MergingWindowAssigner, NeverTrigger, ProcessingTimeSessionWindows,
    ProcessingTimeTrigger, PurgingTrigger, SessionWindowTimeGapExtractor,
    SlidingEventTimeWindows, SlidingProcessingTimeWindows, TimeWindow, TimeWindowSerializer,
    Trigger, TriggerResult, TumblingEventTimeWindows, TumblingProcessingTimeWindows,
    WindowAssigner, _pyflink_hash)
from pyflink_on_spark.runtime.state.heap import HeapKeyedStateBackend


# -- windows ---------------------------------------------------------------------------------

def test_time_window_bounds_and_max_timestamp():
    w = TimeWindow(0, 5)
    assert (w.start, w.end, w.max_timestamp()) == (0, 5, 4)
    assert repr(w) == "TimeWindow(start=0, end=5)"


def test_time_window_intersects_includes_touching_windows():
    assert TimeWindow(0, 3).intersects(TimeWindow(3, 6))      # Flink merges adjacent sessions
    assert TimeWindow(0, 3).intersects(TimeWindow(2, 6))
    assert not TimeWindow(0, 3).intersects(TimeWindow(4, 6))
    assert TimeWindow(0, 3).cover(TimeWindow(4, 6)) == TimeWindow(0, 6)


def test_time_window_equality_order_and_hash():
    assert TimeWindow(1, 5) == TimeWindow(1, 5) and TimeWindow(1, 5) != TimeWindow(1, 6)
    assert TimeWindow(0, 2) < TimeWindow(0, 3) < TimeWindow(1, 2)
    assert len({TimeWindow(1, 5), TimeWindow(1, 5), TimeWindow(2, 5)}) == 2
    assert sorted([TimeWindow(3, 4), TimeWindow(1, 9), TimeWindow(1, 2)]) == [
        TimeWindow(1, 2), TimeWindow(1, 9), TimeWindow(3, 4)]


def test_windows_pickle_round_trip():
    for w in [TimeWindow(-3, 7), CountWindow(12), GlobalWindow.get()]:
        back = pickle.loads(pickle.dumps(w))
        assert back == w and type(back) is type(w) and repr(back) == repr(w)


def test_pyflink_hash_values_match_pyflink():
    # printed by hash(TimeWindow(1, 5)) and hash(CountWindow(3)) on PyFlink 1.20.5
    assert _pyflink_hash(TimeWindow(1, 5)) == -1415878253157068814
    assert _pyflink_hash(CountWindow(3)) == 1219537214460136996


def test_window_start_with_offset_floors_negative_timestamps():
    start = TimeWindow.get_window_start_with_offset
    assert start(7, 0, 5) == 5
    assert start(5, 0, 5) == 5
    assert start(-3, 0, 5) == -5          # PyFlink prints -5
    assert start(-8, 0, 5) == -10
    assert start(7, 2, 5) == 7 and start(6, 2, 5) == 2


def test_count_and_global_windows():
    assert CountWindow(3).id == 3 and CountWindow(3).max_timestamp() == MAX_LONG_VALUE
    assert repr(CountWindow(3)) == "CountWindow(id=3)"
    assert GlobalWindow() == GlobalWindow.get() and hash(GlobalWindow()) == 0
    assert GlobalWindow().max_timestamp() == MAX_LONG_VALUE and repr(GlobalWindow()) == \
        "GlobalWindow"
    assert GlobalWindow() != CountWindow(0)


def test_window_serializers_round_trip():
    for serializer, window in [(TimeWindowSerializer(), TimeWindow(-5, 10)),
                               (CountWindowSerializer(), CountWindow(7)),
                               (GlobalWindowSerializer(), GlobalWindow.get())]:
        stream = BytesIO()
        serializer.serialize(window, stream)
        assert serializer.deserialize(BytesIO(stream.getvalue())) == window
    stream = BytesIO()
    TimeWindowSerializer().serialize(TimeWindow(1, 2), stream)
    assert stream.getvalue() == b"\x00" * 7 + b"\x01" + b"\x00" * 7 + b"\x02"


class _Collect(MergingWindowAssigner.MergeCallback):
    def __init__(self):
        self.merges = []

    def merge(self, to_be_merged, merge_result):
        self.merges.append((sorted(to_be_merged), merge_result))


def test_merge_windows_groups_overlapping_windows():
    callback = _Collect()
    TimeWindow.merge_windows([TimeWindow(4, 7), TimeWindow(0, 3), TimeWindow(2, 5),
                              TimeWindow(10, 13), TimeWindow(20, 22), TimeWindow(21, 23)],
                             callback)
    assert callback.merges == [
        ([TimeWindow(0, 3), TimeWindow(2, 5), TimeWindow(4, 7)], TimeWindow(0, 7)),
        ([TimeWindow(20, 22), TimeWindow(21, 23)], TimeWindow(20, 23))]


def test_merge_windows_ignores_duplicates_and_singletons():
    callback = _Collect()
    TimeWindow.merge_windows([TimeWindow(0, 3), TimeWindow(0, 3), TimeWindow(5, 6)], callback)
    assert callback.merges == []


# -- assigners -------------------------------------------------------------------------------

class _Context(WindowAssigner.WindowAssignerContext):
    def __init__(self, now=0):
        self.now = now
        self.backend = HeapKeyedStateBackend(128, lambda: 0)
        self.backend.set_current_key("k")

    def get_current_processing_time(self):
        return self.now

    def get_runtime_context(self):
        backend = self.backend

        class Ctx:
            def get_state(self, descriptor):
                return backend.get_partitioned_state(descriptor)
        return Ctx()


def test_tumbling_event_time_windows():
    assigner = TumblingEventTimeWindows.of(Time.milliseconds(5))
    assert assigner.assign_windows("x", 7, _Context()) == [TimeWindow(5, 10)]
    assert assigner.assign_windows("x", -1, _Context()) == [TimeWindow(-5, 0)]
    assert assigner.is_event_time() and isinstance(assigner.get_default_trigger(None),
                                                   EventTimeTrigger)
    assert repr(assigner) == "TumblingEventTimeWindows(5, 0)"
    offset = TumblingEventTimeWindows.of(Time.seconds(1), Time.milliseconds(100))
    assert offset.assign_windows("x", 50, _Context()) == [TimeWindow(-900, 100)]
    with pytest.raises(Exception, match="Long.MIN_VALUE timestamp"):
        assigner.assign_windows("x", MIN_LONG_VALUE, _Context())
    with pytest.raises(Exception, match="abs\\(offset\\) < size"):
        TumblingEventTimeWindows(5, 5)


def test_tumbling_processing_time_windows_use_the_clock():
    assigner = TumblingProcessingTimeWindows.of(Time.milliseconds(10))
    assert assigner.assign_windows("x", 3, _Context(now=1234)) == [TimeWindow(1230, 1240)]
    assert not assigner.is_event_time()
    assert isinstance(assigner.get_default_trigger(None), ProcessingTimeTrigger)


def test_sliding_windows_newest_first():
    assigner = SlidingEventTimeWindows.of(Time.milliseconds(5), Time.milliseconds(2))
    assert assigner.assign_windows("x", 4, _Context()) == [
        TimeWindow(4, 9), TimeWindow(2, 7), TimeWindow(0, 5)]
    assert assigner.assign_windows("x", 1, _Context()) == [
        TimeWindow(0, 5), TimeWindow(-2, 3)]
    assert repr(assigner) == "SlidingEventTimeWindows(5, 2, 0)"
    processing = SlidingProcessingTimeWindows.of(Time.milliseconds(4), Time.milliseconds(2))
    assert processing.assign_windows("x", 0, _Context(now=5)) == [
        TimeWindow(4, 8), TimeWindow(2, 6)]
    with pytest.raises(Exception, match="abs\\(offset\\) < slide and size > 0"):
        SlidingEventTimeWindows(0, 2, 0)


class _Gap(SessionWindowTimeGapExtractor):
    def extract(self, element):
        return element


def test_session_assigners():
    assert EventTimeSessionWindows.with_gap(Time.milliseconds(3)).assign_windows(
        "x", 10, _Context()) == [TimeWindow(10, 13)]
    assert ProcessingTimeSessionWindows.with_gap(Time.milliseconds(3)).assign_windows(
        "x", 10, _Context(now=100)) == [TimeWindow(100, 103)]
    dynamic = EventTimeSessionWindows.with_dynamic_gap(_Gap())
    assert isinstance(dynamic, DynamicEventTimeSessionWindows)
    assert dynamic.assign_windows(7, 1, _Context()) == [TimeWindow(1, 8)]
    assert repr(dynamic) == "DynamicEventTimeSessionWindows(7)"
    processing = ProcessingTimeSessionWindows.with_dynamic_gap(_Gap())
    assert isinstance(processing, DynamicProcessingTimeSessionWindows)
    assert processing.assign_windows(2, 1, _Context(now=50)) == [TimeWindow(50, 52)]
    with pytest.raises(Exception, match="0 < gap"):
        dynamic.assign_windows(0, 1, _Context())
    with pytest.raises(Exception, match="0 < size"):
        EventTimeSessionWindows(0)
    assert isinstance(EventTimeSessionWindows(1), MergingWindowAssigner)


def test_count_assigners_count_per_key_in_state():
    ctx = _Context()
    tumbling = CountTumblingWindowAssigner.of(2)
    assert [tumbling.assign_windows("x", 0, ctx) for _ in range(5)] == [
        [CountWindow(0)], [CountWindow(0)], [CountWindow(1)], [CountWindow(1)],
        [CountWindow(2)]]
    ctx.backend.set_current_key("other")
    assert tumbling.assign_windows("x", 0, ctx) == [CountWindow(0)]
    sliding = CountSlidingWindowAssigner.of(3, 1)
    ctx = _Context()
    assert [sliding.assign_windows("x", 0, ctx) for _ in range(4)] == [
        [CountWindow(0)], [CountWindow(1), CountWindow(0)],
        [CountWindow(2), CountWindow(1), CountWindow(0)],
        [CountWindow(3), CountWindow(2), CountWindow(1)]]
    assert isinstance(sliding.get_default_trigger(None), CountTrigger)
    assert repr(sliding) == "CountSlidingWindowAssigner(3, 1)"


def test_global_windows():
    assigner = GlobalWindows.create()
    assert assigner.assign_windows("x", 0, _Context()) == [GlobalWindow.get()]
    assert isinstance(assigner.get_default_trigger(None), NeverTrigger)
    assert not assigner.is_event_time() and repr(assigner) == "GlobalWindows()"


# -- triggers against a stand-in context ----------------------------------------------------

class _TriggerContext(Trigger.OnMergeContext):
    def __init__(self, watermark=MIN_LONG_VALUE, now=0):
        self.watermark = watermark
        self.now = now
        self.event_timers = set()
        self.processing_timers = set()
        self.backend = HeapKeyedStateBackend(128, lambda: 0)
        self.backend.set_current_key("k")
        self.window = None
        self.merged = []

    def get_current_processing_time(self):
        return self.now

    def get_metric_group(self):
        return None

    def get_current_watermark(self):
        return self.watermark

    def register_processing_time_timer(self, time):
        self.processing_timers.add(time)

    def register_event_time_timer(self, time):
        self.event_timers.add(time)

    def delete_processing_time_timer(self, time):
        self.processing_timers.discard(time)

    def delete_event_time_timer(self, time):
        self.event_timers.discard(time)

    def get_partitioned_state(self, state_descriptor):
        state = self.backend.get_partitioned_state(state_descriptor)
        state.set_current_namespace(self.window)
        return state

    def merge_partitioned_state(self, state_descriptor):
        self.backend.merge_namespaces(state_descriptor, self.window, self.merged)


def test_trigger_result_flags():
    assert [(r.is_fire(), r.is_purge()) for r in TriggerResult] == [
        (False, False), (True, True), (True, False), (False, True)]


def test_event_time_trigger():
    trigger = EventTimeTrigger.create()
    ctx = _TriggerContext(watermark=3)
    w = TimeWindow(0, 5)
    assert trigger.on_element("x", 1, w, ctx) is TriggerResult.CONTINUE
    assert ctx.event_timers == {4}
    assert trigger.on_event_time(3, w, ctx) is TriggerResult.CONTINUE
    assert trigger.on_event_time(4, w, ctx) is TriggerResult.FIRE
    ctx.watermark = 4
    assert trigger.on_element("x", 1, w, ctx) is TriggerResult.FIRE   # late but allowed
    trigger.clear(w, ctx)
    assert ctx.event_timers == set()
    trigger.on_merge(TimeWindow(0, 9), ctx)
    assert ctx.event_timers == {8} and trigger.can_merge()


def test_processing_time_trigger():
    trigger = ProcessingTimeTrigger.create()
    ctx = _TriggerContext(now=2)
    w = TimeWindow(0, 5)
    assert trigger.on_element("x", 0, w, ctx) is TriggerResult.CONTINUE
    assert ctx.processing_timers == {4}
    assert trigger.on_processing_time(4, w, ctx) is TriggerResult.FIRE
    assert trigger.on_event_time(4, w, ctx) is TriggerResult.CONTINUE
    trigger.clear(w, ctx)
    assert ctx.processing_timers == set()


def test_count_trigger_counts_per_window_and_restarts():
    trigger = CountTrigger.of(2)
    ctx = _TriggerContext()
    ctx.window = CountWindow(0)
    results = [trigger.on_element("x", 0, ctx.window, ctx) for _ in range(5)]
    assert results == [TriggerResult.CONTINUE, TriggerResult.FIRE] * 2 + [
        TriggerResult.CONTINUE]
    ctx.window = CountWindow(1)
    assert trigger.on_element("x", 0, ctx.window, ctx) is TriggerResult.CONTINUE


def test_count_trigger_merges_counts():
    trigger = CountTrigger.of(3)
    ctx = _TriggerContext()
    for window in [TimeWindow(0, 2), TimeWindow(1, 3)]:
        ctx.window = window
        trigger.on_element("x", 0, window, ctx)
    ctx.window, ctx.merged = TimeWindow(0, 3), [TimeWindow(0, 2), TimeWindow(1, 3)]
    trigger.on_merge(ctx.window, ctx)
    assert trigger.on_element("x", 0, ctx.window, ctx) is TriggerResult.FIRE


def test_purging_trigger_turns_fire_into_fire_and_purge():
    trigger = PurgingTrigger.of(CountTrigger.of(1))
    ctx = _TriggerContext()
    ctx.window = CountWindow(0)
    assert trigger.on_element("x", 0, ctx.window, ctx) is TriggerResult.FIRE_AND_PURGE
    assert trigger.on_event_time(0, ctx.window, ctx) is TriggerResult.CONTINUE
    assert trigger.can_merge()
    assert not PurgingTrigger.of(NeverTrigger()).can_merge()


def test_never_trigger():
    trigger = NeverTrigger()
    ctx = _TriggerContext()
    w = GlobalWindow.get()
    assert trigger.on_element("x", 0, w, ctx) is TriggerResult.CONTINUE
    assert trigger.on_event_time(MAX_LONG_VALUE, w, ctx) is TriggerResult.CONTINUE
    assert not trigger.can_merge()


def test_continuous_event_time_trigger_fires_every_interval():
    trigger = ContinuousEventTimeTrigger.of(Time.milliseconds(3))
    ctx = _TriggerContext()
    w = TimeWindow(0, 10)
    ctx.window = w
    assert trigger.on_element("x", 4, w, ctx) is TriggerResult.CONTINUE
    assert ctx.event_timers == {9, 6}      # window end, and 3 + 3 (aligned to the interval)
    assert trigger.on_event_time(6, w, ctx) is TriggerResult.FIRE
    assert ctx.event_timers == {6, 9}
    state = ctx.get_partitioned_state(trigger.state_desc)
    assert state.get() == 9                # next fire time, capped at the window's end
    assert trigger.on_event_time(9, w, ctx) is TriggerResult.FIRE
    trigger.clear(w, ctx)
    assert state.get() is None and 9 not in ctx.event_timers


def test_continuous_processing_time_trigger():
    trigger = ContinuousProcessingTimeTrigger.of(Time.milliseconds(5))
    ctx = _TriggerContext(now=12)
    w = TimeWindow(0, 100)
    ctx.window = w
    assert trigger.on_element("x", 0, w, ctx) is TriggerResult.CONTINUE
    assert ctx.processing_timers == {15}
    assert trigger.on_processing_time(15, w, ctx) is TriggerResult.FIRE
    assert ctx.processing_timers == {15, 20}
    assert trigger.on_processing_time(17, w, ctx) is TriggerResult.CONTINUE


def test_trigger_state_descriptors_are_reducing():
    assert isinstance(ContinuousEventTimeTrigger(5).state_desc, ReducingStateDescriptor)
    assert ContinuousEventTimeTrigger(5).state_desc.get_reduce_function().reduce(3, 2) == 2
