"""SUM of FLOAT / DOUBLE and AVG of DOUBLE over HOP and CUMULATE windows, whose last digits
depend on the order of the additions: Flink sums each slice (here each 1 s step) in arrival
order and merges the slices' sums, a HOP window TVF from the last slice to the first, a
CUMULATE TVF and a GROUP BY HOP group window from the first to the last. 2^24 (2^53 for the
DOUBLE) beside 1.0s: key x one value a slice, y two 1.0s in one slice, z x's rows arriving
in reverse time order. STREAMING mode over a converted stream's rowtime, then BATCH mode
over a TIMESTAMP(3) column."""
from datetime import datetime

from pyflink.common import Duration, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, EnvironmentSettings, Schema, StreamTableEnvironment


class Millis(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


B, D = 16777216.0, 9007199254740992.0
rows = [('x', 100, B, D), ('x', 1100, 1.0, 1.0), ('x', 2100, 1.0, 1.0),
        ('y', 100, B, D), ('y', 1100, 1.0, 1.0), ('y', 1200, 1.0, 1.0),
        ('z', 2100, 1.0, 1.0), ('z', 1100, 1.0, 1.0), ('z', 100, B, D)]
queries = [
    "SELECT k, window_start, SUM(f) AS sf, SUM(d) AS sd, AVG(d) AS ad FROM TABLE(HOP(TABLE t, "
    "DESCRIPTOR(rowtime), INTERVAL '1' SECOND, INTERVAL '3' SECOND)) "
    "GROUP BY k, window_start, window_end",
    "SELECT k, HOP_START(rowtime, INTERVAL '1' SECOND, INTERVAL '3' SECOND) AS ws, SUM(f) AS sf, "
    "SUM(d) AS sd, AVG(d) AS ad FROM t GROUP BY k, HOP(rowtime, INTERVAL '1' SECOND, "
    "INTERVAL '3' SECOND)",
    "SELECT k, window_end, SUM(f) AS sf, SUM(d) AS sd FROM TABLE(CUMULATE(TABLE t, "
    "DESCRIPTOR(rowtime), INTERVAL '1' SECOND, INTERVAL '3' SECOND)) "
    "GROUP BY k, window_start, window_end",
]


def show(t_env):
    for query in queries:
        print(query[:40])
        with t_env.sql_query(query).execute().collect() as results:
            for line in sorted(repr(r) for r in results):   # windows fire in timer order
                print(line)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
stream = env.from_collection(rows, type_info=Types.ROW_NAMED(
    ['k', 'ms', 'f', 'd'], [Types.STRING(), Types.LONG(), Types.FLOAT(), Types.DOUBLE()]))
stream = stream.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(5))
    .with_timestamp_assigner(Millis()))
t_env.create_temporary_view('t', t_env.from_data_stream(
    stream, Schema.new_builder().column_by_metadata('rowtime', 'TIMESTAMP_LTZ(3)')
    .watermark('rowtime', 'SOURCE_WATERMARK()').build()))
print('== streaming')
show(t_env)

batch = StreamTableEnvironment.create(env, EnvironmentSettings.in_batch_mode())
batch.create_temporary_view('t', batch.from_elements(
    [(k, datetime(2024, 1, 1, 0, 0, ms // 1000, ms % 1000 * 1000), f, d)
     for k, ms, f, d in rows],
    DataTypes.ROW([DataTypes.FIELD('k', DataTypes.STRING()),
                   DataTypes.FIELD('rowtime', DataTypes.TIMESTAMP(3)),
                   DataTypes.FIELD('f', DataTypes.FLOAT()),
                   DataTypes.FIELD('d', DataTypes.DOUBLE())])))
print('== batch')
show(batch)
