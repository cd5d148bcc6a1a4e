"""Watermark strategies on a bounded input (parallelism 1): ctx.timestamp() and the current
watermark seen by process_element, and event-time timers firing at the end of input.
Inside process_element no watermark has arrived yet in these small jobs; on_timer prints the
watermark only where no periodic watermark can precede the final one (interval 0 /
no_watermarks), since when PyFlink's periodic watermark arrives depends on wall time."""
from pyflink.common import Duration, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import KeyedProcessFunction, StreamExecutionEnvironment


class FromField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        # the input records carry no timestamp: record_timestamp is Long.MIN_VALUE
        return value[1] if record_timestamp == -2 ** 63 else -1


class Show(KeyedProcessFunction):
    def __init__(self, show_timer_watermark):
        self.show_timer_watermark = show_timer_watermark

    def process_element(self, value, ctx):
        ts = ctx.timestamp()
        if ts > 0:
            ctx.timer_service().register_event_time_timer(ts + 1)
        yield "element %s ts=%d wm=%d" % (value, ts, ctx.timer_service().current_watermark())

    def on_timer(self, timestamp, ctx):
        wm = (" wm=%d" % ctx.timer_service().current_watermark()
              if self.show_timer_watermark else "")
        yield "timer %s %d ts=%d%s" % (ctx.get_current_key(), timestamp, ctx.timestamp(), wm)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
data = [("a", 1000), ("b", 3000), ("a", 2000), ("b", 1500), ("a", 500)]
row = Types.TUPLE([Types.STRING(), Types.LONG()])
strategies = [
    ("for_monotonous_timestamps", 200,
     WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(FromField()), False),
    ("for_bounded_out_of_orderness(5 ms)", 200,
     WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(5))
     .with_timestamp_assigner(FromField()), False),
    ("for_monotonous_timestamps, auto watermark interval 0", 0,
     WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(FromField()), True),
    ("no_watermarks", 200,
     WatermarkStrategy.no_watermarks().with_timestamp_assigner(FromField()), True),
]
for name, interval, strategy, show in strategies:
    print("--", name, flush=True)
    env.get_config().set_auto_watermark_interval(interval)
    (env.from_collection(data, type_info=row)
        .assign_timestamps_and_watermarks(strategy)
        .key_by(lambda v: v[0], key_type=Types.STRING())
        .process(Show(show), output_type=Types.STRING())
        .print())
    env.execute(name)
