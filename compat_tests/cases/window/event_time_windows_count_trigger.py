"""Event-time tumbling windows with a CountTrigger instead of the default trigger: windows
fire every 2 elements, never at their end (the cleanup at the end of input fires nothing);
with PurgingTrigger the contents restart after each firing. A WindowFunction (apply) shows
key, window and contents."""
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment, WindowFunction
from pyflink.datastream.window import CountTrigger, PurgingTrigger, TumblingEventTimeWindows


class ByField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value[1])


class Show(WindowFunction):
    def apply(self, key, window, inputs):
        yield "%s [%d, %d) %s" % (key, window.start, window.end, [i[1] for i in inputs])


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
records = [("a", 1), ("a", 2), ("a", 3), ("a", 7), ("a", 4), ("a", 8), ("a", 9)]
strategy = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField())
for trigger in (CountTrigger.of(2), PurgingTrigger.of(CountTrigger.of(2))):
    (env.from_collection(records, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
        .assign_timestamps_and_watermarks(strategy)
        .key_by(lambda r: r[0], key_type=Types.STRING())
        .window(TumblingEventTimeWindows.of(Time.milliseconds(5)))
        .trigger(trigger)
        .apply(Show(), Types.STRING())
        .print())
    env.execute(type(trigger).__name__)
