"""Kafka records the value format cannot decode: each topic (one partition) holds good records
and bad ones, read by a bounded KafkaSource at parallelism 1. Without ignore_parse_errors a
JSON or CSV record that does not parse fails the job (only whether it failed is printed: the
error text differs by design); with it, a record that does not parse at all is skipped, a
field that does not convert is None (CSV: a missing column too). SimpleStringSchema never
fails: bytes that are not UTF-8 become U+FFFD as Java's new String(bytes, UTF_8) makes them
(one per encoded surrogate, e.g. b"\\xed\\xa0\\x80").

The broker's bootstrap.servers come from PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS (set by
the tests' `kafka_broker` fixture); real PyFlink 1.20 needs flink-sql-connector-kafka
3.2.0-1.19 in the local Maven repository (see string_word_count.py) and confluent-kafka in
its venv.
"""
import os
import uuid

from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic
from py4j.protocol import Py4JJavaError
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.kafka import KafkaOffsetsInitializer, KafkaSource
from pyflink.datastream.formats.csv import CsvRowDeserializationSchema
from pyflink.datastream.formats.json import JsonRowDeserializationSchema

BOOTSTRAP = os.environ["PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS"]
JAR = os.path.expanduser("~/.m2/repository/org/apache/flink/flink-sql-connector-kafka/"
                         "3.2.0-1.19/flink-sql-connector-kafka-3.2.0-1.19.jar")

admin = AdminClient({"bootstrap.servers": BOOTSTRAP})
producer = Producer({"bootstrap.servers": BOOTSTRAP})


def topic_of(values):
    topic = "compat-bad-records-" + uuid.uuid4().hex
    admin.create_topics([NewTopic(topic, num_partitions=1, replication_factor=1)])[topic].result()
    for value in values:
        producer.produce(topic, value)
    assert producer.flush(30) == 0
    return topic


env = StreamExecutionEnvironment.get_execution_environment()
if os.path.exists(JAR):  # PyFlink needs the connector; the shim uses Spark's own
    env.add_jars("file://" + JAR)
env.set_parallelism(1)


def read(title, values, schema):
    source = KafkaSource.builder().set_bootstrap_servers(BOOTSTRAP) \
        .set_topics(topic_of(values)).set_group_id("compat-bad-records") \
        .set_starting_offsets(KafkaOffsetsInitializer.earliest()) \
        .set_bounded(KafkaOffsetsInitializer.latest()) \
        .set_value_only_deserializer(schema).build()
    records = env.from_source(source, WatermarkStrategy.no_watermarks(), title) \
        .map(repr, output_type=Types.STRING())
    try:
        with records.execute_and_collect() as results:
            print(title, list(results))
    except Py4JJavaError:
        print(title, "the job failed")


row = Types.ROW_NAMED(["name", "n"], [Types.STRING(), Types.INT()])
json_values = [b'{"name":"a","n":1}', b'not json', b'{"name":"b","n":"x"}', b'{"name":"c"}',
               b'{"name":"d","n":2.5}', b'', b'{"name":"e","n":4}']
read("json", json_values, JsonRowDeserializationSchema.builder().type_info(row).build())
read("json ignore_parse_errors", json_values,
     JsonRowDeserializationSchema.builder().type_info(row).ignore_parse_errors().build())
read("json fail_on_missing_field", [b'{"name":"a","n":1}', b'{"name":"c"}'],
     JsonRowDeserializationSchema.builder().type_info(row).fail_on_missing_field().build())
read("csv", [b"a,1", b"b,x", b"c,3"], CsvRowDeserializationSchema.Builder(row).build())
read("csv ignore_parse_errors", [b"a,1", b"b,x", b"c,3", b"d", b"e,5,6"],
     CsvRowDeserializationSchema.Builder(row).set_ignore_parse_errors(True).build())
read("string", [b"ok", b"bad \xff\xfe utf8", b"cut \xe2\x82", "\u00e9t\u00e9".encode(),
                b"x\xc0\xafy", b"\xed\xa0\x80z", b"\xed\xbf", b""], SimpleStringSchema())
