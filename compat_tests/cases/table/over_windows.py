"""OVER windows over an event-time table (PyFlink's over_window example's shape): SQL
aggregates OVER (PARTITION BY ... ORDER BY rowtime ROWS BETWEEN n PRECEDING AND CURRENT ROW /
RANGE BETWEEN INTERVAL ... PRECEDING AND CURRENT ROW / the default frame) and a named WINDOW,
the Table API's Over.partition_by(...).order_by(...).preceding(...).alias('w') with
.over(col('w')) (unnamed columns _c<n>), and a window ordered by a column that is no time
attribute (refused when the query runs). Rows are printed sorted: Flink emits them as its
watermark passes their time, an order that varies with the watermark's progress."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import Schema, StreamTableEnvironment
from pyflink.table.expressions import CURRENT_ROW, col, lit, row_interval
from pyflink.table.window import Over

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(stream_execution_environment=env)
ds = env.from_collection(
    [(1000, 'Alice', 110, 1.5), (2000, 'Bob', 30, 2.5), (3000, 'Alice', 20, 3.0),
     (3500, 'Bob', 53, 1.0), (3500, 'Carol', 13, 2.0), (3500, 'Carol', 7, 0.5),
     (4000, 'Bob', 3, 0.5), (7000, 'Bob', 16, 4.0), (10000, 'Alice', 21, 1.0)],
    type_info=Types.ROW_NAMED(['millis', 'name', 'price', 'w8'],
                              [Types.LONG(), Types.STRING(), Types.INT(), Types.DOUBLE()]))
table = t_env.from_data_stream(ds, Schema.new_builder()
                               .column_by_expression("ts", "TO_TIMESTAMP_LTZ(millis, 3)")
                               .watermark("ts", "ts - INTERVAL '3' SECOND").build())
t_env.create_temporary_view('t', table)


def show(t):
    t.print_schema()
    with t.execute().collect() as results:
        for row in sorted(str(r) for r in results):
            print(row)


# Carol's two rows share a time: a ROWS frame takes them in arrival order on Flink
show(t_env.sql_query(
    "SELECT name, millis, SUM(price) OVER (PARTITION BY name ORDER BY ts ROWS BETWEEN 1 "
    "PRECEDING AND CURRENT ROW) AS s FROM t WHERE name <> 'Carol'"))
show(t_env.sql_query(
    "SELECT name, millis, COUNT(*) OVER w, AVG(price) OVER w, MAX(w8) OVER w FROM t "
    "WINDOW w AS (PARTITION BY name ORDER BY ts RANGE BETWEEN INTERVAL '1' SECOND PRECEDING "
    "AND CURRENT ROW)"))
show(t_env.sql_query("SELECT millis, SUM(price) OVER (ORDER BY ts) AS total FROM t"))
show(table.where(col('name') != 'Carol')
     .over_window(Over.partition_by(col('name')).order_by(col('ts'))
                  .preceding(row_interval(2)).following(CURRENT_ROW).alias('w'))
     .select(col('name'), col('price').max.over(col('w')),
             col('w8').sum.over(col('w')).alias('total')))
show(table.over_window(Over.partition_by(col('name')).order_by(col('ts'))
                       .preceding(lit(1).seconds).alias('w'))
     .select(col('name'), col('millis'), col('price').count.over(col('w'))))
try:
    t_env.sql_query("SELECT SUM(price) OVER (PARTITION BY name ORDER BY millis) FROM t") \
        .execute().collect()
except Exception as e:
    print(type(e).__name__, str(e).split("\n")[0])
