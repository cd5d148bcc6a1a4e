"""get_execution_plan() of windowed programs: a Python TimestampAssigner puts the Java
"Timestamps/Watermarks" between PyFlink's "Extract-Timestamp" and (Java)
"Remove-Timestamp"; without one the Java operator runs at its input's parallelism; window
operators are named by their assigner, their contents describe assigner, trigger and
function; window_all keys by a constant (a key_by map of its own)."""
from pyflink.common import Time, Types
from pyflink.common.watermark_strategy import TimestampAssigner, WatermarkStrategy
from pyflink.datastream import ProcessWindowFunction, StreamExecutionEnvironment
from pyflink.datastream.window import (CountTumblingWindowAssigner, EventTimeSessionWindows,
                                       SlidingEventTimeWindows, TumblingEventTimeWindows,
                                       TumblingProcessingTimeWindows)


class First(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[0]


class Keys(ProcessWindowFunction):
    def process(self, key, context, elements):
        yield key


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds = env.from_collection([(1, "a"), (2, "b")],
                         type_info=Types.TUPLE([Types.INT(), Types.STRING()]))
timed = ds.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(First()))
keyed = timed.key_by(lambda x: x[1])
keyed.window(TumblingEventTimeWindows.of(Time.milliseconds(5))).reduce(lambda a, b: a).print()
keyed.window(SlidingEventTimeWindows.of(Time.seconds(10), Time.seconds(5))) \
    .process(Keys(), Types.STRING()).map(lambda k: k.upper(), Types.STRING()).print()
keyed.window(EventTimeSessionWindows.with_gap(Time.milliseconds(3))) \
    .reduce(lambda a, b: a).print()
keyed.window(TumblingProcessingTimeWindows.of(Time.minutes(1))).reduce(lambda a, b: a).print()
keyed.count_window(3, 2).reduce(lambda a, b: a).print()
timed.window_all(TumblingEventTimeWindows.of(Time.milliseconds(5))) \
    .reduce(lambda a, b: a).print()
ds.assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps()) \
    .map(lambda x: x[1], Types.STRING()).print()
print(env.get_execution_plan())
