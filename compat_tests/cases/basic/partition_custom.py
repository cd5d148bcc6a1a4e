"""partition_custom: records land on the subtask the partitioner picks.

execute_and_collect cannot be used with partition_custom on PyFlink 1.20 (the partition
number is only configured by execute()), so the tagged records are merged by a rolling
reduce over one key and only the complete merge is printed.
"""
from pyflink.common import Types
from pyflink.datastream import MapFunction, StreamExecutionEnvironment
from pyflink.datastream.functions import Partitioner


class TagSubtask(MapFunction):
    def open(self, runtime_context):
        self.index = runtime_context.get_index_of_this_subtask()

    def map(self, value):
        return ["%s@%d" % (value, self.index)]


class ByLength(Partitioner):
    def partition(self, key, num_partitions):
        return len(key) % num_partitions


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(3)


def gather(ds, count):
    (ds.map(TagSubtask())
       .key_by(lambda x: 0, key_type=Types.INT())
       .reduce(lambda a, b: sorted(a + b))
       .filter(lambda merged: len(merged) == count)
       .map(lambda merged: " ".join(merged), output_type=Types.STRING())
       .print().set_parallelism(1))


nums = env.from_collection(list(range(9)), type_info=Types.INT())
gather(nums.partition_custom(lambda k, n: k % n, lambda x: x), 9)
env.execute("modulo")

words = env.from_collection(["a", "bb", "ccc", "dd", "e", "ffff"], type_info=Types.STRING())
gather(words.partition_custom(ByLength(), lambda w: w), 6)
env.execute("partitioner class")

print("-- parallelism 2, partitioner returning 1 for everything", flush=True)
env.set_parallelism(2)
gather(nums.partition_custom(lambda k, n: 1, lambda x: x), 9)
env.execute("constant")
