"""A Kafka broker that is down, or a host name that does not resolve: each Kafka source and
sink fails with one clear error (the servers, what they answered, what to check) within the
wait its properties give (default.api.timeout.ms for sources, max.block.ms for sinks), and
librdkafka's per-attempt log lines stay off stderr (codecs/kafka/brokers.py)."""
import socket
import sys
import time

import cloudpickle
import pytest
from py4j.protocol import Py4JJavaError

from pyflink_on_spark.codecs.kafka.brokers import KafkaUnreachableError, check_reachable
from pyflink_on_spark.codecs.kafka.producer import KafkaRecordWriter
from pyflink_on_spark.codecs.kafka.transactions import TransactionalKafkaWriter
from pyflink_on_spark.common import WatermarkStrategy
from pyflink_on_spark.common.serialization import SimpleStringSchema
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.kafka import (FlinkKafkaConsumer,
                                                          KafkaOffsetsInitializer,
                                                          KafkaRecordSerializationSchema,
                                                          KafkaSink, KafkaSource)

cloudpickle.register_pickle_by_value(sys.modules[__name__])

UNRESOLVED = "no-such-host.invalid:9092"


def _closed_port() -> str:
    """host:port on loopback where nothing listens (a port just let go of)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return "127.0.0.1:%d" % s.getsockname()[1]


def _no_client_log(capfd) -> None:
    err = capfd.readouterr().err
    assert "|FAIL|" not in err and "Connection refused" not in err, err


def test_a_source_check_fails_within_default_api_timeout_naming_the_servers(capfd):
    servers = _closed_port()
    started = time.monotonic()
    with pytest.raises(KafkaUnreachableError) as raised:
        check_reachable(servers, [("default.api.timeout.ms", "1000")], "KafkaSource")
    assert time.monotonic() - started < 3.0
    message = str(raised.value)
    assert message.startswith("KafkaSource: no Kafka broker answered at bootstrap.servers "
                              "'%s' within 1 s: " % servers)
    assert "Connection refused" in message and "default.api.timeout.ms" in message
    assert message.count("Connection refused") == 1   # repeated attempts said once
    assert isinstance(raised.value, Py4JJavaError)    # as a failed job on PyFlink
    _no_client_log(capfd)


def test_a_host_that_does_not_resolve_is_named(capfd):
    with pytest.raises(KafkaUnreachableError, match="Failed to resolve 'no-such-host.invalid"):
        check_reachable(UNRESOLVED, [("default.api.timeout.ms", "1000")], "KafkaSource")
    _no_client_log(capfd)


def test_a_live_broker_passes_the_check_at_once(kafka_broker):
    started = time.monotonic()
    check_reachable(kafka_broker, [], "KafkaSource")
    assert time.monotonic() - started < 2.0


def test_a_writer_whose_broker_is_down_fails_after_max_block_ms(capfd):
    servers = _closed_port()
    writer = KafkaRecordWriter({"bootstrap.servers": servers, "max.block.ms": "1000"})
    writer.open()
    started = time.monotonic()
    try:
        for n in range(3):
            writer.write("t", None, b"%d" % n)
        with pytest.raises(KafkaUnreachableError,
                           match=r"KafkaSink \(AT_LEAST_ONCE\): no Kafka broker answered at "
                                 r"bootstrap.servers '%s' within 1 s while writing \(3 "
                                 r"record\(s\) not delivered\): .*Connection refused.*"
                                 r"max.block.ms" % servers):
            writer.flush()
    finally:
        writer.close()
    assert time.monotonic() - started < 4.0
    err = capfd.readouterr().err
    # max.block.ms is the shim's, not given to librdkafka (which would warn about it)
    assert "ignored" not in err and "|FAIL|" not in err and "TERMINATE" not in err, err


def test_a_transactional_writer_fails_at_open(capfd):
    writer = TransactionalKafkaWriter({"bootstrap.servers": UNRESOLVED, "max.block.ms": "1000"},
                                      "down-0")
    started = time.monotonic()
    try:
        with pytest.raises(KafkaUnreachableError, match=r"EXACTLY_ONCE.*Failed to resolve"):
            writer.open()
    finally:
        writer.close()
    assert time.monotonic() - started < 4.0
    _no_client_log(capfd)


def _source(servers: str, bounded: bool) -> KafkaSource:
    builder = KafkaSource.builder().set_bootstrap_servers(servers).set_topics("t") \
        .set_group_id("g").set_starting_offsets(KafkaOffsetsInitializer.earliest()) \
        .set_value_only_deserializer(SimpleStringSchema()) \
        .set_property("default.api.timeout.ms", "1000")
    if bounded:
        builder = builder.set_bounded(KafkaOffsetsInitializer.latest())
    return builder.build()


def _fails_fast(env, servers: str, who: str, capfd, limit_s: float = 15.0) -> None:
    capfd.readouterr()
    started = time.monotonic()
    with pytest.raises(Py4JJavaError) as raised:
        env.execute("broker down")
    assert time.monotonic() - started < limit_s
    message = str(raised.value)
    assert message.startswith("%s: no Kafka broker answered at bootstrap.servers '%s' within "
                              "1 s" % (who, servers)), message
    assert "Traceback" not in message and len(message.splitlines()) == 1, message
    err = capfd.readouterr().err
    assert len(err.splitlines()) <= 5, err


@pytest.mark.parametrize("bounded", [True, False], ids=["bounded", "unbounded"])
def test_a_kafka_source_job_whose_broker_is_down_fails_fast(spark, kafka_broker, bounded,
                                                            capfd):
    servers = _closed_port()
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.from_source(_source(servers, bounded), WatermarkStrategy.no_watermarks(), "k").print()
    _fails_fast(env, servers, "KafkaSource", capfd)


def test_a_flink_kafka_consumer_job_whose_broker_is_down_fails_fast(spark, kafka_broker,
                                                                    capfd):
    servers = _closed_port()
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.add_source(FlinkKafkaConsumer("t", SimpleStringSchema(), {
        "bootstrap.servers": servers, "group.id": "g", "default.api.timeout.ms": "1000"})) \
        .print()
    _fails_fast(env, servers, "KafkaSource", capfd)


def test_a_kafka_sink_job_whose_broker_is_down_fails_fast(spark, capfd):
    servers = _closed_port()
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.from_collection(["a", "b"], type_info=Types.STRING()).sink_to(
        KafkaSink.builder().set_bootstrap_servers(servers)
        .set_property("max.block.ms", "1000")
        .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic("t")
                               .set_value_serialization_schema(SimpleStringSchema()).build())
        .build())
    _fails_fast(env, servers, "KafkaSink (AT_LEAST_ONCE)", capfd)


def test_spark_reads_are_bounded_by_the_same_wait():
    from pyflink_on_spark.spark.kafka import wait_options

    def options(**props):
        builder = KafkaSource.builder().set_bootstrap_servers("b:1").set_topics("t") \
            .set_value_only_deserializer(SimpleStringSchema())
        for key, value in props.items():
            builder = builder.set_property(key.replace("_", "."), value)
        return wait_options(builder.build()._source_definition())

    # a broker lost in the middle of a read: the tasks' polls and the driver's offset
    # lookups give up after the wait, not Spark's 120 s (three times over)
    assert options() == {"kafkaConsumer.pollTimeoutMs": "5000",
                         "kafka.request.timeout.ms": "5000",
                         "kafka.default.api.timeout.ms": "5000"}
    assert options(default_api_timeout_ms="2000") == {"kafkaConsumer.pollTimeoutMs": "2000"}
    # the Java client wants default.api.timeout.ms >= request.timeout.ms
    assert options(request_timeout_ms="30000") == {"kafkaConsumer.pollTimeoutMs": "5000",
                                                   "kafka.request.timeout.ms": "30000",
                                                   "kafka.default.api.timeout.ms": "30000"}


def test_a_writer_whose_queue_is_full_fails_after_max_block_ms(capfd):
    # a broker gone while the producer's queue is full: write() waits for room, and fails
    # when no record left the queue for the wait (the client's error callbacks, which a
    # broker that is down keeps making, are no progress)
    servers = _closed_port()
    writer = KafkaRecordWriter({"bootstrap.servers": servers, "max.block.ms": "1000",
                                "queue.buffering.max.messages": "5"})
    writer.open()
    started = time.monotonic()
    try:
        with pytest.raises(KafkaUnreachableError, match=r"while writing \(5 record"):
            for n in range(50):
                writer.write("t", None, b"%d" % n)
    finally:
        writer.close()
    assert time.monotonic() - started < 4.0
    _no_client_log(capfd)
