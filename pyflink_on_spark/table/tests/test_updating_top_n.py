"""ROW_NUMBER() Top-N over a grouping subquery in STREAMING mode: the query's split
(top_n_query.split_updating_top_n) and the operator chosen for it as Flink 1.20.5's planner
chooses (top_n_streams.updating_top_n_function; the strategies seen in PyFlink's plans,
`Rank(strategy=[UpdateFastStrategy[0,1]] ...)` or `RetractStrategy`). No Spark."""
import pytest

from pyflink_on_spark.table.retract_top_n_rules import FAST_TOP_1, RETRACTABLE, UPDATABLE
from pyflink_on_spark.table.sql import UnsupportedSqlError
from pyflink_on_spark.table.top_n_query import STAR, split_top_n, split_updating_top_n
from pyflink_on_spark.table.top_n_streams import updating_top_n_function

GROUPED = "(SELECT k, item, %s AS cnt FROM v GROUP BY k, item)"
RANKED = "SELECT * FROM (SELECT k, item, cnt, ROW_NUMBER() OVER (%s) AS rn FROM %s) WHERE %s"


def query(order="PARTITION BY k ORDER BY cnt DESC", aggregate="COUNT(*)", where="rn <= 3"):
    return RANKED % (order, GROUPED % aggregate, where)


def test_split_into_the_grouping_query_the_keys_and_the_ranks():
    s = split_updating_top_n("SELECT k, rn FROM (SELECT k, cnt, ROW_NUMBER() OVER (PARTITION "
                             "BY k ORDER BY cnt DESC) AS rn FROM %s) WHERE rn <= 2"
                             % (GROUPED % "COUNT(*)"))
    assert s.grouping == "SELECT k, item, COUNT(*) AS cnt FROM v GROUP BY k, item"
    assert (s.columns, s.group_keys, s.keys, s.sorts) == (("k", "item", "cnt"), (0, 1), (0,),
                                                          (2,))
    assert (s.order, s.start, s.end) == (((True, False),), 1, 2)
    assert s.middle == (("k", 0), ("cnt", 2), ("rn", None))
    assert split_updating_top_n(query()).items == ((STAR, None),)


def test_a_group_key_not_selected_is_a_hidden_column_of_the_grouping_query():
    # seen on PyFlink 1.20.5: ranked by UpdatableTopNFunction keyed by (k, item) still
    s = split_updating_top_n("SELECT * FROM (SELECT k, c, ROW_NUMBER() OVER (PARTITION BY k "
                             "ORDER BY c DESC) AS rn FROM (SELECT k, COUNT(*) AS c FROM v "
                             "GROUP BY k, item)) WHERE rn <= 2")
    assert s.grouping == "SELECT k, COUNT(*) AS c, item AS `__g1` FROM v GROUP BY k, item"
    assert (s.columns, s.group_keys, s.middle) == (("k", "c", "__g1"), (0, 2),
                                                   (("k", 0), ("c", 1), ("rn", None)))
    function = updating_top_n_function(s, ["k", "c", "rn"])
    assert (function.rules.strategy, function.sources) == (UPDATABLE, [0, 1, None])


def test_a_select_distinct_subquery_is_grouped_by_all_its_columns():
    # seen on PyFlink 1.20.5: UpdateFastStrategy, the same changelog here
    s = split_updating_top_n("SELECT * FROM (SELECT i, ROW_NUMBER() OVER (ORDER BY i DESC) AS "
                             "rn FROM (SELECT DISTINCT item AS i FROM v)) WHERE rn <= 2")
    assert (s.columns, s.group_keys, s.keys, s.sorts) == (("i",), (0,), (), (0,))
    assert updating_top_n_function(s, ["i", "rn"]).rules.strategy == UPDATABLE


def test_other_queries_are_not_this_split():
    assert split_updating_top_n("SELECT * FROM (SELECT k, ROW_NUMBER() OVER (PARTITION BY k "
                                "ORDER BY v) AS rn FROM t) WHERE rn <= 2") is None
    # RANK() fails when run as PyFlink's does (top_n_query.rank_top_n_failure)
    assert split_updating_top_n(query().replace("ROW_NUMBER", "RANK")) is None


@pytest.mark.parametrize("order, aggregate, where, strategy", [
    # seen in PyFlink 1.20.5's plans
    ("PARTITION BY k ORDER BY cnt DESC", "COUNT(*)", "rn <= 3", UPDATABLE),
    ("PARTITION BY k ORDER BY cnt DESC", "COUNT(*)", "rn <= 1", FAST_TOP_1),
    ("PARTITION BY k ORDER BY cnt ASC", "COUNT(*)", "rn <= 3", RETRACTABLE),
    ("PARTITION BY k ORDER BY cnt DESC", "MAX(n)", "rn <= 3", UPDATABLE),
    ("PARTITION BY k ORDER BY cnt ASC", "MAX(n)", "rn <= 3", RETRACTABLE),
    ("PARTITION BY k ORDER BY cnt ASC", "MIN(n)", "rn <= 3", UPDATABLE),
    ("PARTITION BY k ORDER BY cnt DESC", "MIN(n)", "rn <= 3", RETRACTABLE),
    ("PARTITION BY k ORDER BY cnt DESC", "SUM(n)", "rn <= 3", RETRACTABLE),
    ("PARTITION BY k ORDER BY cnt DESC", "SUM(n)", "rn <= 1", RETRACTABLE),
    ("PARTITION BY k ORDER BY cnt DESC", "AVG(n)", "rn <= 3", RETRACTABLE),
    ("PARTITION BY item ORDER BY cnt DESC", "COUNT(*)", "rn <= 3", UPDATABLE),
    ("ORDER BY cnt DESC", "COUNT(*)", "rn <= 3", UPDATABLE),
    ("PARTITION BY k ORDER BY cnt DESC, item", "COUNT(*)", "rn <= 3", UPDATABLE),
    ("PARTITION BY k ORDER BY item", "COUNT(*)", "rn <= 3", UPDATABLE),
])
def test_the_operator_is_the_one_flink_plans(order, aggregate, where, strategy):
    function = updating_top_n_function(split_updating_top_n(query(order, aggregate, where)),
                                       ["k", "item", "cnt", "rn"])
    assert function.rules.strategy == strategy


def test_a_constant_rank_goes_without_the_rank_number():
    function = updating_top_n_function(split_updating_top_n(query(where="rn = 1")),
                                       ["k", "item", "cnt", "rn"])
    assert (function.rules.rank_number, function.constant_rank) == (False, 1)
    function = updating_top_n_function(split_updating_top_n(query(where="rn <= 2")),
                                       ["k", "item", "cnt", "rn"])
    assert (function.rules.rank_number, function.sources) == (True, [0, 1, 2, None])


@pytest.mark.parametrize("text, named", [
    (query(aggregate="SUM(n + 1)"), "ordering by SUM"),
    (query(aggregate="COUNT(*)").replace("GROUP BY k, item", "GROUP BY k, item HAVING "
                                         "COUNT(*) > 1"), "HAVING in the grouping subquery"),
    ("SELECT * FROM (SELECT k, c, ROW_NUMBER() OVER (ORDER BY c DESC) AS rn FROM (SELECT "
     "COUNT(*) AS c FROM v)) WHERE rn <= 2", "a global aggregate"),
    ("SELECT * FROM (SELECT k, c, ROW_NUMBER() OVER (ORDER BY c DESC) AS rn FROM (SELECT "
     "DISTINCT k, COUNT(*) AS c FROM v GROUP BY k)) WHERE rn <= 2", "DISTINCT with GROUP BY"),
    (query(where="rn <= 3 AND cnt > 1"), "the condition cnt > 1"),
    (query().replace(") WHERE rn", " WHERE cnt > 1) WHERE rn"), "a WHERE in the ranked select"),
    (query(where="rn > 2"), "without a rank end"),
])
def test_what_is_not_built_is_refused_by_name(text, named):
    with pytest.raises(UnsupportedSqlError, match=named.replace("(", r"\(").replace(
            ")", r"\)").replace("+", r"\+")):
        split_updating_top_n(text)


def test_a_ranking_in_the_grouping_select_itself_stays_refused():
    with pytest.raises(UnsupportedSqlError, match="GROUP BY"):
        split_top_n("SELECT k FROM (SELECT k, MAX(v) AS v, ROW_NUMBER() OVER (PARTITION BY k "
                    "ORDER BY v) AS rn FROM t GROUP BY k) WHERE rn <= 2")


def test_a_view_of_a_grouping_query_is_ranked_as_its_subquery():
    # seen on PyFlink 1.20.5: the same changelog as the subquery's
    from pyflink_on_spark.common import Types
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.table import StreamTableEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    t_env = StreamTableEnvironment.create(env)
    t_env.create_temporary_view("v", env.from_collection(
        [('a', 'x', 1)], type_info=Types.ROW_NAMED(['k', 'item', 'n'], [
            Types.STRING(), Types.STRING(), Types.INT()])))
    t_env.create_temporary_view("g", t_env.sql_query(
        "SELECT k, item, COUNT(*) AS cnt FROM v GROUP BY k, item"))
    table = t_env.sql_query("SELECT * FROM (SELECT k, cnt, ROW_NUMBER() OVER (PARTITION BY k "
                            "ORDER BY cnt DESC) AS rn FROM g) WHERE rn <= 2")
    s = split_updating_top_n(table._description.flink_query)
    assert (s.grouping, s.columns) == ("SELECT k, item, COUNT(*) AS cnt FROM v GROUP BY k, "
                                       "item", ("k", "item", "cnt"))
    assert [name for name, _ in table._description.inputs] == ["v"]


@pytest.mark.parametrize("where", ["rn <= 3", "rn <= 1"])
@pytest.mark.parametrize("order", ["cnt DESC", "cnt ASC"])
def test_the_function_restored_from_a_checkpoint_goes_on_as_one_run(tmp_path, where, order):
    from pyflink_on_spark.common.types import Row, RowKind
    from pyflink_on_spark.datastream.functions import wrap_key_selector
    from pyflink_on_spark.runtime.checkpoint.context import CheckpointContext
    from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
    from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
    from pyflink_on_spark.runtime.testing import OperatorHarness
    from pyflink_on_spark.table.tests.test_retract_top_n_rules import ROWS, grouped
    split = split_updating_top_n(query("PARTITION BY k ORDER BY %s" % order, where=where))
    kinds = {"+I": RowKind.INSERT, "-U": RowKind.UPDATE_BEFORE, "+U": RowKind.UPDATE_AFTER}

    def harness():
        function = updating_top_n_function(split, ["k", "item", "cnt", "rn"])
        return OperatorHarness(KeyedProcessOperator(function, wrap_key_selector(
            lambda v: (v[0],))), name="top_n")

    def feed(h, changes):
        for kind, values in changes:
            row = Row(*values)
            row.set_row_kind(kinds[kind])
            h.element(row, None)

    def seen(h):
        return [(str(row.get_row_kind()), tuple(row)) for row, _ in h.out]

    changes = grouped(ROWS, "count")
    whole = harness()
    feed(whole, changes)
    first = harness()
    feed(first, changes[:12])
    store = SnapshotStore(str(tmp_path))
    snap = first.operator.snapshot_state(CheckpointContext(store, 1, "top_n", 0))
    second = harness()
    second.operator.restore_state([(0, snap)], CheckpointContext(store, 1, "top_n", 0))
    feed(second, changes[12:])
    assert len(seen(whole)) >= 6 and seen(first) and seen(second)
    assert seen(first) + seen(second) == seen(whole)
