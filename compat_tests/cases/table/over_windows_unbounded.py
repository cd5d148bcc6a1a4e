"""OVER windows over an unbounded stream (issue 44): a monitored FileSource -> from_data_stream
with a computed rowtime and a SQL watermark 1 s behind it (emitted as soon as it grew, record
by record) -> OVER window queries -> to_data_stream, all in one job, at parallelism 1. Flink
runs them as keyed over aggregates: each row is emitted when the watermark passes its time,
in time order, with the aggregate over its frame; insert-only. Late rows: an UNBOUNDED
PRECEDING frame drops a row at or behind the watermark ((b, 2000) and (b, 9500)); a bounded
frame drops a row not after its key's last fired time ((b, 2000) in the ROWS frame) and takes
one behind the watermark (b, 9500), emitted at the next watermark; the RANGE frame's key state
is cleared by its cleanup timer (time + 1.5 x interval + 1), so (b, 2000) is taken and sees a
frame of itself. Rows of one time: arrival order in a ROWS frame, peers in a RANGE frame. The
Table API's over_window without preceding (an unbounded RANGE frame) over the same table. A
second file brings rows behind the watermark and one that moves it on. Each query's rows
printed in their order (the queries interleave)."""
import os
import tempfile

from pyflink.common import Duration, Row, Types, WatermarkStrategy
from pyflink.datastream import ProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink.table import Schema, StreamTableEnvironment
from pyflink.table.expressions import col
from pyflink.table.window import Over

FIRST, SECOND = 50, 7      # the rows out after each file
directory = tempfile.mkdtemp()


def write(name, text):
    with open(os.path.join(directory, "." + name), "w") as f:
        f.write(text)
    os.rename(os.path.join(directory, "." + name), os.path.join(directory, name))


write("a.txt", "a,1000,1\nb,1500,2\na,1000,3\na,2500,4\nb,2200,5\na,1800,6\nc,3000,7\n"
      "a,4200,8\nb,4000,9\na,9999,10\nb,2000,11\na,12000,12\nb,9500,13\nc,21000,14\n"
      "a,40000,15\n")
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), directory) \
    .monitor_continuously(Duration.of_millis(200)).build()
rows = env.from_source(source, WatermarkStrategy.no_watermarks(), "files").map(
    lambda line: Row(line.split(",")[0], int(line.split(",")[1]), int(line.split(",")[2])),
    output_type=Types.ROW_NAMED(["k", "millis", "x"], [Types.STRING(), Types.LONG(),
                                                       Types.INT()]))
t_env.create_temporary_view("computed", t_env.from_data_stream(
    rows, Schema.new_builder().column_by_expression("ts", "TO_TIMESTAMP_LTZ(millis, 3)")
    .watermark("ts", "ts - INTERVAL '1' SECOND").build()))

W = "PARTITION BY k ORDER BY ts"
QUERIES = {
    "rows 2": "SELECT k, ts, x, SUM(x) OVER (%s ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS s, "
              "COUNT(*) OVER (%s ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS c "
              "FROM computed" % (W, W),
    "range 2s": "SELECT k, x, MIN(x) OVER w AS lo, MAX(x) OVER w AS hi, AVG(x) OVER w AS mean "
                "FROM computed WINDOW w AS (%s RANGE BETWEEN INTERVAL '2' SECOND PRECEDING "
                "AND CURRENT ROW)" % W,
    "rows unbounded": "SELECT k, millis, x * 10 AS x10, SUM(x) OVER (%s ROWS BETWEEN UNBOUNDED "
                      "PRECEDING AND CURRENT ROW) AS s FROM computed WHERE x <> 4" % W,
}


class Show(ProcessFunction):
    def __init__(self, name):
        self.name = name

    def process_element(self, value, ctx):
        yield "%s: %s %s ts=%s" % (self.name, value.get_row_kind(), value, ctx.timestamp())


tables = {name: t_env.sql_query(query) for name, query in QUERIES.items()}
tables["table api"] = t_env.from_path("computed").over_window(
    Over.partition_by(col("k")).order_by(col("ts")).alias("w")).select(
    col("k"), col("ts"), col("x").sum.over(col("w")), col("x").count.over(col("w")))
lines = None
for name, table in tables.items():
    print("--", name)
    table.print_schema()
    shown = t_env.to_data_stream(table).process(Show(name), output_type=Types.STRING())
    lines = shown if lines is None else lines.union(shown)

results = []
with lines.execute_and_collect("unbounded over windows") as iterator:
    for line in iterator:
        results.append(line)
        if len(results) == FIRST:
            # rows behind the watermark, then one ahead that moves it on
            write("b.txt", "b,15000,16\na,11000,17\nc,60000,18\n")
        if len(results) == FIRST + SECOND:
            break


def by_query(part):
    return sorted(part, key=lambda line: line.split(":", 1)[0])     # stable: each in its order


print("-- first file")
for line in by_query(results[:FIRST]):
    print(line)
print("-- second file")
for line in by_query(results[FIRST:]):
    print(line)
