"""Watermark generation, the input valve, the timestamps operator and watermark-driven timers,
without Spark."""
import pytest

from pyflink_on_spark.common.time import Duration
from pyflink_on_spark.common.watermark_strategy import TimestampAssigner, WatermarkStrategy
from pyflink_on_spark.datastream.functions import KeyedProcessFunction, wrap_key_selector
from pyflink_on_spark.graph.sources import number_sequence_source
from pyflink_on_spark.graph.transformations import (
    OneInputTransformation, PartitionTransformation, SinkTransformation, SourceTransformation)
from pyflink_on_spark.runtime.errors import UserFunctionError
from pyflink_on_spark.runtime.operators import timestamps
from pyflink_on_spark.runtime.operators.timestamps import TimestampsAndWatermarksOperator
from pyflink_on_spark.direct import run_job
from pyflink_on_spark.runtime.tests.engine_harness import compile_sinks
from pyflink_on_spark.runtime.testing import OperatorHarness
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK, MIN_WATERMARK
from pyflink_on_spark.runtime.watermarks import (
    InputWatermarkValve, WatermarkGenerator, generator_for)
from pyflink_on_spark.specs.operators import KeyedProcessSpec
from pyflink_on_spark.specs.partitioning import KeyedPartitioning
from pyflink_on_spark.specs.sinks import CollectSinkSpec


class FieldOne(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


def test_bounded_out_of_orderness_watermark_is_max_timestamp_minus_delay_minus_one():
    generator = WatermarkGenerator("bounded_out_of_orderness", 10)
    assert generator.current() == MIN_WATERMARK
    for ts in [100, 50, 130, 120]:
        generator.on_event(ts)
    assert generator.current() == 130 - 10 - 1


def test_monotonous_watermark_trails_the_max_timestamp_by_one():
    generator = generator_for(WatermarkStrategy.for_monotonous_timestamps())
    assert generator.enabled and generator.current() == MIN_WATERMARK
    generator.on_event(7)
    generator.on_event(3)
    assert generator.current() == 6


def test_strategies_map_to_generators():
    bounded = generator_for(WatermarkStrategy.for_bounded_out_of_orderness(
        Duration.of_millis(5)))
    bounded.on_event(100)
    assert bounded.current() == 94
    assert not generator_for(WatermarkStrategy.no_watermarks()).enabled
    assert not generator_for(None).enabled


def test_valve_is_the_minimum_over_channels_and_an_ended_channel_counts_as_max():
    valve = InputWatermarkValve([(0, 0), (0, 1), (1, 0)])
    assert valve.on_channel(0, 0) is None
    assert valve.on_watermark(0, 0, 50) is None  # other channels still at MIN
    # reading (0, 1) means (0, 0) has ended
    assert valve.on_channel(0, 1) is None
    assert valve.on_watermark(0, 1, 20) is None
    assert valve.on_channel(1, 0) is None
    assert valve.on_watermark(1, 0, 30) == 30
    assert valve.on_watermark(1, 0, 30) is None  # not an advance
    assert valve.on_watermark(1, 0, 10) is None  # a regression is ignored
    assert valve.on_watermark(1, 0, MAX_WATERMARK) == MAX_WATERMARK
    assert valve.on_watermark(9, 9, 5) is None  # unknown channel


def _timestamps_operator(strategy, interval):
    harness = OperatorHarness(TimestampsAndWatermarksOperator(strategy),
                              name="Timestamps/Watermarks", auto_watermark_interval=interval)
    return harness.operator, harness.out, harness.watermarks


def test_timestamps_operator_emits_a_periodic_watermark_every_n_records(monkeypatch):
    monkeypatch.setattr(timestamps, "PERIODIC_EVERY_RECORDS", 2)
    strategy = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(FieldOne())
    operator, records, marks = _timestamps_operator(strategy, 200)
    for value in [("a", 10), ("b", 30), ("c", 20), ("d", 25), ("e", 40)]:
        operator.process_element(value, None)
    assert [ts for _, ts in records] == [10, 30, 20, 25, 40]
    assert marks == [29]  # after 2 and 4 records; the second (still 29) is not re-emitted
    operator.process_watermark(1_000)  # upstream watermarks are replaced by its own
    assert marks == [29]
    operator.process_watermark(MAX_WATERMARK)
    assert marks == [29, MAX_WATERMARK]


def test_interval_zero_and_no_watermarks_emit_only_the_final_watermark(monkeypatch):
    monkeypatch.setattr(timestamps, "PERIODIC_EVERY_RECORDS", 1)
    for strategy, interval in [
            (WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(FieldOne()),
             0),
            (WatermarkStrategy.no_watermarks().with_timestamp_assigner(FieldOne()), 200)]:
        operator, records, marks = _timestamps_operator(strategy, interval)
        operator.process_element(("a", 5), None)
        operator.process_element(("b", 9), None)
        operator.process_watermark(MAX_WATERMARK)
        assert records == [(("a", 5), 5), (("b", 9), 9)]
        assert marks == [MAX_WATERMARK]


def test_assigner_sees_the_previous_timestamp_or_long_min_and_its_errors_are_user_errors():
    seen = []

    class Recording(TimestampAssigner):
        def extract_timestamp(self, value, record_timestamp):
            seen.append(record_timestamp)
            if value == "bad":
                raise ValueError("no timestamp in %r" % value)
            return 1

    strategy = WatermarkStrategy.no_watermarks().with_timestamp_assigner(Recording())
    operator, records, _ = _timestamps_operator(strategy, 200)
    operator.process_element("x", None)
    operator.process_element("y", 77)
    assert seen == [MIN_WATERMARK, 77]
    with pytest.raises(UserFunctionError, match="no timestamp in 'bad'"):
        operator.process_element("bad", None)


def test_periodic_watermarks_of_two_source_subtasks_fire_timers_at_their_minimum(monkeypatch):
    """NumberSequenceSource at p=2 (subtask 0 reads 1..6, subtask 1 reads 7..12) with a
    monotonous strategy and a watermark every 2 records; the keyed operator (p=1) reads
    subtask 0's rows first, so its watermark stays MIN until subtask 0 ends (then subtask 1's
    watermarks count alone)."""
    monkeypatch.setattr(timestamps, "PERIODIC_EVERY_RECORDS", 2)

    class Timers(KeyedProcessFunction):
        def process_element(self, value, ctx):
            ctx.timer_service().register_event_time_timer(value * 10)
            yield ("element", value, ctx.timer_service().current_watermark())

        def on_timer(self, timestamp, ctx):
            yield ("timer", timestamp, ctx.timer_service().current_watermark())

    class Times10(TimestampAssigner):
        def extract_timestamp(self, value, record_timestamp):
            return value * 10

    src = SourceTransformation(
        name="Seq", source=number_sequence_source(1, 12),
        watermark_strategy=WatermarkStrategy.for_monotonous_timestamps()
        .with_timestamp_assigner(Times10()))
    src.parallelism = 2
    selector = wrap_key_selector(lambda v: 0)
    keyed = PartitionTransformation(name="Keyed", input=src,
                                    partitioning=KeyedPartitioning(selector))
    proc = OneInputTransformation(name="keyed_process", input=keyed,
                                  spec=KeyedProcessSpec(Timers(), selector))
    proc.parallelism = 1
    sink = SinkTransformation(name="Collect", input=proc, spec=CollectSinkSpec())
    sink.parallelism = 1
    out = run_job(compile_sinks([sink], parallelism=2))[sink.id]
    elements = [(v, wm) for kind, v, wm in out if kind == "element"]
    assert [v for v, _ in elements] == list(range(1, 13))
    assert all(wm == MIN_WATERMARK for v, wm in elements if v <= 6)
    # subtask 1 (70..120) emits 79 after 8, 99 after 10, 119 after 12: each fires the timers
    # at or below it, in rounds, before the next element
    assert [wm for v, wm in elements if v > 6] == [MIN_WATERMARK, MIN_WATERMARK, 79, 79, 99, 99]
    timers = [(ts, wm) for kind, ts, wm in out if kind == "timer"]
    assert timers == ([(v * 10, 79) for v in range(1, 8)] + [(80, 99), (90, 99)]
                      + [(100, 119), (110, 119), (120, MAX_WATERMARK)])
