"""Records with a timestamp each, a slice at a time: a map over a list of records maps it in
one loop, assign_timestamps_and_watermarks stamps it in one loop, and an exit takes records
with their own timestamps in one loop (process_stamped). Each gives what one record at a
time gives: the same rows, the same watermarks after the same records, and the records
before a failing one sent on before the error."""
import pytest

from pyflink_on_spark.common.watermark_strategy import TimestampAssigner, WatermarkStrategy
from pyflink_on_spark.datastream.functions import wrap_key_selector, wrap_map
from pyflink_on_spark.runtime.boundary import loads_records
from pyflink_on_spark.runtime.errors import UserFunctionError
from pyflink_on_spark.runtime.exits import ExitCollector
from pyflink_on_spark.runtime.operators import timestamps
from pyflink_on_spark.runtime.operators.process import MapOperator
from pyflink_on_spark.runtime.operators.timestamps import TimestampsAndWatermarksOperator
from pyflink_on_spark.runtime.output import Output
from pyflink_on_spark.runtime.testing import OperatorHarness
from pyflink_on_spark.specs.partitioning import KeyedPartitioning, RebalancePartitioning
from pyflink_on_spark.specs.stage import ExitSpec


def _exit(partitioning, converter=None):
    rows = []
    spec = ExitSpec(edge_id=3, source=1, side_tag=None, partitioning=partitioning,
                    target_parallelism=2, target_max_parallelism=128, converter=converter)
    return ExitCollector(spec, 0, 1, rows, lambda e: e), rows


def _records(rows):
    return [(row[1], loads_records(row[5])) for row in rows]


@pytest.mark.parametrize("partitioning", [
    KeyedPartitioning(wrap_key_selector(lambda pair: pair[0]), None),
    RebalancePartitioning()], ids=["keyed", "rebalance"])
def test_an_exits_stamped_loop_makes_the_rows_of_records_sent_one_by_one(partitioning):
    values = [("k%d" % (i % 5), i) for i in range(30)]
    stamps = [1000 + i if i % 7 else None for i in range(30)]
    one_by_one, rows_a = _exit(partitioning)
    looped, rows_b = _exit(partitioning)
    for value in values[:4]:                  # held before any timestamp: given None ones
        one_by_one.process_element(value, None)
        looped.process_element(value, None)
    for value, stamp in zip(values[4:], stamps[4:]):
        one_by_one.process_element(value, stamp)
    looped.process_stamped(values[4:17], stamps[4:17])
    looped.process_stamped(values[17:], stamps[17:])
    one_by_one.flush()
    looped.flush()
    assert _records(rows_b) == _records(rows_a)
    assert any(stamp is not None for _, records in _records(rows_b) for stamp in records[1])


class _FromValue(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        if value == "bad":
            raise ValueError("no timestamp in %r" % value)
        return int(value)


def _stamping(monkeypatch, every, loop=True):
    """A timestamps operator whose output records what reaches it: (value, timestamp) and
    ("watermark", w), through a loop for stamped records or (loop=False) one by one."""
    monkeypatch.setattr(timestamps, "PERIODIC_EVERY_RECORDS", every)
    strategy = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(
        _FromValue())
    events = []
    output = Output()
    output.add_main_target(
        lambda value, timestamp: events.append((value, timestamp)),
        lambda mark: events.append(("watermark", mark)),
        process_stamped=(lambda values, stamps: events.extend(zip(values, stamps)))
        if loop else None)
    operator = TimestampsAndWatermarksOperator(strategy)
    harness = OperatorHarness(operator, name="Stamps", auto_watermark_interval=200)
    operator.setup(output, harness.task, "Stamps")
    operator.open()
    return operator, events


def test_stamping_a_list_emits_the_periodic_watermark_after_the_same_records(monkeypatch):
    values = [str(10 * i) for i in range(11)]
    one_by_one, expected = _stamping(monkeypatch, every=4, loop=False)
    for value in values:
        one_by_one.process_element(value, None)
    operator, events = _stamping(monkeypatch, every=4)
    operator.process_many(values[:6], None)
    operator.process_many(values[6:], None)
    # a watermark (the highest timestamp - 1) after the 4th and the 8th record
    assert events == expected == [
        ("0", 0), ("10", 10), ("20", 20), ("30", 30), ("watermark", 29), ("40", 40),
        ("50", 50), ("60", 60), ("70", 70), ("watermark", 69), ("80", 80), ("90", 90),
        ("100", 100)]


def test_a_failing_timestamp_sends_the_records_before_it_first(monkeypatch):
    operator, events = _stamping(monkeypatch, every=0)
    with pytest.raises(UserFunctionError, match="no timestamp in 'bad'") as error:
        operator.process_many(["5", "6", "bad", "7"], None)
    assert "Stamps" in str(error.value)
    assert events == [("5", 5), ("6", 6)]


def test_a_map_maps_a_list_in_one_loop_into_its_targets_loop():
    received = []
    output = Output()
    output.add_main_target(lambda value, timestamp: received.append(("one", value)),
                           lambda mark: None,
                           process_many=lambda values, timestamp: received.append(
                               ("many", list(values), timestamp)))
    operator = MapOperator(wrap_map(lambda n: 10 // n))
    harness = OperatorHarness(operator, name="Map")
    operator.setup(output, harness.task, "Map")
    operator.prepare()
    operator.process_many([1, 2, 5], 7)
    operator.process_many(range(1, 3), None)
    assert received == [("many", [10, 5, 2], 7), ("many", [10, 5], None)]
    received.clear()
    with pytest.raises(UserFunctionError, match="ZeroDivisionError"):
        operator.process_many([5, 0, 1], None)
    assert received == [("many", [2], None)]      # the result before the failure went on


class _Odd(TimestampAssigner):
    """None for "none", a timestamp that does not compare with ints for "text"."""

    def extract_timestamp(self, value, record_timestamp):
        return None if value == "none" else "t" if value == "text" else int(value)


def _stamping_odd(monkeypatch, loop=True):
    operator, events = _stamping(monkeypatch, every=0, loop=loop)
    operator._extract = _Odd().extract_timestamp
    return operator, events


def test_a_slices_watermark_is_its_largest_timestamp_none_skipped(monkeypatch):
    values = ["7", "none", "30", "12", "none"]
    one_by_one, expected = _stamping_odd(monkeypatch, loop=False)
    for value in values:
        one_by_one.process_element(value, None)
    operator, events = _stamping_odd(monkeypatch)
    operator.process_many(values, None)
    operator.process_many(["none"], None)
    operator.process_many(["20"], None)
    assert events == expected + [("none", None), ("20", 20)]
    assert operator._generator.current() == one_by_one._generator.current() == 29


def test_a_timestamp_that_does_not_compare_fails_after_the_records_before_it(monkeypatch):
    one_by_one, expected = _stamping_odd(monkeypatch, loop=False)
    with pytest.raises(TypeError, match="not supported between"):
        for value in ["5", "none", "9", "text", "7"]:
            one_by_one.process_element(value, None)
    operator, events = _stamping_odd(monkeypatch)
    with pytest.raises(UserFunctionError, match="not supported between") as sliced:
        operator.process_many(["5", "none", "9", "text", "7"], None)
    assert "Stamps" in str(sliced.value)
    assert events == expected == [("5", 5), ("none", None), ("9", 9)]
    assert operator._generator.current() == one_by_one._generator.current() == 8
