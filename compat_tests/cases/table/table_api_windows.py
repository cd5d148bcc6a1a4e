"""Table.window with pyflink.table.window's group windows (PyFlink's tumble / slide /
session examples' shape): Tumble.over(lit(5).seconds), Slide.over(...).every(...),
Session.with_gap(lit(2000).millis) on an event-time column, grouped by keys and the window,
selecting aggregates and w.start / w.end / w.rowtime (named EXPR$n in select order, nullable
here where SQL's are NOT NULL). Rows are printed sorted: their order at the window's end is
Flink's timer order."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import Schema, StreamTableEnvironment
from pyflink.table.expressions import col, lit
from pyflink.table.window import Session, Slide, Tumble

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(stream_execution_environment=env)
ds = env.from_collection(
    [(1000, 'Alice', 110.5), (4000, 'Bob', 30.25), (3000, 'Alice', 20.0), (2000, 'Bob', 53.5),
     (5000, 'Alice', 13.5), (3000, 'Bob', 3.0), (7000, 'Bob', 16.0), (10000, 'Alice', 20.5)],
    type_info=Types.ROW_NAMED(['millis', 'name', 'price'],
                              [Types.LONG(), Types.STRING(), Types.DOUBLE()]))
table = t_env.from_data_stream(ds, Schema.new_builder()
                               .column_by_expression("ts", "TO_TIMESTAMP_LTZ(millis, 3)")
                               .watermark("ts", "ts - INTERVAL '3' SECOND").build())


def show(t, rows=True):
    t.print_schema()
    if rows:
        with t.execute().collect() as results:
            for row in sorted(str(r) for r in results):
                print(row)


show(table.window(Tumble.over(lit(5).seconds).on(col("ts")).alias("w"))
     .group_by(col('name'), col('w'))
     .select(col('name'), col('price').sum, col("w").start, col("w").end))
sliding = table.window(Slide.over(lit(5).seconds).every(lit(2).seconds).on(col("ts")).alias("w")) \
    .group_by(col('w'), col('name'))
# a TIMESTAMP_LTZ rowtime column cannot be collected on PyFlink 1.20.5: its schema only
show(sliding.select(col('name'), col('price').sum.alias('total'), col("w").start.alias('s'),
                    col("w").end, col('w').rowtime), rows=False)
show(sliding.select(col('name'), col('price').sum.alias('total'), col("w").start.alias('s'),
                    col("w").end))
show(table.window(Session.with_gap(lit(2000).millis).on(col("ts")).alias("w"))
     .group_by(col('name'), col('w'))
     .select(col('name'), col('price').count, col("w").start, col("w").end))
show(table.window(Tumble.over(lit(5).seconds).on(col("ts")).alias("w")).group_by(col('w'))
     .select(col("w").end, col('price').max, (col('price').min + 1).alias('m1')))
