"""Event time across the bridge (issue 44): to_data_stream of a table with a rowtime column
stamps its records with it (a ProcessFunction's ctx.timestamp(), a DataStream event-time
window downstream); TIMESTAMP_LTZ columns become Instants (type Instant), as on PyFlink 1.20.5;
a window aggregate's window_time and a group window's TUMBLE_ROWTIME are rowtime attributes; a
table without one gives records without timestamps (Long.MIN_VALUE)."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.time import Time
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import ProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.window import TumblingEventTimeWindows
from pyflink.table import DataTypes, Schema, StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class WithTimestamp(ProcessFunction):
    def process_element(self, value, ctx):
        yield "%r ts=%r" % (value, ctx.timestamp())


clicks = env.from_collection(
    [("a", 1000), ("b", 1500), ("a", 4200), ("c", 6100), ("a", 9999), ("b", 2000)],
    type_info=Types.TUPLE([Types.STRING(), Types.LONG()]))
clicks = clicks.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(SecondField()))
table = t_env.from_data_stream(clicks, Schema.new_builder()
                               .column('f0', DataTypes.STRING())
                               .column('f1', DataTypes.BIGINT())
                               .column_by_metadata('rowtime', DataTypes.TIMESTAMP_LTZ(3))
                               .watermark('rowtime', 'SOURCE_WATERMARK()')
                               .build())
t_env.create_temporary_view("clicks", table)


def stamps(title, t):
    print("--", title)
    ds = t_env.to_data_stream(t)
    print(ds.get_type())
    with ds.process(WithTimestamp(), Types.STRING()).execute_and_collect() as results:
        for line in sorted(results):
            print(line)


stamps("table", table)
stamps("projection", t_env.sql_query("SELECT f0, rowtime FROM clicks WHERE f1 > 1200"))
stamps("no rowtime", t_env.sql_query("SELECT f0, f1 FROM clicks"))
stamps("window", t_env.sql_query(
    "SELECT f0, window_start, window_end, window_time, COUNT(*) AS c FROM TABLE(TUMBLE("
    "TABLE clicks, DESCRIPTOR(rowtime), INTERVAL '5' SECOND)) "
    "GROUP BY f0, window_start, window_end, window_time"))
stamps("group window", t_env.sql_query(
    "SELECT f0, TUMBLE_ROWTIME(rowtime, INTERVAL '5' SECOND) AS rt, COUNT(*) AS c "
    "FROM clicks GROUP BY f0, TUMBLE(rowtime, INTERVAL '5' SECOND)"))

# a DataStream event-time window over the table's stream: its records carry the rowtime
print("-- datastream window")
counts = t_env.to_data_stream(table) \
    .map(lambda r: (r.f0, 1), output_type=Types.TUPLE([Types.STRING(), Types.INT()])) \
    .key_by(lambda t: t[0]) \
    .window(TumblingEventTimeWindows.of(Time.seconds(5))) \
    .reduce(lambda x, y: (x[0], x[1] + y[1]))
with counts.execute_and_collect() as results:
    for line in sorted(results):
        print(line)
