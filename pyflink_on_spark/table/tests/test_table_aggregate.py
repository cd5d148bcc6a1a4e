"""Table.aggregate / GroupedTable.aggregate (table/aggregated_tables.py): the grouping query it
writes, its columns and checks as seen on PyFlink 1.20.5, a ROW udaf's fields as columns of
one call (table/sql/grouping.py, table/group_aggregates.py RowField), driven without Spark."""
import pytest

from pyflink_on_spark.common.types import Row
from pyflink_on_spark.datastream.functions import wrap_key_selector
from pyflink_on_spark.runtime.operators.bundled_aggregate import BundleOperator
from pyflink_on_spark.runtime.testing import OperatorHarness
from pyflink_on_spark.table import projected_changelog
from pyflink_on_spark.table.aggregated_tables import aggregate_query
from pyflink_on_spark.table.expressions import col
from pyflink_on_spark.table.group_aggregates import (BundledGroupAggregate,
                                                     BundledTableAggregate, group_aggregate)
from pyflink_on_spark.table.sql.errors import SqlValidationError, UnsupportedSqlError
from pyflink_on_spark.table.sql.grouping import USER_AGGREGATE, split_grouping
from pyflink_on_spark.table.types import DataTypes
from pyflink_on_spark.table.udf import AggregateFunction, TableAggregateFunction, udaf, udtaf


class MeanMax(AggregateFunction):
    """(mean, max) of the values as a ROW; counts its accumulate calls."""

    def __init__(self):
        self.calls = 0

    def create_accumulator(self):
        return [0, 0, None]

    def accumulate(self, acc, v):
        self.calls += 1
        acc[0] += v
        acc[1] += 1
        acc[2] = v if acc[2] is None or v > acc[2] else acc[2]

    def get_value(self, acc):
        return Row(acc[0] / acc[1], acc[2]) if acc[1] else None

    def get_accumulator_type(self):
        return DataTypes.ARRAY(DataTypes.BIGINT())

    def get_result_type(self):
        return DataTypes.ROW([DataTypes.FIELD("a", DataTypes.DOUBLE()),
                              DataTypes.FIELD("b", DataTypes.BIGINT())])


def _query(func, fields, keys=("k",)):
    return aggregate_query("t", ["k", "v"], [col(k) for k in keys], func, fields)


def test_a_row_result_is_its_fields_after_the_keys_named_by_the_alias():
    f = udaf(MeanMax())
    call = f(col("v")).sql
    assert _query(f(col("v")).alias("m", "x"), [col("*")]) == (
        "SELECT `k` AS `k`, %s.`a` AS `m`, %s.`b` AS `x` FROM `t` GROUP BY `k`"
        % (call, call))
    # without an alias, PyFlink's names TMP_0$<field>; a select picks and renames columns
    assert _query(f(col("v")), [col("TMP_0$b").alias("top"), col("k")]) == (
        "SELECT %s.`b` AS `top`, `k` AS `k` FROM `t` GROUP BY `k`" % call)


def test_a_global_aggregate_has_no_group_by_and_other_results_are_one_column():
    total = udaf(lambda v: v, result_type=DataTypes.BIGINT(),
                 accumulator_type=DataTypes.ARRAY(DataTypes.BIGINT()))
    call = total(col("v")).sql
    assert _query(total(col("v")), [col("*")], keys=()) == \
        "SELECT %s AS `TMP_0` FROM `t`" % call
    assert _query(col("v").sum.alias("s"), [col("*")]) == \
        "SELECT `k` AS `k`, SUM(`v`) AS `s` FROM `t` GROUP BY `k`"


def test_misuse_fails_at_select_with_flinks_words():
    f = udaf(MeanMax())
    with pytest.raises(SqlValidationError, match=r"Aggregate function expected. Got: "):
        _query(col("v") + 1, [col("*")])
    with pytest.raises(SqlValidationError, match=(
            r"List of column aliases must have same degree as table; the returned table of "
            r"function 'MeanMax\(v\)' has 2 columns, whereas alias list has 1 columns")):
        _query(f(col("v")).alias("m"), [col("*")])
    with pytest.raises(SqlValidationError, match="Ambiguous column name: k"):
        _query(f(col("v")).alias("k", "x"), [col("*")])
    with pytest.raises(SqlValidationError, match=r"Cannot resolve field \[a\], input field "
                                                 r"list:\[k, TMP_0\$a, TMP_0\$b\]."):
        _query(f(col("v")), [col("a")])


def test_expressions_over_the_aggregated_columns_project_the_grouping_query():
    f = udaf(MeanMax())
    call = f(col("v")).sql
    inner = ("SELECT `k` AS `k`, %s.`a` AS `m`, %s.`b` AS `x` FROM `t` GROUP BY `k`"
             % (call, call))
    # names as a select's (seen on PyFlink 1.20.5): _c<position>, a star's columns counted;
    # an alias kept; a cast of a column name-TYPE
    assert _query(f(col("v")).alias("m", "x"), [col("*"), col("x") + 1]) == (
        "SELECT `k` AS `k`, `m` AS `m`, `x` AS `x`, (`x` + 1) AS `_c3` FROM (%s) AS "
        "`TMP_AGGREGATED`" % inner)
    assert _query(f(col("v")).alias("m", "x"), [(col("x") * 0).alias("z"),
                                                col("m").cast(DataTypes.INT())]) == (
        "SELECT (`x` * 0) AS `z`, CAST(`m` AS INT) AS `m-INT` FROM (%s) AS `TMP_AGGREGATED`"
        % inner)
    # a built-in aggregate's column, one group
    assert _query(col("v").sum.alias("s"), [col("s") * 2], keys=()) == (
        "SELECT (`s` * 2) AS `_c0` FROM (SELECT SUM(`v`) AS `s` FROM `t`) AS "
        "`TMP_AGGREGATED`")


def test_a_select_after_aggregate_reads_its_columns_and_no_aggregates():
    f = udaf(MeanMax())
    with pytest.raises(SqlValidationError, match=r"Cannot resolve field \[v\], input field "
                                                 r"list:\[k, m, x\]."):
        _query(f(col("v")).alias("m", "x"), [col("x") + col("v")])
    with pytest.raises(SqlValidationError, match=(
            "Aggregate functions are not supported in the select right after the aggregate "
            "or flatAggregate operation.")):
        _query(f(col("v")).alias("m", "x"), [col("x").sum])


def test_what_does_not_run_here_names_itself():
    f = udtaf(Top2())
    with pytest.raises(NotImplementedError, match="not expressions of them"):
        aggregate_query("t", ["k", "v"], [col("k")], f(col("v")).alias("a", "b"),
                        [col("a") + 1], "flat_aggregate")
    with pytest.raises(TypeError, match="takes an aggregate function's call"):
        _query("v", [col("*")])


def test_a_projection_of_a_grouping_query_splits_into_it_and_its_select_list():
    grouping = split_grouping(
        "SELECT k, (s + 1) AS `_c1`, mm_m * 0 AS z FROM (SELECT k, SUM(v) AS s, mm(v).a AS "
        "mm_m FROM t WHERE v > 0 GROUP BY k) AS g", {"mm"})
    assert grouping.inner == ("SELECT k, SUM(v) AS s, MM(v).a AS mm_m FROM t WHERE v > 0 "
                              "GROUP BY k")
    assert grouping.per_row == "SELECT k AS `__k0`, v AS `__a0`, v AS `__a1` FROM t WHERE v > 0"
    assert grouping.items == (("key", 0), ("aggregate", ("SUM", 0)),
                              (USER_AGGREGATE, ("mm", (1,), "a")))
    assert grouping.projection == "k, (s + 1) AS `_c1`, mm_m * 0 AS z"
    assert grouping.projected_from == "g"
    assert split_grouping("SELECT k, SUM(v) FROM t GROUP BY k").projection is None
    # a WHERE over its rows is the filter of each change (test_filtered_changelog.py)
    assert split_grouping("SELECT * FROM (SELECT k, SUM(v) AS s FROM t GROUP BY k) AS g "
                          "WHERE s > 1").condition == "s > 1"
    for query, what in (("SELECT k FROM (SELECT k, SUM(v) AS s FROM t GROUP BY k) AS g "
                         "GROUP BY k", "GROUP BY over a grouping query's result"),
                        ("SELECT MAX(s) FROM (SELECT k, SUM(v) AS s FROM t GROUP BY k) AS g",
                         "an aggregate over a grouping query's result"),
                        ("SELECT a + 1 FROM (SELECT a FROM t) AS g", "a subquery as the input")):
        with pytest.raises(UnsupportedSqlError, match=what):
            split_grouping(query)


def test_field_reads_of_one_call_split_into_one_aggregate():
    grouping = split_grouping("SELECT k, mm(v).a AS m, mm(v).b AS x, mm(w).b AS y FROM t "
                              "GROUP BY k", {"mm"})
    assert grouping.per_row == "SELECT k AS `__k0`, v AS `__a0`, w AS `__a1` FROM t"
    assert grouping.items[1:] == ((USER_AGGREGATE, ("mm", (0,), "a")),
                                  (USER_AGGREGATE, ("mm", (0,), "b")),
                                  (USER_AGGREGATE, ("mm", (1,), "b")))


def test_a_row_aggregate_runs_once_per_row_and_its_fields_are_the_columns():
    function_object = MeanMax()
    wrapper = udaf(function_object)
    grouping = split_grouping("SELECT k, mm(v).b AS x, mm(v).a AS m FROM t GROUP BY k",
                              {"mm"})
    function = group_aggregate(["k", "x", "m"], grouping, ["STRING", "BIGINT"],
                               ["STRING", "BIGINT", "DOUBLE"], {"mm": wrapper})
    assert isinstance(function, BundledGroupAggregate) and len(function.aggregates) == 1
    harness = OperatorHarness(BundleOperator(function, wrap_key_selector(
        lambda row: (row[0],))))
    harness.element(("a", 1)).element(("b", 4)).element(("a", 3))
    harness.operator.end_batch(0)
    harness.element(("a", 8)).element(("b", 4))
    harness.end()
    assert [(str(r.get_row_kind()), tuple(r)) for r in harness.take()] == [
        ("+I", ("a", 3, 2.0)), ("+I", ("b", 4, 4.0)),
        ("-U", ("a", 3, 2.0)), ("+U", ("a", 8, 4.0))]      # b's ROW value did not change
    assert function_object.calls == 5


def _streaming():
    from pyflink_on_spark.common.typeinfo import Types
    from pyflink_on_spark.datastream.stream_execution_environment import (
        StreamExecutionEnvironment)
    from pyflink_on_spark.table import StreamTableEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    ds = env.from_collection([("a", 1)], type_info=Types.ROW_NAMED(
        ["k", "v"], [Types.STRING(), Types.LONG()]))
    t_env = StreamTableEnvironment.create(env)
    return t_env, t_env.from_data_stream(ds)


def test_the_table_api_builds_the_keyed_aggregate_with_the_flat_columns():
    t_env, table = _streaming()
    f = udaf(MeanMax())
    grouped = table.group_by(col("k")).aggregate(f(col("v")).alias("m", "x")) \
        .select(col("*"))
    assert [(c.name, c.sql_type) for c in grouped._resolved_columns()] == [
        ("k", "STRING"), ("m", "DOUBLE"), ("x", "BIGINT")]
    keyed = grouped._description.keyed_changelog
    assert keyed is not None and [c.name for c in keyed.columns] == ["k", "m", "x"]
    one = table.aggregate(f(col("v"))).select(col("TMP_0$b"))
    assert [c.name for c in one._resolved_columns()] == ["TMP_0$b"]
    assert one._updates() and one._description.keyed_changelog is not None
    stream = t_env.to_changelog_stream(one)         # built, not run
    assert isinstance(stream._transformation.spec.function, BundledGroupAggregate)


def test_a_projection_of_the_aggregate_reads_the_keyed_aggregates_changes():
    from pyflink_on_spark.spark.table_changelog import KIND
    from pyflink_on_spark.specs.tables import QueryTable, StreamTable
    t_env, table = _streaming()
    f = udaf(MeanMax())
    for projected, names in (
            (table.group_by(col("k")).aggregate(f(col("v")).alias("m", "x"))
             .select(col("k"), col("x") + 1), ["k", "_c1"]),
            # built-ins too, at parallelism 1 (the one-task changelog takes no subquery)
            (table.group_by(col("k")).aggregate(col("v").sum.alias("s"))
             .select(col("s") * 0), ["_c0"])):
        assert projected._updates()
        assert [c.name for c in projected._resolved_columns()] == names
        # the changes: a query of the keyed aggregate's changes (a table of its stream),
        # the projected columns then the RowKind's value
        keyed = projected._description.keyed_changelog
        assert isinstance(keyed, QueryTable)
        assert [c.name for c in keyed.columns] == names + [KIND]
        assert projected_changelog.KIND == KIND
        (_, changes), = keyed.inputs
        assert isinstance(changes, StreamTable) and changes.columns[-1].name == "__change_kind"
        stream = t_env.to_changelog_stream(projected)        # built, not run
        assert stream.get_type()._type_info.get_field_names() == names
        assert stream._transformation.source.changelog


def test_a_projection_of_a_grouping_query_over_an_unbounded_stream_names_itself(tmp_path):
    from pyflink_on_spark.common import Duration, Types, WatermarkStrategy
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.datastream.connectors.file_system import FileSource, StreamFormat
    from pyflink_on_spark.table import StreamTableEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    t_env = StreamTableEnvironment.create(env)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                                 str(tmp_path)) \
        .monitor_continuously(Duration.of_millis(200)).build()
    words = env.from_source(source, WatermarkStrategy.no_watermarks(), "files").map(
        lambda w: (w, len(w)), output_type=Types.ROW_NAMED(["w", "n"], [Types.STRING(),
                                                                         Types.INT()]))
    projected = t_env.from_data_stream(words).group_by(col("w")) \
        .aggregate(col("n").max.alias("top")).select(col("w"), col("top") * 10)
    with pytest.raises(NotImplementedError, match="a select of expressions over a grouping "
                                                  "query's columns .* unbounded stream"):
        t_env.to_changelog_stream(projected)


def test_a_general_udaf_in_batch_mode_fails_when_run_as_on_pyflink():
    from pyflink_on_spark.table import EnvironmentSettings, TableEnvironment
    from pyflink_on_spark.util.exceptions import TableException
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    table = t_env.from_elements([(1, 2)], ["k", "v"])
    f = udaf(MeanMax())
    result = table.group_by(col("k")).aggregate(f(col("v")).alias("m", "x")).select(col("*"))
    assert result.get_schema().get_field_names() == ["k", "m", "x"]
    with pytest.raises(TableException, match="non-Pandas UDAFs are not supported in batch "
                                             "mode currently."):
        result.execute()


def test_a_rows_field_is_typed_by_the_translator_and_read_by_spark_sql():
    from pyflink_on_spark.table.sql.translate import translate_query
    from pyflink_on_spark.table.sql.udf_calls import FunctionSignature
    functions = {"mm": FunctionSignature("mm", "aggregate", "udf_9",
                                         ("ROW<`a` DOUBLE NOT NULL, `b` BIGINT>",))}
    tables = {"t": [("k", "BIGINT"), ("v", "BIGINT")]}
    query = translate_query("SELECT k, mm(v).a AS m, mm(v).b AS x FROM t GROUP BY k",
                            tables, functions)
    assert query.sql == ("SELECT `k` AS `k`, UDF_9(`v`).`a` AS `m`, UDF_9(`v`).`b` AS `x` "
                         "FROM t GROUP BY `k`")
    # a field of a nullable ROW is nullable
    assert query.columns == (("k", "BIGINT"), ("m", "DOUBLE"), ("x", "BIGINT"))
    with pytest.raises(SqlValidationError, match="Unknown field c"):
        translate_query("SELECT mm(v).c FROM t", tables, functions)


def test_a_python_aggregate_call_makes_a_query_updating_without_group_by():
    from pyflink_on_spark.spark.table_changelog import is_updating
    assert is_updating("SELECT UDF_9(`v`).`a` AS `m` FROM t", {"udf_9"})
    assert not is_updating("SELECT UDF_9(`v`) AS `m` FROM t", {"udf_8"})


class Top2(TableAggregateFunction):
    """The two largest values of a group, with their rank (PyFlink's docs' Top2)."""

    def create_accumulator(self):
        return [None, None]

    def accumulate(self, acc, v):
        if isinstance(v, Row):
            v = v.v             # flat_aggregate(top2): the whole row
        if acc[0] is None or v > acc[0]:
            acc[1], acc[0] = acc[0], v
        elif acc[1] is None or v > acc[1]:
            acc[1] = v

    def emit_value(self, acc):
        for rank, value in ((1, acc[0]), (2, acc[1])):
            if value is not None:
                yield Row(value, rank)

    def get_accumulator_type(self):
        return DataTypes.ARRAY(DataTypes.BIGINT())

    def get_result_type(self):
        return DataTypes.ROW([DataTypes.FIELD("a", DataTypes.BIGINT()),
                              DataTypes.FIELD("r", DataTypes.INT())])


def test_flat_aggregate_columns_are_the_rows_fields_or_the_alias():
    top2 = udtaf(Top2())
    call = top2(col("v")).sql
    assert aggregate_query("t", ["k", "v"], [col("k")], top2(col("v")), [col("*")],
                           "flat_aggregate") == (
        "SELECT `k` AS `k`, %s.`a` AS `a`, %s.`r` AS `r` FROM `t` GROUP BY `k`"
        % (call, call))
    assert aggregate_query("t", ["k", "v"], [], top2(col("v")).alias("x", "rank"),
                           [col("rank")], "flat_aggregate") == \
        "SELECT %s.`r` AS `rank` FROM `t`" % call
    single = udtaf(Top2(), result_type=DataTypes.BIGINT())
    assert aggregate_query("t", ["k", "v"], [], single(col("v")), [col("*")],
                           "flat_aggregate") == "SELECT %s AS `f0` FROM `t`" % \
        single(col("v")).sql


def test_flat_aggregate_misuse_fails_with_flinks_words():
    top2 = udtaf(Top2())
    with pytest.raises(SqlValidationError, match="A flatAggregate only accepts an expression "
                                                 "which defines a table aggregate function"):
        aggregate_query("t", ["k", "v"], [], udaf(MeanMax())(col("v")), [col("*")],
                        "flat_aggregate")
    with pytest.raises(SqlValidationError, match=r"Aggregate function expected. Got: "
                                                 r"Top2\(v\)"):
        _query(top2(col("v")), [col("*")])
    with pytest.raises(SqlValidationError, match="the returned table of function 'Top2' has "
                                                 "2 columns, whereas alias list has 1"):
        aggregate_query("t", ["k", "v"], [], top2(col("v")).alias("x"), [col("*")],
                        "flat_aggregate")
    with pytest.raises(ValueError, match="The func_type must be 'general', got pandas."):
        udtaf(Top2(), func_type="pandas")


def test_a_table_aggregate_retracts_a_groups_rows_then_emits_its_new_ones_per_bundle():
    # the changelog seen on PyFlink 1.20.5 (compat case table/table_flat_aggregate.py)
    grouping = split_grouping("SELECT k, top2(v).a AS x, top2(v).r AS rank FROM t GROUP BY k",
                              {"top2"})
    function = group_aggregate(["k", "x", "rank"], grouping, ["BIGINT", "BIGINT"],
                               ["BIGINT", "BIGINT", "INT"], {"top2": udtaf(Top2())},
                               bundle_size=3)
    assert isinstance(function, BundledTableAggregate)
    harness = OperatorHarness(BundleOperator(function, wrap_key_selector(
        lambda row: (row[0],))))
    for i in range(1, 10):
        harness.element((i % 2, i * 7 % 10))
    harness.end()
    assert [(str(r.get_row_kind()), tuple(r)) for r in harness.take()] == [
        ("+I", (1, 7, 1)), ("+I", (1, 1, 2)), ("+I", (0, 4, 1)),
        ("-D", (0, 4, 1)), ("+I", (0, 8, 1)), ("+I", (0, 4, 2)),
        ("-D", (1, 7, 1)), ("-D", (1, 1, 2)), ("+I", (1, 7, 1)), ("+I", (1, 5, 2)),
        ("-D", (1, 7, 1)), ("-D", (1, 5, 2)), ("+I", (1, 9, 1)), ("+I", (1, 7, 2)),
        ("-D", (0, 8, 1)), ("-D", (0, 4, 2)), ("+I", (0, 8, 1)), ("+I", (0, 6, 2))]


def test_a_function_given_itself_takes_each_row_as_one_row():
    t_env, table = _streaming()
    top2 = udtaf(Top2())
    result = table.group_by(col("k")).flat_aggregate(top2).select(col("*"))
    assert result.get_schema().get_field_names() == ["k", "a", "r"]
    grouping = split_grouping(result._description.flink_query, {top2.spark_name()})
    function = group_aggregate(["k", "a", "r"], grouping, ["STRING", "STRING", "BIGINT"],
                               ["STRING", "BIGINT", "INT"], {top2.spark_name(): top2})
    harness = OperatorHarness(BundleOperator(function, wrap_key_selector(
        lambda row: (row[0],))))
    harness.element(("a", "a", 3)).element(("a", "a", 5)).end()
    assert [tuple(r) for r in harness.take()] == [("a", 5, 1), ("a", 3, 2)]


def test_flat_aggregate_in_batch_mode_fails_when_run_as_on_pyflink():
    from pyflink_on_spark.table import EnvironmentSettings, TableEnvironment
    from pyflink_on_spark.util.exceptions import TableException
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    table = t_env.from_elements([(1, 2)], ["k", "v"])
    result = table.group_by(col("k")).flat_aggregate(udtaf(Top2())(col("v"))).select(col("*"))
    assert result.get_schema().get_field_names() == ["k", "a", "r"]
    with pytest.raises(TableException, match="(?s)Cannot generate a valid execution plan for "
                                             "the given query: .*unsupported SQL feature"):
        result.execute()


def test_aggregate_over_group_windows_names_itself():
    from pyflink_on_spark.table.expressions import lit
    from pyflink_on_spark.table.window import Tumble
    from pyflink_on_spark.table.window_tables import GroupWindowedTable
    _, table = _streaming()
    grouped = GroupWindowedTable(table, Tumble.over(lit(5).seconds).on(col("v")).alias("w")) \
        .group_by(col("k"), col("w"))
    with pytest.raises(NotImplementedError, match="WindowGroupedTable.aggregate"):
        grouped.aggregate(udaf(MeanMax())(col("v")))
