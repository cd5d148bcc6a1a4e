"""An unbounded job started with execute_async: FileSource.monitor_continuously over files
that exist at start, a keyed running count, a FileSink in STREAMING mode with checkpoints.
The program waits until every record is in finished (checkpoint-committed) part files, then
cancels the job through its JobClient and prints the finished files' lines, sorted."""
import glob
import os
import tempfile
import time

from pyflink.common import Duration, Encoder, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSink, FileSource, StreamFormat

work = tempfile.mkdtemp()
source_dir, out_dir = os.path.join(work, "in"), os.path.join(work, "out")
os.makedirs(source_dir)
for name, words in (("a.txt", ["red", "blue", "red"]), ("b.txt", ["green", "red", "blue"])):
    with open(os.path.join(source_dir, name), "w") as f:
        f.write("\n".join(words) + "\n")


def finished_lines():
    parts = [p for p in glob.glob(os.path.join(out_dir, "**", "part-*"), recursive=True)
             if not os.path.basename(p).startswith(".")]
    return sorted(line for p in parts for line in open(p).read().splitlines())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.enable_checkpointing(500)
source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), source_dir) \
    .monitor_continuously(Duration.of_millis(200)).build()
env.from_source(source, WatermarkStrategy.no_watermarks(), "files") \
    .map(lambda word: (word, 1), output_type=Types.TUPLE([Types.STRING(), Types.INT()])) \
    .key_by(lambda pair: pair[0]) \
    .reduce(lambda a, b: (a[0], a[1] + b[1])) \
    .map(lambda pair: "%s %d" % pair, output_type=Types.STRING()) \
    .sink_to(FileSink.for_row_format(out_dir, Encoder.simple_string_encoder()).build())
client = env.execute_async("file sink, cancelled after its checkpoint")
deadline = time.time() + 600
while len(finished_lines()) < 6 and time.time() < deadline:
    time.sleep(0.2)
client.cancel().result()
for line in finished_lines():
    print(line)
