"""Keyed event-time windows at parallelism 2: each key's windows run on the subtask its key
group maps to. Collected and sorted (line order across subtasks is not deterministic)."""
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import ProcessWindowFunction, StreamExecutionEnvironment
from pyflink.datastream.window import SlidingEventTimeWindows


class ByField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Where(ProcessWindowFunction):
    def open(self, runtime_context):
        self.subtask = runtime_context.get_index_of_this_subtask()

    def process(self, key, context, elements):
        yield "%s %s sum=%d on subtask %d" % (key, context.window(),
                                              sum(e[1] for e in elements), self.subtask)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
records = [("k%d" % (i % 4), i) for i in range(12)]
results = (env.from_collection(records, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
           .assign_timestamps_and_watermarks(
               WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField()))
           .key_by(lambda r: r[0], key_type=Types.STRING())
           .window(SlidingEventTimeWindows.of(Time.milliseconds(6), Time.milliseconds(3)))
           .process(Where(), Types.STRING())
           .execute_and_collect())
for line in sorted(results):
    print(line)
