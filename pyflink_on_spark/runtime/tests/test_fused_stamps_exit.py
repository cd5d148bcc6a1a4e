"""A map, assign_timestamps_and_watermarks and an exit in one loop (ExitCollector.
fused_with_stamps, TimestampsAndWatermarksOperator.prepare): the rows, the watermarks after
the same records, the generator's state and the errors (the records before a failing one
sent on) are those of the operators' own loops."""
import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.common.watermark_strategy import TimestampAssigner, WatermarkStrategy
from pyflink_on_spark.datastream.functions import wrap_key_selector, wrap_map
from pyflink_on_spark.runtime.boundary import KIND_WATERMARK, loads_records
from pyflink_on_spark.runtime.errors import UserFunctionError

USER_ERROR = "<<<PYFLINK_ON_SPARK_USER_ERROR>>>"
from pyflink_on_spark.runtime.exits import exit_collector
from pyflink_on_spark.runtime.operators import timestamps
from pyflink_on_spark.runtime.operators.process import MapOperator
from pyflink_on_spark.runtime.operators.timestamps import TimestampsAndWatermarksOperator
from pyflink_on_spark.runtime.output import Output
from pyflink_on_spark.runtime.testing import OperatorHarness
from pyflink_on_spark.specs.partitioning import KeyedPartitioning, RebalancePartitioning
from pyflink_on_spark.specs.stage import ExitSpec


class _Stamp(TimestampAssigner):
    """The record's second field; None for a record whose field is None; fails on "bad"."""

    def extract_timestamp(self, value, record_timestamp):
        if value[1] == "bad":
            raise ValueError("no timestamp in %r" % (value,))
        return value[1]


def _to_pair(n):
    if n == "fail":
        raise RuntimeError("map failed")
    if isinstance(n, tuple):
        return n
    return "k%d" % (n % 7), n


def _failing(records):
    yield from records
    raise RuntimeError("the function before failed")


def _operator(op, output, name):
    harness = OperatorHarness(op, name=name, auto_watermark_interval=200)
    op.setup(output, harness.task, name)
    op.prepare()
    op.open()
    return op


def _chain(fused, partitioning, converter=None, with_map=True, key_sorted=False):
    """map -> timestamps -> exit, the timestamps operator fused with its exit or not; the
    exit a BATCH keyed operator's (key_sorted) or the usual one.
    (head's process_many, head's process_element, timestamps operator, rows)"""
    rows = []
    stamps_op = TimestampsAndWatermarksOperator(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(_Stamp()))
    spec = ExitSpec(edge_id=3, source=1, side_tag=None, partitioning=partitioning,
                    target_parallelism=2, target_max_parallelism=128, converter=converter,
                    sort_by_key=key_sorted)
    exit_ = exit_collector(spec, 0, 1, rows, lambda e: stamps_op.user_error(e))
    out = Output()
    out.add_main_target(exit_.process_element, exit_.process_watermark, exit_.fused_with_map,
                        exit_.process_many, exit_.process_stamped,
                        exit_.fused_with_stamps if fused else None)
    _operator(stamps_op, out, "Stamps")
    assert (stamps_op.fuse_map is not None) == fused
    if not with_map:
        return stamps_op.process_many, stamps_op.process_element, stamps_op, exit_, rows
    map_out = Output()
    map_out.add_main_target(stamps_op.process_element, stamps_op.process_watermark,
                            stamps_op.fuse_map, stamps_op.process_many,
                            stamps_op.process_stamped)
    map_op = _operator(MapOperator(wrap_map(_to_pair)), map_out, "Map")
    return map_op.process_many, map_op.process_element, stamps_op, exit_, rows


def _run(fused, partitioning, feed, converter=None, with_map=True, key_sorted=False):
    """(rows as read back, the error raised or None, the generator's watermark); a
    key-sorted exit's rows as they are"""
    many, element, stamps_op, exit_, rows = _chain(fused, partitioning, converter, with_map,
                                                   key_sorted)
    error = None
    try:
        for kind, records in feed:
            if kind == "many":
                many(records, None)
            elif kind == "lazy":   # a function's generator (a flat_map's results)
                many((record for record in records), None)
            elif kind == "lazy-fails":   # one that fails after some records
                many(_failing(records), None)
            else:
                for record in records:
                    element(record, None)
    except UserFunctionError as e:
        error = str(e).replace(USER_ERROR, "").split("\n")[0]   # (not the traceback)
    except RuntimeError as e:   # the upstream function's own (_failing)
        error = repr(e)
    exit_.flush()
    if key_sorted:
        exit_.finish()
        return rows, error, stamps_op._generator.current(), stamps_op._count
    read = [(row[1], row[4], loads_records(row[5]) if row[4] != KIND_WATERMARK else row[5])
            for row in rows]
    return read, error, stamps_op._generator.current(), stamps_op._count


KEYED = KeyedPartitioning(wrap_key_selector(lambda pair: pair[0]), None)
KEYED_INT = KeyedPartitioning(wrap_key_selector(lambda pair: pair[1] % 300), Types.LONG())


def _same(partitioning, feed, converter=None, with_map=True, generator_too=True,
          key_sorted=False):
    """The fused run's (rows, error, watermark, count), checked against the operators' own.
    After an error the count of records towards the next periodic watermark may differ
    (the failing slice is not counted; the job fails there), and after a key selector's
    error or a converter's the generator (the operators' loop had stamped the whole slice
    first)."""
    fused = _run(True, partitioning, feed, converter, with_map, key_sorted)
    general = _run(False, partitioning, feed, converter, with_map, key_sorted)
    assert fused[:2] == general[:2]
    if generator_too:
        assert fused[2] == general[2]
    if fused[1] is None:
        assert fused[3] == general[3]
    return fused


@pytest.mark.parametrize("partitioning", [KEYED, RebalancePartitioning()],
                         ids=["keyed", "rebalance"])
@pytest.mark.parametrize("converter", [None, Types.TUPLE([Types.STRING(), Types.LONG()])],
                         ids=["undeclared", "declared"])
def test_the_fused_loop_gives_the_operators_rows_and_watermarks(monkeypatch, partitioning,
                                                                converter):
    monkeypatch.setattr(timestamps, "PERIODIC_EVERY_RECORDS", 7)   # watermarks mid-slice
    monkeypatch.setattr("pyflink_on_spark.runtime.exits.chunked.CHUNK_RECORDS", 5)
    converter = None if converter is None else converter._python_converter()
    # a timestamp None (no event) where the declared LONG would refuse it
    none = ("k2", None) if converter is None else ("k2", 60.5)
    feed = [("many", list(range(40))), ("one", [40, 41, ("k1", 39.5), 42]),
            ("lazy", range(43, 60)), ("many", [none, ("k3", 61), ("k3", 62.0)])]
    read, error, watermark, _ = _same(partitioning, feed, converter)
    assert error is None and watermark == 61.0
    assert any(kind == KIND_WATERMARK for _, kind, _ in read)
    assert sum(len(payload[0]) for _, kind, payload in read if kind != KIND_WATERMARK) == 64


def test_the_fused_loop_without_a_map_and_with_many_new_keys(monkeypatch):
    monkeypatch.setattr(timestamps, "PERIODIC_EVERY_RECORDS", 50)
    feed = [("many", [("k", n) for n in range(s, s + 120)]) for s in range(0, 600, 120)]
    read, error, watermark, _ = _same(KEYED_INT, feed, with_map=False)
    assert error is None and watermark == 598


@pytest.mark.parametrize("bad", [
    ("many", [1, 2, "fail", 4]),                  # the map fails
    ("many", [1, 2, ("k", "bad"), 4]),            # the assigner fails
    ("many", [1, 2, ("k", "late"), 5]),           # a timestamp the generator cannot take
    ("one", [1, ("k", "bad")]),
    ("lazy", [1, 2, ("k", "bad"), 4]),
    ("lazy-fails", [1, 2]),
], ids=["map", "assigner", "generator", "one-by-one", "lazy", "lazy-fails"])
@pytest.mark.parametrize("partitioning", [KEYED, KEYED_INT], ids=["str-keys", "int-keys"])
def test_the_records_before_a_failing_one_go_on_as_before(monkeypatch, bad, partitioning):
    monkeypatch.setattr(timestamps, "PERIODIC_EVERY_RECORDS", 3)
    feed = [("many", list(range(100, 110))), bad, ("many", [200, 201])]
    read, error, _, _ = _same(partitioning, feed)
    assert error is not None
    assert sum(len(payload[0]) for _, kind, payload in read if kind != KIND_WATERMARK) >= 11


def test_a_key_selector_error_names_the_key_by_in_both():
    partitioning = KeyedPartitioning(wrap_key_selector(lambda pair: 1 // (pair[1] - 5)), None)
    read, error, _, _ = _same(partitioning, [("many", list(range(10)))], generator_too=False)
    assert error.startswith("ZeroDivisionError raised in operator 'key_by(<lambda>)'"), error
    assert sum(len(payload[0]) for _, kind, payload in read if kind != KIND_WATERMARK) == 5


@pytest.mark.parametrize("converter", [None, Types.TUPLE([Types.STRING(), Types.LONG()])],
                         ids=["undeclared", "declared"])
@pytest.mark.parametrize("partitioning", [KEYED, KEYED_INT], ids=["str-keys", "int-keys"])
def test_a_key_sorted_exits_fused_loop_gives_its_own_loops_rows(monkeypatch, partitioning,
                                                                converter):
    # a BATCH event-time job's source stage: map -> timestamps -> the key-sorted exit
    monkeypatch.setattr(timestamps, "PERIODIC_EVERY_RECORDS", 7)
    monkeypatch.setattr("pyflink_on_spark.runtime.exits.key_sorted.SORTED_RECORDS_HELD", 9)
    converter = None if converter is None else converter._python_converter()
    feed = [("many", list(range(40))), ("one", [40, 41, 42]), ("lazy", range(43, 60)),
            ("many", [("k3", 61), ("k3", 62), ("k1", 30)])]
    rows, error, watermark, _ = _same(partitioning, feed, converter, key_sorted=True)
    assert error is None and watermark == 61 and len(rows) > 2


@pytest.mark.parametrize("bad", [("many", [1, 2, "fail", 4]), ("many", [1, 2, ("k", "bad"), 4]),
                                 ("lazy-fails", [1, 2])], ids=["map", "assigner", "lazy-fails"])
def test_a_key_sorted_exits_fused_loop_fails_as_its_own_loops(bad):
    feed = [("many", list(range(100, 110))), bad, ("many", [200, 201])]
    _, error, _, _ = _same(KEYED, feed, key_sorted=True)
    assert error is not None
