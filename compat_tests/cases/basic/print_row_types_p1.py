"""print() of ROW and ROW_NAMED records at parallelism 1."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

print("-- ROW", flush=True)
env.from_collection(
    [(1, "a", 1.5), (2, None, None), (-3, "hello world", 100.0)],
    type_info=Types.ROW([Types.INT(), Types.STRING(), Types.DOUBLE()]),
).print()
env.execute("row")

print("-- ROW_NAMED", flush=True)
env.from_collection(
    [Row(id=1, name="x", score=0.25), Row(id=2, name="y", score=2.0)],
    type_info=Types.ROW_NAMED(["id", "name", "score"], [Types.INT(), Types.STRING(), Types.DOUBLE()]),
).print()
env.execute("row_named")

print("-- ROW with nested row, list and map fields", flush=True)
env.from_collection(
    [(1, (2, "x"), [1, 2, 3], {"k": 1})],
    type_info=Types.ROW([
        Types.INT(),
        Types.ROW([Types.INT(), Types.STRING()]),
        Types.BASIC_ARRAY(Types.INT()),
        Types.MAP(Types.STRING(), Types.INT()),
    ]),
).print()
env.execute("nested")

print("-- ROW with long, boolean and float fields", flush=True)
env.from_collection(
    [(2 ** 40, True, 0.5), (0, False, 1e-7)],
    type_info=Types.ROW([Types.LONG(), Types.BOOLEAN(), Types.DOUBLE()]),
).print()
env.execute("more")
