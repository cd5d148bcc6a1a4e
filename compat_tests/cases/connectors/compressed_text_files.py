"""FileSource decompresses .gz, .gzip, .bz2 and .deflate files by their extension."""
import bz2
import gzip
import os
import tempfile
import zlib

from pyflink.common import WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat

root = tempfile.mkdtemp()
with open(os.path.join(root, "a.txt.gz"), "wb") as f:
    f.write(gzip.compress(b"gzip line 1\ngzip line 2\n"))
with open(os.path.join(root, "b.gzip"), "wb") as f:
    f.write(gzip.compress(b"gzip extension\n"))
with open(os.path.join(root, "c.txt.bz2"), "wb") as f:
    f.write(bz2.compress(b"bzip2 line 1\nbzip2 line 2"))
with open(os.path.join(root, "d.deflate"), "wb") as f:
    f.write(zlib.compress(b"deflate line\n"))
with open(os.path.join(root, "e.txt"), "wb") as f:
    f.write(b"plain line\n")

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), root).build()
ds = env.from_source(source, WatermarkStrategy.no_watermarks(), "compressed")
print(sorted(ds.execute_and_collect()))
