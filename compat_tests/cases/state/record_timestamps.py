"""Record timestamps: absent (ctx.timestamp() is Long.MIN_VALUE) without an assigner; set by
assign_timestamps_and_watermarks; kept through map / filter / process / key_by; a second
assigner sees the first one's timestamp; an event-time timer's output carries the timer's
timestamp downstream."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import KeyedProcessFunction, ProcessFunction, StreamExecutionEnvironment


class Times10(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value * 10


class PlusPrevious(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return record_timestamp + 1


class Stamp(ProcessFunction):
    def process_element(self, value, ctx):
        yield "%s@%d" % (value, ctx.timestamp())


class TimerAtPlus5(KeyedProcessFunction):
    def process_element(self, value, ctx):
        ctx.timer_service().register_event_time_timer(ctx.timestamp() + 5)
        yield value

    def on_timer(self, timestamp, ctx):
        yield -timestamp


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
nums = env.from_collection([3, 1, 2], type_info=Types.INT())

print("-- no assigner", flush=True)
nums.process(Stamp(), output_type=Types.STRING()).print()
env.execute()

print("-- assigner, then map, filter, process", flush=True)
(nums.assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Times10()))
    .map(lambda v: v + 100, output_type=Types.INT())
    .filter(lambda v: v != 101)
    .process(Stamp(), output_type=Types.STRING())
    .print())
env.execute()

print("-- two assigners, key_by in between", flush=True)
(nums.assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Times10()))
    .key_by(lambda v: v % 2, key_type=Types.INT())
    .map(lambda v: v, output_type=Types.INT())
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(PlusPrevious()))
    .process(Stamp(), output_type=Types.STRING())
    .print())
env.execute()

print("-- timer output timestamps downstream", flush=True)
(nums.assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Times10()))
    .key_by(lambda v: v, key_type=Types.INT())
    .process(TimerAtPlus5(), output_type=Types.INT())
    .process(Stamp(), output_type=Types.STRING())
    .print())
env.execute()
