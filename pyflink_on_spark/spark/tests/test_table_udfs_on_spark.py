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


def test_a_pandas_aggregate_function_given_to_aggregate_takes_the_group_as_a_dataframe(spark):
    # seen on PyFlink 1.20.5 (cc3213252/pyflink-learn's simple_pandas.py): Table.aggregate(f)
    # of the function itself calls it with the group's rows as one DataFrame of the table's
    # columns, not with a Series per column (the shim called it with two arguments)
    from pyflink_on_spark.table.expressions import col
    from pyflink_on_spark.table.udf import udaf
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t = t_env.from_elements([(1, 2), (2, 1), (1, 3)], ["a", "b"])
    stats = udaf(lambda frame: (frame.b.mean(), frame.b.max(), list(frame.columns) == ["a", "b"]),
                 result_type=DataTypes.ROW([DataTypes.FIELD("m", DataTypes.FLOAT()),
                                            DataTypes.FIELD("x", DataTypes.INT()),
                                            DataTypes.FIELD("named", DataTypes.BOOLEAN())]),
                 func_type="pandas")
    whole = t.aggregate(stats.alias("m", "x", "named")).select(col("m"), col("x"), col("named"))
    assert [tuple(r) for r in whole.execute().collect()] == [(2.0, 3, True)]
    grouped = t.group_by(col("a")).aggregate(stats.alias("m", "x", "named")) \
        .select(col("a"), col("m"), col("x"))
    assert sorted(tuple(r) for r in grouped.execute().collect()) == [(1, 2.5, 3), (2, 1.0, 1)]
