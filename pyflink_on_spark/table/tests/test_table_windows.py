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


def test_window_properties_are_read_from_the_alias_and_over_windows_are_refused():
    assert col("w").start.sql == "WINDOW_PROPERTY_START(`w`)"
    with pytest.raises(NotImplementedError, match="window's alias"):
        (col("w") + 1).end
    with pytest.raises(NotImplementedError, match="over windows"):
        Over.partition_by(col("k"))
