"""A KeyedStream connected to a non-keyed stream is a plain co-process in PyFlink, and the
keyed side's records arrive as PyFlink's internal Row(key, value); keyed on both sides it is
a keyed co-process with the original values."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import CoMapFunction


class Show(CoMapFunction):
    def map1(self, value):
        return "1: " + repr(value)

    def map2(self, value):
        return "2: " + repr(value)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
nums = env.from_collection([1, 2, 3], type_info=Types.INT())
words = env.from_collection(["x", "yy"], type_info=Types.STRING())
print(sorted(nums.key_by(lambda n: n % 2).connect(words).map(Show(), Types.STRING())
             .execute_and_collect()))
print(sorted(nums.connect(words.key_by(len, key_type=Types.INT())).map(Show(), Types.STRING())
             .execute_and_collect()))
print(sorted(nums.key_by(lambda n: n % 2).connect(words.key_by(len))
             .map(Show(), Types.STRING()).execute_and_collect()))
