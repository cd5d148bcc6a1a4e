"""window_all with event-time tumbling windows and a ProcessAllWindowFunction. As in PyFlink,
the all-window operator runs at the environment's parallelism (2) with every element on one
subtask (the null key's): the print sink shows that subtask's prefix. Scenario of PyFlink's
test_event_time_tumbling_window_all."""
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import ProcessAllWindowFunction
from pyflink.datastream.window import TumblingEventTimeWindows


class ByField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value[1])


class Describe(ProcessAllWindowFunction):
    def open(self, runtime_context):
        self.parallelism = runtime_context.get_number_of_parallel_subtasks()

    def process(self, context, elements):
        window = context.window()
        yield window.start, window.end, sum(1 for _ in elements), self.parallelism


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
records = [("hi", 1), ("hello", 2), ("hi", 3), ("hello", 4), ("hello", 5), ("hi", 8), ("hi", 9),
           ("hi", 15)]
(env.from_collection(records, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField()))
    .window_all(TumblingEventTimeWindows.of(Time.milliseconds(5)))
    .process(Describe(), Types.TUPLE([Types.LONG(), Types.LONG(), Types.INT(), Types.INT()]))
    .print())
env.execute("tumbling window_all")
