"""Window aggregates over an unbounded stream (issue 44): a monitored FileSource ->
from_data_stream with event time -> window TVFs (TUMBLE, HOP, CUMULATE, SESSION) and a group
window -> to_data_stream, all in one job. Two kinds of watermark: a computed column with a SQL
watermark 1 s behind it (Flink's assigner emits it as soon as it grew: the row (b, 2000) right
after (a, 9999) is behind it, dropped from its windows), and the stream's own timestamps and
watermarks (SOURCE_WATERMARK(), a bounded-out-of-orderness strategy of 1 s: periodic, so the
whole first file is in before it moves and (b, 2000) counts). Windows fire when the watermark
passes their end, one +I row each, timestamped with window_time when the query selects it,
without a timestamp otherwise. When the first file's windows are all out, a second file
brings rows behind the watermark (dropped) and one that moves it on. Lines sorted (the
window operators of the queries interleave)."""
import os
import tempfile

from pyflink.common import Duration, Row, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import ProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink.table import DataTypes, Schema, StreamTableEnvironment

FIRST, SECOND = 51, 7      # the rows of each file's windows
directory = tempfile.mkdtemp()


def write(name, text):
    with open(os.path.join(directory, "." + name), "w") as f:
        f.write(text)
    os.rename(os.path.join(directory, "." + name), os.path.join(directory, name))


write("a.txt", "a,1000\nb,1500\na,4200\nc,6100\na,9999\nb,2000\na,12000\nb,16000\nc,21000\n"
      "a,40000\n")
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), directory) \
    .monitor_continuously(Duration.of_millis(200)).build()
rows = env.from_source(source, WatermarkStrategy.no_watermarks(), "files").map(
    lambda line: Row(line.split(",")[0], int(line.split(",")[1])),
    output_type=Types.ROW_NAMED(["k", "millis"], [Types.STRING(), Types.LONG()]))
t_env.create_temporary_view("computed", t_env.from_data_stream(
    rows, Schema.new_builder().column_by_expression("ts", "TO_TIMESTAMP_LTZ(millis, 3)")
    .watermark("ts", "ts - INTERVAL '1' SECOND").build()))


class Millis(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


stamped = rows.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(1))
    .with_timestamp_assigner(Millis()))
t_env.create_temporary_view("stamped", t_env.from_data_stream(
    stamped, Schema.new_builder().column_by_metadata("rt", DataTypes.TIMESTAMP_LTZ(3), "rowtime")
    .watermark("rt", "SOURCE_WATERMARK()").build()))

QUERIES = {
    "tumble": "SELECT k, window_start, window_end, window_time, COUNT(*) AS c, SUM(millis) AS s "
              "FROM TABLE(TUMBLE(TABLE computed, DESCRIPTOR(ts), INTERVAL '5' SECOND)) "
              "GROUP BY k, window_start, window_end, window_time",
    "hop": "SELECT window_start, window_end, COUNT(*) AS c, MIN(k) AS first FROM TABLE(HOP("
           "TABLE computed, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '4' SECOND)) "
           "GROUP BY window_start, window_end",
    "cumulate": "SELECT k, window_start, window_end, COUNT(*) AS c FROM TABLE(CUMULATE("
                "TABLE computed, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)) "
                "WHERE k <> 'c' GROUP BY k, window_start, window_end",
    "source tumble": "SELECT k, window_start, COUNT(*) AS c, AVG(millis) AS mean FROM TABLE("
                     "TUMBLE(TABLE stamped, DESCRIPTOR(rt), INTERVAL '5' SECOND)) "
                     "GROUP BY k, window_start, window_end",
    "source session": "SELECT k, window_start, window_end, COUNT(*) AS c FROM TABLE(SESSION("
                      "TABLE stamped PARTITION BY k, DESCRIPTOR(rt), INTERVAL '3' SECOND)) "
                      "GROUP BY k, window_start, window_end",
    "group tumble": "SELECT k, TUMBLE_START(ts, INTERVAL '10' SECOND) AS s, "
                    "TUMBLE_ROWTIME(ts, INTERVAL '10' SECOND) AS rt, MAX(millis) AS top "
                    "FROM computed GROUP BY k, TUMBLE(ts, INTERVAL '10' SECOND)",
}


class Show(ProcessFunction):
    def __init__(self, name):
        self.name = name

    def process_element(self, value, ctx):
        yield "%s: %s %s ts=%s" % (self.name, value.get_row_kind(), value, ctx.timestamp())


lines = None
for name, query in QUERIES.items():
    table = t_env.sql_query(query)
    print("--", name)
    table.print_schema()
    shown = t_env.to_data_stream(table).process(Show(name), output_type=Types.STRING())
    lines = shown if lines is None else lines.union(shown)

results = []
with lines.execute_and_collect("unbounded windows") as iterator:
    for line in iterator:
        results.append(line)
        if len(results) == FIRST:
            # the first file's windows are out: rows behind the watermark, then one ahead
            write("b.txt", "b,3000\na,19000\na,60000\n")
        if len(results) == FIRST + SECOND:
            break
print("-- first file")
for line in sorted(results[:FIRST]):
    print(line)
print("-- second file")
for line in sorted(results[FIRST:]):
    print(line)
