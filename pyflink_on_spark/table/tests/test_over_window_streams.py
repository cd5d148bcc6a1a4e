"""OVER windows over an unbounded table (table/over_aggregate.py, over_window_streams.py,
table/sql/over_grouping.py): the query's split, and the keyed over aggregate's rules replayed
without Spark against the rows PyFlink 1.20.5 gave for the same input (compat_tests/cases/table/over_windows_unbounded.py's
first file: its SQL watermark 1 s behind the rows, sent when it grew by more than 200 ms)."""
import pickle

import pytest

from pyflink_on_spark.runtime.timers import TimerQueue
from pyflink_on_spark.table.over_aggregate import OverCall, OverRules
from pyflink_on_spark.table.over_window_streams import check_over_query
from pyflink_on_spark.table.sql import UnsupportedSqlError
from pyflink_on_spark.table.sql.over_grouping import (
    AGGREGATE, ALL_COLUMNS, ROW_VALUE, is_over_query, split_over_grouping)

MIN = -2 ** 63
# (k, millis, x) in file order
ROWS = [("a", 1000, 1), ("b", 1500, 2), ("a", 1000, 3), ("a", 2500, 4), ("b", 2200, 5),
        ("a", 1800, 6), ("c", 3000, 7), ("a", 4200, 8), ("b", 4000, 9), ("a", 9999, 10),
        ("b", 2000, 11), ("a", 12000, 12), ("b", 9500, 13), ("c", 21000, 14),
        ("a", 40000, 15)]


def replay(rules: OverRules, key=lambda row: row[0]):
    """The rows through the rules with Flink's watermarks (the largest time - 1000, sent after
    a row when it grew by more than 200 over the last sent, 0 at first) and one timer heap
    whose timers a firing timer registers go in at once: [(k, x, values)] in emission order;
    the states after."""
    queue, states, out = TimerQueue(), {}, []
    watermark, sent, largest = MIN, 0, MIN

    def advance(to):
        while True:
            timer = queue.pop_due(to)
            if timer is None:
                return
            timestamp, k, _ = timer
            rows, timers, cleared = rules.on_timer(states[k], timestamp, to)
            for t in timers:
                queue.register(k, None, t)
            if cleared:
                states[k] = rules.new_state()
            out.extend((row[0], row[2], values) for row, values in rows)

    for row in ROWS:
        state = states.setdefault(key(row), rules.new_state())
        for t in rules.on_row(state, row[1], row, watermark):
            queue.register(key(row), None, t)
        largest = max(largest, row[1] - 1000)
        if largest - sent > 200:
            sent = watermark = largest
            advance(watermark)
    return out, states


def test_rows_frame_of_two_preceding_drops_rows_not_after_the_keys_last_fired_time():
    out, _ = replay(OverRules([OverCall("SUM", 2, "INT"), OverCall("COUNT", None, "BIGINT")],
                              rows=True, preceding=2))
    # seen: (b, 2000) dropped (b fired 4000), (b, 9500) taken behind the watermark and
    # fired at the next one; rows of one time in arrival order
    assert out == [("a", 1, (1, 1)), ("a", 3, (4, 2)), ("b", 2, (2, 1)), ("a", 6, (10, 3)),
                   ("b", 5, (7, 2)), ("a", 4, (13, 3)), ("c", 7, (7, 1)), ("b", 9, (16, 3)),
                   ("a", 8, (18, 3)), ("a", 10, (22, 3)), ("b", 13, (27, 3)),
                   ("a", 12, (30, 3)), ("c", 14, (21, 2))]


def test_range_interval_frame_is_cleared_by_its_cleanup_timer():
    out, _ = replay(OverRules([OverCall("MIN", 2, "INT"), OverCall("MAX", 2, "INT"),
                               OverCall("AVG", 2, "INT")], rows=False, preceding=2000))
    # seen: b's state cleared at 7001 (4000 + 3000 + 1), so (b, 2000) is taken with a frame of
    # itself; peers of one time share the values; AVG of INT truncated
    assert out == [("a", 1, (1, 3, 2)), ("a", 3, (1, 3, 2)), ("b", 2, (2, 2, 2)),
                   ("a", 6, (1, 6, 3)), ("b", 5, (2, 5, 3)), ("a", 4, (1, 6, 3)),
                   ("c", 7, (7, 7, 7)), ("b", 9, (5, 9, 7)), ("a", 8, (4, 8, 6)),
                   ("b", 11, (11, 11, 11)), ("a", 10, (10, 10, 10)),
                   ("b", 13, (13, 13, 13)), ("a", 12, (12, 12, 12)), ("c", 14, (14, 14, 14))]


@pytest.mark.parametrize("rows, sums", [
    (True, [1, 4, 2, 10, 7, 7, 14, 22, 16, 32, 44, 21]),
    (False, [4, 4, 2, 10, 7, 7, 14, 22, 16, 32, 44, 21])])
def test_unbounded_frames_drop_rows_behind_the_watermark_and_emit_per_key_timer(rows, sums):
    out, _ = replay(OverRules([OverCall("SUM", 2, "INT")], rows=rows, preceding=None))
    # seen: (b, 2000) and (b, 9500) dropped; each key's rows when its one timer (the
    # watermark + 1) fires: c, b, a at the watermark 3200, as Flink's timer heap gives them
    assert [(k, x) for k, x, _ in out] == [
        ("a", 1), ("a", 3), ("b", 2), ("a", 6), ("c", 7), ("b", 5), ("a", 4), ("a", 8),
        ("b", 9), ("a", 10), ("a", 12), ("c", 14)]
    assert [values[0] for _, _, values in out] == sums


def test_no_partition_is_one_key():
    out, _ = replay(OverRules([OverCall("MAX", 2, "INT")], rows=True, preceding=1),
                    key=lambda row: ())
    assert [(x, values[0]) for _, x, values in out] == [
        (1, 1), (3, 3), (2, 3), (6, 6), (5, 6), (4, 5), (7, 7), (9, 9), (8, 9), (10, 10),
        (12, 12), (14, 14)]


def test_a_keys_state_survives_a_checkpoint():
    rules = OverRules([OverCall("SUM", 2, "INT")], rows=True, preceding=2)
    _, states = replay(rules)
    restored = pickle.loads(pickle.dumps(states))
    assert restored["a"].inputs == {40000: [("a", 40000, 15)]}
    assert list(restored["a"].frame) == list(states["a"].frame)
    rows, _, _ = rules.on_timer(restored["a"], 40000, 40000)
    assert rows == [(("a", 40000, 15), (37,))]       # 10 + 12 + 15, as PyFlink's second file


def test_retraction_keeps_flinks_types():
    count = OverCall("SUM", 0, "INT")
    acc = count.initial()
    for v in (2147483647, 1):
        acc = count.accumulate(acc, (v,))
    assert count.value(acc) == -2147483648          # INT wraps
    acc = count.accumulate(acc, (2147483647,), -1)
    assert count.value(acc) == 1
    acc = count.accumulate(acc, (1,), -1)
    assert count.value(acc) is None                  # no rows left: NULL
    low = OverCall("MIN", 0, "INT")
    acc = low.initial()
    for v in (3, 1, 1, None):
        acc = low.accumulate(acc, (v,))
    acc = low.accumulate(acc, (1,), -1)
    assert low.value(acc) == 1
    acc = low.accumulate(acc, (1,), -1)
    assert low.value(acc) == 3


def test_split_into_the_per_row_query_and_the_frame():
    g = split_over_grouping(
        "SELECT k, millis, x * 10 AS x10, SUM(x) OVER w AS s, COUNT(*) OVER w FROM computed "
        "WHERE x <> 4 WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND "
        "CURRENT ROW)")
    assert g.per_row == ("SELECT `ts` AS `__t`, k AS `__k0`, k AS `__c0`, millis AS `__c1`, "
                         "x * 10 AS `__c2`, x AS `__a0` FROM `computed` WHERE x <> 4")
    assert g.items == ((ROW_VALUE, 0), (ROW_VALUE, 1), (ROW_VALUE, 2),
                       (AGGREGATE, ("SUM", 0)), (AGGREGATE, ("COUNT", None)))
    assert (g.keys, g.values, g.rows, g.preceding) == (1, 3, True, 2)
    g = split_over_grouping("SELECT SUM(x) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '2' "
                            "SECOND PRECEDING AND CURRENT ROW) FROM t")
    assert (g.keys, g.rows, g.preceding) == (0, False, 2000)
    g = split_over_grouping("SELECT SUM(x) OVER (PARTITION BY k ORDER BY ts) FROM t")
    assert (g.rows, g.preceding) == (False, None)
    assert is_over_query("select sum(x) over w from t") and not is_over_query(
        "SELECT overall FROM t")


@pytest.mark.parametrize("query, named", [
    ("SELECT SUM(x) OVER w + 1 FROM t WINDOW w AS (ORDER BY ts)", "an expression over an "
     "OVER aggregate"),
    ("SELECT SUM(x) OVER (ORDER BY ts), MAX(x) OVER (PARTITION BY k ORDER BY ts) FROM t",
     "different specifications"),
    ("SELECT LAG(x) OVER (ORDER BY ts) FROM t", "the window function LAG"),
    ("SELECT COUNT(DISTINCT x) OVER (ORDER BY ts) FROM t", "a DISTINCT aggregate"),
    ("SELECT SUM(x) OVER (ORDER BY ts) FROM t ORDER BY ts", "ORDER BY"),
    ("SELECT SUM(x) OVER (ORDER BY ts) FROM (SELECT * FROM t)", "a subquery"),
    ("SELECT *, *, SUM(x) OVER (ORDER BY ts) FROM t", "SELECT \\*, \\*"),
])
def test_other_shapes_are_refused_naming_them(query, named):
    with pytest.raises(UnsupportedSqlError, match=named):
        split_over_grouping(query)
    with pytest.raises(NotImplementedError, match=named):
        check_over_query(query, streaming=True)


def test_batch_mode_over_an_unbounded_table_stays_refused():
    with pytest.raises(NotImplementedError, match="BATCH mode"):
        check_over_query("SELECT SUM(x) OVER (ORDER BY ts) FROM t", streaming=False)


def test_a_java_operators_timers_registered_while_firing_go_into_the_heap_at_once():
    # (runtime/operators/keyed_process.py, inline_timers: Flink's advanceWatermark loop)
    from pyflink_on_spark.datastream.functions import KeyedProcessFunction, wrap_key_selector
    from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
    from pyflink_on_spark.runtime.testing import ManualClock, OperatorHarness
    from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK

    class Timers(KeyedProcessFunction):
        inline_timers = True

        def process_element(self, value, ctx):
            ctx.timer_service().register_event_time_timer(value[1])

        def on_timer(self, timestamp, ctx):
            if timestamp == 30:     # one already passed, one ahead of the due ones
                ctx.timer_service().register_event_time_timer(35)
                ctx.timer_service().register_event_time_timer(5)
            yield ctx.get_current_key(), timestamp

    harness = OperatorHarness(KeyedProcessOperator(Timers(), wrap_key_selector(
        lambda v: v[0])), clock=ManualClock(1_000), name="keyed")
    for value in [("a", 50), ("b", 30), ("a", 70)]:
        harness.operator.process_element(value, None)
    harness.operator.process_watermark(MAX_WATERMARK)
    # a Python function's timers would wait for the round: b 30, a 50, a 70, b 5, b 35
    assert [r[0] for r in harness.out] == [("b", 30), ("b", 5), ("b", 35), ("a", 50),
                                           ("a", 70)]


def test_over_an_unbounded_datagen_tables_watermark_column_is_a_time_attribute():
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.table import StreamTableEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    t_env = StreamTableEnvironment.create(env)
    t_env.execute_sql("CREATE TABLE src (id BIGINT, ts AS TO_TIMESTAMP_LTZ(id, 3), WATERMARK "
                      "FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen')")
    # seen on PyFlink 1.20.5: an OVER window ordered by it runs (counts per key growing)
    assert t_env.sql_query("SELECT SUM(id) OVER (ORDER BY ts) FROM src")._failure is None
    t_env.execute_sql("CREATE TABLE plain (id BIGINT, ts TIMESTAMP_LTZ(3)) WITH ("
                      "'connector' = 'datagen')")
    # a column that is no time attribute on PyFlink either: Flink's words when it runs
    over = t_env.sql_query("SELECT SUM(id) OVER (ORDER BY ts) FROM plain")
    assert "must be defined on a time attribute" in over._failure


@pytest.mark.parametrize("rows, preceding", [(True, 2), (False, 2000), (True, None)])
def test_the_operator_restored_from_a_checkpoint_goes_on_as_one_run(tmp_path, rows, preceding):
    from pyflink_on_spark.datastream.functions import wrap_key_selector
    from pyflink_on_spark.runtime.checkpoint.context import CheckpointContext
    from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
    from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
    from pyflink_on_spark.runtime.testing import OperatorHarness
    from pyflink_on_spark.table.over_aggregate import OverFunction

    def harness():
        # the per-row query's rows: (__t, k, x), the aggregate over x; out: Row(k, x, s)
        function = OverFunction(OverRules([OverCall("SUM", 2, "INT")], rows, preceding),
                                ["k", "x", "s"], [(ROW_VALUE, 0), (ROW_VALUE, 1),
                                                  (AGGREGATE, None)], 1)
        return OverHarness(KeyedProcessOperator(function, wrap_key_selector(
            lambda v: (v[1],))), name="over")

    class OverHarness(OperatorHarness):
        sent = largest = MIN

        def feed(self, part):
            for k, millis, x in part:
                self.element((millis, k, x), millis)
                self.largest = max(self.largest, millis - 1000)
                if self.largest - max(self.sent, 0) > 200:
                    self.sent = self.largest
                    self.watermark(self.sent)

    def seen(h):
        return [(tuple(row), ts) for row, ts in h.out]

    whole = harness()
    whole.feed(ROWS)
    first = harness()
    first.feed(ROWS[:8])
    store = SnapshotStore(str(tmp_path))
    snap = first.operator.snapshot_state(CheckpointContext(store, 1, "over", 0))
    second = harness()
    second.operator.restore_state([(0, snap)], CheckpointContext(store, 1, "over", 0))
    second.sent, second.largest = first.sent, first.largest
    second.feed(ROWS[8:])
    assert len(seen(whole)) > 10
    assert seen(first) + seen(second) == seen(whole)


def test_avg_of_a_decimal_with_rows_leaving_the_frame():
    # seen on PyFlink 1.20.5 (AVG of a DECIMAL(10, 2) OVER ROWS 2 PRECEDING, a DECIMAL(38, 6)
    # rounded half up): b's 2, 5, 9, 13, 16 give 2, 3.5, 5.333333, 9, 12.666667
    from decimal import Decimal
    rules = OverRules([OverCall("AVG", 0, "DECIMAL(10, 2)"),
                       OverCall("SUM", 0, "DECIMAL(10, 2)")], rows=True, preceding=2)
    state, out = rules.new_state(), []
    for t, v in enumerate(("2.00", "5.00", "9.00", "13.00", "16.00"), 1):
        rules.on_row(state, t, (Decimal(v),), 0)
        out.extend(tuple(str(v) for v in values)
                   for _, values in rules.on_timer(state, t, t)[0])
    assert out == [("2.000000", "2.00"), ("3.500000", "7.00"), ("5.333333", "16.00"),
                   ("9.000000", "27.00"), ("12.666667", "38.00")]     # (the scale too)


def test_an_unbounded_frames_min_and_max_keep_the_value_alone():
    out, states = replay(OverRules([OverCall("MIN", 2, "INT", retracting=False),
                                    OverCall("MAX", 2, "INT", retracting=False)],
                                   rows=True, preceding=None))
    assert [values for k, _, values in out if k == "a"] == [
        (1, 1), (1, 3), (1, 6), (1, 6), (1, 8), (1, 10), (1, 12)]
    assert states["a"].accs == [1, 12]       # no count of every value seen


def test_a_star_stands_for_the_input_columns_between_the_other_values():
    from pyflink_on_spark.table.over_window_streams import _all_columns
    g = split_over_grouping("SELECT k, *, COUNT(*) OVER w AS c, x * 2 AS x2, MAX(x) OVER w "
                            "FROM t WINDOW w AS (PARTITION BY k ORDER BY ts)")
    assert g.per_row == ("SELECT `ts` AS `__t`, k AS `__k0`, k AS `__c0`, *, x * 2 AS `__c2`, "
                         "x AS `__a0` FROM `t`")
    assert g.items == ((ROW_VALUE, 0), (ALL_COLUMNS, 1), (AGGREGATE, ("COUNT", None)),
                       (ROW_VALUE, 2), (AGGREGATE, ("MAX", 0)))
    # t of 4 columns: __t, __k0, k, its 4, x2, __a0 (9 in all)
    assert _all_columns(g, 9) == [(ROW_VALUE, 0), (ROW_VALUE, 1), (ROW_VALUE, 2),
                                   (ROW_VALUE, 3), (ROW_VALUE, 4), (AGGREGATE, ("COUNT", None)),
                                   (ROW_VALUE, 5), (AGGREGATE, ("MAX", 0))]
