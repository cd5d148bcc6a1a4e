"""The CountWindowAverage example of Flink's "Working with State" page, in Python: a
FlatMapFunction on a keyed stream keeps (count, sum) in ValueState and emits the average every
two elements, then clears the state."""
from pyflink.common import Types
from pyflink.datastream import FlatMapFunction, RuntimeContext, StreamExecutionEnvironment
from pyflink.datastream.state import ValueStateDescriptor


class CountWindowAverage(FlatMapFunction):

    def __init__(self):
        self.sum = None

    def open(self, runtime_context: RuntimeContext):
        descriptor = ValueStateDescriptor(
            "average",  # the state name
            Types.PICKLED_BYTE_ARRAY()  # type information
        )
        self.sum = runtime_context.get_state(descriptor)

    def flat_map(self, value):
        # access the state value
        current_sum = self.sum.value()
        if current_sum is None:
            current_sum = (0, 0)

        # update the count
        current_sum = (current_sum[0] + 1, current_sum[1] + value[1])

        # update the state
        self.sum.update(current_sum)

        # if the count reaches 2, emit the average and clear the state
        if current_sum[0] >= 2:
            self.sum.clear()
            yield value[0], int(current_sum[1] / current_sum[0])


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection([(1, 3), (1, 5), (1, 7), (1, 4), (1, 2)]) \
    .key_by(lambda row: row[0]) \
    .flat_map(CountWindowAverage()) \
    .print()
env.execute("ExampleManagedState")

print("-- two keys, typed", flush=True)
(env.from_collection([(1, 3), (2, 10), (1, 5), (2, 20), (2, 40), (1, 7), (2, 50), (1, 1)],
                     type_info=Types.TUPLE([Types.LONG(), Types.LONG()]))
    .key_by(lambda row: row[0], key_type=Types.LONG())
    .flat_map(CountWindowAverage(), output_type=Types.TUPLE([Types.LONG(), Types.LONG()]))
    .print())
env.execute("ExampleManagedState typed")
