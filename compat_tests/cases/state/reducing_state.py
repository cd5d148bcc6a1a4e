"""ReducingState with a lambda and with a ReduceFunction; get on empty is None; clear."""
from pyflink.common import Types
from pyflink.datastream import KeyedProcessFunction, ReduceFunction, StreamExecutionEnvironment
from pyflink.datastream.state import ReducingStateDescriptor


class Concat(ReduceFunction):
    def reduce(self, a, b):
        return a + "," + b


class Reducing(KeyedProcessFunction):
    def open(self, runtime_context):
        self.total = runtime_context.get_reducing_state(
            ReducingStateDescriptor("total", lambda a, b: a + b, Types.LONG()))
        self.seen = runtime_context.get_reducing_state(
            ReducingStateDescriptor("seen", Concat(), Types.STRING()))

    def process_element(self, value, ctx):
        key, n = value
        before = self.total.get()
        if n < 0:
            self.total.clear()
        else:
            self.total.add(n)
        self.seen.add(str(n))
        yield "%s %d: before=%r total=%r seen=%r" % (key, n, before, self.total.get(),
                                                      self.seen.get())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
data = [("a", 1), ("b", 10), ("a", 2), ("a", 3), ("b", 20), ("a", -1), ("a", 5)]
(env.from_collection(data, type_info=Types.TUPLE([Types.STRING(), Types.LONG()]))
    .key_by(lambda v: v[0], key_type=Types.STRING())
    .process(Reducing(), output_type=Types.STRING())
    .print())
env.execute("reducing state")
