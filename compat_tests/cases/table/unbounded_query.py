"""An unbounded stream as a table: a monitored FileSource (parallelism 2) -> from_data_stream
-> a stateless SQL query (WHERE, projections, UPPER, CHAR_LENGTH, UNION ALL) -> to_data_stream ->
a map, read through execute_and_collect(); the program takes the rows it expects and closes
the iterator, which cancels the job. Results sorted (two source subtasks)."""
import os
import tempfile

from pyflink.common import Duration, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink.table import StreamTableEnvironment

directory = tempfile.mkdtemp()
for name, lines in (("a.txt", ["apple,3", "banana,12"]), ("b.txt", ["cherry,7"]),
                    ("c.txt", ["date,1", "elder,20", "fig,5"])):
    with open(os.path.join(directory, name), "w") as f:
        f.write("\n".join(lines) + "\n")

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
t_env = StreamTableEnvironment.create(env)
source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), directory) \
    .monitor_continuously(Duration.of_millis(200)).build()
fruits = env.from_source(source, WatermarkStrategy.no_watermarks(), "files") \
    .map(lambda line: (line.split(",")[0], int(line.split(",")[1])),
         output_type=Types.TUPLE([Types.STRING(), Types.INT()]))
t_env.create_temporary_view("fruits", t_env.from_data_stream(fruits).alias("name", "qty"))
table = t_env.sql_query(
    "SELECT UPPER(name) AS name, qty * 2 AS doubled, CHAR_LENGTH(name) AS len "
    "FROM fruits WHERE qty > 4 "
    "UNION ALL SELECT name, qty, -1 FROM fruits WHERE qty <= 4")
print(table.get_schema())
stream = t_env.to_data_stream(table).map(
    lambda row: "%s %d %d %s" % (row.name, row.doubled, row.len, row.get_row_kind()),
    output_type=Types.STRING())
results = []
with stream.execute_and_collect("unbounded table") as iterator:
    for value in iterator:
        results.append(value)
        if len(results) == 6:
            break
for line in sorted(results):
    print(line)
print("closed after", len(results))
