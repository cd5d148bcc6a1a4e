"""The writer half of a sink written by Spark's own writer (a "frame" sink, e.g. Kafka):
records are encoded in the task and leave through the sink's driver exit; the Spark layer
hands those rows to the DataFrame writer."""
from __future__ import annotations

import functools

from pyflink_on_spark.runtime.operators.base import Operator
from pyflink_on_spark.specs.sinks import KafkaSinkSpec


class RecordEncoderOperator(Operator):
    """`encode(value)` -> a tuple of the writer's columns (Kafka: topic, key, value)."""

    def __init__(self, encode, converter=None) -> None:
        super().__init__()
        self.encode = encode
        self.converter = converter

    def process_element(self, value, timestamp) -> None:
        try:   # inline rather than call_user: the per-record path
            if self.converter is not None:
                value = self.converter(value)
            encoded = self.encode(value)
        except Exception as e:
            raise self.user_error(e) from None
        self.output.collect(encoded, None)

    def process_watermark(self, watermark: int) -> None:
        self.current_watermark = watermark


def kafka_record_encoder(spec: KafkaSinkSpec):
    """value -> (topic, key bytes or None, value bytes), as the Kafka sink's serializers
    (and its topic selector) make a producer record."""
    return functools.partial(_encode_kafka_record, spec.topic, spec.topic_selector,
                             spec.key_serializer, spec.value_serializer)


def _encode_kafka_record(topic, topic_selector, serialize_key, serialize_value, value):
    target = topic if topic_selector is None else topic_selector.apply(value)
    key = serialize_key(value) if serialize_key is not None else None
    return (target, key, serialize_value(value))
