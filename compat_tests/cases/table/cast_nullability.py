"""A CAST keeps its operand's NOT NULL (a tuple's fields, literals), TRY_CAST and CAST(NULL)
are nullable: print_schema of the query, no job."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
ds = env.from_collection([(1, 'a', 2.5)], type_info=Types.TUPLE(
    [Types.INT(), Types.STRING(), Types.DOUBLE()]))
t_env.create_temporary_view('t', t_env.from_data_stream(ds))
t_env.sql_query(
    "SELECT CAST(f0 AS BIGINT) AS a, CAST(f1 AS INT) AS b, CAST('12' AS INT) AS c, "
    "TRY_CAST(f0 AS STRING) AS d, CAST(f2 AS FLOAT) AS e, CAST(f0 AS STRING) AS g, "
    "CAST(1.1 AS FLOAT) AS h, CAST(NULL AS INT) AS i, CAST(f0 AS DECIMAL(10, 2)) AS j, "
    "CAST(f0 AS VARCHAR(3)) AS k, CAST(f0 + 1 AS DOUBLE) AS m FROM t").print_schema()
