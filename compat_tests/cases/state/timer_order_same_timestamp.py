"""Event-time timers of different keys with the same timestamp fire in the order of Flink's
key-group-partitioned timer heap (a heap of per-key-group heaps), not in registration order."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedProcessFunction


class Stamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class TimerAt(KeyedProcessFunction):
    def process_element(self, value, ctx):
        ctx.timer_service().register_event_time_timer(value[2])

    def on_timer(self, timestamp, ctx):
        yield "%s@%d" % (ctx.get_current_key(), timestamp)


def run(title, records, key_type=None):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    print("--", title, flush=True)
    ds = env.from_collection(records, Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG()])) \
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp()))
    keyed = ds.key_by(lambda r: r[0], key_type) if key_type else ds.key_by(lambda r: r[0])
    keyed.process(TimerAt(), Types.STRING()).print()
    env.execute(title)


words = ["test", "data", "apple", "kiwi", "pear", "plum", "fig", "lime", "date", "yam",
         "nut", "oat", "rye", "tea", "cod", "eel"]
run("same timestamp, pickled keys", [(w, 1, 25) for w in words])
run("same timestamp, STRING keys", [(w, 1, 25) for w in words], Types.STRING())
run("same timestamp, reverse registration", [(w, 1, 25) for w in reversed(words)], Types.STRING())
run("mixed timestamps", [(w, 1, 20 + (i % 3) * 5) for i, w in enumerate(words)], Types.STRING())
