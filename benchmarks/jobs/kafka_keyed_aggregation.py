"""Kafka -> keyed rolling sum -> Kafka, bounded: the same PyFlink program for the shim and
real PyFlink (benchmarks/kafka_keyed_aggregation.py starts it and checks the output topic).

    job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC PARALLELISM RECORDS [GUARANTEE]

GUARANTEE: at-least-once (default) or exactly-once (KafkaSink's delivery guarantee).

Input values are "key,amount" strings; every input record yields one output record
"key,running total" (Flink's rolling reduce in STREAMING mode). Prints
RESULT records=N keys=0 seconds=S checksum=0 (the runner checksums the output topic).
"""
import os
import sys
import time

from pyflink.common import Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer,
                                                 KafkaRecordSerializationSchema, KafkaSink,
                                                 KafkaSource)

JAR = os.path.expanduser("~/.m2/repository/org/apache/flink/flink-sql-connector-kafka/"
                         "3.2.0-1.19/flink-sql-connector-kafka-3.2.0-1.19.jar")


def parse(value):
    key, amount = value.split(",")
    return key, int(amount)


def main(bootstrap, input_topic, output_topic, parallelism, records,
         guarantee="at-least-once"):
    env = StreamExecutionEnvironment.get_execution_environment()
    if os.path.exists(JAR):  # PyFlink needs the connector; the shim uses Spark's own
        env.add_jars("file://" + JAR)
    env.set_parallelism(int(parallelism))
    source = KafkaSource.builder() \
        .set_bootstrap_servers(bootstrap) \
        .set_topics(input_topic) \
        .set_group_id("bench-" + output_topic) \
        .set_starting_offsets(KafkaOffsetsInitializer.earliest()) \
        .set_bounded(KafkaOffsetsInitializer.latest()) \
        .set_value_only_deserializer(SimpleStringSchema()) \
        .build()
    sink = KafkaSink.builder() \
        .set_bootstrap_servers(bootstrap) \
        .set_record_serializer(KafkaRecordSerializationSchema.builder()
                               .set_topic(output_topic)
                               .set_value_serialization_schema(SimpleStringSchema())
                               .build()) \
        .set_delivery_guarantee(DeliveryGuarantee.EXACTLY_ONCE if guarantee == "exactly-once"
                                else DeliveryGuarantee.AT_LEAST_ONCE) \
        .set_transactional_id_prefix("bench-" + output_topic) \
        .set_property("transaction.timeout.ms", "600000") \
        .build()
    env.from_source(source, WatermarkStrategy.no_watermarks(), "input") \
        .map(parse, output_type=Types.TUPLE([Types.STRING(), Types.LONG()])) \
        .key_by(lambda pair: pair[0], key_type=Types.STRING()) \
        .reduce(lambda a, b: (a[0], a[1] + b[1])) \
        .map(lambda pair: "%s,%d" % pair, output_type=Types.STRING()) \
        .sink_to(sink)
    start = time.perf_counter()
    env.execute("kafka keyed aggregation")
    seconds = time.perf_counter() - start
    print("RESULT records=%d keys=0 seconds=%.3f checksum=0" % (int(records), seconds))


if __name__ == "__main__":
    main(*sys.argv[1:7])
