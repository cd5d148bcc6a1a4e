"""pyflink.table.window's group windows (table/window.py) and interval literals, without
Spark: the Flink SQL group window calls they stand for."""
import pytest

from pyflink_on_spark.table.expressions import col, lit
from pyflink_on_spark.table.window import Over, Session, Slide, Tumble


def test_windows_are_flink_sql_group_window_calls():
    tumble = Tumble.over(lit(5).seconds).on(col("ts")).alias("w")
    assert tumble.alias == "w"
    assert tumble.sql_call() == "TUMBLE(`ts`, INTERVAL '5' SECOND)"
    assert tumble.sql_call("_START") == "TUMBLE_START(`ts`, INTERVAL '5' SECOND)"
    slide = Slide.over(lit(10).minutes).every(lit(1).minutes).on(col("t")).alias("s")
    assert slide.sql_call() == "HOP(`t`, INTERVAL '1' MINUTE, INTERVAL '10' MINUTE)"
    session = Session.with_gap(lit(1500).millis).on(col("ts")).alias("g")
    assert session.sql_call("_END") == "SESSION_END(`ts`, INTERVAL '1.500' SECOND)"


def test_intervals_need_integer_literals_and_windows_a_time_column():
    assert lit(2).hours.interval_sql == "INTERVAL '2' HOUR"
    assert lit(3).days.interval_sql == "INTERVAL '3' DAY"
    with pytest.raises(NotImplementedError, match="integer literal"):
        col("x").seconds
    with pytest.raises(NotImplementedError, match="interval literal"):
        Tumble.over(lit(5))
    with pytest.raises(NotImplementedError, match="time column"):
        Tumble.over(lit(5).seconds).on(lit(1))


def test_window_properties_are_read_from_the_alias():
    assert col("w").start.sql == "WINDOW_PROPERTY_START(`w`)"
    with pytest.raises(NotImplementedError, match="window's alias"):
        (col("w") + 1).end


def test_over_windows_are_flink_sql_window_specifications():
    from pyflink_on_spark.table.expressions import (
        CURRENT_RANGE, CURRENT_ROW, UNBOUNDED_ROW, row_interval)
    w = Over.partition_by(col("k")).order_by(col("ts")).preceding(row_interval(2)) \
        .following(CURRENT_ROW).alias("w")
    assert w.alias == "w"
    assert w.spec_sql() == "PARTITION BY `k` ORDER BY `ts` ROWS BETWEEN 2 PRECEDING AND " \
        "CURRENT ROW"
    # PyFlink's defaults: an unbounded range without preceding, following the current row
    assert Over.order_by(col("ts")).alias("w").spec_sql() == \
        "ORDER BY `ts` RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
    assert Over.partition_by(col("a"), col("b")).order_by(col("ts")) \
        .preceding(lit(1).seconds).following(CURRENT_RANGE).alias("w").spec_sql() == \
        "PARTITION BY `a`, `b` ORDER BY `ts` RANGE BETWEEN INTERVAL '1' SECOND PRECEDING " \
        "AND CURRENT ROW"
    assert "ROWS BETWEEN UNBOUNDED PRECEDING" in \
        Over.order_by(col("ts")).preceding(UNBOUNDED_ROW).alias("w").spec_sql()
    with pytest.raises(NotImplementedError, match="row_interval"):
        Over.order_by(col("ts")).preceding(lit(2)).alias("w").spec_sql()


def test_over_window_bounds_of_different_kinds_fail_with_flinks_words():
    # seen on PyFlink 1.20.5: at select(), for an interval or UNBOUNDED_RANGE preceding and
    # CURRENT_ROW following (compat_tests/cases/table/over_windows_rowtime.py)
    from pyflink_on_spark.table.expressions import (
        CURRENT_RANGE, CURRENT_ROW, UNBOUNDED_RANGE, row_interval)
    from pyflink_on_spark.table.sql.errors import SqlValidationError
    for preceding, following in ((lit(1).seconds, CURRENT_ROW), (UNBOUNDED_RANGE, CURRENT_ROW),
                                 (row_interval(2), CURRENT_RANGE)):
        w = Over.order_by(col("ts")).preceding(preceding).following(following).alias("w")
        with pytest.raises(SqlValidationError,
                           match="Preceding and following must be of same interval type."):
            w.spec_sql()
