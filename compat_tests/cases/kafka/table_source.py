"""Kafka tables (CREATE TABLE ... WITH ('connector' = 'kafka', 'format' = 'json')): a bounded job
writes JSON lines to a fresh topic; a bounded table of it (scan.bounded.mode latest-offset)
queried and read through to_data_stream (a missing field is NULL, an unknown one ignored);
then the same topic as an unbounded table (no bounded mode) through to_data_stream and
execute_and_collect(), closed after the rows the topic holds (which cancels the job).

The broker's bootstrap.servers come from PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS (the
tests' `kafka_broker` fixture). Real PyFlink 1.20 needs flink-sql-connector-kafka 3.2.0-1.19:
  mvn dependency:get -Dartifact=org.apache.flink:flink-sql-connector-kafka:3.2.0-1.19
"""
import os
import uuid

from pyflink.common import Types
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import KafkaRecordSerializationSchema, KafkaSink
from pyflink.table import StreamTableEnvironment

BOOTSTRAP = os.environ["PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS"]
JAR = os.path.expanduser("~/.m2/repository/org/apache/flink/flink-sql-connector-kafka/"
                         "3.2.0-1.19/flink-sql-connector-kafka-3.2.0-1.19.jar")
TOPIC = "compat-orders-" + uuid.uuid4().hex

env = StreamExecutionEnvironment.get_execution_environment()
if os.path.exists(JAR):
    env.add_jars("file://" + JAR)
env.set_parallelism(1)
lines = ['{"id": 1, "item": "apple", "qty": 3, "price": 0.5}',
         '{"id": 2, "item": "pear", "qty": 10, "price": 2.25}',
         '{"id": 3, "item": "fig", "price": 4.0}',
         '{"id": 4, "item": "kiwi", "qty": 7, "price": 1.5, "extra": true}']
env.from_collection(lines, type_info=Types.STRING()).sink_to(
    KafkaSink.builder().set_bootstrap_servers(BOOTSTRAP)
    .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(TOPIC)
                           .set_value_serialization_schema(SimpleStringSchema()).build())
    .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("write orders")

t_env = StreamTableEnvironment.create(env)
t_env.execute_sql("""
    CREATE TABLE orders (id INT, item STRING, qty BIGINT, price DOUBLE) WITH (
      'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
      'properties.group.id' = 'compat-orders', 'scan.startup.mode' = 'earliest-offset',
      'scan.bounded.mode' = 'latest-offset', 'format' = 'json')""" % (TOPIC, BOOTSTRAP))
t_env.from_path("orders").print_schema()
table = t_env.sql_query("SELECT item, qty * 2 AS doubled, price FROM orders WHERE price > 1")
t_env.to_data_stream(table).map(lambda row: str(row), output_type=Types.STRING()).print()
env.execute("read orders")

t_env.execute_sql("""
    CREATE TABLE live_orders (id INT, item STRING, qty BIGINT, price DOUBLE) WITH (
      'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
      'properties.group.id' = 'compat-live-orders', 'scan.startup.mode' = 'earliest-offset',
      'format' = 'json')""" % (TOPIC, BOOTSTRAP))
live = t_env.sql_query("SELECT id, UPPER(item) AS item FROM live_orders WHERE qty IS NOT NULL")
results = []
with t_env.to_data_stream(live).map(lambda row: "%d %s" % (row.id, row.item),
                                    output_type=Types.STRING()) \
        .execute_and_collect("live orders") as iterator:
    for value in iterator:
        results.append(value)
        if len(results) == 3:
            break
for line in results:
    print(line)
print("closed after", len(results))
