"""A key selector returning a list (unhashable in Python): PyFlink keys by the key's
serialized bytes, so BATCH and STREAMING keyed aggregations work."""
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
data = [("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5)]
for mode in (RuntimeExecutionMode.BATCH, RuntimeExecutionMode.STREAMING):
    env.set_runtime_mode(mode)
    print("--", mode, flush=True)
    (env.from_collection(data, Types.TUPLE([Types.STRING(), Types.INT()]))
        .key_by(lambda x: [x[0], 1])
        .reduce(lambda a, b: (a[0], a[1] + b[1]))
        .print())
    env.execute("list key reduce")
    (env.from_collection(data, Types.TUPLE([Types.STRING(), Types.INT()]))
        .key_by(lambda x: [x[0]])
        .sum(1)
        .print())
    env.execute("list key sum")
