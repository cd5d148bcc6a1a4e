"""Values a downstream function sees, depending on the declared output_type."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)


def describe(v):
    return type(v).__name__ + " " + repr(v)


print("-- from_collection element types", flush=True)
for ti in [Types.ROW([Types.INT(), Types.STRING()]),
           Types.ROW_NAMED(["a", "b"], [Types.INT(), Types.STRING()]),
           Types.TUPLE([Types.INT(), Types.STRING()]),
           None]:
    src = env.from_collection([(1, "x")], type_info=ti) if ti is not None else env.from_collection([(1, "x")])
    src.map(describe, output_type=Types.STRING()).print()
    env.execute("types")

print("-- positional Row declared ROW_NAMED, across a rebalance", flush=True)
(env.from_collection([1, 2], type_info=Types.INT())
    .map(lambda x: Row(x, str(x)), output_type=Types.ROW_NAMED(["n", "s"], [Types.INT(), Types.STRING()]))
    .rebalance()
    .map(describe, output_type=Types.STRING())
    .print())
env.execute("named")

print("-- tuple declared TUPLE, across a rebalance", flush=True)
(env.from_collection([1], type_info=Types.INT())
    .map(lambda x: (x, float(x)), output_type=Types.TUPLE([Types.INT(), Types.DOUBLE()]))
    .rebalance()
    .map(describe, output_type=Types.STRING())
    .print())
env.execute("tuple")

print("-- int declared DOUBLE / float declared INT", flush=True)
env.from_collection([1, 2], type_info=Types.INT()).map(lambda x: x, output_type=Types.DOUBLE()).print()
env.execute("int as double")
env.from_collection([3], type_info=Types.INT()).map(lambda x: x / 2, output_type=Types.INT()).print()
env.execute("float as int")

print("-- key_by keeps the element type", flush=True)
(env.from_collection([(1, "a")], type_info=Types.ROW_NAMED(["id", "v"], [Types.INT(), Types.STRING()]))
    .key_by(lambda r: r.id)
    .map(describe, output_type=Types.STRING())
    .print())
env.execute("keyed")
