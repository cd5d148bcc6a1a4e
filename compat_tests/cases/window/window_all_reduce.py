"""window_all over event-time sessions (gap 2 ms), reduced. Scenario of PyFlink's
test_window_all_reduce."""
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.window import EventTimeSessionWindows


class ByField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value[1])


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
records = [("a", 1), ("a", 2), ("b", 3), ("a", 6), ("b", 8), ("b", 9), ("a", 15)]
(env.from_collection(records, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField()))
    .window_all(EventTimeSessionWindows.with_gap(Time.milliseconds(2)))
    .reduce(lambda a, b: (a[0], a[1] + b[1]),
            output_type=Types.TUPLE([Types.STRING(), Types.INT()]))
    .print())
env.execute("window_all reduce")
