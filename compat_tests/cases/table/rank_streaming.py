"""RANK() and DENSE_RANK() OVER (...) in STREAMING mode over a converted stream: sql_query and
print_schema take them; running a Top-N of them (an end to the rank's filter, a top 1 over the
rowtime too) fails with Flink's 'RANK() on streaming table is not supported currently'; no
end, or no filter over a window not ordered by one ascending time attribute, fail as
ROW_NUMBER() does. No filter over one ascending rowtime: Flink's over aggregate, each row's
rank the count of its key's rows up to its rowtime, ties included (two rows of one time
first: 2, 2), DENSE_RANK the same values (rows printed sorted: PyFlink emits them as the
watermark passes, per key)."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import Schema, StreamTableEnvironment


class Seconds(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2] * 1000


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
ds = env.from_collection([('a', 3, 1), ('a', 4, 1), ('b', 5, 2), ('b', 1, 2), ('a', 7, 3)],
                         type_info=Types.ROW_NAMED(['k', 'v', 'n'],
                                                   [Types.STRING(), Types.INT(), Types.INT()]))
ds = ds.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Seconds()))
t_env.create_temporary_view("t", t_env.from_data_stream(
    ds, Schema.new_builder().column_by_metadata("rt", "TIMESTAMP_LTZ(3)", "rowtime")
    .watermark("rt", "SOURCE_WATERMARK()").build()))
inner = "SELECT k, v, n, rt, %s() OVER (%s) AS r FROM t"
by_k = "PARTITION BY k ORDER BY %s"
for q in ["SELECT k, v, r FROM (%s) WHERE r <= 2" % (inner % ("RANK", by_k % "v DESC")),
          "SELECT k, n FROM (%s) WHERE r = 1" % (inner % ("DENSE_RANK", by_k % "rt")),
          "SELECT k, v FROM (%s) WHERE r > 2" % (inner % ("RANK", "ORDER BY v")),
          "SELECT k, n, RANK() OVER (PARTITION BY k ORDER BY v, n) AS r FROM t",
          "SELECT k, n, DENSE_RANK() OVER (PARTITION BY k ORDER BY rt DESC) AS r FROM t",
          "SELECT k, n, RANK() OVER (PARTITION BY k ORDER BY v) AS r FROM t",
          "SELECT k, v, n, RANK() OVER (PARTITION BY k ORDER BY rt) AS r FROM t",
          "SELECT k, v, n, r FROM (%s)" % (inner % ("DENSE_RANK", by_k % "rt"))]:
    print(q)
    table = t_env.sql_query(q)
    table.print_schema()
    try:
        with table.execute().collect() as rows:
            for line in sorted("%s %r" % (r.get_row_kind(), r) for r in rows):
                print(line)
    except Exception as e:
        print(type(e).__name__, [line.split('TableException: ')[-1]
                                 for line in str(e).split('\n') if 'TableException: ' in line][0])
