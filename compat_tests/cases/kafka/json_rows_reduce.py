"""Kafka round trip of JSON rows: a bounded job writes Row records to a fresh topic with
JsonRowSerializationSchema (KafkaSink, AT_LEAST_ONCE), a second
job reads the values back with a bounded KafkaSource and JsonRowDeserializationSchema and
sums the amounts per name (a rolling reduce: every update printed, in the topic's order).

The broker's bootstrap.servers come from PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS (set by
the tests' `kafka_broker` fixture); real PyFlink 1.20 needs flink-sql-connector-kafka
3.2.0-1.19 in the local Maven repository (see string_word_count.py).
"""
import os
import uuid

from pyflink.common import Row, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer,
                                                 KafkaRecordSerializationSchema, KafkaSink,
                                                 KafkaSource)
from pyflink.datastream.formats.json import (JsonRowDeserializationSchema,
                                             JsonRowSerializationSchema)

BOOTSTRAP = os.environ["PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS"]
JAR = os.path.expanduser("~/.m2/repository/org/apache/flink/flink-sql-connector-kafka/"
                         "3.2.0-1.19/flink-sql-connector-kafka-3.2.0-1.19.jar")
TOPIC = "compat-json-" + uuid.uuid4().hex

env = StreamExecutionEnvironment.get_execution_environment()
if os.path.exists(JAR):  # PyFlink needs the connector; the shim uses Spark's own
    env.add_jars("file://" + JAR)
env.set_parallelism(1)

row_type = Types.ROW_NAMED(["name", "amount", "ok"],
                           [Types.STRING(), Types.LONG(), Types.BOOLEAN()])
orders = [Row("alice", 3, True), Row("bob", 5, False), Row("alice", 7, True),
          Row("carol", -2, True), Row("bob", 1, True), Row("alice", 0, False)]
env.from_collection(orders, type_info=row_type).sink_to(
    KafkaSink.builder()
    .set_bootstrap_servers(BOOTSTRAP)
    .set_record_serializer(
        KafkaRecordSerializationSchema.builder()
        .set_topic(TOPIC)
        .set_value_serialization_schema(
            JsonRowSerializationSchema.builder().with_type_info(row_type).build())
        .build())
    .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE)
    .build())
env.execute("write json rows")

source = KafkaSource.builder() \
    .set_bootstrap_servers(BOOTSTRAP) \
    .set_topics(TOPIC) \
    .set_group_id("compat-json") \
    .set_starting_offsets(KafkaOffsetsInitializer.earliest()) \
    .set_bounded(KafkaOffsetsInitializer.latest()) \
    .set_value_only_deserializer(
        JsonRowDeserializationSchema.builder().type_info(row_type).build()) \
    .build()
env.from_source(source, WatermarkStrategy.no_watermarks(), "orders") \
    .map(lambda r: Row(name=r.name, total=r.amount, orders=1, all_ok=r.ok),
         output_type=Types.ROW_NAMED(["name", "total", "orders", "all_ok"],
                                     [Types.STRING(), Types.LONG(), Types.INT(),
                                      Types.BOOLEAN()])) \
    .key_by(lambda r: r.name, key_type=Types.STRING()) \
    .reduce(lambda a, b: Row(name=a.name, total=a.total + b.total, orders=a.orders + b.orders,
                             all_ok=a.all_ok and b.all_ok)) \
    .print()
env.execute("sum json rows")
