"""The Table API's over windows over a stream's own timestamps and watermarks
(from_data_stream with a 'rowtime' metadata column of a SQL type string and
SOURCE_WATERMARK()): an unbounded RANGE frame (rows of equal time are peers), an interval
preceding with CURRENT_RANGE, an unbounded ROWS frame without partitions; preceding and
following of different kinds fail at select() with Flink's words. Rows printed sorted (an
unbounded frame's rows come per key as the watermark advances on Flink)."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import Schema, StreamTableEnvironment
from pyflink.table.expressions import (CURRENT_RANGE, CURRENT_ROW, UNBOUNDED_RANGE,
                                       UNBOUNDED_ROW, col, lit)
from pyflink.table.window import Over

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)


class Stamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[0]


ds = env.from_collection(
    [(1000, 'a', 4), (1500, 'b', 3), (2000, 'a', 5), (2000, 'a', 1), (2600, 'b', 9),
     (4000, 'a', 2), (4100, 'b', 8), (7000, 'a', 6)],
    type_info=Types.ROW_NAMED(['t', 'name', 'n'], [Types.LONG(), Types.STRING(), Types.INT()])) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp()))
table = t_env.from_data_stream(ds, Schema.new_builder()
                               .column_by_metadata('rowtime', 'TIMESTAMP_LTZ(3)')
                               .watermark('rowtime', 'SOURCE_WATERMARK()').build())
table.print_schema()


def show(t):
    t.print_schema()
    with t.execute().collect() as results:
        for line in sorted("%s %s" % (row.get_row_kind(), row) for row in results):
            print(line)


show(table.over_window(Over.partition_by(col('name')).order_by(col('rowtime'))
                       .preceding(UNBOUNDED_RANGE).alias('w'))
     .select(col('name'), col('t'), col('n').sum.over(col('w')), col('n').max.over(col('w'))))
show(table.over_window(Over.partition_by(col('name')).order_by(col('rowtime'))
                       .preceding(lit(1).seconds).following(CURRENT_RANGE).alias('w'))
     .select(col('name'), col('t'), col('n').avg.over(col('w')).alias('a')))
show(table.over_window(Over.order_by(col('rowtime')).preceding(UNBOUNDED_ROW).alias('w'))
     .select(col('t'), col('n').count.over(col('w')).alias('c')))
for preceding in (lit(1).seconds, UNBOUNDED_RANGE):
    try:
        table.over_window(Over.partition_by(col('name')).order_by(col('rowtime'))
                          .preceding(preceding).following(CURRENT_ROW).alias('w')) \
            .select(col('name'), col('n').avg.over(col('w')))
    except Exception as e:
        print([line for line in str(e).split('\n') if 'same interval type' in line][0]
              .split(': ')[-1])
