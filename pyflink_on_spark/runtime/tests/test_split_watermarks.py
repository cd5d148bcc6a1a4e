"""Per-split (Kafka partition) timestamps and watermarks of the source operator, with a manual
processing-time clock, without Spark: records carry their split's timestamps, the source's
watermark is the minimum over its splits, idle splits (with_idleness) do not hold it back."""
from pyflink_on_spark.common.time import Duration
from pyflink_on_spark.common.watermark_strategy import TimestampAssigner, WatermarkStrategy
from pyflink_on_spark.runtime.operators import timestamps
from pyflink_on_spark.runtime.operators.source import SourceOperator
from pyflink_on_spark.runtime.testing import ManualClock, OperatorHarness
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK, MIN_WATERMARK, SplitWatermarks
from pyflink_on_spark.specs.sources import SplitFinished, SplitRecords, SplitStarted

A, B = ("t", 0), ("t", 1)


def _source(strategy, monkeypatch, every=1, clock=None):
    monkeypatch.setattr(timestamps, "PERIODIC_EVERY_RECORDS", every)
    harness = OperatorHarness(SourceOperator(reader=None, watermark_strategy=strategy),
                              name="Source: kafka", clock=clock)
    return harness


def _idle_after(timeout_ms, monkeypatch, every=1):
    """A source whose splits go idle after timeout_ms, on a manual clock at 0."""
    clock = ManualClock(0)
    strategy = WatermarkStrategy.for_monotonous_timestamps().with_idleness(
        Duration.of_millis(timeout_ms))
    harness = _source(strategy, monkeypatch, every=every, clock=clock)
    return harness, harness.operator, clock


def _chunk(split, *records):
    return SplitRecords(split, [v for v, _ in records], [t for _, t in records])


def test_records_carry_their_split_timestamps_without_a_timestamp_assigner(monkeypatch):
    for strategy in [WatermarkStrategy.for_monotonous_timestamps(),
                     WatermarkStrategy.no_watermarks()]:
        harness = _source(strategy, monkeypatch)
        harness.operator.process_split(_chunk(A, ("a", 1000), ("b", 1500)))
        assert harness.out == [("a", 1000), ("b", 1500)]


def test_a_timestamp_assigner_gets_the_split_timestamp_as_record_timestamp(monkeypatch):
    class PlusValue(TimestampAssigner):
        def extract_timestamp(self, value, record_timestamp):
            return record_timestamp + value

    strategy = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(
        PlusValue())
    harness = _source(strategy, monkeypatch)
    harness.operator.process_split(_chunk(A, (5, 1000), (7, 2000)))
    assert harness.out == [(5, 1005), (7, 2007)]
    assert harness.watermarks == [1004, 2006]


def test_the_watermark_is_the_minimum_over_the_splits_of_the_subtask(monkeypatch):
    harness = _source(WatermarkStrategy.for_monotonous_timestamps(), monkeypatch)
    source = harness.operator
    source.process_split(SplitStarted(A))
    source.process_split(SplitStarted(B))
    source.process_split(_chunk(A, ("a", 1000), ("a", 5000)))
    assert harness.watermarks == []          # B has no record yet: it holds the watermark
    source.process_split(_chunk(B, ("b", 2000)))
    assert harness.watermarks == [1999]
    source.process_split(_chunk(B, ("b", 6000)))
    assert harness.watermarks == [1999, 4999]   # A (5000) is now the slowest split
    source.process_split(_chunk(A, ("a", 7000)))
    assert harness.watermarks == [1999, 4999, 5999]
    harness.end()
    assert harness.watermarks[-1] == MAX_WATERMARK


def test_bounded_out_of_orderness_applies_per_split(monkeypatch):
    strategy = WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(100))
    harness = _source(strategy, monkeypatch)
    source = harness.operator
    source.process_split(_chunk(A, ("a", 1000)))
    source.process_split(_chunk(B, ("b", 3000)))
    source.process_split(_chunk(A, ("a", 900)))   # out of order within A: A stays at 1000
    assert harness.watermarks == [899]           # min(A 1000, B 3000) - 100 - 1


def test_an_idle_split_stops_holding_back_the_watermark(monkeypatch):
    harness, source, clock = _idle_after(100, monkeypatch)
    source.process_split(SplitStarted(A))
    source.process_split(SplitStarted(B))
    source.process_split(_chunk(A, ("a", 1000)))
    clock.now = 100
    source.process_split(_chunk(A, ("a", 2000)))
    assert harness.watermarks == []          # B quiet for exactly the timeout: not idle yet
    clock.now = 101
    source.process_split(_chunk(A, ("a", 3000)))
    assert harness.watermarks == [2999]      # B idle: A alone makes the watermark
    clock.now = 150
    source.process_split(_chunk(B, ("b", 500)))
    # B is active again and behind: the watermark waits for it (and never goes back)
    assert harness.out[-1] == ("b", 500) and harness.watermarks == [2999]
    source.process_split(_chunk(A, ("a", 4000)))
    assert harness.watermarks == [2999]
    clock.now = 251
    source.process_split(_chunk(A, ("a", 5000)))
    assert harness.watermarks == [2999, 4999]


def test_without_idleness_a_quiet_split_holds_the_watermark_forever(monkeypatch):
    clock = ManualClock(0)
    harness = _source(WatermarkStrategy.for_monotonous_timestamps(), monkeypatch, clock=clock)
    source = harness.operator
    source.process_split(SplitStarted(B))
    for n in range(1, 5):
        clock.now = n * 1_000_000
        source.process_split(_chunk(A, ("a", n * 1000)))
    assert harness.watermarks == []
    assert source.all_splits_idle(clock.now) is False


def test_all_splits_idle_means_no_watermark_and_an_idle_subtask(monkeypatch):
    harness, source, clock = _idle_after(10, monkeypatch, every=0)
    assert source.all_splits_idle(0) is None    # no split: the caller decides
    source.process_split(_chunk(A, ("a", 1000)))
    source.process_split(_chunk(B, ("b", 2000)))
    source.emit_periodic(5)
    assert harness.watermarks == [999]
    assert source.all_splits_idle(11) is True
    source.emit_periodic(11)
    assert harness.watermarks == [999]           # nothing to emit while all are idle


def test_a_finished_split_stops_counting_and_a_bounded_split_is_never_idle(monkeypatch):
    harness, source, clock = _idle_after(10, monkeypatch)
    source.process_split(SplitStarted(A, ends=True))
    source.process_split(SplitStarted(B, ends=True))
    source.process_split(_chunk(A, ("a", 5000)))
    clock.now = 1000      # B has waited long: a bounded read's split is read on, not idle
    source.process_split(_chunk(A, ("a", 6000)))
    assert harness.watermarks == []
    source.process_split(_chunk(B, ("b", 1000)))
    assert harness.watermarks == [999]
    source.process_split(SplitFinished(B))
    source.process_split(_chunk(A, ("a", 7000)))
    assert harness.watermarks == [999, 6999]   # only A counts now


def test_split_watermarks_export_and_restore():
    strategy = WatermarkStrategy.for_monotonous_timestamps().with_idleness(
        Duration.of_millis(10))
    splits = SplitWatermarks(strategy)
    splits.on_records(A, 0).on_event(1000)
    splits.on_records(B, 5).on_event(3000)
    splits.add(("u", 0), 0)
    restored = SplitWatermarks(strategy)
    restored.restore(splits.export())
    assert restored.combined(6) == MIN_WATERMARK      # ("u", 0) registered, without records
    assert restored.combined(11) == 2999              # A and ("u", 0) idle, B not until 16
    assert restored.combined(16) is None
