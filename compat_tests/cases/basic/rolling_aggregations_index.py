"""sum / min / max / min_by / max_by by field index on TUPLE, ROW, PICKLED and basic types."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

data = [("a", 1, 5), ("b", 2, 4), ("a", 3, 3), ("b", 4, 8), ("a", 5, 1), ("a", 0, 3)]
types = [
    ("TUPLE", Types.TUPLE([Types.STRING(), Types.INT(), Types.INT()])),
    ("ROW", Types.ROW([Types.STRING(), Types.INT(), Types.INT()])),
    ("PICKLED", None),
]

for tname, ti in types:
    for agg, pos in [("sum", 1), ("min", 2), ("max", 2), ("min_by", 2), ("max_by", 2)]:
        print("-- %s %s(%d)" % (tname, agg, pos), flush=True)
        ds = env.from_collection(data, type_info=ti) if ti is not None else env.from_collection(data)
        keyed = ds.key_by(lambda r: r[0], key_type=Types.STRING())
        getattr(keyed, agg)(pos).print()
        env.execute(tname + " " + agg)

print("-- INT sum() / max(0)", flush=True)
ints = env.from_collection([1, 2, 3, 4, 5], type_info=Types.INT())
ints.key_by(lambda x: x % 2, key_type=Types.INT()).sum().print()
env.execute("int sum")
ints.key_by(lambda x: x % 2, key_type=Types.INT()).max(0).print()
env.execute("int max")

print("-- DOUBLE field sum", flush=True)
(env.from_collection([("x", 0.5), ("x", 0.25), ("y", 1.0), ("x", 2.0)],
                     type_info=Types.TUPLE([Types.STRING(), Types.DOUBLE()]))
    .key_by(lambda t: t[0], key_type=Types.STRING())
    .sum(1)
    .print())
env.execute("double sum")

print("-- ties: min_by / max_by keep the earlier record", flush=True)
ties = env.from_collection([("k", 1, "first"), ("k", 1, "second"), ("k", 0, "third"), ("k", 0, "fourth")],
                           type_info=Types.TUPLE([Types.STRING(), Types.INT(), Types.STRING()]))
ties.key_by(lambda t: t[0], key_type=Types.STRING()).min_by(1).print()
env.execute("min_by ties")
ties.key_by(lambda t: t[0], key_type=Types.STRING()).max_by(1).print()
env.execute("max_by ties")
