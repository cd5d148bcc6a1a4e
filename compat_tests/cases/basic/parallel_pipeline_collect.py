"""map / flat_map / filter at parallelism > 1, per-operator set_parallelism, results sorted."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(3)

src = env.from_collection(list(range(12)), type_info=Types.INT())
out = (src.map(lambda x: x * 2, output_type=Types.INT())
          .flat_map(lambda x: [x, x + 1], output_type=Types.INT())
          .filter(lambda x: x % 3 != 0)
          .execute_and_collect())
print(sorted(out))

out = (src.map(lambda x: (x % 4, x), output_type=Types.TUPLE([Types.INT(), Types.INT()])).set_parallelism(2)
          .filter(lambda t: t[0] != 0).set_parallelism(4)
          .map(lambda t: "%d-%d" % t, output_type=Types.STRING()).set_parallelism(1)
          .execute_and_collect())
print(sorted(out))

rows = (env.from_collection([(i, chr(97 + i)) for i in range(6)],
                            type_info=Types.ROW_NAMED(["i", "c"], [Types.INT(), Types.STRING()]))
        .map(lambda r: r, output_type=Types.ROW_NAMED(["i", "c"], [Types.INT(), Types.STRING()]))
        .execute_and_collect())
print(sorted(rows, key=lambda r: r.i))

print(sorted(env.from_collection(["b", "a", "c"]).map(lambda s: s.upper()).execute_and_collect()))
