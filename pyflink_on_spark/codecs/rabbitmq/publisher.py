"""RMQSink's publisher for one sink subtask (in the Spark task): each record's bytes published
to the default exchange with the queue's name as routing key and no properties, as Flink's
RMQSink.invoke does (`basicPublish("", queueName, null, msg)`: not persistent, as there).

At least once: the channel is in confirm mode; records are published without waiting, and
flush() waits until the broker confirmed every one of them (a nack or a lost connection
fails the task: its records are written again by the retry or the restarted batch). The sink
flushes at the end of input and at the end of each micro-batch of an unbounded job, before
Spark records the batch as done. (Flink's RMQSink publishes without confirms: a record the
broker lost after a checkpoint is gone. Confirms cost little here, and they are what makes
"written" mean written.)

pika's BlockingChannel confirms one message at a time (each publish waits for its ack:
~5k/s); the channel implementation underneath it takes a confirm callback, so records are
published through it and acks (single or multiple) are counted as they arrive.
"""
from __future__ import annotations

from typing import Any, Dict

from pyflink_on_spark.codecs.rabbitmq.connection import (RabbitMQConnectionError,
                                                         connect, connection_lost,
                                                         declare_queue, require_pika)

# records published between two reads of the broker's acks (keeps the socket moving)
PUMP_EVERY = 1000
FLUSH_TIMEOUT_S = 60.0


class ConfirmedPublisher:
    def __init__(self, settings: Dict[str, Any], queue_name: str, who: str = "RMQSink") -> None:
        self.settings = settings
        self.queue_name = queue_name
        self.who = who
        self.connection = None
        self.channel = None
        self._impl = None
        self.published = 0       # delivery tags handed out (confirm mode numbers from 1)
        self.confirmed = 0       # every tag up to this one is acked
        self._acked_above = set()   # single acks above `confirmed`
        self.nacked = 0
        self._since_pump = 0

    def open(self) -> None:
        pika = require_pika(self.who)
        self._pika = pika
        self.connection = connect(self.settings, self.who)
        self.channel = self.connection.channel()
        declare_queue(self.channel, self.queue_name, self.settings, self.who)
        self._impl = self.channel._impl      # see the module's docstring
        self._impl.confirm_delivery(self._on_confirm)
        self.connection.process_data_events(0)   # Confirm.SelectOk

    def _on_confirm(self, frame) -> None:
        method = frame.method
        if isinstance(method, self._pika.spec.Basic.Nack):
            self.nacked += 1
            return
        tag = method.delivery_tag
        if method.multiple:
            self.confirmed = max(self.confirmed, tag)
        else:
            self._acked_above.add(tag)
        while self.confirmed + 1 in self._acked_above:
            self.confirmed += 1
            self._acked_above.discard(self.confirmed)
        if self._acked_above:
            self._acked_above = {t for t in self._acked_above if t > self.confirmed}

    def publish(self, body: bytes) -> None:
        try:
            self._impl.basic_publish("", self.queue_name, body)
            self.published += 1
            self._since_pump += 1
            if self._since_pump >= PUMP_EVERY:
                self._since_pump = 0
                self.connection.process_data_events(0)
        except self._pika.exceptions.AMQPError as e:
            raise connection_lost(self.settings, self.who, e, "publishing") from None
        if self.nacked:
            self._fail_nacked()

    def flush(self) -> None:
        """Returns once the broker confirmed every record published so far."""
        import time
        deadline = time.monotonic() + FLUSH_TIMEOUT_S
        try:
            while self.confirmed < self.published and not self.nacked:
                if time.monotonic() > deadline:
                    raise RabbitMQConnectionError(
                        "%s: RabbitMQ did not confirm %d published records within %.0f s "
                        "(queue %r)" % (self.who, self.published - self.confirmed,
                                        FLUSH_TIMEOUT_S, self.queue_name))
                self.connection.process_data_events(0.05)
        except self._pika.exceptions.AMQPError as e:
            raise connection_lost(self.settings, self.who, e,
                                  "waiting for the broker's confirms") from None
        if self.nacked:
            self._fail_nacked()

    def _fail_nacked(self) -> None:
        raise RabbitMQConnectionError(
            "%s: RabbitMQ refused (nack) %d record(s) published to the queue %r (the broker "
            "could not take them: its log says why, e.g. a full disk or a queue length limit)"
            % (self.who, self.nacked, self.queue_name))

    def close(self) -> None:
        connection, self.connection = self.connection, None
        if connection is not None and connection.is_open:
            try:
                connection.close()
            except Exception:
                pass    # closing after a failure: the failure is what is reported
