"""The sink producer's librdkafka settings made from a Flink job's Java client properties,
and what happens to the ones librdkafka does not have (no broker needed: creating a
producer does not connect)."""
import time

import pytest

from pyflink_on_spark.codecs.kafka.producer import (POLL_EVERY, KafkaRecordWriter,
                                                    KafkaWriteError, producer_config)
from pyflink_on_spark.codecs.kafka.transactions import TransactionalKafkaWriter

NO_BROKER = "127.0.0.1:1"


def test_keyed_records_are_partitioned_as_the_java_client_does_unless_told_otherwise():
    assert producer_config({"bootstrap.servers": "b:1"})["partitioner"] == "murmur2_random"
    assert producer_config({"bootstrap.servers": "b:1", "partitioner": "random"}) \
        ["partitioner"] == "random"


def test_java_client_names_are_translated_or_left_out():
    config = producer_config({
        "bootstrap.servers": "b:1", "key.serializer": "x", "value.serializer": "y",
        "max.request.size": "2000000", "acks": "all",
        "sasl.jaas.config": 'org.apache.kafka.common.security.scram.ScramLoginModule '
                            'required username="alice" password="s3 cr=t";'})
    assert config == {"bootstrap.servers": "b:1", "message.max.bytes": "2000000",
                      "acks": "all", "sasl.username": "alice", "sasl.password": "s3 cr=t",
                      "partitioner": "murmur2_random"}


def test_properties_librdkafka_lacks_are_ignored_with_a_warning(capfd):
    writer = KafkaRecordWriter({"bootstrap.servers": NO_BROKER, "buffer.memory": "33554432",
                                "max.block.ms": "1000", "linger.ms": "5"}, "KafkaSink")
    writer.open()
    try:
        assert writer.producer is not None
        assert "buffer.memory" not in writer.config and writer.config["linger.ms"] == "5"
        # max.block.ms: the shim's own wait for a silent broker (codecs/kafka/brokers.py)
        assert "max.block.ms" not in writer.config and writer.wait_s == 1.0
    finally:
        writer.producer = None   # nothing to deliver: no flush against the missing broker
    err = capfd.readouterr().err
    assert "KafkaSink: producer properties librdkafka does not have were ignored: " \
           "buffer.memory\n" in err


def test_a_java_only_setting_librdkafka_refuses_is_an_error_naming_the_sink():
    writer = KafkaRecordWriter({"bootstrap.servers": NO_BROKER,
                                "ssl.truststore.location": "/x.jks"}, "FlinkKafkaProducer")
    with pytest.raises(KafkaWriteError, match=r"FlinkKafkaProducer \(AT_LEAST_ONCE\): creating "
                                              r"the producer failed: .*TrustStores.*librdkafka's"):
        writer.open()


def test_the_transactional_writer_keeps_the_plain_writers_settings():
    writer = TransactionalKafkaWriter({"bootstrap.servers": "b:1", "max.request.size": "9"},
                                      "kafka-sink-0")
    assert writer.config == {"bootstrap.servers": "b:1", "message.max.bytes": "9",
                             "partitioner": "murmur2_random",
                             "transaction.timeout.ms": "3600000",
                             "transactional.id": "kafka-sink-0"}


def test_a_record_that_is_not_delivered_fails_the_flush_and_the_next_write():
    writer = KafkaRecordWriter({"bootstrap.servers": NO_BROKER, "message.timeout.ms": "300"},
                               "KafkaSink")
    writer.open()
    writer.write("out", b"k", b"v", 1000)
    with pytest.raises(KafkaWriteError, match=r"KafkaSink \(AT_LEAST_ONCE\): a record was not "
                                              r"delivered: .*timed out.* \(topic out\)"):
        writer.flush()
    with pytest.raises(KafkaWriteError, match="a record was not delivered"):
        writer.write("out", b"k", b"w")
    writer.close()


def test_a_failed_delivery_fails_a_later_write_without_a_flush():
    # librdkafka reports failures only; the writer polls for them every POLL_EVERY records
    writer = KafkaRecordWriter({"bootstrap.servers": NO_BROKER, "message.timeout.ms": "100"},
                               "KafkaSink")
    writer.open()
    writer.write("out", b"k", b"v", 1000)
    deadline = time.monotonic() + 10   # the client scans for timed-out records every second
    with pytest.raises(KafkaWriteError, match=r"KafkaSink \(AT_LEAST_ONCE\): a record was not "
                                              r"delivered: .*timed out.* \(topic out\)"):
        while time.monotonic() < deadline:
            for _ in range(POLL_EVERY):
                writer.write("out", b"k", b"w")
            time.sleep(0.2)
    writer.close()
