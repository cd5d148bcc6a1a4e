"""CoFlatMap results: generators, lists, an empty list and None all work (PyFlink emits a
result only when it is truthy); contents printed sorted at parallelism 2."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import CoFlatMapFunction


class Explode(CoFlatMapFunction):
    def flat_map1(self, value):
        if value % 3 == 0:
            return None
        return [value] * (value % 3)

    def flat_map2(self, value):
        for ch in value:
            yield ch.upper()


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
nums = env.from_collection([1, 2, 3, 4, 5, 6], type_info=Types.INT())
words = env.from_collection(["ab", "", "c"], type_info=Types.STRING())
print(sorted(str(v) for v in nums.connect(words).flat_map(Explode()).execute_and_collect()))
