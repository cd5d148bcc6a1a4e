"""Filters over an updating table's changelog (issue 44; table/projected_changelog.py,
table/sql/grouping.py): Table.where / filter, SQL WHERE over a grouping query, HAVING, and
selects of selects, as seen on PyFlink 1.20.5 at parallelism 1: each change row that fails
the filter is dropped on its own (`+U` with no `+I` before it, `-U` with no `+U` after it;
neither becomes `+I` / `-D`); BATCH mode gives the final rows."""
import pytest
import sqlglot

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.stream_execution_environment import StreamExecutionEnvironment
from pyflink_on_spark.table import (EnvironmentSettings, StreamTableEnvironment,
                                    TableEnvironment)
from pyflink_on_spark.table.expressions import col
from pyflink_on_spark.table.projected_changelog import having_as_filter
from pyflink_on_spark.table.sql.grouping import split_grouping
from pyflink_on_spark.table.sql.translate import FLINK_DIALECT

_GROUPED = "SELECT k, COUNT(*) AS c, SUM(v) AS s FROM v GROUP BY k"


def test_a_where_over_a_grouping_query_splits_as_its_condition():
    grouping = split_grouping("SELECT k, c FROM (%s) AS g WHERE c > 1" % _GROUPED)
    # the filter reads c: kept; s pruned, as Flink prunes unread aggregate calls
    assert grouping.inner == "SELECT k, COUNT(*) AS c FROM v GROUP BY k"
    assert (grouping.projection, grouping.condition, grouping.projected_from) == (
        "k, c", "c > 1", "g")
    assert split_grouping("SELECT k FROM (%s) AS g" % _GROUPED).condition is None


def test_selects_over_selects_merge_into_one_projection_and_filter():
    # Table.where then select: the where's star is the grouping query's columns
    grouping = split_grouping("SELECT k AS k, s AS s FROM (SELECT * FROM (%s) AS t2 WHERE "
                              "c > 1) AS t3 WHERE s < 9" % _GROUPED)
    assert (grouping.projection, grouping.condition) == ("k, s", "c > 1 AND s < 9")
    assert grouping.inner == _GROUPED
    # a select of renamed expressions, then a star and a filter over its names
    grouping = split_grouping("SELECT * FROM (SELECT k AS x, s * 2 AS d FROM (%s) AS t1) AS t2 "
                              "WHERE d > 6" % _GROUPED)
    assert (grouping.projection, grouping.condition) == ("k AS `x`, s * 2 AS `d`",
                                                         "(s * 2) > 6")
    assert grouping.inner == "SELECT k, SUM(v) AS s FROM v GROUP BY k"
    for query, what in (
            ("SELECT d FROM (SELECT s * 2 AS d FROM (%s) AS t1 LIMIT 1) AS t2" % _GROUPED,
             "LIMIT in a grouping query"),
            ("SELECT k FROM (SELECT *, 1 AS one FROM (%s) AS t1) AS t2" % _GROUPED,
             "a star beside other columns"),
            ("SELECT z FROM (SELECT k FROM (%s) AS t1) AS t2" % _GROUPED, "the column z")):
        with pytest.raises(NotImplementedError, match=what):
            split_grouping(query)


def _having(query, names):
    return having_as_filter(sqlglot.parse_one(query, read=FLINK_DIALECT), names)


def test_having_is_a_filter_over_the_grouping_query_of_its_aggregate_calls():
    assert _having("SELECT k, COUNT(*) AS c FROM v WHERE v > 0 GROUP BY k HAVING COUNT(*) > 1",
                   ["k", "c"]) == (
        "SELECT `__g0` AS `k`, `__a0` AS `c` FROM (SELECT k AS `__g0`, COUNT(*) AS `__a0` "
        "FROM v WHERE v > 0 GROUP BY k) AS __having_input WHERE `__a0` > 1")
    # an aggregate the select list does not read is a column of the grouping query too
    assert _having("SELECT k, MAX(v) + 1 FROM v GROUP BY k HAVING SUM(v) > 2", ["k", "EXPR$1"]
                   ) == ("SELECT `__g0` AS `k`, `__a0` + 1 AS `EXPR$1` FROM (SELECT k AS "
                         "`__g0`, MAX(v) AS `__a0`, SUM(v) AS `__a1` FROM v GROUP BY k) AS "
                         "__having_input WHERE `__a1` > 2")
    assert _having("SELECT COUNT(*) AS n FROM v HAVING COUNT(*) > 3", ["n"]) == (
        "SELECT `__a0` AS `n` FROM (SELECT COUNT(*) AS `__a0` FROM v) AS __having_input "
        "WHERE `__a0` > 3")
    # not that shape: refused by name where the changelog is read, as before
    for query in ("SELECT k, COUNT(DISTINCT v) AS c FROM v GROUP BY k HAVING COUNT(*) > 1",
                  "SELECT k, COUNT(*) FROM v GROUP BY TUMBLE(ts, INTERVAL '1' HOUR), k "
                  "HAVING COUNT(*) > 1",
                  "SELECT v, COUNT(*) FROM v GROUP BY k HAVING COUNT(*) > 1"):
        assert _having(query, ["a", "b"]) is None


# seen on PyFlink 1.20.5 (parallelism 1, STREAMING mode) over these rows
_ROWS = [("a", 1), ("b", 2), ("a", 3), ("a", 4), ("b", 5), ("a", 2), ("c", 1)]


def _rows(t_env, table):
    with t_env.to_changelog_stream(table).execute_and_collect() as rows:
        return [(str(r.get_row_kind()), *r) for r in rows]


def test_filters_over_an_updating_table_drop_each_failing_change(spark):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    t_env = StreamTableEnvironment.create(env)
    t_env.create_temporary_view("v", t_env.from_data_stream(env.from_collection(
        _ROWS, type_info=Types.ROW_NAMED(["k", "v"], [Types.STRING(), Types.INT()]))))
    counts = t_env.sql_query(_GROUPED)
    counted = [("+U", "a", 2, 4), ("-U", "a", 2, 4), ("+U", "a", 3, 8), ("+U", "b", 2, 7),
               ("-U", "a", 3, 8), ("+U", "a", 4, 10)]
    where = counts.where(col("c") > 1)
    assert where._updates()
    assert _rows(t_env, where) == counted
    with where.execute().collect() as rows:
        assert [(str(r.get_row_kind()), *r) for r in rows] == counted
    assert where.to_pandas().to_dict("list") == {"k": ["b", "a"], "c": [2, 4], "s": [7, 10]}
    # -U with no +U after it when a group leaves the range
    assert _rows(t_env, counts.filter((col("s") > 3) & (col("s") < 9)).select(
        col("k"), col("s"))) == [("+U", "a", 4), ("-U", "a", 4), ("+U", "a", 8),
                                 ("+U", "b", 7), ("-U", "a", 8)]
    # HAVING on an aggregate the select list does not read: -U / +U of equal rows
    assert _rows(t_env, t_env.sql_query(
        "SELECT k, MAX(v) AS m FROM v GROUP BY k HAVING SUM(v) > 2 * COUNT(*) AND k <> 'c'")
    ) == [("+U", "a", 4), ("+U", "b", 5), ("-U", "a", 4), ("+U", "a", 4)]
    # a select of an alias of a select
    assert _rows(t_env, counts.select(col("k"), col("c") + 1).alias("x", "y").select(
        col("y"), col("x"))) == [("+I", 2, "a"), ("+I", 2, "b"), ("-U", 2, "a"),
                                 ("+U", 3, "a"), ("-U", 3, "a"), ("+U", 4, "a"),
                                 ("-U", 2, "b"), ("+U", 3, "b"), ("-U", 4, "a"),
                                 ("+U", 5, "a"), ("+I", 2, "c")]


def test_filters_over_a_grouping_query_in_batch_mode_give_its_final_rows(spark):
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.create_temporary_view("v", t_env.from_elements(_ROWS, ["k", "v"]))
    counts = t_env.sql_query(_GROUPED)
    for table in (counts.where(col("c") > 1), t_env.sql_query(
            "SELECT k, COUNT(*) AS c, SUM(v) AS s FROM v GROUP BY k HAVING COUNT(*) > 1")):
        with table.execute().collect() as rows:
            assert sorted((str(r.get_row_kind()), *r) for r in rows) == [
                ("+I", "a", 4, 10), ("+I", "b", 2, 7)]


def test_a_filter_over_a_grouping_query_of_an_unbounded_stream_names_itself(tmp_path):
    from pyflink_on_spark.common import WatermarkStrategy
    from pyflink_on_spark.common.time import Duration
    from pyflink_on_spark.datastream.connectors.file_system import FileSource, StreamFormat
    env = StreamExecutionEnvironment.get_execution_environment()
    t_env = StreamTableEnvironment.create(env)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                                 str(tmp_path)) \
        .monitor_continuously(Duration.of_millis(200)).build()
    words = env.from_source(source, WatermarkStrategy.no_watermarks(), "files").map(
        lambda w: (w, len(w)), output_type=Types.ROW_NAMED(["k", "v"], [Types.STRING(),
                                                                         Types.INT()]))
    t_env.create_temporary_view("v", t_env.from_data_stream(words))
    counts = t_env.sql_query(_GROUPED)
    for table in (counts.where(col("c") > 1), t_env.sql_query(
            "SELECT k, COUNT(*) AS c FROM v GROUP BY k HAVING COUNT(*) > 1")):
        with pytest.raises(NotImplementedError, match="or a filter of its rows .* over a "
                                                      "table of an unbounded stream"):
            t_env.to_changelog_stream(table)
