"""print() of records without type_info (PICKLED_BYTE_ARRAY): str() of each Python value."""
from pyflink.common import Row
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

env.from_collection([
    (1, "a"),
    (2, None),
    (3.5, [1, 2]),
    {"k": 1},
    None,
    "plain string",
    1.0,
    2.5e10,
    True,
    Row(a=1, b="x"),
    Row(1, 2),
    [1, (2, 3)],
]).print()
env.execute("pickled")

print("-- map without output_type", flush=True)
env.from_collection([1, 2, 3]).map(lambda x: (x, x * 0.5)).print()
env.execute("pickled map")
