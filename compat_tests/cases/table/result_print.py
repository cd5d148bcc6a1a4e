"""TableResult.print(): Flink's tableau rendering (widths from the column types, long strings
cut, <NULL>, Java's number texts, an op column in STREAMING mode, the row count line, "Empty
set"), in streaming and batch mode; to_pandas of an updating table (its final rows)."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import EnvironmentSettings, StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
ds = env.from_collection(
    [('a', 3), ('a very long string value that is longer than thirty characters', -1),
     ('b', 12345678)],
    type_info=Types.ROW_NAMED(['k', 'v'], [Types.STRING(), Types.INT()]))
t_env.create_temporary_view("t", ds)
t_env.sql_query(
    "SELECT k, v, CAST(v AS BIGINT) AS b, CAST(v AS DOUBLE) * 1.5 AS dd, "
    "CAST(v AS FLOAT) / 4 AS ff, v > 0 AS flag, CAST(v AS DECIMAL(10, 2)) AS de, "
    "CAST(NULL AS INT) AS ni, 'x' AS a_rather_long_column_name_here FROM t").execute().print()
t_env.sql_query("SELECT k FROM t WHERE v = 3").execute().print()
t_env.sql_query("SELECT k FROM t WHERE v > 100000000").execute().print()
grouped = t_env.sql_query("SELECT SUBSTRING(k, 1, 1) AS c, SUM(v) AS s FROM t GROUP BY SUBSTRING(k, 1, 1)")
grouped.execute().print()
print(grouped.to_pandas())
b_env = StreamTableEnvironment.create(env, EnvironmentSettings.in_batch_mode())
b_env.create_temporary_view("t", ds)
b_env.sql_query("SELECT k, v, CAST(v AS DOUBLE) AS dd FROM t").execute().print()
b_env.sql_query("SELECT k FROM t WHERE v > 100000000").execute().print()
