"""partition_custom from 4 upstream subtasks to 5 (test_partition_custom): the partitioner
sees num_partitions 5 and each record lands on key % 5; subtasks gathered through one key."""
from pyflink.common import Types
from pyflink.datastream import MapFunction, StreamExecutionEnvironment


class TagSubtask(MapFunction):
    def open(self, runtime_context):
        self.index = runtime_context.get_index_of_this_subtask()

    def map(self, value):
        return ["%s%d@%d" % (value[0], value[1], self.index)]


def my_partitioner(key, num_partitions):
    assert num_partitions == 5
    return key % num_partitions


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds = env.from_collection([('a', 0), ('b', 0), ('c', 1), ('d', 1), ('e', 2),
                          ('f', 7), ('g', 7), ('h', 8), ('i', 8), ('j', 9)],
                         type_info=Types.ROW([Types.STRING(), Types.INT()]))
(ds.map(lambda x: x, output_type=Types.ROW([Types.STRING(), Types.INT()])).set_parallelism(4)
   .partition_custom(my_partitioner, lambda x: x[1])
   .map(TagSubtask()).set_parallelism(5)
   .key_by(lambda x: 0, key_type=Types.INT())
   .reduce(lambda a, b: sorted(a + b))
   .filter(lambda merged: len(merged) == 10)
   .map(lambda merged: " ".join(merged), output_type=Types.STRING())
   .print().set_parallelism(1))
env.execute("partition custom")
