"""Tables on Spark (spark/table_frames.py): a stream's graph runs in Spark tasks and its
records become typed columns; a query over it runs as Spark SQL; a table read back by a
DataStream job arrives as its source's records."""
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.stream_execution_environment import StreamExecutionEnvironment
from pyflink_on_spark.table import StreamTableEnvironment
from pyflink_on_spark.table.expressions import col


def test_stream_to_table_to_query_to_stream(spark):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    t_env = StreamTableEnvironment.create(env)
    ds = env.from_collection([(1, "a"), (2, "b"), (3, "c")],
                             type_info=Types.TUPLE([Types.INT(), Types.STRING()])) \
        .map(lambda t: (t[0] * 10, t[1]), output_type=Types.TUPLE([Types.INT(), Types.STRING()]))
    table = t_env.from_data_stream(ds)
    pdf = table.where(col("f0") > 10).to_pandas()
    assert pdf.to_dict("list") == {"f0": [20, 30], "f1": ["b", "c"]}
    assert str(pdf.dtypes["f0"]) == "int32"
    t_env.create_temporary_view("v", table)
    query = t_env.sql_query("SELECT f1, f0 + 1 AS g FROM v WHERE f1 <> 'a'")
    out = t_env.to_data_stream(query).map(lambda r: "%s=%d" % (r.f1, r["g"]),
                                          output_type=Types.STRING())
    with out.execute_and_collect() as values:
        assert list(values) == ["b=21", "c=31"]
