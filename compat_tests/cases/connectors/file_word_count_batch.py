"""Word count over text files in BATCH mode at parallelism 2: FileSource -> flat_map ->
key_by -> sum; BATCH emits one final count per word (collected and sorted)."""
import os
import tempfile

from pyflink.common import Types, WatermarkStrategy
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat

root = tempfile.mkdtemp()
texts = ["the quick brown fox\njumps over the lazy dog\n",
         "the dog barks\nthe fox runs\n",
         "a lazy afternoon\n"]
for i, text in enumerate(texts):
    with open(os.path.join(root, "doc%d.txt" % i), "w") as f:
        f.write(text)

env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.BATCH)
env.set_parallelism(2)
source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), root).build()
counts = env.from_source(source, WatermarkStrategy.no_watermarks(), "docs") \
    .flat_map(lambda line: [(w, 1) for w in line.split()],
              output_type=Types.TUPLE([Types.STRING(), Types.INT()])) \
    .key_by(lambda t: t[0], key_type=Types.STRING()) \
    .sum(1)
print(sorted(counts.execute_and_collect()))
