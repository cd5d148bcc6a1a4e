"""map with lambdas and named functions, with and without output_type, at parallelism 1."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

ds = env.from_collection([1, 2, 3, 4], type_info=Types.INT())
ds.map(lambda x: x * 10, output_type=Types.INT()).print()
env.execute("int map")


def describe(x):
    return "value=%d square=%d" % (x, x * x)


ds.map(describe, output_type=Types.STRING()).print()
env.execute("named function")

(ds.map(lambda x: (x, str(x) * x), output_type=Types.TUPLE([Types.INT(), Types.STRING()]))
   .map(lambda t: t[1] + "!", output_type=Types.STRING())
   .print())
env.execute("chained maps")

(ds.map(lambda x: Row(x, x % 2 == 0), output_type=Types.ROW_NAMED(["n", "even"], [Types.INT(), Types.BOOLEAN()]))
   .print())
env.execute("to row")

ds.map(lambda x: x / 4, output_type=Types.DOUBLE()).print()
env.execute("to double")

ds.map(lambda x: {"v": x}).map(lambda d: d["v"] + 100).print()
env.execute("pickled chain")
