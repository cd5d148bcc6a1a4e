"""union of KeyedStreams (test_keyed_stream_union): the values keep their key's partitioning,
so a downstream map at the same parallelism sees each key on its key-group subtask; union of a
keyed stream with a plain stream."""
from pyflink.common import Types
from pyflink.datastream import MapFunction, StreamExecutionEnvironment


class Where(MapFunction):
    def open(self, runtime_context):
        self.index = runtime_context.get_index_of_this_subtask()

    def map(self, value):
        return "%s@%d" % (value, self.index)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds_1 = env.from_collection([1, 2, 3], type_info=Types.INT())
ds_2 = env.from_collection([4, 5, 6], type_info=Types.INT())
keyed = ds_1.key_by(lambda x: x, key_type=Types.INT()).union(
    ds_2.key_by(lambda x: x, key_type=Types.INT()))
print(sorted(keyed.execute_and_collect()))
print(sorted(keyed.map(Where(), Types.STRING()).execute_and_collect()))
print(sorted(ds_1.key_by(lambda x: x % 2).union(ds_2).execute_and_collect()))
