"""MapFunction / FlatMapFunction / FilterFunction subclasses with open() and close()."""
from pyflink.common import Types
from pyflink.datastream import (FilterFunction, FlatMapFunction, MapFunction,
                                RuntimeContext, StreamExecutionEnvironment)


class Scale(MapFunction):
    def __init__(self, factor):
        self.factor = factor
        self.offset = None

    def open(self, runtime_context: RuntimeContext):
        self.offset = 1000 * runtime_context.get_number_of_parallel_subtasks()

    def map(self, value):
        return value * self.factor + self.offset

    def close(self):
        pass


class Explode(FlatMapFunction):
    def open(self, runtime_context: RuntimeContext):
        self.sep = ","

    def flat_map(self, value):
        for part in value.split(self.sep):
            yield part.strip()


class LongerThan(FilterFunction):
    def __init__(self, n):
        self.n = n
        self.limit = None

    def open(self, runtime_context: RuntimeContext):
        self.limit = self.n

    def filter(self, value):
        return len(value) > self.limit


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

env.from_collection([1, 2, 3], type_info=Types.INT()).map(Scale(2), output_type=Types.INT()).print()
env.execute("map class")

(env.from_collection(["a, bb, ccc", "dddd,e"], type_info=Types.STRING())
    .flat_map(Explode(), output_type=Types.STRING())
    .filter(LongerThan(1))
    .print())
env.execute("flat_map and filter classes")

print("-- parallelism 2", flush=True)
env.set_parallelism(2)
out = (env.from_collection([1, 2, 3, 4], type_info=Types.INT())
       .map(Scale(3), output_type=Types.INT())
       .execute_and_collect())
print(sorted(out))
with (env.from_collection(["x,yy,zzz", "ww,v"], type_info=Types.STRING())
      .flat_map(Explode(), output_type=Types.STRING())
      .filter(LongerThan(1))
      .execute_and_collect()) as it:
    print(sorted(it))
