"""Window aggregates over an unbounded table, without Spark: the query's split
(table/sql/window_grouping.py), the window operator over the per-row rows with the
aggregates and rows of table/window_aggregates.py, and the SQL watermark's emission."""
from datetime import datetime

import pytest

from pyflink_on_spark.common.time import Instant
from pyflink_on_spark.common.types import Row
from pyflink_on_spark.runtime.operators.timestamps import TimestampsAndWatermarksOperator
from pyflink_on_spark.runtime.testing import OperatorHarness
from pyflink_on_spark.runtime.window.tests.window_harness import Harness, aggregate_op
from pyflink_on_spark.table.group_aggregates import Aggregate
from pyflink_on_spark.table.sql import UnsupportedSqlError
from pyflink_on_spark.table.sql.window_grouping import split_window_grouping
from pyflink_on_spark.table.window_aggregates import (
    CumulativeEventTimeWindows, WindowAccumulators, WindowRows, dropped_timestamps,
    sql_watermark_delay,
    sql_watermarks, window_assigner)

TUMBLE = ("SELECT k, window_start, window_end, window_time, COUNT(*) AS c, SUM(x + 1) AS s "
          "FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '5' SECOND)) WHERE x > 0 "
          "GROUP BY k, window_start, window_end, window_time")


def test_a_window_tvf_query_splits_into_its_per_row_query_and_the_window():
    g = split_window_grouping(TUMBLE)
    assert g.per_row == "SELECT `ts` AS `__t`, k AS `__k0`, x + 1 AS `__a0` FROM `t` WHERE x > 0"
    assert (g.kind, g.size_ms, g.slide_ms, g.keys) == ("TUMBLE", 5000, None, 1)
    assert g.items == (("key", 0), ("window", "START"), ("window", "END"), ("window", "TIME"),
                       ("aggregate", ("COUNT", None)), ("aggregate", ("SUM", 0)))
    hop = split_window_grouping(
        "SELECT window_start, MAX(v) FROM TABLE(HOP(TABLE r, DESCRIPTOR(ts), INTERVAL '1' "
        "SECOND, INTERVAL '3' SECOND)) GROUP BY window_start, window_end")
    assert (hop.kind, hop.size_ms, hop.slide_ms, hop.keys) == ("HOP", 3000, 1000, 0)


def test_a_group_window_query_splits_too():
    g = split_window_grouping(
        "SELECT k, HOP_START(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND) AS s, "
        "HOP_ROWTIME(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND), AVG(v) FROM t "
        "GROUP BY HOP(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND), k")
    assert g.per_row == "SELECT `ts` AS `__t`, k AS `__k0`, v AS `__a0` FROM `t`"
    assert (g.kind, g.size_ms, g.slide_ms) == ("HOP", 10000, 5000)
    assert g.items == (("key", 0), ("window", "START"), ("window", "TIME"),
                       ("aggregate", ("AVG", 0)))
    session = split_window_grouping(
        "SELECT k, SESSION_END(ts, INTERVAL '3' SECOND), COUNT(*) FROM t "
        "GROUP BY k, SESSION(ts, INTERVAL '3' SECOND)")
    assert (session.kind, session.size_ms) == ("SESSION", 3000)


@pytest.mark.parametrize("query, named", [
    (TUMBLE + " HAVING COUNT(*) > 1", "HAVING"),
    ("SELECT k, COUNT(*) FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '5' SECOND)) "
     "GROUP BY k", "does not group by window_start and window_end"),
    ("SELECT k, window_start, COUNT(*) + 1 FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), "
     "INTERVAL '5' SECOND)) GROUP BY k, window_start, window_end", "COUNT(*) + 1"),
    ("SELECT k, window_start, COUNT(*) FROM TABLE(SESSION(TABLE t PARTITION BY j, "
     "DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY k, window_start, window_end",
     "PARTITION BY"),
    ("SELECT k, COUNT(DISTINCT x) FROM t GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND)",
     "DISTINCT"),
])
def test_other_window_queries_are_refused_naming_the_construct(query, named):
    with pytest.raises(UnsupportedSqlError, match="window aggregate over an unbounded") as e:
        split_window_grouping(query)
    assert named in str(e.value)


def test_cumulate_windows_end_every_step_up_to_the_max_size():
    assigner = CumulativeEventTimeWindows(6000, 2000)
    assert [(w.start, w.end) for w in assigner.assign_windows(None, 1000, None)] == \
        [(0, 2000), (0, 4000), (0, 6000)]
    assert [(w.start, w.end) for w in assigner.assign_windows(None, 4000, None)] == \
        [(0, 6000)]
    assert [(w.start, w.end) for w in assigner.assign_windows(None, 6500, None)] == \
        [(6000, 8000), (6000, 10000), (6000, 12000)]


def _window_harness(kind, size, slide, items, aggregates, ltz=True):
    names = ["c%d" % i for i in range(len(items))]
    return Harness(aggregate_op(window_assigner(kind, size, slide),
                                WindowAccumulators(aggregates), WindowRows(names, items, ltz)),
                   key=lambda row: (row[1],))


def test_a_window_emits_one_row_per_key_when_the_watermark_passes_its_end_late_rows_dropped():
    items = [("key", 0), ("window", "START"), ("window", "END"), ("window", "TIME"),
             ("aggregate", None), ("aggregate", None)]
    h = _window_harness("TUMBLE", 5000, None, items,
                        [Aggregate("COUNT", None, "BIGINT"), Aggregate("SUM", 2, "INT")],
                        ltz=False)
    h.element(Row(1000, "a", 3), 1000).element(Row(4200, "a", 2 ** 31 - 1), 4200)
    h.element(Row(1500, "b", None), 1500).element(Row(6100, "a", 5), 6100)
    h.watermark(4998)
    assert h.out == []
    h.watermark(4999)
    assert sorted(tuple(r) for r in h.values()) == [
        ("a", datetime(1970, 1, 1), datetime(1970, 1, 1, 0, 0, 5),
         datetime(1970, 1, 1, 0, 0, 4, 999000), 2, -2 ** 31 + 2),     # INT SUM wraps
        ("b", datetime(1970, 1, 1), datetime(1970, 1, 1, 0, 0, 5),
         datetime(1970, 1, 1, 0, 0, 4, 999000), 1, None)]
    assert {ts for _, ts in h.out} == {4999}
    h.take()
    h.element(Row(2000, "a", 7), 2000)        # behind the watermark: its window fired
    h.watermark(9999)
    assert [tuple(r)[4:] for r in h.values()] == [(1, 5)]
    assert h.values()[0].as_dict()["c0"] == "a"


def test_window_time_of_a_timestamp_ltz_column_is_an_instant():
    h = _window_harness("HOP", 4000, 2000, [("window", "TIME"), ("aggregate", None)],
                        [Aggregate("MAX", 2, "DOUBLE")])
    h.element(Row(2500, "a", 1.5), 2500).watermark(3999)
    assert [tuple(r) for r in h.values()] == [(Instant(3, 999000000), 1.5)]


def test_session_windows_merge_their_accumulators():
    items = [("key", 0), ("aggregate", None), ("aggregate", None), ("aggregate", None)]
    h = _window_harness("SESSION", 3000, None, items,
                        [Aggregate("AVG", 2, "INT"), Aggregate("MIN", 2, "INT"),
                         Aggregate("COUNT", 2, "INT")])
    # two sessions bridged by the third row: one session of the three
    h.element(Row(1000, "a", 4), 1000).element(Row(6000, "a", 1), 6000)
    h.element(Row(3500, "a", None), 3500).watermark(20000)
    assert [tuple(r) for r in h.values()] == [("a", 2, 1, 2)]


def test_a_sql_watermark_is_the_rowtime_minus_its_delay_emitted_as_soon_as_it_grew():
    assert [sql_watermark_delay(e) for e in (
        "ts", "ts - INTERVAL '1' SECOND", "`ts` - INTERVAL '1.5' SECOND",
        "ts - INTERVAL '2' MINUTE", "ts - INTERVAL '10' MILLISECOND")] == \
        [0, 1000, 1500, 120000, 10]
    h = OperatorHarness(TimestampsAndWatermarksOperator(sql_watermarks(1000)))
    h.element("a", 1000).element("b", 1100).element("c", 1300).element("d", 9999)
    h.element("e", 2000)
    # 0 at the first row; +100 ms is no growth of more than 200 ms; 300 is; 8999 then
    assert h.watermarks == [0, 300, 8999]
    assert [ts for _, ts in h.out] == [1000, 1100, 1300, 9999, 2000]


def test_rows_without_a_rowtime_column_lose_their_timestamps_not_the_watermarks():
    h = OperatorHarness(TimestampsAndWatermarksOperator(dropped_timestamps()))
    h.element("a", 4999).watermark(4999).element("b", 9999).watermark(9999)
    assert h.out == [("a", None), ("b", None)]
    assert h.watermarks == [4999, 9999]


def test_a_table_source_subtask_without_rows_holds_the_watermark_back():
    """Seen on PyFlink 1.20.5 at parallelism 2: a table watermark subtask that has had no row
    holds the window operator's watermark back (no window fires until every subtask had
    rows), for a SQL watermark and SOURCE_WATERMARK(); the shim's DataStream rule (an empty
    subtask is idle) stays for other watermark strategies."""
    from pyflink_on_spark.common.watermark_strategy import _StrategySpec
    from pyflink_on_spark.table.window_aggregates import TableWatermarks
    spec = _StrategySpec("bounded_out_of_orderness", 999)
    for strategy in (sql_watermarks(1000), TableWatermarks(spec)):
        h = OperatorHarness(TimestampsAndWatermarksOperator(strategy))
        assert not h.operator.output_idle(5000, None)
        h.element("a", 1000)
        assert not h.operator.output_idle(5000, 0)
    from pyflink_on_spark.common import Duration, WatermarkStrategy
    stream = OperatorHarness(TimestampsAndWatermarksOperator(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(1))))
    assert stream.operator.output_idle(5000, None)
