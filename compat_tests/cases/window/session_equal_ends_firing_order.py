"""Two sessions ending at the same time (issue 41): which fires first follows the history of
Flink's timer heap, where each record that grows a session moves its timer (a register of
the grown window's, a delete of the old one's). Here b's session fires before a's; moving
each key's timer once, at its last record, would fire a's first."""
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import ProcessWindowFunction
from pyflink.datastream.window import EventTimeSessionWindows


class Stamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Show(ProcessWindowFunction):
    def process(self, key, context, elements):
        w = context.window()
        yield "%s [%d, %d) %s" % (key, w.start, w.end, [e[1] for e in elements])


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
records = [("a", 2), ("b", 3), ("a", 5), ("b", 5), ("a", 5)]
(env.from_collection(records, type_info=Types.TUPLE([Types.STRING(), Types.LONG()]))
 .assign_timestamps_and_watermarks(
     WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp()))
 .key_by(lambda r: r[0], key_type=Types.STRING())
 .window(EventTimeSessionWindows.with_gap(Time.milliseconds(5)))
 .process(Show(), output_type=Types.STRING())
 .print())
env.execute("session_equal_ends_firing_order")
