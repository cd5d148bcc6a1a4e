"""CountSlidingWindowAssigner(2, 1) with a WindowFunction. Scenario of PyFlink's
test_count_sliding_window."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment, WindowFunction
from pyflink.datastream.window import CountSlidingWindowAssigner


class SumFirstField(WindowFunction):
    def apply(self, key, window, inputs):
        return [(key, sum(i[0] for i in inputs))]


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
records = [(1, "hi"), (2, "hello"), (3, "hi"), (4, "hello"), (5, "hi"), (6, "hello")]
(env.from_collection(records, type_info=Types.TUPLE([Types.INT(), Types.STRING()]))
    .key_by(lambda r: r[1], key_type=Types.STRING())
    .window(CountSlidingWindowAssigner(2, 1))
    .apply(SumFirstField(), Types.TUPLE([Types.STRING(), Types.INT()]))
    .print())
env.execute("count sliding")
