"""Windows in BATCH mode: each key's elements are processed together (sorted by timestamp
within the key), and the key's windows fire when the key ends, keys in order."""
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment, WindowFunction
from pyflink.datastream.window import TumblingEventTimeWindows


class ByField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value[1])


class Show(WindowFunction):
    def apply(self, key, window, inputs):
        yield "%s %s %s" % (key, window, [i[1] for i in inputs])


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.set_runtime_mode(RuntimeExecutionMode.BATCH)
records = [("b", 1), ("a", 2), ("b", 6), ("a", 7), ("c", 3), ("a", 1)]
pair = Types.TUPLE([Types.STRING(), Types.INT()])
print("-- event-time tumbling reduce", flush=True)
(env.from_collection(records, type_info=pair)
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField()))
    .key_by(lambda r: r[0], key_type=Types.STRING())
    .window(TumblingEventTimeWindows.of(Time.milliseconds(5)))
    .reduce(lambda a, b: (a[0], a[1] + b[1]))
    .print())
env.execute("batch tumbling")
print("-- count windows (first elements by timestamp)", flush=True)
(env.from_collection(records, type_info=pair)
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField()))
    .key_by(lambda r: r[0], key_type=Types.STRING())
    .count_window(2)
    .apply(Show(), Types.STRING())
    .print())
env.execute("batch count")
