"""count_window(size, slide) as PyFlink 1.20 runs it: CountWindow i holds elements
i*slide .. i*slide+size-1 and fires once it holds `size` elements (Java Flink's
countWindow(size, slide) fires every `slide` elements instead). With slide > size some
elements belong to no window."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment, WindowFunction


class Show(WindowFunction):
    def apply(self, key, window, inputs):
        yield "%s %s %s" % (key, window, [i[1] for i in inputs])


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
records = [("a", i) for i in range(1, 8)]
(env.from_collection(records, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    .key_by(lambda r: r[0], key_type=Types.STRING())
    .count_window(3, 1)
    .reduce(lambda a, b: (a[0], a[1] + b[1]))
    .print())
env.execute("count_window(3, 1)")

(env.from_collection(records, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    .key_by(lambda r: r[0], key_type=Types.STRING())
    .count_window(2, 3)
    .apply(Show(), Types.STRING())
    .print())
env.execute("count_window(2, 3)")
