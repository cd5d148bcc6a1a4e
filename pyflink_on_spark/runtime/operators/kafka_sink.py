"""The writer task of KafkaSink / FlinkKafkaProducer with AT_LEAST_ONCE or NONE: each record
is encoded (topic, key, value) and produced by this subtask's Kafka producer with its
timestamp (codecs/kafka/producer.py says why Spark's Kafka writer is not used). Nothing
leaves the task.

The producer is flushed at the end of input and at the end of each micro-batch of an
unbounded job (end_batch), so a batch Spark records as done has its
records in Kafka; a restarted batch writes its records again (duplicates, never loss).
"""
from __future__ import annotations

import functools
import importlib
from typing import Optional

from pyflink_on_spark.codecs.kafka.producer import KafkaRecordWriter
from pyflink_on_spark.runtime.operators.base import Operator
from pyflink_on_spark.specs.sinks import KafkaSinkSpec


def kafka_record_encoder(spec: KafkaSinkSpec):
    """value -> (topic, key bytes or None, value bytes), as the Kafka sink's serializers
    (and its topic selector) make a producer record."""
    return functools.partial(_encode_kafka_record, spec.topic, spec.topic_selector,
                             spec.key_serializer, spec.value_serializer)


def _encode_kafka_record(topic, topic_selector, serialize_key, serialize_value, value):
    target = topic if topic_selector is None else topic_selector.apply(value)
    key = serialize_key(value) if serialize_key is not None else None
    return (target, key, serialize_value(value))


def kafka_timestamp(spec: KafkaSinkSpec, timestamp: Optional[int]) -> Optional[int]:
    """The Kafka record's timestamp for a stream record's: Flink's KafkaSink writes the
    stream record's timestamp (none when it has none or a negative one), FlinkKafkaProducer
    only after set_write_timestamp_to_kafka(True)."""
    if not spec.write_timestamps or timestamp is None or timestamp < 0:
        return None
    return timestamp


def require_confluent_kafka(sink_name: str) -> None:
    try:
        importlib.import_module("confluent_kafka")
    except ImportError:
        raise ImportError("%s writes with the confluent-kafka package in the sink's tasks: "
                          "pip install 'pyflink-on-spark[kafka]' (or confluent-kafka)"
                          % sink_name) from None


class KafkaSinkOperator(Operator):

    def __init__(self, spec, records: Optional[KafkaSinkSpec] = None) -> None:
        """spec: the sink's spec; records: what to write, when not the spec itself."""
        super().__init__()
        self.spec = spec
        self.records: KafkaSinkSpec = records if records is not None else spec
        self.writer: Optional[KafkaRecordWriter] = None
        self._encode = kafka_record_encoder(self.records)
        self._convert = self.records.converter

    def open(self) -> None:
        require_confluent_kafka(self.records.sink_name)
        writer = self._new_writer()
        writer.open()
        self.writer = writer

    def _new_writer(self) -> KafkaRecordWriter:
        return KafkaRecordWriter(dict(self.records.properties), self.records.sink_name)

    def process_element(self, value, timestamp) -> None:
        topic, key, encoded = self._encoded(value)
        self.writer.write(topic, key, encoded, kafka_timestamp(self.records, timestamp))

    def _encoded(self, value):
        """(topic, key bytes, value bytes) of a record, converted to its declared type
        first; a failing user serializer raises with its traceback."""
        try:
            if self._convert is not None:
                value = self._convert(value)
            return self._encode(value)
        except Exception as e:
            raise self.user_error(e) from None

    def process_watermark(self, watermark: int) -> None:
        self.current_watermark = watermark

    def flush(self) -> None:
        """The micro-batch ends (its checkpoint): every record of it is in Kafka."""
        self.writer.flush()

    def end_input(self) -> None:
        self.writer.flush()

    def end_batch(self, now: int) -> None:
        self.flush()   # the batch's records are in Kafka before the batch is done

    def close(self) -> None:
        if self.writer is not None:
            writer, self.writer = self.writer, None
            writer.close()
