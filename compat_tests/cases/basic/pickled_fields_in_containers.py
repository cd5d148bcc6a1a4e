"""A PICKLED_BYTE_ARRAY field as Java renders it (issue 43, "Java rendering everywhere"): the
field is a byte[] of the value's pickle. Tuple.toString renders a byte[] field, or one in an
OBJECT_ARRAY, as its signed bytes (StringUtils.arrayAwareToString) but one inside a LIST or
MAP as [B@<identity hash>; Row.toString (a FileSink's SimpleStringEncoder) renders it as
bytes at any depth, through lists, maps, arrays, rows and tuples. A None field of a Tuple is
pickled like any value; a Row's is null. Identity hashes vary run to run: masked."""
import os
import re
import tempfile

from pyflink.common import Encoder, Row, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSink

root = tempfile.mkdtemp()
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
ds = env.from_collection([1, 2])
P = Types.PICKLED_BYTE_ARRAY()
S = Types.STRING()
cases = {
    "t_plain": (lambda v: ("a", {"n": v}), Types.TUPLE([S, P])),
    "t_list": (lambda v: ("a", [v, "x"]), Types.TUPLE([S, Types.LIST(P)])),
    "t_row": (lambda v: ("a", Row("x", v)), Types.TUPLE([S, Types.ROW([S, P])])),
    "t_tuple": (lambda v: ("a", ("x", v)), Types.TUPLE([S, Types.TUPLE([S, P])])),
    "t_map": (lambda v: ("a", {"k": v}), Types.TUPLE([S, Types.MAP(S, P)])),
    "t_objarr": (lambda v: ("a", [v]), Types.TUPLE([S, Types.OBJECT_ARRAY(P)])),
    "t_none": (lambda v: ("a", None), Types.TUPLE([S, P])),
    "t_str_bytes": (lambda v: ("s%d" % v, b"xy"), Types.TUPLE([S, P])),
    "r_plain": (lambda v: Row("a", (v, "z")), Types.ROW([S, P])),
    "r_list": (lambda v: Row("a", [v, v + 1]), Types.ROW([S, Types.LIST(P)])),
    "r_row": (lambda v: Row("a", Row("x", v)), Types.ROW([S, Types.ROW([S, P])])),
    "r_map": (lambda v: Row("a", {"k": v}), Types.ROW([S, Types.MAP(S, P)])),
    "r_tuple": (lambda v: Row("a", ("x", v)), Types.ROW([S, Types.TUPLE([S, P])])),
    "r_objarr": (lambda v: Row("a", [v]), Types.ROW([S, Types.OBJECT_ARRAY(P)])),
    "r_none": (lambda v: Row("a", None), Types.ROW([S, P])),
}
for name, (function, type_info) in cases.items():
    stream = ds.map(function, output_type=type_info)
    stream.sink_to(FileSink.for_row_format(os.path.join(root, name),
                                           Encoder.simple_string_encoder()).build())
env.execute("pickled fields")

identity = re.compile(r"\[B@[0-9a-f]+")
for name in cases:
    lines = []
    for directory, _, files in os.walk(os.path.join(root, name)):
        for file_name in files:
            with open(os.path.join(directory, file_name)) as f:
                lines.extend(f.read().splitlines())
    for line in sorted(lines):
        print(name, identity.sub("[B@<identity hash>", line))
