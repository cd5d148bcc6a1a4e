"""What a Kafka sink writes besides the bytes: each Kafka record's timestamp and, for a keyed
record, its partition. A bounded job at parallelism 2 gives twelve records timestamps with a
timestamp assigner and writes them to fresh topics of three partitions:

- KafkaSink (AT_LEAST_ONCE) with a key: each record's partition (the Java client's murmur2 of
  the key) and its CreateTime (the stream record's timestamp);
- FlinkKafkaProducer after set_write_timestamp_to_kafka(True): the timestamps (no key, so
  the partitions are the client's choice and not printed);
- FlinkKafkaProducer by default, and KafkaSink for records without timestamps: the producer's
  own time (printed as "producer time" when it lies within the run).

The topics are read back with confluent-kafka's consumer (the program's own Python). The
broker's bootstrap.servers come from PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS (set by the
tests' `kafka_broker` fixture); real PyFlink 1.20 needs flink-sql-connector-kafka 3.2.0-1.19
in the local Maven repository (see string_word_count.py) and confluent-kafka in its venv.
"""
import os
import time
import uuid

from confluent_kafka import Consumer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (FlinkKafkaProducer,
                                                 KafkaRecordSerializationSchema, KafkaSink)

BOOTSTRAP = os.environ["PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS"]
JAR = os.path.expanduser("~/.m2/repository/org/apache/flink/flink-sql-connector-kafka/"
                         "3.2.0-1.19/flink-sql-connector-kafka-3.2.0-1.19.jar")
RUN = uuid.uuid4().hex
TOPICS = {name: "compat-sink-%s-%s" % (name, RUN)
          for name in ("keyed", "legacy_stamped", "legacy", "unstamped")}

admin = AdminClient({"bootstrap.servers": BOOTSTRAP})
for future in admin.create_topics([NewTopic(topic, num_partitions=3, replication_factor=1)
                                   for topic in TOPICS.values()]).values():
    future.result()


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


def string_sink(topic, key):
    serializer = KafkaRecordSerializationSchema.builder().set_topic(topic) \
        .set_value_serialization_schema(SimpleStringSchema())
    if key:
        serializer = serializer.set_key_serialization_schema(SimpleStringSchema())
    return KafkaSink.builder().set_bootstrap_servers(BOOTSTRAP) \
        .set_record_serializer(serializer.build()) \
        .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build()


env = StreamExecutionEnvironment.get_execution_environment()
if os.path.exists(JAR):  # PyFlink needs the connector
    env.add_jars("file://" + JAR)
env.set_parallelism(2)
data = [("k%d" % i, 1000 * (i + 1)) for i in range(12)]
records = env.from_collection(data, type_info=Types.TUPLE([Types.STRING(), Types.LONG()]))
stamped = records.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(SecondField())) \
    .map(lambda v: v[0], output_type=Types.STRING())
stamped.sink_to(string_sink(TOPICS["keyed"], key=True))
producer = FlinkKafkaProducer(TOPICS["legacy_stamped"], SimpleStringSchema(),
                              {"bootstrap.servers": BOOTSTRAP})
producer.set_write_timestamp_to_kafka(True)
stamped.add_sink(producer)
stamped.add_sink(FlinkKafkaProducer(TOPICS["legacy"], SimpleStringSchema(),
                                    {"bootstrap.servers": BOOTSTRAP}))
records.map(lambda v: v[0], output_type=Types.STRING()) \
    .sink_to(string_sink(TOPICS["unstamped"], key=False))
started = int(time.time() * 1000)
env.execute("kafka sink timestamps and partitions")
ended = int(time.time() * 1000)


def read_back(topic):
    consumer = Consumer({"bootstrap.servers": BOOTSTRAP, "group.id": "compat-" + RUN,
                         "auto.offset.reset": "earliest"})
    consumer.assign([TopicPartition(topic, partition, 0) for partition in range(3)])
    found = []
    deadline = time.time() + 30
    while len(found) < len(data) and time.time() < deadline:
        message = consumer.poll(1.0)
        if message is None or message.error():
            continue
        _, timestamp = message.timestamp()
        shown = "producer time" if started <= timestamp <= ended else timestamp
        found.append((message.value().decode(), message.partition(), shown))
    consumer.close()
    return sorted(found, key=lambda r: int(r[0][1:]))


for value, partition, timestamp in read_back(TOPICS["keyed"]):
    print("KafkaSink keyed", value, "partition", partition, "timestamp", timestamp)
for value, _, timestamp in read_back(TOPICS["legacy_stamped"]):
    print("FlinkKafkaProducer write_timestamp", value, "timestamp", timestamp)
for name in ("legacy", "unstamped"):
    print(name, sorted({str(timestamp) for _, _, timestamp in read_back(TOPICS[name])}))
