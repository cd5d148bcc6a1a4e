"""Python user-defined functions of a query run on Spark (spark/table_udfs.py): registered in
the session, run in the tasks over Arrow batches, NULL as None, results of the declared
types, a table function's rows spread by LATERAL VIEW."""
from pyflink_on_spark.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink_on_spark.table.udf import udf, udtf


def test_scalar_and_table_functions_run_in_a_query(spark):
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.create_temporary_view("t", t_env.from_elements(
        [(1, "a bb"), (2, None), (None, "c")], DataTypes.ROW([
            DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("s", DataTypes.STRING())])))
    t_env.create_temporary_system_function("half", udf(
        lambda x: None if x is None else x / 2, result_type=DataTypes.BIGINT()))

    @udtf(result_types=[DataTypes.STRING(), DataTypes.INT()])
    def words(s):
        for w in (s or "").split():
            yield w, len(w)
    t_env.create_temporary_function("words", words)
    t_env.create_temporary_function("plus", udf(lambda x: x + 0.5, result_type=DataTypes.DOUBLE(),
                                                func_type="pandas"))
    rows = [tuple(r) for r in t_env.sql_query(
        "SELECT a, half(a) AS h, plus(a) AS p, w, n FROM t LEFT JOIN LATERAL TABLE(words(s)) "
        "AS T(w, n) ON TRUE WHERE half(a) IS NULL OR half(a) < 1").execute().collect()]
    # 1 / 2 = 0.5 truncated to the BIGINT 0, as PyFlink's coder does
    assert sorted(rows, key=repr) == [(1, 0, 1.5, "a", 1), (1, 0, 1.5, "bb", 2),
                                      (None, None, None, "c", 1)]
