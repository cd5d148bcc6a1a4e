"""An unbounded job: FileSource.monitor_continuously over files that exist at start, read
through execute_and_collect(); the program takes the records it expects and closes the
iterator, which cancels the job. Results sorted (two source subtasks)."""
import os
import tempfile

from pyflink.common import Duration, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat

directory = tempfile.mkdtemp()
for name, words in (("a.txt", ["apple", "banana"]), ("b.txt", ["cherry"]),
                    ("c.txt", ["date", "elder", "fig"])):
    with open(os.path.join(directory, name), "w") as f:
        f.write("\n".join(words) + "\n")

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), directory) \
    .monitor_continuously(Duration.of_millis(200)).build()
lengths = env.from_source(source, WatermarkStrategy.no_watermarks(), "files") \
    .map(lambda word: (word, len(word)), output_type=Types.TUPLE([Types.STRING(), Types.INT()]))
results = []
with lengths.execute_and_collect("monitor, collect, close") as iterator:
    for value in iterator:
        results.append(value)
        if len(results) == 6:
            break
for word, length in sorted(results):
    print(word, length)
print("closed after", len(results))
