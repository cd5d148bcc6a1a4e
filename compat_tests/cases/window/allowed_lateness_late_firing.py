"""allowed_lateness(10): an element for a window whose end the watermark passed (but not by
more than the lateness) updates the window and fires it again at once; an element later than
that goes to the late-data side output. Mid-stream watermark as in side_output_late_data: the
first 10,000 records, a 2 s pause, then the late records (PyFlink's periodic watermark and
the shim's every-10,000-records watermark both reach the window in between: 11)."""
import time

from pyflink.common import Configuration, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import OutputTag, ProcessWindowFunction, StreamExecutionEnvironment
from pyflink.datastream.window import TumblingEventTimeWindows


class ByField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Describe(ProcessWindowFunction):
    def process(self, key, context, elements):
        window = context.window()
        values = [e[1] for e in elements]
        yield "%s [%d, %d) n=%d sum=%d wm=%d" % (key, window.start, window.end, len(values),
                                                 sum(values), context.current_watermark())


def pause_before_late_records(record):
    if record[2] == "pause":
        time.sleep(2)
    return record


config = Configuration()
config.set_integer("python.fn-execution.bundle.size", 1000)
env = StreamExecutionEnvironment.get_execution_environment(config)
env.set_parallelism(1)
row = Types.ROW([Types.STRING(), Types.INT(), Types.STRING()])
records = [("a", 1, "")] + [("a", 12, "")] * 9999 + [
    ("a", 3, "pause"), ("a", -20, ""), ("a", 13, "")]
# (a fresh type object: PyFlink cannot pickle one its Java side has already used)
late = OutputTag("late-data", Types.ROW([Types.STRING(), Types.INT(), Types.STRING()]))
main = (env.from_collection(records, type_info=row)
        .map(pause_before_late_records, output_type=row)
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField()))
        .key_by(lambda r: r[0], key_type=Types.STRING())
        .window(TumblingEventTimeWindows.of(Time.milliseconds(5)))
        .allowed_lateness(10)
        .side_output_late_data(late)
        .process(Describe(), Types.STRING()))
side = main.get_side_output(late).map(lambda r: "late: %s" % (r,), output_type=Types.STRING())
for line in sorted(main.union(side).execute_and_collect()):
    print(line)
