"""Grouping queries over an unbounded stream in STREAMING mode: a monitored FileSource ->
from_data_stream -> GROUP BY with COUNT(*), COUNT, SUM, MAX, MIN, AVG (NULLs among the values)
-> to_changelog_stream: Flink's +I / -U / +U rows, read through execute_and_collect() until the
rows the input gives, then closed (which cancels the job). A second job: MAX / MIN, where a
row that changes neither emits nothing. Parallelism 1: the rows in arrival order."""
import os
import tempfile

from pyflink.common import Duration, Row, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink.table import StreamTableEnvironment

directory = tempfile.mkdtemp()
with open(os.path.join(directory, "a.txt"), "w") as f:
    f.write("apple,3\nbanana,12\napple,7\ncherry,-2\nbanana,12\nbanana,1\napple,0\ncherry,\n"
            "banana,12\n")

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), directory) \
    .monitor_continuously(Duration.of_millis(200)).build()
fruits = env.from_source(source, WatermarkStrategy.no_watermarks(), "files") \
    .map(lambda line: Row(line.split(",")[0], int(line.split(",")[1]) if line.split(",")[1] else None),
         output_type=Types.ROW_NAMED(["name", "qty"], [Types.STRING(), Types.INT()]))
t_env.create_temporary_view("fruits", t_env.from_data_stream(fruits))
table = t_env.sql_query(
    "SELECT UPPER(name) AS fruit, COUNT(*) AS n, COUNT(qty) AS known, SUM(qty) AS total, "
    "MAX(qty) AS top, MIN(qty) AS low, AVG(qty) AS mean FROM fruits "
    "WHERE name <> 'x' GROUP BY UPPER(name)")
print(table.get_schema())
stream = t_env.to_changelog_stream(table).map(
    lambda row: "%s %s" % (row.get_row_kind(), row), output_type=Types.STRING())


def take(stream, count, name):
    results = []
    with stream.execute_and_collect(name) as iterator:
        for value in iterator:
            results.append(value)
            if len(results) == count:
                break
    for line in results:
        print(line)
    print("closed after", len(results))


take(stream, 15, "unbounded grouping")
extremes = t_env.sql_query("SELECT name, MAX(qty) AS top, MIN(qty) AS low FROM fruits "
                           "WHERE qty IS NOT NULL GROUP BY name")
take(t_env.to_changelog_stream(extremes).map(
    lambda row: "%s %s" % (row.get_row_kind(), row), output_type=Types.STRING()),
    9, "unbounded extremes")
