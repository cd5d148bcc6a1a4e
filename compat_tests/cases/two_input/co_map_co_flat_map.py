"""CoMap / CoFlatMap on connected streams (PyFlink's test_basic_co_operations and
..._with_output_type): a stream connected with a map of itself, then connected again."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import CoFlatMapFunction, CoMapFunction


class PlusMinus(CoFlatMapFunction):
    def flat_map1(self, value):
        yield value + 1

    def flat_map2(self, value):
        yield value - 1


class AddTwoOrOne(CoMapFunction):
    def map1(self, value):
        return value + 2

    def map2(self, value):
        return value + 1


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds_1 = env.from_collection([1, 2, 3, 4, 5])
ds_2 = ds_1.map(lambda x: x * 2)
print("pickled", sorted(ds_1.connect(ds_2).flat_map(PlusMinus()).connect(ds_2)
                        .map(AddTwoOrOne()).execute_and_collect()))

ds_1 = env.from_collection([1, 2, 3, 4, 5], type_info=Types.INT())
ds_2 = ds_1.map(lambda x: x * 2, output_type=Types.INT())
out = ds_1.connect(ds_2).flat_map(PlusMinus(), output_type=Types.INT()) \
    .connect(ds_2).map(AddTwoOrOne(), output_type=Types.INT())
print("typed", out.get_type(), sorted(out.execute_and_collect()))
