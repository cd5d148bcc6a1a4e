"""ContinuousEventTimeTrigger: a 10 ms tumbling window fires every 6 ms of event time (aligned
to multiples of 6) and at its end; in a small job all those timers fire at the end of input,
in timestamp order: [0, 10) at 6 and 9, [10, 20) at 18 and 19.

(The interval is chosen so that each next fire time is a timer that exists already: PyFlink
does not fire a timer registered while timers fire at the same watermark in that round,
Java Flink and the shim do; see docs/compatibility.md.)"""
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import ProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.window import ContinuousEventTimeTrigger, TumblingEventTimeWindows


class ByField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value[1])


class ShowTimestamp(ProcessFunction):
    def process_element(self, value, ctx):
        yield "%s at %d" % (value, ctx.timestamp())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
records = [("a", 1), ("a", 4), ("a", 5), ("a", 12), ("a", 15)]
(env.from_collection(records, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField()))
    .key_by(lambda r: r[0], key_type=Types.STRING())
    .window(TumblingEventTimeWindows.of(Time.milliseconds(10)))
    .trigger(ContinuousEventTimeTrigger.of(Time.milliseconds(6)))
    .reduce(lambda a, b: (a[0], a[1] + b[1]))
    .process(ShowTimestamp(), Types.STRING())
    .print())
env.execute("continuous event-time trigger")
