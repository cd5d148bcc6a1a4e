"""flat_map (list-returning lambdas and generators) and filter lambdas at parallelism 1."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

lines = env.from_collection(["to be or", "not to be", "", "that is"], type_info=Types.STRING())
lines.flat_map(lambda s: s.split(), output_type=Types.STRING()).print()
env.execute("split")


def pairs(s):
    for i, w in enumerate(s.split()):
        yield w, i


lines.flat_map(pairs, output_type=Types.TUPLE([Types.STRING(), Types.INT()])).print()
env.execute("generator")

nums = env.from_collection(list(range(10)), type_info=Types.INT())
nums.filter(lambda x: x % 3 == 0).print()
env.execute("filter")

(nums.filter(lambda x: x > 4)
     .flat_map(lambda x: [x] * (x % 3), output_type=Types.INT())
     .map(lambda x: -x, output_type=Types.INT())
     .print())
env.execute("filter flat_map map")

nums.flat_map(lambda x: []).print()
env.execute("empty")
print("done", flush=True)
