"""BATCH mode: the parallelism Flink's adaptive batch scheduler gives a keyed operator behind
key_by (16 MiB of input per task), on either side of the switch, for records of declared
fixed-size types: a LONG keyed by a LONG (22 bytes a record), a pair of LONGs (30), the pair
with timestamps (38). Each keyed subtask reports its parallelism once."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (
    KeyedProcessFunction, RuntimeExecutionMode, StreamExecutionEnvironment)
from pyflink.datastream.connectors.number_seq import NumberSequenceSource


class Stamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Report(KeyedProcessFunction):
    def open(self, runtime_context):
        self.parallelism = runtime_context.get_number_of_parallel_subtasks()
        self.reported = False

    def process_element(self, value, ctx):
        if not self.reported:
            self.reported = True
            yield self.parallelism


for shape, counts in [("long", (757_000, 780_000)), ("pair", (552_000, 566_000)),
                      ("pair with timestamps", (435_000, 448_000))]:
    for n in counts:
        env = StreamExecutionEnvironment.get_execution_environment()
        env.set_parallelism(2)
        env.set_runtime_mode(RuntimeExecutionMode.BATCH)
        ds = env.from_source(NumberSequenceSource(0, n - 1), WatermarkStrategy.no_watermarks(),
                             "numbers")
        if shape == "long":
            keyed = ds.key_by(lambda v: v % 1000, key_type=Types.LONG())
        else:
            ds = ds.map(lambda v: (v % 1000, v),
                        output_type=Types.TUPLE([Types.LONG(), Types.LONG()]))
            if shape == "pair with timestamps":
                ds = ds.assign_timestamps_and_watermarks(
                    WatermarkStrategy.for_monotonous_timestamps()
                    .with_timestamp_assigner(Stamp()))
            keyed = ds.key_by(lambda p: p[0], key_type=Types.LONG())
        reports = keyed.process(Report(), Types.INT()).execute_and_collect()
        print(shape, n, "records: keyed operator at parallelism", sorted(set(reports)))
