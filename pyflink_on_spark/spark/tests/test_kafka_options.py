"""How the Kafka specs the connectors build map onto Spark's Kafka option names and onto the
sink's producer, and how the sink's records are encoded in the task (no broker runs here:
only the mapping is tested)."""
import json

import pytest

from pyflink_on_spark.common.serialization import SimpleStringSchema
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.connectors.kafka import (
    FlinkKafkaConsumer, FlinkKafkaProducer, KafkaOffsetsInitializer,
    KafkaRecordSerializationSchema, KafkaSink, KafkaSource, KafkaTopicPartition)
from pyflink_on_spark.codecs.kafka.producer import producer_config
from pyflink_on_spark.runtime.operators.kafka_sink import kafka_record_encoder, kafka_timestamp
from pyflink_on_spark.runtime.registry import build_operator
from pyflink_on_spark.spark.kafka import kafka_source_options, split_owner
from pyflink_on_spark.specs.sources import CommittedOffsets
from pyflink_on_spark.specs.stage import JobConfig


def _source(**settings):
    builder = KafkaSource.builder().set_bootstrap_servers("b1:9092,b2:9092") \
        .set_value_only_deserializer(SimpleStringSchema())
    for name, args in settings.items():
        getattr(builder, name)(*args)
    return builder.build()


def _options(source):
    return kafka_source_options(source._source_definition())


def test_kafka_source_options():
    source = _source(set_topics=("t1", "t2"), set_group_id=("g",),
                     set_bounded=(KafkaOffsetsInitializer.latest(),),
                     set_property=("fetch.min.bytes", "10"),
                     set_properties=({"auto.offset.reset": "latest",
                                      "partition.discovery.interval.ms": "10"},),
                     set_client_id_prefix=("cid",))
    assert _options(source) == {
        "kafka.bootstrap.servers": "b1:9092,b2:9092", "subscribe": "t1,t2",
        "kafka.group.id": "g", "kafka.client.id": "cid", "kafka.fetch.min.bytes": "10",
        "startingOffsets": "earliest", "endingOffsets": "latest"}
    assert source._produced_type == Types.STRING()


def test_kafka_offsets_and_subscriptions():
    tp0, tp1 = KafkaTopicPartition("t", 0), KafkaTopicPartition("t", 1)
    source = _source(set_partitions=({tp1, tp0},),
                     set_starting_offsets=(KafkaOffsetsInitializer.offsets({tp0: 5, tp1: 7}),),
                     set_bounded=(KafkaOffsetsInitializer.timestamp(1700000000000),))
    options = _options(source)
    assert json.loads(options["assign"]) == {"t": [0, 1]}
    assert json.loads(options["startingOffsets"]) == {"t": {"0": 5, "1": 7}}
    assert options["endingTimestamp"] == "1700000000000"
    pattern = _source(set_topic_pattern=("t.*",), set_bounded=(KafkaOffsetsInitializer.latest(),),
                      set_starting_offsets=(KafkaOffsetsInitializer.timestamp(5),))
    assert _options(pattern)["subscribePattern"] == "t.*"
    assert _options(pattern)["startingTimestamp"] == "5"


def test_flink_kafka_consumer_option_mapping():
    with pytest.warns(DeprecationWarning):
        consumer = FlinkKafkaConsumer(["a", "b"], SimpleStringSchema(),
                                      {"bootstrap.servers": "b:1", "group.id": "g",
                                       "max.poll.records": "5"})
    # Flink's default start: the group's committed offsets, else auto.offset.reset (latest)
    assert consumer._kafka_spec().starting == CommittedOffsets("latest")
    options = kafka_source_options(consumer.set_start_from_earliest()._kafka_spec())
    assert options == {"kafka.bootstrap.servers": "b:1", "kafka.group.id": "g",
                       "kafka.max.poll.records": "5", "subscribe": "a,b",
                       "startingOffsets": "earliest"}
    assert consumer.get_produced_type() == Types.STRING()


def test_kafka_sink_and_producer_settings_and_encoding():
    serializer = KafkaRecordSerializationSchema.builder().set_topic("out") \
        .set_key_serialization_schema(SimpleStringSchema()) \
        .set_value_serialization_schema(SimpleStringSchema()).build()
    sink = KafkaSink.builder().set_bootstrap_servers("b:1").set_record_serializer(serializer) \
        .set_property("linger.ms", "5").set_property("value.serializer", "x").build()
    spec = sink._sink_definition(Types.STRING())
    # the Java client's partitioner for keyed records (codecs/kafka/producer.py)
    assert producer_config(dict(spec.properties)) == {
        "bootstrap.servers": "b:1", "linger.ms": "5", "partitioner": "murmur2_random"}
    operator = build_operator(spec, JobConfig())
    assert operator._encode("v") == ("out", b"v", b"v")
    assert (spec.sink_name, spec.write_timestamps) == ("KafkaSink", True)
    producer = FlinkKafkaProducer("p", SimpleStringSchema(), {"bootstrap.servers": "b:2",
                                                              "acks": "all"})
    producer_spec = producer._sink_definition(None)
    assert producer_config(dict(producer_spec.properties)) == {
        "bootstrap.servers": "b:2", "acks": "all", "partitioner": "murmur2_random"}
    assert kafka_record_encoder(producer_spec)("x") == ("p", None, b"x")
    assert (producer_spec.sink_name, producer_spec.write_timestamps) == \
        ("FlinkKafkaProducer", False)
    producer.set_write_timestamp_to_kafka(True)
    assert producer._sink_definition(None).write_timestamps


def test_kafka_record_timestamps_follow_flink():
    """KafkaSink writes the stream record's timestamp, none for a record without one or
    with a negative one; FlinkKafkaProducer only after set_write_timestamp_to_kafka(True)
    (seen on PyFlink 1.20: compat case kafka/sink_timestamps_partitions)."""
    serializer = KafkaRecordSerializationSchema.builder().set_topic("out") \
        .set_value_serialization_schema(SimpleStringSchema()).build()
    sink = KafkaSink.builder().set_bootstrap_servers("b:1").set_record_serializer(serializer) \
        .build()._sink_definition(None)
    assert [kafka_timestamp(sink, t) for t in (1000, 0, None, -5)] == [1000, 0, None, None]
    legacy = FlinkKafkaProducer("p", SimpleStringSchema(), {"bootstrap.servers": "b:2"})
    assert kafka_timestamp(legacy._sink_definition(None), 1000) is None


def test_kafka_topic_selector_encoding():
    serializer = KafkaRecordSerializationSchema.builder() \
        .set_topic_selector(lambda v: "t-" + v) \
        .set_value_serialization_schema(SimpleStringSchema()).build()
    sink = KafkaSink.builder().set_bootstrap_servers("b:1").set_record_serializer(serializer) \
        .build()
    assert kafka_record_encoder(sink._sink_definition(None))("x") == ("t-x", None, b"x")


def test_kafka_split_owner_follows_flinks_enumerator():
    from pyflink_on_spark.common._java_text import java_string_hash
    start = ((java_string_hash("orders") * 31) & 0x7FFFFFFF) % 3
    assert [split_owner("orders", p, 3) for p in range(4)] == \
        [(start + p) % 3 for p in range(4)]
