"""Session windows aggregated with an AggregateFunction whose accumulator is a dict (pickled
accumulator type), no window function. Scenario of PyFlink's
test_window_aggregate_passthrough."""
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import AggregateFunction, StreamExecutionEnvironment
from pyflink.datastream.window import EventTimeSessionWindows


class ByField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value[1])


class EvenMinusOdd(AggregateFunction):
    """(key, number of even values - number of odd values)."""

    def create_accumulator(self):
        return "", {"even": 0, "odd": 0}

    def add(self, value, accumulator):
        counts = accumulator[1]
        counts["even" if value[1] % 2 == 0 else "odd"] += 1
        return value[0], counts

    def get_result(self, accumulator):
        return accumulator[0], accumulator[1]["even"] - accumulator[1]["odd"]

    def merge(self, acc_a, acc_b):
        return acc_a[0], {k: acc_a[1][k] + acc_b[1][k] for k in ("even", "odd")}


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
records = [("a", 1), ("a", 2), ("b", 3), ("a", 6), ("b", 8), ("b", 9), ("a", 15)]
(env.from_collection(records, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField()))
    .key_by(lambda r: r[0], key_type=Types.STRING())
    .window(EventTimeSessionWindows.with_gap(Time.milliseconds(2)))
    .aggregate(EvenMinusOdd(), output_type=Types.TUPLE([Types.STRING(), Types.INT()]))
    .print())
env.execute("window aggregate")
