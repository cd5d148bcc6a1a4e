"""Exceptions in a user function's lifecycle: open() and on_timer() fail the job, naming the
cause; what close() raises is ignored (the job succeeds and its output is complete).
(The timer job prints nothing: PyFlink prints the records that reached the sink before the
failure, the shim prints a failed job's output not at all; see docs/faults.md.)"""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import KeyedProcessFunction, MapFunction, StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)


class OpenFails(MapFunction):
    def open(self, runtime_context):
        raise RuntimeError("open_boom")

    def map(self, value):
        return value


class CloseFails(MapFunction):
    def close(self):
        raise RuntimeError("close_boom")

    def map(self, value):
        return value * 10


class TimerFails(KeyedProcessFunction):
    def process_element(self, value, ctx):
        ctx.timer_service().register_event_time_timer(5)
        yield value

    def on_timer(self, timestamp, ctx):
        raise RuntimeError("timer_boom")


class ValueAsTimestamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value


jobs = [
    ("open", lambda ds: ds.map(OpenFails(), output_type=Types.INT())),
    ("close", lambda ds: ds.map(CloseFails(), output_type=Types.INT())),
    ("timer", lambda ds: ds.assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(
            ValueAsTimestamp())).key_by(lambda x: x).process(TimerFails(),
                                                             output_type=Types.INT())
        .filter(lambda v: False)),   # PyFlink prints the records before the timer fails
]
for name, build in jobs:
    build(env.from_collection([1, 2], type_info=Types.INT())).print()
    try:
        env.execute(name)
        print(name, "succeeded")
    except Exception as e:
        print(name, "failed, names the cause:", name + "_boom" in str(e))
