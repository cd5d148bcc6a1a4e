"""Table.map (table/map_tables.py): the columns PyFlink 1.20.5 gives a map (seen), the one-row
table function it runs, run here by the task's TableRunner without Spark."""
import pytest

from pyflink_on_spark.common import Row
from pyflink_on_spark.runtime.errors import UserFunctionError
from pyflink_on_spark.runtime.table_udfs import TableRunner
from pyflink_on_spark.table import (DataTypes, EnvironmentSettings, ScalarFunction,
                                    TableEnvironment)
from pyflink_on_spark.table.expressions import col
from pyflink_on_spark.table.map_tables import OneRowOfScalar
from pyflink_on_spark.table.udf import udf, udtf

PQ = DataTypes.ROW([DataTypes.FIELD("p", DataTypes.INT()),
                    DataTypes.FIELD("q", DataTypes.STRING())])


def _table():
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    return t_env.from_elements([(1, "a")], DataTypes.ROW([
        DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("s", DataTypes.STRING())]))


def _columns(table):
    return [(c.name, c.sql_type) for c in table._resolved_columns()]


def test_a_row_result_gives_its_fields_as_columns_and_another_result_f0():
    t = _table()
    pair = udf(lambda x: Row(x, "v"), result_type=PQ)
    assert _columns(t.map(pair(col("a")))) == [("p", "INT"), ("q", "STRING")]
    assert _columns(t.map(pair(col("a") + 1)).alias("x", "y")) == [("x", "INT"),
                                                                    ("y", "STRING")]
    assert _columns(t.map(udf(lambda x: x, result_type=DataTypes.BIGINT())(col("a")))) == [
        ("f0", "BIGINT")]
    assert _columns(t.map(col("a") + 1)) == [("f0", "INT")]      # built-ins too
    as_text = udf(lambda x: Row(x, "v"), result_type="ROW<n BIGINT, w STRING>")
    assert _columns(t.map(as_text(col("a")))) == [("n", "BIGINT"), ("w", "STRING")]
    # maps chain: the second reads the first's columns
    assert _columns(t.map(pair(col("a"))).map(pair(col("p")))) == [("p", "INT"),
                                                                    ("q", "STRING")]


def test_a_function_not_called_takes_each_row_as_one_row_of_the_tables_columns():
    t = _table()
    mapped = t.map(udf(lambda row: row, result_type=PQ))
    (spec,) = mapped._description.functions
    assert (spec.kind, spec.row_fields, spec.result_types) == ("table", ("a", "s"),
                                                               ("INT", "STRING"))
    assert _columns(mapped) == [("p", "INT"), ("q", "STRING")]


def test_a_pandas_function_runs_as_a_table_function_of_the_pandas_kind():
    # its tasks call it batch by batch (runtime/table_udfs.py PandasMapRunner)
    mapped = _table().map(udf(lambda df: df, result_type=PQ, func_type="pandas"))
    (spec,) = mapped._description.functions
    assert (spec.kind, spec.func_type, spec.row_fields) == ("table", "pandas", ("a", "s"))
    assert _columns(mapped) == [("p", "INT"), ("q", "STRING")]


def test_what_map_refuses():
    t = _table()
    pair = udf(lambda x: Row(x, "v"), result_type=PQ)
    with pytest.raises(ValueError, match="Only a scalar function can be used in the map "
                                         "operator"):
        t.map(pair(col("a")).alias("z"))
    with pytest.raises(TypeError, match="Table.map takes a scalar function"):
        t.map(udtf(lambda x: [x], result_types=[DataTypes.INT()]))
    with pytest.raises(Exception, match="nope"):
        t.map(pair(col("nope")))


def test_flat_map_of_a_called_table_function_keeps_its_columns():
    t = _table()
    split = udtf(lambda s, a: [(s, a)], result_types=[DataTypes.STRING(), DataTypes.INT()])
    assert _columns(t.flat_map(split(col("s"), col("a")))) == [("f0", "STRING"),
                                                               ("f1", "INT")]
    with pytest.raises(ValueError, match="Only a table function can be used in the "
                                         "flatMap operator"):
        t.flat_map(split(col("s"), col("a")).alias("w", "n"))
    with pytest.raises(ValueError, match="Only a table function"):
        t.flat_map(col("a") + 1)


class Scaled(ScalarFunction):
    def open(self, function_context):
        self.factor = int(function_context.get_job_parameter("factor", "10"))

    def eval(self, x):
        if x == 0:
            return None
        return Row(x * self.factor, "n%d" % x)

    def close(self):
        self.closed = True


def test_the_one_row_function_gives_one_row_per_call_and_opens_and_closes_the_scalar():
    scalar = Scaled()
    runner = TableRunner(OneRowOfScalar(scalar, 2), "Scaled", ["INT", "STRING"],
                         job_parameters=(("factor", "3"),))
    assert runner.call([[1, 0, 2]]) == [[(3, "n1")], [(None, None)], [(6, "n2")]]
    runner.close()
    assert scalar.closed
    plain = TableRunner(OneRowOfScalar(udf(lambda x: x, result_type="INT").delegate(), None),
                        "f", ["INT"])
    assert plain.call([[5, None]]) == [[(5,)], [(None,)]]


def test_a_failing_map_function_shows_the_users_frame_first():
    def broken(x):
        return 1 // x
    runner = TableRunner(OneRowOfScalar(udf(broken, result_type="INT").delegate(), None),
                         "broken", ["INT"])
    with pytest.raises(UserFunctionError) as failed:
        runner.call([[0]])
    frames = failed.value.user_traceback.splitlines()
    assert frames[1].strip().startswith('File "%s", line' % __file__)
    assert "in broken" in frames[1] and "ZeroDivisionError" in frames[-1]
