"""pyflink.table.udf (table/udf.py) and the registration of functions with an environment
(table/function_registry.py): declared as PyFlink 1.20 declares them, named in the queries'
SQL; no Spark here."""
import pytest

from pyflink_on_spark.table import (DataTypes, EnvironmentSettings, ScalarFunction,
                                    TableEnvironment)
from pyflink_on_spark.table.expressions import call, col
from pyflink_on_spark.table.udf import FunctionContext, udaf, udf, udtf


def _env_and_table():
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t = t_env.from_elements([(1, "a")], DataTypes.ROW([
        DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("s", DataTypes.STRING())]))
    return t_env, t


@udf(result_type=DataTypes.BIGINT())
def plus1(x):
    return x + 1


def test_udf_forms_and_their_checks():
    class Add(ScalarFunction):
        def eval(self, a, b):
            return a + b
    assert udf(Add(), result_type=DataTypes.INT())._name == "Add"
    assert udf(lambda x: x, result_type="INT")._name == "<lambda>"
    assert plus1._name == "plus1" and plus1.kind == "scalar"
    with pytest.raises(TypeError, match="Invalid function"):
        udf(Add, result_type=DataTypes.INT())
    with pytest.raises(ValueError, match="The func_type must be one of 'general, pandas'"):
        udf(lambda x: x, result_type=DataTypes.INT(), func_type="bogus")
    assert FunctionContext(None, {"k": "v"}).get_job_parameter("k", "d") == "v"
    with pytest.raises(RuntimeError, match="Metric has not been enabled"):
        FunctionContext(None, {}).get_metric_group()


def test_registration_lists_and_drops_by_name_case_insensitively():
    t_env, t = _env_and_table()
    t_env.create_temporary_system_function("Plus1", plus1)
    t_env.create_temporary_function("words", udtf(lambda s: [s], result_types=[
        DataTypes.STRING()]))
    assert t_env.list_user_defined_functions() == ["plus1", "words"]
    t_env.create_temporary_view("t", t)
    table = t_env.sql_query("SELECT PLUS1(a) AS p FROM t")
    assert [(c.name, c.sql_type) for c in table._resolved_columns()] == [("p", "BIGINT")]
    (spec,) = table._description.functions
    assert (spec.name, spec.kind, spec.result_types) == ("plus1", "scalar", ("BIGINT",))
    assert t_env.drop_temporary_function("words") is True
    assert t_env.drop_temporary_function("words") is False
    assert t_env.drop_temporary_system_function("plus1") is True
    assert t_env.list_user_defined_functions() == []
    with pytest.raises(NotImplementedError, match="Java user-defined functions"):
        t_env.create_java_temporary_function("j", "com.example.F")


def test_table_api_calls_name_the_function_in_the_query():
    t_env, t = _env_and_table()
    t_env.get_config().set("pipeline.global-job-parameters", "k1:v1,k2:v2")
    selected = t.select(plus1(col("a")), call(plus1, t.a), plus1(t.a).alias("x"))
    assert [c.name for c in selected._resolved_columns()] == ["_c0", "_c1", "x"]
    (spec,) = selected._description.functions
    assert spec.job_parameters == (("k1", "v1"), ("k2", "v2"))
    words = udtf(lambda s: [(s, 1)], result_types=[DataTypes.STRING(), DataTypes.INT()])
    joined = t.join_lateral(words(col("s")).alias("w", "n"))
    assert [c.name for c in joined._resolved_columns()] == ["a", "s", "w", "n"]
    left = t.left_outer_join_lateral(words(col("s")))
    assert [c.name for c in left._resolved_columns()] == ["a", "s", "f0", "f1"]


def test_an_aggregate_function_in_a_streaming_table_environment_is_an_updating_query():
    # a TableEnvironment runs it in the keyed aggregate as a StreamTableEnvironment does
    # (table/stream_bridge.py; compat_tests/cases/table/table_env_udaf.py runs it)
    from pyflink_on_spark.table.udf import AggregateFunction

    class Total(AggregateFunction):
        def create_accumulator(self):
            return [0]

        def accumulate(self, acc, x):
            acc[0] += x

        def get_value(self, acc):
            return acc[0]
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t = t_env.from_elements([(1, "a")], DataTypes.ROW([
        DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("s", DataTypes.STRING())]))
    total = udaf(Total(), result_type=DataTypes.BIGINT(), accumulator_type=DataTypes.ARRAY(
        DataTypes.BIGINT()))
    table = t.group_by(col("s")).select(col("s"), total(col("a")))
    assert table._updates()
    assert [(c.name, c.sql_type) for c in table._resolved_columns()] == [
        ("s", "STRING"), ("_c1", "BIGINT")]


def test_pyflink_table_udf_imports_through_the_alias():
    import importlib
    from pyflink_on_spark.aliasing import install_pyflink_alias
    install_pyflink_alias()
    module = importlib.import_module("pyflink.table.udf")
    assert module.udf is udf
    assert importlib.import_module("pyflink.table").TableFunction.__name__ == "TableFunction"


def test_a_general_aggregate_function_fails_in_batch_mode_when_run_as_on_pyflink():
    from pyflink_on_spark.table.udf import AggregateFunction
    from pyflink_on_spark.util.exceptions import TableException

    class Total(AggregateFunction):
        def create_accumulator(self):
            return [0]

        def accumulate(self, acc, x):
            acc[0] += x

        def get_value(self, acc):
            return acc[0]
    t_env, t = _env_and_table()
    total = udaf(Total(), result_type=DataTypes.BIGINT(), accumulator_type=DataTypes.ARRAY(
        DataTypes.BIGINT()))
    grouped = t.group_by(col("s")).select(col("s"), total(col("a")))
    assert [c.sql_type for c in grouped._resolved_columns()] == ["STRING", "BIGINT"]
    with pytest.raises(TableException, match="non-Pandas UDAFs are not supported in batch "
                                             "mode currently."):
        grouped.execute()
    mean = udaf(lambda s: s.mean(), result_type=DataTypes.DOUBLE(), func_type="pandas")
    (spec,) = t.group_by(col("s")).select(mean(col("a")))._description.functions
    assert (spec.kind, spec.func_type) == ("aggregate", "pandas")


def test_flat_map_takes_each_row_as_a_row_and_keeps_the_functions_columns():
    t_env, t = _env_and_table()
    words = udtf(lambda row: [(row.s, row.a)], result_types=[DataTypes.STRING(),
                                                             DataTypes.INT()])
    mapped = t.flat_map(words)
    assert [(c.name, c.sql_type) for c in mapped._resolved_columns()] == [
        ("f0", "STRING"), ("f1", "INT")]
    (spec,) = mapped._description.functions
    assert spec.row_fields == ("a", "s")
    assert [c.name for c in mapped.alias("w", "n")._resolved_columns()] == ["w", "n"]
