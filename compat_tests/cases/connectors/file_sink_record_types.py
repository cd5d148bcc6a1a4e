"""What Encoder.simple_string_encoder() writes per declared type: Java's toString of the
record, which for a Row is "+I[1, a]" (print() shows +I[1,a]), tuples "(1,a,1.5)", doubles in
Java notation, booleans true/false."""
import os
import tempfile

from pyflink.common import Encoder, Row, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import BucketAssigner, FileSink

root = tempfile.mkdtemp()
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)


def write_and_show(name, values, type_info, make=lambda v: v, source_type=None):
    base = os.path.join(root, name)
    env.from_collection(values, type_info=source_type or type_info) \
        .map(make, output_type=type_info) \
        .sink_to(FileSink.for_row_format(base, Encoder.simple_string_encoder())
                 .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner()).build())
    env.execute(name)
    for part in sorted(os.listdir(base)):
        with open(os.path.join(base, part)) as f:
            print(name, repr(f.read()))


write_and_show("row", [Row(1, "a", 1.5), Row(2, None, 1e-07)],
               Types.ROW([Types.INT(), Types.STRING(), Types.DOUBLE()]))
write_and_show("named_row", [Row(x=1, y=True)], Types.ROW_NAMED(["x", "y"],
                                                               [Types.LONG(), Types.BOOLEAN()]))
write_and_show("tuple", [(1, "a", 1.5), (2, "b", 2.5e10)],
               Types.TUPLE([Types.INT(), Types.STRING(), Types.DOUBLE()]))
write_and_show("double", [1.0, 0.1, 1e-07, 2.5e10], Types.DOUBLE())
write_and_show("boolean", [True, False], Types.BOOLEAN())
write_and_show("string", ["", "a b", "x"], Types.STRING())
write_and_show("list", [2, 0], Types.LIST(Types.INT()), lambda n: list(range(n)), Types.INT())
