"""A session element arriving out of order joins two sessions into one (no watermark in
between). Scenario of PyFlink's test_session_window_late_merge."""
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import ProcessWindowFunction, StreamExecutionEnvironment
from pyflink.datastream.window import EventTimeSessionWindows


class ByField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value[1])


class Describe(ProcessWindowFunction):
    def process(self, key, context, elements):
        window = context.window()
        yield key, window.start, window.end, sum(1 for _ in elements)


class Contents(ProcessWindowFunction):
    def process(self, key, context, elements):
        yield "%s %s %s" % (key, context.window(), [e[1] for e in elements])


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
strategy = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField())
(env.from_collection([("hi", 0), ("hi", 8), ("hi", 4)],
                     type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    .assign_timestamps_and_watermarks(strategy)
    .key_by(lambda r: r[0], key_type=Types.STRING())
    .window(EventTimeSessionWindows.with_gap(Time.milliseconds(5)))
    .process(Describe(), Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG(), Types.INT()]))
    .print())
env.execute("late merge")

# the merged window's contents, in the order PyFlink keeps them
(env.from_collection([("k", 0), ("k", 4), ("k", 2), ("k", 20), ("k", 10), ("k", 14), ("k", 12)],
                     type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    .assign_timestamps_and_watermarks(strategy)
    .key_by(lambda r: r[0], key_type=Types.STRING())
    .window(EventTimeSessionWindows.with_gap(Time.milliseconds(3)))
    .process(Contents(), Types.STRING())
    .print())
env.execute("merged contents order")
