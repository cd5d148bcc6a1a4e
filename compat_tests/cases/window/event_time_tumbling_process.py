"""Event-time tumbling windows (5 ms) with a ProcessWindowFunction; every window fires at the
end of input (final watermark). Scenario of PyFlink's test_event_time_tumbling_window."""
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import ProcessWindowFunction, StreamExecutionEnvironment
from pyflink.datastream.window import TumblingEventTimeWindows


class ByField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value[1])


class Describe(ProcessWindowFunction):
    def process(self, key, context, elements):
        window = context.window()
        yield key, window.start, window.end, sum(1 for _ in elements)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
records = [("hi", t) for t in (1, 2, 3, 4, 5, 8, 9, 15)]
(env.from_collection(records, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField()))
    .key_by(lambda r: r[0], key_type=Types.STRING())
    .window(TumblingEventTimeWindows.of(Time.milliseconds(5)))
    .process(Describe(), Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG(), Types.INT()]))
    .print())
env.execute("event time tumbling")
