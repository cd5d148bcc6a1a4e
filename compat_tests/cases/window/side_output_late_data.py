"""side_output_late_data: an element for a window the watermark has already passed goes to the
late-data side output. Scenario of PyFlink's test_side_output_late_data.

Getting a watermark mid-stream deterministically: PyFlink emits periodic watermarks on wall
time (200 ms), the shim after every 10,000 records of a source/assigner subtask. So the
first 10,000 records come first, then the job pauses 2 s before the late records (a map
sleeps), which lets PyFlink's periodic watermark (7) reach the window in between; the shim
emits the same watermark after the 10,000th record. Bundles of 1000 keep PyFlink from
holding the first records back with the sleeping one."""
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
        yield key, window.start, window.end, sum(1 for _ in elements)


def pause_before_late_records(record):
    if record[2] == "pause":
        time.sleep(2)
    return record


config = Configuration()
config.set_integer("python.fn-execution.bundle.size", 1000)
env = StreamExecutionEnvironment.get_execution_environment(config)
env.set_parallelism(1)
row = Types.ROW([Types.STRING(), Types.INT(), Types.STRING()])
records = [("a", 0, "")] + [("a", 8, "")] * 9999 + [("a", 4, "pause"), ("a", 6, "")]
# (a fresh type object: PyFlink cannot pickle one its Java side has already used)
late = OutputTag("late-data", Types.ROW([Types.STRING(), Types.INT(), Types.STRING()]))
main = (env.from_collection(records, type_info=row)
        .map(pause_before_late_records, output_type=row)
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField()))
        .key_by(lambda r: r[0], key_type=Types.STRING())
        .window(TumblingEventTimeWindows.of(Time.milliseconds(5)))
        .allowed_lateness(0)
        .side_output_late_data(late)
        .process(Describe(),
                 Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG(), Types.INT()])))
side = main.get_side_output(late).map(lambda r: "late: %s" % (r,), output_type=Types.STRING())
for line in sorted(main.map(str, output_type=Types.STRING()).union(side)
                   .execute_and_collect()):
    print(line)
