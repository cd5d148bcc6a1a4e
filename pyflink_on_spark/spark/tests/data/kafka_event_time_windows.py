"""A bounded KafkaSource into event-time tumbling windows with NO timestamp assigner: the
records' Kafka timestamps are their event time and watermarks come from the source
(for_monotonous_timestamps). Run by spark/tests/test_kafka_event_time.py on the shim and
compared with kafka_event_time_windows.expected, which real PyFlink 1.20.5 printed for this
program over the records that test produces (recorded against the tests' broker with
flink-sql-connector-kafka 3.2.0-1.19, the newest build Maven Central serves for Flink 1.19/1.20:
FLINK_KAFKA_JAR=~/.m2/.../flink-sql-connector-kafka-3.2.0-1.19.jar
PATH=/opt/venvs/flink/bin:$PATH python kafka_event_time_windows.py > ...expected).
The broker and the topic come from PYFLINK_ON_SPARK_TEST_KAFKA_SERVERS / _TOPIC."""
import os

from pyflink.common import Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.common.time import Time
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.kafka import KafkaOffsetsInitializer, KafkaSource
from pyflink.datastream.functions import ProcessWindowFunction
from pyflink.datastream.window import TumblingEventTimeWindows


class Summary(ProcessWindowFunction):
    def process(self, key, context, elements):
        window = context.window()
        yield "%s [%d, %d) %s" % (key, window.start, window.end,
                                  sorted(v for _, v in elements))


env = StreamExecutionEnvironment.get_execution_environment()
if os.environ.get("FLINK_KAFKA_JAR"):
    env.add_jars("file://" + os.environ["FLINK_KAFKA_JAR"])
env.set_parallelism(1)
source = KafkaSource.builder() \
    .set_bootstrap_servers(os.environ["PYFLINK_ON_SPARK_TEST_KAFKA_SERVERS"]) \
    .set_topics(os.environ["PYFLINK_ON_SPARK_TEST_KAFKA_TOPIC"]) \
    .set_group_id("event-time-windows") \
    .set_starting_offsets(KafkaOffsetsInitializer.earliest()) \
    .set_bounded(KafkaOffsetsInitializer.latest()) \
    .set_value_only_deserializer(SimpleStringSchema()).build()
windows = env.from_source(source, WatermarkStrategy.for_monotonous_timestamps(), "kafka") \
    .map(lambda s: (s.split(",")[0], int(s.split(",")[1])),
         Types.TUPLE([Types.STRING(), Types.INT()])) \
    .key_by(lambda t: t[0]) \
    .window(TumblingEventTimeWindows.of(Time.seconds(2))) \
    .process(Summary(), Types.STRING())
# sorted: which of a subtask's partitions Flink's reader polls first (and so which key's
# window timer comes first at an equal time) is up to its Kafka consumer
with windows.execute_and_collect("kafka event time windows") as results:
    for line in sorted(results):
        print(line)
