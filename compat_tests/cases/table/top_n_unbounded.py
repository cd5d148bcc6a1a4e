"""ROW_NUMBER() Top-N and deduplication over an unbounded stream (issue 44): a monitored
FileSource -> from_data_stream with a computed rowtime and a SQL watermark -> a Top-N and a
row-time deduplication -> to_changelog_stream, all in one job, at parallelism 1. Each row's
changes come as it arrives (no waiting for the watermark): the Top-N's -U / +U; the first
row kept (ORDER BY ts) replaced by a row of an earlier rowtime though behind the watermark
((a, 900), (a, 500), (c, 2000)). (Without rn, and keeping the last row: the bounded cases
top_n_streaming and deduplicate_streaming, the same function.) A second file brings rows
after the first's are out: each key's state goes on across the job's batches. Each query's
rows printed in their order (the queries interleave)."""
import os
import tempfile

from pyflink.common import Duration, Row, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink.table import Schema, StreamTableEnvironment

FIRST, SECOND = 22, 11
directory = tempfile.mkdtemp()


def write(name, text):
    with open(os.path.join(directory, "." + name), "w") as f:
        f.write(text)
    os.rename(os.path.join(directory, "." + name), os.path.join(directory, name))


write("a.txt", "a,1000,3\nb,1500,5\na,1200,7\na,2500,5\nb,2200,2\na,1800,9\nc,3000,1\n"
      "a,4200,7\nb,4000,8\na,900,5\n")
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), directory) \
    .monitor_continuously(Duration.of_millis(200)).build()
rows = env.from_source(source, WatermarkStrategy.no_watermarks(), "files").map(
    lambda line: Row(line.split(",")[0], int(line.split(",")[1]), int(line.split(",")[2])),
    output_type=Types.ROW_NAMED(["k", "millis", "x"], [Types.STRING(), Types.LONG(),
                                                       Types.INT()]))
t_env.create_temporary_view("t", t_env.from_data_stream(
    rows, Schema.new_builder().column_by_expression("ts", "TO_TIMESTAMP_LTZ(millis, 3)")
    .watermark("ts", "ts - INTERVAL '1' SECOND").build()))
inner = "SELECT k, millis, x, ts, ROW_NUMBER() OVER (PARTITION BY k ORDER BY %s) AS rn FROM t"
QUERIES = {
    "top 2": "SELECT k, x, rn FROM (%s) WHERE rn <= 2" % (inner % "x DESC"),
    "first": "SELECT k, millis, x FROM (%s) WHERE rn = 1" % (inner % "ts"),
}
lines = None
for name, query in QUERIES.items():
    table = t_env.sql_query(query)
    shown = t_env.to_changelog_stream(table).map(
        lambda r, name=name: "%s: %s %r" % (name, r.get_row_kind(), r),
        output_type=Types.STRING())
    lines = shown if lines is None else lines.union(shown)
results = []
with lines.execute_and_collect("unbounded top n") as iterator:
    for line in iterator:
        results.append(line)
        if len(results) == FIRST:
            write("b.txt", "b,9000,9\na,500,6\nc,2000,4\n")
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
