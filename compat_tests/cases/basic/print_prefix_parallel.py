"""print() at parallelism > 1 prefixes "N> " (and "ident:N> "), N = 1-based subtask index.

Every job routes all records through ONE key, so only one (deterministic) subtask prints
and the line order is deterministic.
"""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)

for key in ["k0", "k2"]:
    print("-- key " + key + ", INT records", flush=True)
    (env.from_collection([1, 2, 3], type_info=Types.INT())
        .key_by(lambda x, k=key: k, key_type=Types.STRING())
        .reduce(lambda a, b: a + b)
        .print())
    env.execute("prefix " + key)

print("-- identifier, ROW records", flush=True)
(env.from_collection([(1, "x"), (2, "y")], type_info=Types.ROW([Types.INT(), Types.STRING()]))
    .key_by(lambda r: 7, key_type=Types.INT())
    .map(lambda r: r, output_type=Types.ROW([Types.INT(), Types.STRING()]))
    .print("out"))
env.execute("ident rows")

print("-- identifier, TUPLE records at parallelism 3", flush=True)
env.set_parallelism(3)
(env.from_collection([(1, "x"), (2, "y")], type_info=Types.TUPLE([Types.INT(), Types.STRING()]))
    .key_by(lambda r: 7, key_type=Types.INT())
    .map(lambda r: r, output_type=Types.TUPLE([Types.INT(), Types.STRING()]))
    .print("out"))
env.execute("ident tuples")
