"""RuntimeExecutionMode.BATCH emits only the final value per key; STREAMING emits every update."""
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

data = [("c", 1, 5), ("a", 2, 4), ("b", 3, 3), ("a", 4, 8), ("c", 5, 1), ("a", 6, 6)]
row_type = Types.ROW_NAMED(["k", "x", "y"], [Types.STRING(), Types.INT(), Types.INT()])

for mode in [RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH]:
    env.set_runtime_mode(mode)
    name = "STREAMING" if mode == RuntimeExecutionMode.STREAMING else "BATCH"

    print("-- %s reduce" % name, flush=True)
    (env.from_collection(data, type_info=Types.TUPLE([Types.STRING(), Types.INT(), Types.INT()]))
        .key_by(lambda t: t[0], key_type=Types.STRING())
        .reduce(lambda a, b: (a[0], a[1] + b[1], max(a[2], b[2])))
        .print())
    env.execute(name + " reduce")

    print("-- %s sum('x')" % name, flush=True)
    (env.from_collection(data, type_info=row_type)
        .key_by(lambda r: r.k, key_type=Types.STRING())
        .sum("x")
        .print())
    env.execute(name + " sum")

    print("-- %s min_by(2)" % name, flush=True)
    (env.from_collection(data, type_info=row_type)
        .key_by(lambda r: r.k, key_type=Types.STRING())
        .min_by(2)
        .print())
    env.execute(name + " min_by")

    print("-- %s sum then map" % name, flush=True)
    (env.from_collection(data, type_info=row_type)
        .key_by(lambda r: r.k, key_type=Types.STRING())
        .sum(1)
        .map(lambda r: r.k + "=" + str(r.x), output_type=Types.STRING())
        .print())
    env.execute(name + " sum map")
