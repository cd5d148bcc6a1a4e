"""At parallelism 1 the two inputs of a co-map alternate record by record (Flink reads its
inputs round-robin while both have data); the longer input finishes alone."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import CoMapFunction


class Tag(CoMapFunction):
    def map1(self, value):
        return "left %d" % value

    def map2(self, value):
        return "right %d" % value


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
left = env.from_collection([0, 1, 2, 3], type_info=Types.INT())
right = env.from_collection([100, 101, 102, 103], type_info=Types.INT())
left.connect(right).map(Tag(), output_type=Types.STRING()).print()
env.execute("even")

print("-- uneven", flush=True)
left = env.from_collection([0, 1], type_info=Types.INT())
right = env.from_collection([100, 101, 102, 103, 104], type_info=Types.INT())
left.connect(right).map(Tag(), output_type=Types.STRING()).print()
env.execute("uneven")

