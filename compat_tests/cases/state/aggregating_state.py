"""AggregatingState with an AggregateFunction (average): create_accumulator, add, get_result;
get on empty is None; clear restarts the accumulator."""
from pyflink.common import Types
from pyflink.datastream import AggregateFunction, KeyedProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.state import AggregatingStateDescriptor


class Average(AggregateFunction):
    def create_accumulator(self):
        return (0, 0)

    def add(self, value, accumulator):
        return accumulator[0] + value, accumulator[1] + 1

    def get_result(self, accumulator):
        return "%d/%d" % accumulator

    def merge(self, a, b):
        return a[0] + b[0], a[1] + b[1]


class Aggregating(KeyedProcessFunction):
    def open(self, runtime_context):
        self.avg = runtime_context.get_aggregating_state(AggregatingStateDescriptor(
            "avg", Average(), Types.TUPLE([Types.LONG(), Types.LONG()])))

    def process_element(self, value, ctx):
        key, n = value
        before = self.avg.get()
        if n < 0:
            self.avg.clear()
        else:
            self.avg.add(n)
        yield "%s %d: before=%r now=%r" % (key, n, before, self.avg.get())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
data = [("a", 4), ("b", 1), ("a", 6), ("a", 8), ("a", -1), ("a", 3), ("b", 2)]
(env.from_collection(data, type_info=Types.TUPLE([Types.STRING(), Types.LONG()]))
    .key_by(lambda v: v[0], key_type=Types.STRING())
    .process(Aggregating(), output_type=Types.STRING())
    .print())
env.execute("aggregating state")
