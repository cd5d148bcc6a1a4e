"""print() of Tuple streams with PICKLED_BYTE_ARRAY fields (issue 43): Tuple.toString renders a
byte[] field, or one in an OBJECT_ARRAY or a nested Row or Tuple, as the signed bytes of the
value's pickle; a None field is pickled too."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
ds = env.from_collection([1, 2])
P = Types.PICKLED_BYTE_ARRAY()
S = Types.STRING()
ds.map(lambda v: ("a", {"n": v}), output_type=Types.TUPLE([S, P])).print("plain")
ds.map(lambda v: ("a", Row("x", v)), output_type=Types.TUPLE([S, Types.ROW([S, P])])) \
    .print("row")
ds.map(lambda v: ("a", ("x", [v])), output_type=Types.TUPLE([S, Types.TUPLE([S, P])])) \
    .print("tuple")
ds.map(lambda v: ("a", [v, None]), output_type=Types.TUPLE([S, Types.OBJECT_ARRAY(P)])) \
    .print("objarr")
ds.map(lambda v: ("a", None if v == 1 else "s"), output_type=Types.TUPLE([S, P])) \
    .print("none")
env.execute("print pickled fields")
