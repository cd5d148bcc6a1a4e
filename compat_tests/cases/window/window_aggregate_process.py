"""Session windows aggregated incrementally, then a ProcessWindowFunction formats the result.
Scenario of PyFlink's test_window_aggregate_process."""
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import AggregateFunction, ProcessWindowFunction, \
    StreamExecutionEnvironment
from pyflink.datastream.window import EventTimeSessionWindows


class ByField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value[1])


class SumWithKey(AggregateFunction):
    def create_accumulator(self):
        return 0, ""

    def add(self, value, accumulator):
        return accumulator[0] + value[1], value[0]

    def get_result(self, accumulator):
        return accumulator[1], accumulator[0]

    def merge(self, acc_a, acc_b):
        return acc_a[0] + acc_b[0], acc_a[1]


class Format(ProcessWindowFunction):
    def process(self, key, context, elements):
        for name, total in elements:
            yield "%s: %d in [%d, %d)" % (name, total, context.window().start,
                                           context.window().end)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
records = [("a", 1), ("a", 2), ("b", 3), ("a", 6), ("b", 8), ("b", 9), ("a", 15)]
(env.from_collection(records, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField()))
    .key_by(lambda r: r[0], key_type=Types.STRING())
    .window(EventTimeSessionWindows.with_gap(Time.milliseconds(2)))
    .aggregate(SumWithKey(), window_function=Format(),
               accumulator_type=Types.TUPLE([Types.INT(), Types.STRING()]),
               output_type=Types.STRING())
    .print())
env.execute("window aggregate + process")
