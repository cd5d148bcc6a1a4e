"""Sensor alerts: event time, a side output and a keyed window; the README's plan picture
(`pyflink-on-spark plan --format png examples/sensor_alerts.py`).

Run on Spark:      pyflink-on-spark run examples/sensor_alerts.py
Run on PyFlink:    python examples/sensor_alerts.py   (with apache-flink installed)
"""
from pyflink.common import Duration, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import OutputTag, ProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.window import TumblingEventTimeWindows

READINGS = [("s1", 21.0, 1000), ("s2", 19.5, 1500), ("s1", -999.0, 2000),
            ("s1", 23.5, 4000), ("s2", 30.0, 6000), ("s1", 22.0, 11000)]
INVALID = OutputTag("invalid", Types.STRING())


class ReadingTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2]


class Validate(ProcessFunction):
    def process_element(self, value, ctx):
        if value[1] < -100:
            yield INVALID, "invalid reading from %s at %d" % (value[0], value[2])
        else:
            yield value[0], value[1]


def main():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    readings = env.from_collection(
        READINGS, type_info=Types.TUPLE([Types.STRING(), Types.DOUBLE(), Types.LONG()]))
    valid = readings.assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(1))
        .with_timestamp_assigner(ReadingTime())) \
        .process(Validate(), output_type=Types.TUPLE([Types.STRING(), Types.DOUBLE()])) \
        .name("Validate")
    (valid.key_by(lambda r: r[0])
        .window(TumblingEventTimeWindows.of(Time.seconds(5)))
        .reduce(lambda a, b: a if a[1] >= b[1] else b)
        .name("Max per 5 s")
        .filter(lambda r: r[1] > 22).name("Too hot")
        .print("alert"))
    valid.get_side_output(INVALID).print("invalid")
    env.execute("sensor_alerts")


if __name__ == "__main__":
    main()
