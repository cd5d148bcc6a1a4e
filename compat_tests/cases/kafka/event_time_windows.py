"""Kafka record timestamps as event time: a topic of two partitions is filled with records
whose Kafka timestamps are set explicitly (confluent-kafka's producer; the program's own
Python), then a bounded KafkaSource reads it at parallelism 1 with
for_monotonous_timestamps() and no timestamp assigner, into 10 s tumbling event-time windows
per sensor. Partition 1 lags partition 0 by up to 20 s: with one watermark over the
interleaved records its records would be late and dropped; Flink's per-partition watermarks
(the subtask emits the minimum over its partitions) keep every one. The window results are
collected and printed sorted (the order windows fire in depends on how the reader
interleaves the two partitions).

The broker's bootstrap.servers come from PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS (set by
the tests' `kafka_broker` fixture); real PyFlink 1.20 needs flink-sql-connector-kafka
3.2.0-1.19 in the local Maven repository (see string_word_count.py) and confluent-kafka in
its venv.
"""
import os
import uuid

from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import ProcessWindowFunction, StreamExecutionEnvironment
from pyflink.datastream.connectors.kafka import KafkaOffsetsInitializer, KafkaSource
from pyflink.datastream.window import TumblingEventTimeWindows

BOOTSTRAP = os.environ["PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS"]
JAR = os.path.expanduser("~/.m2/repository/org/apache/flink/flink-sql-connector-kafka/"
                         "3.2.0-1.19/flink-sql-connector-kafka-3.2.0-1.19.jar")
TOPIC = "compat-event-time-" + uuid.uuid4().hex
BASE_MS = 1_700_000_000_000  # a multiple of 10 s: windows start at BASE_MS + k * 10 s

admin = AdminClient({"bootstrap.servers": BOOTSTRAP})
admin.create_topics([NewTopic(TOPIC, num_partitions=2, replication_factor=1)])[TOPIC].result()
producer = Producer({"bootstrap.servers": BOOTSTRAP})
# (partition, seconds after BASE_MS, sensor, reading): each partition in timestamp order
readings = [(0, 1, "a", 10), (0, 4, "a", 20), (0, 12, "b", 5), (0, 19, "a", 1),
            (0, 25, "b", 7), (0, 31, "a", 3), (0, 44, "a", 8),
            (1, 0, "b", 100), (1, 3, "a", 200), (1, 9, "b", 300), (1, 11, "a", 400),
            (1, 24, "b", 500)]
for partition, seconds, sensor, reading in readings:
    producer.produce(TOPIC, value="%s,%d" % (sensor, reading), partition=partition,
                     timestamp=BASE_MS + seconds * 1000)
producer.flush()


class Summarize(ProcessWindowFunction):
    def process(self, key, context, elements):
        values = [v for _, v in elements]
        yield ((context.window().start - BASE_MS) // 1000,
               (context.window().end - BASE_MS) // 1000, key, len(values), sum(values))


env = StreamExecutionEnvironment.get_execution_environment()
if os.path.exists(JAR):  # PyFlink needs the connector; the shim uses Spark's own
    env.add_jars("file://" + JAR)
env.set_parallelism(1)
source = KafkaSource.builder() \
    .set_bootstrap_servers(BOOTSTRAP) \
    .set_topics(TOPIC) \
    .set_group_id("compat-event-time") \
    .set_starting_offsets(KafkaOffsetsInitializer.earliest()) \
    .set_bounded(KafkaOffsetsInitializer.latest()) \
    .set_value_only_deserializer(SimpleStringSchema()) \
    .build()
windows = env.from_source(source, WatermarkStrategy.for_monotonous_timestamps(), "readings") \
    .map(lambda line: (line.split(",")[0], int(line.split(",")[1])),
         output_type=Types.TUPLE([Types.STRING(), Types.INT()])) \
    .key_by(lambda r: r[0], key_type=Types.STRING()) \
    .window(TumblingEventTimeWindows.of(Time.seconds(10))) \
    .process(Summarize(), Types.TUPLE([Types.LONG(), Types.LONG(), Types.STRING(),
                                       Types.INT(), Types.INT()]))
with windows.execute_and_collect() as results:
    for window in sorted(results):
        print(window)
