"""Kafka round trip with SimpleStringSchema: a bounded job writes lines to a fresh topic
through KafkaSink (AT_LEAST_ONCE), a second job reads the topic back with a bounded
KafkaSource (earliest -> latest) and keeps a rolling word count.

The broker's bootstrap.servers come from PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS (set by
the tests' `kafka_broker` fixture). Real PyFlink 1.20 needs flink-sql-connector-kafka
3.2.0-1.19 (the newest build Maven Central serves for 1.19/1.20) from the local Maven repository:
  mvn dependency:get -Dartifact=org.apache.flink:flink-sql-connector-kafka:3.2.0-1.19
"""
import os
import uuid

from pyflink.common import Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer,
                                                 KafkaRecordSerializationSchema, KafkaSink,
                                                 KafkaSource)

BOOTSTRAP = os.environ["PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS"]
JAR = os.path.expanduser("~/.m2/repository/org/apache/flink/flink-sql-connector-kafka/"
                         "3.2.0-1.19/flink-sql-connector-kafka-3.2.0-1.19.jar")
TOPIC = "compat-words-" + uuid.uuid4().hex

env = StreamExecutionEnvironment.get_execution_environment()
if os.path.exists(JAR):  # PyFlink needs the connector; the shim uses Spark's own
    env.add_jars("file://" + JAR)
env.set_parallelism(1)

lines = ["to be or not to be", "that is the question", "to be is to do", "", "be quick"]
env.from_collection(lines, type_info=Types.STRING()).sink_to(
    KafkaSink.builder()
    .set_bootstrap_servers(BOOTSTRAP)
    .set_record_serializer(KafkaRecordSerializationSchema.builder()
                           .set_topic(TOPIC)
                           .set_value_serialization_schema(SimpleStringSchema())
                           .build())
    .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE)
    .build())
env.execute("write lines")

source = KafkaSource.builder() \
    .set_bootstrap_servers(BOOTSTRAP) \
    .set_topics(TOPIC) \
    .set_group_id("compat-words") \
    .set_starting_offsets(KafkaOffsetsInitializer.earliest()) \
    .set_bounded(KafkaOffsetsInitializer.latest()) \
    .set_value_only_deserializer(SimpleStringSchema()) \
    .build()
env.from_source(source, WatermarkStrategy.no_watermarks(), "lines") \
    .flat_map(lambda line: line.split(), output_type=Types.STRING()) \
    .map(lambda word: (word, 1), output_type=Types.TUPLE([Types.STRING(), Types.INT()])) \
    .key_by(lambda pair: pair[0]) \
    .reduce(lambda a, b: (a[0], a[1] + b[1])) \
    .print()
env.execute("count words")
