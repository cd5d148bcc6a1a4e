"""Rolling reduce/sum at parallelism > 1; every update collected and printed sorted.

Records come from one source subtask, so each key sees its records in source order and the
set of rolling results is deterministic.
"""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(3)

data = [("a", 1), ("b", 10), ("c", 100), ("a", 2), ("b", 20), ("a", 3), ("d", 5), ("c", 200)]
tt = Types.TUPLE([Types.STRING(), Types.INT()])

keyed = env.from_collection(data, type_info=tt).key_by(lambda t: t[0], key_type=Types.STRING())
print(sorted(keyed.sum(1).execute_and_collect()))
print(sorted(keyed.reduce(lambda a, b: (a[0] + b[0], a[1] - b[1])).execute_and_collect()))
print(sorted(keyed.max_by(1).execute_and_collect()))

rows = env.from_collection(data, type_info=Types.ROW_NAMED(["k", "v"], [Types.STRING(), Types.INT()]))
print(sorted(tuple(r) for r in rows.key_by(lambda r: r.k).sum("v").execute_and_collect()))
