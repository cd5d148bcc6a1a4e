"""to_data_stream of a query's TIMESTAMP, DATE, DECIMAL, VARCHAR(n), CHAR(n) and BYTES columns:
the stream's field types and the Python values PyFlink gives (datetime, date, Decimal, str,
padded str, bytes), a null timestamp, and a Python function reading them."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
times = t_env.to_data_stream(t_env.sql_query(
    "SELECT TIMESTAMP '2024-01-02 03:04:05.123' AS ts, DATE '2024-01-02' AS d, "
    "CAST(1.5 AS DECIMAL(5, 2)) AS x, CAST(NULL AS TIMESTAMP(3)) AS n, "
    "TIMESTAMP '2024-01-02 03:04:05' AS ts0"))
texts = t_env.to_data_stream(t_env.sql_query(
    "SELECT CAST('abc' AS VARCHAR(5)) AS v, CAST('b' AS CHAR(3)) AS c, "
    "CAST('ab' AS BYTES) AS b"))
print(times.get_type())
print(texts.get_type())
times.map(lambda r: repr(r) + " " + repr([type(v).__name__ for v in r]),
          output_type=Types.STRING()).print()
times.map(lambda r: "%d-%d %s" % (r.ts.year, r.d.month, r.x * 2),
          output_type=Types.STRING()).print()
env.execute("times")
texts.map(lambda r: repr(r), output_type=Types.STRING()).print()
env.execute("texts")
