"""Unbounded KafkaSource through the streaming executor, against the session's real broker:
records produced while the job runs reach the Kafka sink, and a topic-pattern subscription
picks up a topic created after the job started."""
import sys
import time
import uuid

import cloudpickle

from pyflink_on_spark.common import WatermarkStrategy
from pyflink_on_spark.common.job_status import JobStatus
from pyflink_on_spark.common.serialization import SimpleStringSchema
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.base import DeliveryGuarantee
from pyflink_on_spark.datastream.connectors.kafka import (KafkaOffsetsInitializer,
                                                          KafkaRecordSerializationSchema,
                                                          KafkaSink, KafkaSource)
from pyflink_on_spark.spark.tests.test_kafka_broker_bounded import (consume_all, new_topics,
                                                                    produce)

cloudpickle.register_pickle_by_value(sys.modules[__name__])


def _wait_for(predicate, timeout=600):   # generous: a loaded 2-core machine
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.5)
    raise AssertionError("timed out")


def test_pattern_subscription_reads_new_records_and_new_topics(spark, kafka_broker, tmp_path):
    prefix = "events-" + uuid.uuid4().hex[:8]
    (first,) = new_topics(kafka_broker, prefix + "-a")
    (sink_topic,) = new_topics(kafka_broker, "counts")
    produce(kafka_broker, first, [b"a:1", b"b:1"])
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    env.enable_checkpointing(300)
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + str(tmp_path / "ckpt"))
    source = KafkaSource.builder().set_bootstrap_servers(kafka_broker) \
        .set_topic_pattern(prefix + "-.*").set_group_id("pattern-job") \
        .set_starting_offsets(KafkaOffsetsInitializer.earliest()) \
        .set_value_only_deserializer(SimpleStringSchema()).build()
    sink = KafkaSink.builder().set_bootstrap_servers(kafka_broker) \
        .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(sink_topic)
                               .set_value_serialization_schema(SimpleStringSchema()).build()) \
        .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build()
    # a running count per key (keyed state kept across micro-batches)
    env.from_source(source, WatermarkStrategy.no_watermarks(), "events") \
        .map(lambda s: (s.split(":")[0], int(s.split(":")[1])),
             output_type=Types.TUPLE([Types.STRING(), Types.INT()])) \
        .key_by(lambda t: t[0], key_type=Types.STRING()) \
        .reduce(lambda a, b: (a[0], a[1] + b[1])) \
        .map(lambda t: "%s=%d" % t, output_type=Types.STRING()) \
        .sink_to(sink)
    client = env.execute_async("kafka pattern job")
    seen = []

    def outputs(n):
        assert client.get_job_status().result() == JobStatus.RUNNING   # no failed batch
        seen[:] = sorted(v.decode() for _, v in consume_all(kafka_broker, sink_topic, n))
        return len(seen) >= n

    try:
        _wait_for(lambda: outputs(2))
        assert seen == ["a=1", "b=1"]
        produce(kafka_broker, first, [b"a:5"])
        (second,) = new_topics(kafka_broker, prefix + "-b")   # matches the pattern
        produce(kafka_broker, second, [b"b:10", b"c:2"])
        _wait_for(lambda: outputs(5))
    finally:
        client.cancel().result()
    assert seen == ["a=1", "a=6", "b=1", "b=11", "c=2"]
