"""The timestamp a window result carries downstream (ctx.timestamp() of the next function):
for a firing by the event-time timer, the window's max timestamp; for a firing caused by an
element (count windows), that element's timestamp."""
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import ProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.window import TumblingEventTimeWindows


class ByField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value[1])


class ShowTimestamp(ProcessFunction):
    def process_element(self, value, ctx):
        yield "%s at %d" % (value, ctx.timestamp())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
records = [("a", 0), ("a", 4), ("a", 2), ("a", 10), ("a", 13)]
strategy = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField())
pair = Types.TUPLE([Types.STRING(), Types.INT()])
(env.from_collection(records, type_info=pair)
    .assign_timestamps_and_watermarks(strategy)
    .key_by(lambda r: r[0], key_type=Types.STRING())
    .window(TumblingEventTimeWindows.of(Time.milliseconds(5)))
    .reduce(lambda a, b: (a[0], a[1] + b[1]))
    .process(ShowTimestamp(), Types.STRING())
    .print())
env.execute("event-time firing timestamps")

(env.from_collection(records, type_info=pair)
    .assign_timestamps_and_watermarks(strategy)
    .key_by(lambda r: r[0], key_type=Types.STRING())
    .count_window(2)
    .reduce(lambda a, b: (a[0], a[1] + b[1]))
    .process(ShowTimestamp(), Types.STRING())
    .print())
env.execute("count firing timestamps")
