"""ROW_NUMBER() ... WHERE rn = 1 ordered by a stream's rowtime attribute in STREAMING mode
(parallelism 1): Flink's row-time deduplication. Keeping the first row (ASC) a later row of
an earlier rowtime replaces it, -U / +U, though behind the watermark; keeping the last row
(DESC) a row of a later or equal rowtime replaces it (to_changelog_stream, its rowtime
column an Instant)."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import Schema, StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)


class Stamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[0]


ds = env.from_collection(
    [(1000, 'a', 4), (1500, 'b', 3), (2000, 'a', 5), (900, 'a', 1), (2600, 'b', 9),
     (2600, 'b', 7), (4000, 'a', 2), (1200, 'b', 8), (7000, 'a', 6), (3000, 'a', 0)],
    type_info=Types.ROW_NAMED(['t', 'name', 'n'], [Types.LONG(), Types.STRING(), Types.INT()])) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp()))
t_env.create_temporary_view("t", t_env.from_data_stream(
    ds, Schema.new_builder().column_by_metadata('rowtime', 'TIMESTAMP_LTZ(3)')
    .watermark('rowtime', 'SOURCE_WATERMARK()').build()))
inner = ("SELECT name, t, n, rowtime, ROW_NUMBER() OVER (PARTITION BY name ORDER BY %s) AS rn "
         "FROM t")
first = t_env.sql_query("SELECT name, t, n FROM (%s) WHERE rn = 1" % (inner % "rowtime"))
first.print_schema()
with first.execute().collect() as rows:
    for r in rows:
        print(r.get_row_kind(), repr(r))
# the last row with its rowtime (an Instant) and rn, as to_changelog_stream gives it
last = t_env.sql_query("SELECT * FROM (%s) WHERE rn = 1" % (inner % "rowtime DESC"))
last.print_schema()
t_env.to_changelog_stream(last).map(lambda r: '%s %r' % (r.get_row_kind(), r),
                                    output_type=Types.STRING()).print()
env.execute("deduplicate_streaming")
