"""force_non_parallel and set_parallelism(1) operators inside a parallel job."""
from pyflink.common import Types
from pyflink.datastream import MapFunction, StreamExecutionEnvironment


class Info(MapFunction):
    def open(self, runtime_context):
        self.info = "%d/%d" % (runtime_context.get_index_of_this_subtask(),
                               runtime_context.get_number_of_parallel_subtasks())

    def map(self, value):
        return "%s on %s" % (value, self.info)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(3)
src = env.from_collection([3, 1, 2], type_info=Types.INT())

(src.map(Info(), output_type=Types.STRING()).force_non_parallel()
    .print().set_parallelism(1))
env.execute("force_non_parallel")

(src.map(lambda x: x * 2, output_type=Types.INT()).set_parallelism(1)
    .map(Info(), output_type=Types.STRING()).set_parallelism(1)
    .print().set_parallelism(1))
env.execute("set_parallelism 1")

values = list(src.map(Info(), output_type=Types.STRING()).set_parallelism(2).execute_and_collect())
print(sorted(v.split(" on ")[0] for v in values), sorted({v.split("/")[1] for v in values}))
