"""ROW_NUMBER() in STREAMING mode: the query's split (table/top_n_query.py), what sql_query
refuses or fails with as PyFlink 1.20.5 does (table/top_n_streams.py), and the keyed
function restored from a checkpoint going on as one run. No Spark."""
import pytest

from pyflink_on_spark.table.sql import UnsupportedSqlError
from pyflink_on_spark.table.top_n_query import (COLUMN, NO_RANK_END, NO_TIME_ORDER, STAR,
                                                split_top_n)
from pyflink_on_spark.table.top_n_rules import TOP_N, TopNRules

INNER = "SELECT k, v, n, ROW_NUMBER() OVER (PARTITION BY k ORDER BY %s) AS rn FROM t"


def test_split_into_the_per_row_query_the_order_and_the_ranks():
    s = split_top_n("SELECT rn, n AS m, k FROM (%s) WHERE 2 >= rn" % (
        INNER % "v DESC NULLS FIRST, n").replace("FROM t", "FROM t WHERE n > 1"))
    assert s.per_row == ("SELECT k, v, n, CAST(0 AS BIGINT) AS rn, k AS `__k0`, v AS `__o0`, "
                         "n AS `__o1` FROM t WHERE n > 1")
    assert (s.keys, s.order, s.start, s.end) == (1, ((True, True), (False, True)), 1, 2)
    assert s.items == ((COLUMN, ("rn", "rn")), (COLUMN, ("n", "m")), (COLUMN, ("k", "k")))
    assert s.failure(time_ordered=False) is None


@pytest.mark.parametrize("where, start, end", [
    ("rn < 3", 1, 2), ("rn = 1", 1, 1), ("rn BETWEEN 2 AND 3", 2, 3),
    ("rn >= 2 AND rn <= 4", 2, 4), ("(rn <= 3) AND rn > 1", 2, 3)])
def test_the_bounds_of_rn(where, start, end):
    s = split_top_n("SELECT * FROM (%s) AS x WHERE %s" % (INNER % "v", where))
    assert (s.start, s.end, s.items) == (start, end, ((STAR, None),))


def test_what_fails_when_it_runs_on_pyflink():
    # seen on PyFlink 1.20.5: sql_query accepts both, execute() fails with these words
    assert split_top_n("SELECT k FROM (%s) WHERE rn > 2" % (INNER % "v")) \
        .failure(time_ordered=False) == NO_RANK_END
    unfiltered = split_top_n(INNER % "v")
    assert unfiltered.failure(time_ordered=False) == NO_TIME_ORDER
    assert unfiltered.items[-1] == (COLUMN, ("rn", "rn"))


@pytest.mark.parametrize("function", ["RANK", "DENSE_RANK"])
@pytest.mark.parametrize("query, words", [
    # a Top-N (rn = 1 over the rowtime too: no deduplication but for ROW_NUMBER)
    ("SELECT k, v, rn FROM (%s) WHERE rn <= 2" % (INNER % "v DESC"), "%s() on streaming"),
    ("SELECT k FROM (%s) WHERE rn = 1" % (INNER % "ts"), "%s() on streaming"),
    ("SELECT k FROM (%s) WHERE rn > 2" % (INNER % "v"), "Rank end is not specified"),
    # unfiltered: an over aggregate, its window checked in this order
    (INNER % "v DESC, ts", "ordered by a single time column"),
    (INNER % "v DESC", "ordered in ASCENDING mode"),
    (INNER % "v", "must be defined on a time attribute")])
def test_rank_and_dense_rank_fail_as_on_pyflink(function, query, words):
    # seen on PyFlink 1.20.5 (STREAMING, from_collection / from_data_stream with a rowtime):
    # sql_query takes each, execute() fails with these words
    s = split_top_n(query.replace("ROW_NUMBER()", function + "()"))
    assert s.function == function
    failure = s.failure(time_ordered=s.order[0] == (False, False) and "ts" in s.per_row)
    assert failure.startswith("org.apache.flink.table.api.TableException: ")
    assert (words % function if "%s" in words else words) in failure


@pytest.mark.parametrize("query, words", [
    ("SELECT k, m, r FROM (SELECT k, m, %s() OVER (ORDER BY m DESC) AS r FROM (SELECT k, "
     "MAX(v) AS m FROM t GROUP BY k)) WHERE r <= 2", "%s() on streaming table"),
    ("SELECT k, v, r FROM (SELECT k, v, %s() OVER (PARTITION BY k ORDER BY v DESC) AS r "
     "FROM t) WHERE r <= 2 AND v > 3", "%s() on streaming table"),
    ("SELECT k, v + 1 AS w FROM (SELECT k, v, %s() OVER (ORDER BY v) AS r FROM t) "
     "WHERE 2 >= r", "%s() on streaming table"),
    ("SELECT k FROM (SELECT k, %s() OVER (ORDER BY v) AS r FROM t) WHERE r BETWEEN 2 AND 3",
     "%s() on streaming table"),
    ("SELECT k FROM (SELECT k, %s() OVER (ORDER BY v) AS r FROM t) WHERE r > 2",
     "Rank end is not specified"),
    ("SELECT k FROM (SELECT k, %s() OVER (ORDER BY v) AS r FROM t)", None),
    ("SELECT k, %s() OVER (ORDER BY v) AS r FROM t", None)])
@pytest.mark.parametrize("function", ["RANK", "DENSE_RANK"])
def test_a_rank_top_n_fails_whatever_else_its_query_holds(query, words, function):
    # seen on PyFlink 1.20.5 (STREAMING): the first three shapes, which split_top_n refuses
    # for ROW_NUMBER(), fail with the rank type's words too
    from pyflink_on_spark.table.top_n_query import rank_top_n_failure
    failure = rank_top_n_failure(query % function)
    if words is None:
        assert failure is None
    else:
        assert failure.endswith(words.replace("%s", function) + (
            " is not supported currently" if "%s" in words else
            ". Currently rank only support TopN, which means the rank end must be specified."))
    assert rank_top_n_failure((query % function).replace(function, "ROW_NUMBER")) is None


@pytest.mark.parametrize("function, frame", [("RANK", "RANGE"), ("DENSE_RANK", "RANGE"),
                                             ("ROW_NUMBER", "ROWS")])
def test_an_unfiltered_ranking_over_one_ascending_time_attribute_is_an_over_count(
        function, frame):
    # seen on PyFlink 1.20.5: it runs as an over aggregate, each row's RANK() / DENSE_RANK()
    # the count of its key's rows up to its rowtime, ties included (2, 2 for two rows of
    # the first time), ROW_NUMBER() counting them in arrival order (1, 2): compat
    # table/rank_streaming, and over an unbounded stream the same rows in the same order
    from pyflink_on_spark.table.top_n_query import as_over_aggregate
    query = "SELECT * FROM (%s)" % (INNER % "ts").replace("ROW_NUMBER", function)
    assert split_top_n(query).failure(time_ordered=True) is None
    assert as_over_aggregate(query) == (
        "SELECT * FROM (SELECT k, v, n, COUNT(*) OVER (PARTITION BY k ORDER BY ts %s BETWEEN "
        "UNBOUNDED PRECEDING AND CURRENT ROW) AS rn FROM t)" % frame)


@pytest.mark.parametrize("query, named", [
    ("SELECT k, v, rn FROM (%s) WHERE rn <= 2 AND v > 2" % (INNER % "v"), "v > 2"),
    ("SELECT k, v + 1 FROM (%s) WHERE rn <= 2" % (INNER % "v"), "v + 1"),
    ("SELECT k FROM (SELECT k, NTILE(2) OVER (PARTITION BY k ORDER BY v) AS rn FROM t) "
     "WHERE rn <= 2", "NTILE(2)"),
    ("SELECT k FROM (SELECT k, MAX(v) AS v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v) "
     "AS rn FROM t GROUP BY k) WHERE rn <= 2", "an updating input"),
    ("SELECT k FROM (SELECT k, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v) AS rn FROM "
     "(SELECT k, v FROM t)) WHERE rn <= 2", "a subquery as the ranked input"),
    ("SELECT k FROM (SELECT k, ROW_NUMBER() OVER (ORDER BY v) FROM t)", "without an alias"),
])
def test_other_shapes_are_refused_naming_them(query, named):
    with pytest.raises(UnsupportedSqlError, match=r"%s.* ROW_NUMBER\(\) query in STREAMING"
                       % named.replace("(", r"\(").replace(")", r"\)").replace("+", r"\+")):
        split_top_n(query)


def test_a_table_environment_refuses_it_by_name():
    from pyflink_on_spark.table import EnvironmentSettings, TableEnvironment
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.create_temporary_view('t', t_env.from_elements([('a', 1, 2)], ['k', 'v', 'n']))
    with pytest.raises(NotImplementedError, match="StreamTableEnvironment runs Flink's Top-N"):
        t_env.sql_query("SELECT k FROM (%s) WHERE rn <= 2" % (INNER % "v"))


ROWS = [('a', 3, 1), ('a', 7, 2), ('b', 5, 3), ('a', 5, 4), ('a', 7, 5), ('b', 2, 6),
        ('a', 9, 7), ('a', 1, 8), ('b', 8, 9), ('a', 5, 10)]


@pytest.mark.parametrize("rank_number", [True, False])
def test_the_function_restored_from_a_checkpoint_goes_on_as_one_run(tmp_path, rank_number):
    from pyflink_on_spark.datastream.functions import wrap_key_selector
    from pyflink_on_spark.runtime.checkpoint.context import CheckpointContext
    from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
    from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
    from pyflink_on_spark.runtime.testing import OperatorHarness
    from pyflink_on_spark.table.top_n_streams import TopNFunction

    def harness():
        # the per-row rows (k, v, n, rn placeholder, __k0, __o0); out: k, v, rn (or k, v)
        function = TopNFunction(TopNRules([(5, True, False)], 1, 3, rank_number, TOP_N),
                                ["k", "v", "rn"], [0, 1, None] if rank_number else [0, 1],
                                1)
        return OperatorHarness(KeyedProcessOperator(function, wrap_key_selector(
            lambda v: (v[4],))), name="top_n")

    def feed(h, rows):
        for k, v, n in rows:
            h.element((k, v, n, 0, k, v), None)

    def seen(h):
        return [(str(row.get_row_kind()), tuple(row)) for row, _ in h.out]

    whole = harness()
    feed(whole, ROWS)
    first = harness()
    feed(first, ROWS[:5])
    store = SnapshotStore(str(tmp_path))
    snap = first.operator.snapshot_state(CheckpointContext(store, 1, "top_n", 0))
    second = harness()
    second.operator.restore_state([(0, snap)], CheckpointContext(store, 1, "top_n", 0))
    feed(second, ROWS[5:])
    assert len(seen(whole)) >= 10
    assert seen(first) + seen(second) == seen(whole)
    # the ranks of key a after 9 came: 9, 7, 7 (as PyFlink's rn <= 3 over v DESC, n)
    if rank_number:
        assert ("+U", ("a", 9, 1)) in seen(second)


def _unbounded_view(t_env, env, tmp_path):
    from pyflink_on_spark.common import Duration, Row, Types, WatermarkStrategy
    from pyflink_on_spark.datastream.connectors.file_system import FileSource, StreamFormat
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                                 str(tmp_path)) \
        .monitor_continuously(Duration.of_millis(200)).build()
    rows = env.from_source(source, WatermarkStrategy.no_watermarks(), "files").map(
        lambda line: Row(*line.split(",")),
        output_type=Types.ROW_NAMED(["k", "v"], [Types.STRING(), Types.STRING()]))
    t_env.create_temporary_view("t", t_env.from_data_stream(rows))


def test_an_unbounded_tables_top_n_is_the_keyed_function_in_the_job(tmp_path):
    # its changelog is the job's stream (compat table/top_n_unbounded runs it); no rows of
    # its own outside that job (to_data_stream: an updating table)
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.table import StreamTableEnvironment
    from pyflink_on_spark.table.top_n_streams import TopNFunction
    env = StreamExecutionEnvironment.get_execution_environment()
    t_env = StreamTableEnvironment.create(env)
    _unbounded_view(t_env, env, tmp_path)
    table = t_env.sql_query("SELECT k, v, rn FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION "
                            "BY k ORDER BY v DESC) AS rn FROM t) WHERE rn <= 2")
    node = t_env.to_changelog_stream(table)._transformation
    function = node.spec.function
    assert isinstance(function, TopNFunction) and not function.plain
    assert (function.rules.end, function.names, function.sources) == (2, ["k", "v", "rn"],
                                                                       [0, 1, None])
    with pytest.raises(NotImplementedError, match="to_data_stream of a table whose rows "
                                                  "update"):
        t_env.to_data_stream(table)
