"""window_all sessions reduced, then a ProcessAllWindowFunction sees the reduced value and the
window. Scenario of PyFlink's test_window_all_reduce_process."""
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import ProcessAllWindowFunction
from pyflink.datastream.window import EventTimeSessionWindows


class ByField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value[1])


class Announce(ProcessAllWindowFunction):
    def process(self, context, elements):
        (reduced,) = list(elements)
        yield "window from %d reduced to %s" % (context.window().start, reduced)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
records = [("a", 1), ("a", 2), ("b", 3), ("a", 6), ("b", 8), ("b", 9), ("a", 15)]
(env.from_collection(records, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField()))
    .window_all(EventTimeSessionWindows.with_gap(Time.milliseconds(2)))
    .reduce(lambda a, b: (a[0], a[1] + b[1]), window_function=Announce(),
            output_type=Types.STRING())
    .print())
env.execute("window_all reduce + process")
