"""print() of each record type, from records read out of a text file: STRING as read,
INT, DOUBLE, BOOLEAN, ROW, TUPLE and no declared type (pickled)."""
import os
import tempfile

from pyflink.common import Row, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat

root = tempfile.mkdtemp()
with open(os.path.join(root, "data.txt"), "w") as f:
    f.write("1,a,0.5\n2,b,1e-7\n30,,25000000000\n")

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
source = FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                             os.path.join(root, "data.txt")).build()
lines = env.from_source(source, WatermarkStrategy.no_watermarks(), "data")
fields = lines.map(lambda s: s.split(","))


def show(title, ds):
    print("--", title, flush=True)
    ds.print()
    env.execute(title)


show("string", lines)
show("int", fields.map(lambda f: int(f[0]), output_type=Types.INT()))
show("double", fields.map(lambda f: float(f[2]), output_type=Types.DOUBLE()))
show("boolean", fields.map(lambda f: f[1] == "a", output_type=Types.BOOLEAN()))
show("row", fields.map(lambda f: Row(int(f[0]), f[1] or None, float(f[2])),
                       output_type=Types.ROW([Types.INT(), Types.STRING(), Types.DOUBLE()])))
show("tuple", fields.map(lambda f: (int(f[0]), f[1], float(f[2])),
                         output_type=Types.TUPLE([Types.INT(), Types.STRING(), Types.DOUBLE()])))
show("pickled", fields.map(lambda f: (int(f[0]), f[1])))
