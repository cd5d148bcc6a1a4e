"""A grouping query with a Python aggregate function (udaf) in STREAMING mode
(table/group_aggregates.py BundledGroupAggregate): PyFlink 1.20.5's Python group aggregate,
its bundles, driven through the keyed operator without Spark."""
import pytest

from pyflink_on_spark.datastream.functions import wrap_key_selector
from pyflink_on_spark.runtime.errors import UserFunctionError
from pyflink_on_spark.runtime.testing import OperatorHarness
from pyflink_on_spark.runtime.operators.bundled_aggregate import BundleOperator
from pyflink_on_spark.table.group_aggregates import BundledGroupAggregate, group_aggregate
from pyflink_on_spark.table.sql.grouping import split_grouping
from pyflink_on_spark.table.types import DataTypes
from pyflink_on_spark.table.udf import AggregateFunction, udaf


class Total(AggregateFunction):
    def __init__(self):
        self.opened = False

    def open(self, function_context):
        self.opened = function_context.get_job_parameter("p", "none")

    def create_accumulator(self):
        return [0]

    def accumulate(self, acc, v, w=0):
        if v is not None:
            acc[0] += v + w

    def get_value(self, acc):
        return acc[0]


def _total():
    return udaf(Total(), result_type=DataTypes.BIGINT(),
                accumulator_type=DataTypes.ARRAY(DataTypes.BIGINT()))


def _function(query, types, result_types, bundle_size=100000, **functions):
    grouping = split_grouping(query, functions)
    names = ["c%d" % i for i in range(len(result_types))]
    return group_aggregate(names, grouping, types, result_types, functions, {"p": "x"},
                           bundle_size)


def _harness(function, keys=1):
    return OperatorHarness(BundleOperator(function, wrap_key_selector(
        lambda row: tuple(row[i] for i in range(keys)))))


def _changes(harness):
    return [(str(r.get_row_kind()), tuple(r)) for r in harness.take()]


def test_a_bundle_emits_each_group_once_in_the_order_the_groups_came():
    function = _function("SELECT k, total(v) AS s, COUNT(*) AS n FROM t GROUP BY k",
                         ["STRING", "INT"], ["STRING", "BIGINT", "BIGINT"], total=_total())
    assert isinstance(function, BundledGroupAggregate)
    harness = _harness(function)
    for row in [("b", 1), ("a", 2), ("b", 3), ("c", None)]:
        harness.element(row)
    assert harness.values() == []           # nothing before the bundle ends
    harness.operator.end_batch(0)           # a micro-batch's end (its checkpoint)
    assert _changes(harness) == [("+I", ("b", 4, 2)), ("+I", ("a", 2, 1)),
                                 ("+I", ("c", 0, 1))]
    for row in [("a", 5), ("c", None), ("b", 0), ("a", 1)]:
        harness.element(row)
    harness.end()
    # b's total did not change but its COUNT(*) did; PyFlink compares the whole row
    assert _changes(harness) == [("-U", ("a", 2, 1)), ("+U", ("a", 8, 3)),
                                 ("-U", ("c", 0, 1)), ("+U", ("c", 0, 2)),
                                 ("-U", ("b", 4, 2)), ("+U", ("b", 4, 3))]
    assert function.aggregates[0].function.opened == "x"


def test_an_unchanged_group_emits_nothing_and_a_full_bundle_ends_itself():
    function = _function("SELECT k, total(v, w) FROM t GROUP BY k", ["STRING", "INT", "INT"],
                         ["STRING", "BIGINT"], bundle_size=2, total=_total())
    harness = _harness(function)
    harness.element(("a", 1, 1)).element(("a", 2, 0))
    assert _changes(harness) == [("+I", ("a", 4))]
    harness.element(("a", 0, 0)).element(("b", 1, 0)).element(("a", None, 5))
    assert _changes(harness) == [("+I", ("b", 1))]       # a: 4 -> 4
    harness.end()
    assert _changes(harness) == []


def test_builtins_beside_a_python_aggregate_compute_in_python_numbers():
    function = _function("SELECT k, SUM(v), total(v) FROM t GROUP BY k",
                         ["STRING", "INT", "INT"], ["STRING", "INT", "BIGINT"],
                         total=_total())
    harness = _harness(function)
    # the per-row query's rows: the key, then each call's argument
    harness.element(("a", 2147483647, 2147483647)).element(("a", 1, 1))
    with pytest.raises(UserFunctionError, match="value too large to convert to int32_t"):
        harness.end()       # PyFlink's coder refuses the Python sum for INT (it does not wrap)
    function = _function("SELECT k, AVG(v), total(v) FROM t GROUP BY k",
                         ["STRING", "INT", "INT"], ["STRING", "INT", "BIGINT"],
                         total=_total())
    harness = _harness(function)
    harness.element(("a", -7, -7)).element(("a", -2, -2)).end()
    assert _changes(harness) == [("+I", ("a", -4, -9))]      # -4.5 truncated by the coder


def test_a_failing_function_fails_with_its_name():
    class Broken(Total):
        def accumulate(self, acc, v):
            raise ValueError("bad row %s" % v)
    function = _function("SELECT k, broken(v) FROM t GROUP BY k", ["STRING", "INT"],
                         ["STRING", "BIGINT"], broken=udaf(
                             Broken(), result_type=DataTypes.BIGINT(),
                             accumulator_type=DataTypes.ARRAY(DataTypes.BIGINT())))
    harness = _harness(function)
    harness.element(("a", 1))
    with pytest.raises(UserFunctionError, match="bad row 1"):
        harness.end()


def test_the_operator_is_the_functions_own():
    function = _function("SELECT k, total(v) FROM t GROUP BY k", ["STRING", "INT"],
                         ["STRING", "BIGINT"], total=_total())
    from pyflink_on_spark.runtime.registry import build_operator
    from pyflink_on_spark.specs.operators import KeyedProcessSpec
    import dataclasses
    fields = {f.name: None for f in dataclasses.fields(KeyedProcessSpec)}
    fields.update(function=function, key_selector=wrap_key_selector(lambda row: (row[0],)))
    assert isinstance(build_operator(KeyedProcessSpec(**fields), None), BundleOperator)


def _streaming(parallelism=1):
    from pyflink_on_spark.common.typeinfo import Types
    from pyflink_on_spark.datastream.stream_execution_environment import (
        StreamExecutionEnvironment)
    from pyflink_on_spark.table import StreamTableEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(parallelism)
    ds = env.from_collection([("a", 1)], type_info=Types.ROW_NAMED(
        ["k", "v"], [Types.STRING(), Types.INT()]))
    t_env = StreamTableEnvironment.create(env)
    t_env.create_temporary_view("t", ds)
    t_env.create_temporary_system_function("total", _total())
    t_env.create_temporary_system_function("pmean", udaf(
        lambda v: v.mean(), result_type=DataTypes.DOUBLE(), func_type="pandas"))
    return t_env


def test_a_udaf_query_reads_the_keyed_aggregate_at_any_parallelism():
    t_env = _streaming(1)
    table = t_env.sql_query("SELECT k, total(v) AS s, COUNT(*) AS n FROM t GROUP BY k")
    keyed = table._description.keyed_changelog
    assert keyed is not None and [c.name for c in keyed.columns] == ["k", "s", "n"]
    (node,) = keyed.sinks
    assert isinstance(node.input.spec.function, BundledGroupAggregate)
    stream = t_env.to_changelog_stream(table)      # Rows, built and not run
    assert not stream._transformation.spec.function.plain


def test_what_does_not_run_fails_as_on_pyflink_or_names_itself():
    from pyflink_on_spark.util.exceptions import TableException
    t_env = _streaming()
    pandas = t_env.sql_query("SELECT k, pmean(v) AS m FROM t GROUP BY k")
    with pytest.raises(TableException, match="Pandas UDAFs are not supported in streaming "
                                             "mode currently."):
        pandas.execute()
    with pytest.raises(NotImplementedError, match="HAVING"):
        t_env.sql_query("SELECT k, total(v) FROM t GROUP BY k HAVING COUNT(*) > 1")
    with pytest.raises(NotImplementedError, match="the select item"):
        t_env.sql_query("SELECT k, total(v) + 1 FROM t GROUP BY k")


def test_udaf_declarations_are_checked_as_pyflink_checks_them():
    class Bare(AggregateFunction):
        def create_accumulator(self):
            return []

        def accumulate(self, acc, v):
            acc.append(v)

        def get_value(self, acc):
            return len(acc)
    with pytest.raises(RuntimeError, match="Method get_accumulator_type is not "
                                          "implemented"):
        udaf(Bare())
    with pytest.raises(TypeError, match="result_type and accumulator_type should be DataType "
                                        "or str at the same time."):
        udaf(Bare(), result_type=DataTypes.BIGINT(), accumulator_type="ARRAY<BIGINT>")
    with pytest.raises(RuntimeError, match="Method retract is not implemented"):
        Bare().retract([], 1)
    with pytest.raises(RuntimeError, match="Method get_accumulator_type"):
        udaf(Bare(), result_type="BIGINT")
    assert udaf(Bare(), result_type="BIGINT", accumulator_type="x")._result_type == "BIGINT"
