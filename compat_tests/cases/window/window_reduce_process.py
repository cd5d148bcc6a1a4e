"""Session windows reduced incrementally, then a ProcessWindowFunction gets the one reduced
value and the window. Scenario of PyFlink's test_window_reduce_process."""
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import ProcessWindowFunction, StreamExecutionEnvironment
from pyflink.datastream.window import EventTimeSessionWindows


class ByField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value[1])


class Announce(ProcessWindowFunction):
    def process(self, key, context, elements):
        (reduced,) = list(elements)
        yield "key %s, window from %d, reduced %s" % (key, context.window().start, reduced)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
records = [("a", 1), ("a", 2), ("b", 3), ("a", 6), ("b", 8), ("b", 9), ("a", 15)]
(env.from_collection(records, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField()))
    .key_by(lambda r: r[0], key_type=Types.STRING())
    .window(EventTimeSessionWindows.with_gap(Time.milliseconds(2)))
    .reduce(lambda a, b: (b[0], a[1] + b[1]), window_function=Announce(),
            output_type=Types.STRING())
    .print())
env.execute("window reduce + process")
