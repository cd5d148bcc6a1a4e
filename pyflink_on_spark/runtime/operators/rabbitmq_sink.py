"""The writer task of RMQSink: each record serialized by the sink's SerializationSchema and
published by this subtask's publisher (codecs/rabbitmq/publisher.py), confirmed by the broker
at the end of input and of each micro-batch of an unbounded job (end_batch), so a batch Spark
records as done has its records in the queue; a re-run batch publishes its records again
(duplicates, never loss). Nothing leaves the task."""
from __future__ import annotations

from typing import Optional

from pyflink_on_spark.codecs.rabbitmq.connection import RabbitMQConnectionError
from pyflink_on_spark.codecs.rabbitmq.publisher import ConfirmedPublisher
from pyflink_on_spark.runtime.operators.base import Operator
from pyflink_on_spark.specs.sinks import RabbitMQSinkSpec


class RabbitMQSinkOperator(Operator):

    def __init__(self, spec: RabbitMQSinkSpec) -> None:
        super().__init__()
        self.spec = spec
        self.publisher: Optional[ConfirmedPublisher] = None
        self._serialize = spec.serializer
        self._convert = spec.converter

    def open(self) -> None:
        publisher = ConfirmedPublisher(dict(self.spec.connection), self.spec.queue_name)
        try:
            publisher.open()
        except Exception as e:
            publisher.close()
            # one clear message (host:port, what to check), as a JdbcSink's connect failure
            raise self.user_error(e) from None
        self.publisher = publisher

    def process_element(self, value, timestamp) -> None:
        try:
            if self._convert is not None:
                value = self._convert(value)
            body = self._serialize(value)
        except Exception as e:
            raise self.user_error(e) from None
        self._run(self.publisher.publish, body)

    def _run(self, action, *args) -> None:
        try:
            action(*args)
        except RabbitMQConnectionError as e:
            raise self.user_error(e) from None

    def process_watermark(self, watermark: int) -> None:
        self.current_watermark = watermark

    def end_input(self) -> None:
        self._run(self.publisher.flush)

    def end_batch(self, now: int) -> None:
        self._run(self.publisher.flush)   # the batch's records are confirmed before the batch is done

    def close(self) -> None:
        if self.publisher is not None:
            publisher, self.publisher = self.publisher, None
            publisher.close()
