"""HybridSource of bounded sources: a FileSource backlog, then a second FileSource; at
parallelism 1 every record of a source comes before the next source's. At parallelism 2, the
records (sorted). PyFlink cannot infer a HybridSource's type: from_source gets type_info."""
import os
import tempfile

from pyflink.common import Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink.datastream.connectors.hybrid_source import HybridSource

root = tempfile.mkdtemp()
for name, lines in [("backlog", ["old 1", "old 2", "old 3"]), ("recent", ["new 1", "new 2"])]:
    os.makedirs(os.path.join(root, name))
    with open(os.path.join(root, name, "part.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def files(name):
    return FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                               os.path.join(root, name)).build()


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
hybrid = HybridSource.builder(files("backlog")).add_source(files("recent")).build()
ds = env.from_source(hybrid, WatermarkStrategy.no_watermarks(), "hybrid", Types.STRING())
print("type:", ds.get_type(), flush=True)
ds.map(lambda s: s.upper(), output_type=Types.STRING()).print()
env.execute("hybrid files")

print("-- parallelism 2, sorted", flush=True)
env.set_parallelism(2)
print(sorted(env.from_source(hybrid, WatermarkStrategy.no_watermarks(), "hybrid",
                             Types.STRING()).execute_and_collect()))
