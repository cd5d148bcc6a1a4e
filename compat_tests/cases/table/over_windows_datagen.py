"""OVER aggregates over a bounded datagen table whose computed rowtime has a WATERMARK (a time
attribute: *ROWTIME* in its schema), rows out of order by less than the watermark's delay:
ROWS BETWEEN 2 PRECEDING AND CURRENT ROW (rows emitted in time order across keys: Flink fires
each row's timer at its time), a named RANGE BETWEEN INTERVAL '2' SECOND PRECEDING frame,
ROWS and RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW (Flink emits an unbounded frame's
rows per key as the watermark advances, an order that varies from run to run: printed
sorted), and two different windows in one select (refused when run)."""
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
t_env.execute_sql("""
CREATE TABLE src (
  id BIGINT,
  k AS id % 3,
  v AS id * 7 % 10,
  ts AS TO_TIMESTAMP_LTZ(id * 500 + id % 2 * 800, 3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'datagen', 'number-of-rows' = '12',
        'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '12')""")
t_env.from_path('src').print_schema()


def show(query, in_order=False):
    table = t_env.sql_query(query)
    table.print_schema()
    with table.execute().collect() as results:
        lines = ["%s %s" % (row.get_row_kind(), row) for row in results]
    for line in lines if in_order else sorted(lines):
        print(line)


show("SELECT k, id, SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND "
     "CURRENT ROW) AS s, COUNT(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING "
     "AND CURRENT ROW) AS c FROM src", in_order=True)
show("SELECT k, id, AVG(v) OVER w AS a, MAX(v) OVER w AS m FROM src WINDOW w AS ("
     "PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '2' SECOND PRECEDING AND CURRENT ROW)")
show("SELECT id, MIN(v) OVER (ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) "
     "AS lo FROM src")
show("SELECT id, SUM(id) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN UNBOUNDED PRECEDING "
     "AND CURRENT ROW) AS tot FROM src")
try:
    show("SELECT id, MIN(v) OVER (ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT "
         "ROW), SUM(v) OVER (PARTITION BY k ORDER BY ts) FROM src")
except Exception as e:
    print(type(e).__name__, "Cannot generate a valid execution plan" in str(e))
