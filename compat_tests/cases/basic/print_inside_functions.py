"""print() inside user functions (open, map, close, process_element, on_timer) reaches the
job's stdout, as on PyFlink. (PyFlink's Python workers and its JVM print sink write to stdout
from two processes, so their relative order varies: the jobs here print only from Python and
collect their results.)"""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (KeyedProcessFunction, MapFunction, RuntimeExecutionMode,
                                StreamExecutionEnvironment)


class Doubler(MapFunction):
    def open(self, runtime_context):
        print("open", runtime_context.get_index_of_this_subtask())

    def map(self, value):
        print("map sees", value)
        return value * 2

    def close(self):
        print("close")


class ByTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Alarm(KeyedProcessFunction):
    def process_element(self, value, ctx):
        print("process_element", value, "timer at", value[1] + 10)
        ctx.timer_service().register_event_time_timer(value[1] + 10)
        yield value[0]

    def on_timer(self, timestamp, ctx):
        print("on_timer", ctx.get_current_key(), timestamp)
        yield "fired %s@%d" % (ctx.get_current_key(), timestamp)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
doubled = env.from_collection([1, 2, 3], type_info=Types.INT()).map(Doubler(), Types.INT())
with doubled.execute_and_collect() as results:
    print("collected", list(results))

events = env.from_collection([("a", 1), ("b", 2), ("a", 5)],
                             type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
alarms = events.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByTime())) \
    .key_by(lambda e: e[0], key_type=Types.STRING()) \
    .process(Alarm(), output_type=Types.STRING())
with alarms.execute_and_collect() as results:
    print("collected", list(results))

env.set_runtime_mode(RuntimeExecutionMode.BATCH)
batch = env.from_collection([3, 4], type_info=Types.INT()).map(Doubler(), Types.INT())
print("collected", batch.execute_and_collect(limit=5))
