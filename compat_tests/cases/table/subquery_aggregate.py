"""A grouping query over a stateless subquery (a projection and a filter of one input) gives
the changelog of the subquery's rows in arrival order, in a StreamTableEnvironment and in a
TableEnvironment in STREAMING mode (cc3213252/pyflink-learn's sql_agg_query.py shape:
`SELECT id, SUM(data) FROM (SELECT id / 2 AS id, data FROM src) WHERE id > 1 GROUP BY id`)."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import EnvironmentSettings, StreamTableEnvironment, TableEnvironment

ROWS = [(1, 4), (2, 5), (3, 6), (4, 7), (5, 8), (6, 9)]
HALVES = ("SELECT id, SUM(data) AS s FROM (SELECT id / 2 AS id, data FROM src) WHERE id > 1 "
          "GROUP BY id")
NESTED = ("SELECT k, COUNT(*) AS c, MAX(d) AS m FROM (SELECT k, d FROM (SELECT id % 2 AS k, "
          "data * 10 AS d FROM src WHERE data > 4)) GROUP BY k")

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
ds = env.from_collection(ROWS, type_info=Types.TUPLE([Types.INT(), Types.INT()]))
t_env.create_temporary_view("src", t_env.from_data_stream(ds).alias("id", "data"))
for query in (HALVES, NESTED):
    for row in t_env.sql_query(query).execute().collect():
        print(row.get_row_kind(), row)

table_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
table_env.get_config().set("parallelism.default", "1")
table_env.create_temporary_view("src", table_env.from_elements(ROWS, ["id", "data"]))
for row in table_env.sql_query(HALVES).execute().collect():
    print("table env", row.get_row_kind(), row)
