"""A Kafka producer for one sink subtask (confluent-kafka, in the Spark task): what KafkaSink
and FlinkKafkaProducer write through with AT_LEAST_ONCE or NONE (EXACTLY_ONCE adds
transactions: transactions.py).

Why not Spark's Kafka writer: its rows have no timestamp column, so every record would get
the producer's wall-clock time. Flink's KafkaSink gives each Kafka record the stream record's
timestamp, and FlinkKafkaProducer does after set_write_timestamp_to_kafka(True) (PyFlink
1.20.5 with flink-sql-connector-kafka 3.2.0-1.19, read back with a consumer: CreateTime 1000
... 12000 for records given those timestamps; the producer's time for records without one,
and for the legacy producer by default). A downstream job that reads the Kafka timestamps as
event time depends on it.

Partitions: a record with a key goes to murmur2(key) % partitions, as the Java client's
default partitioner does; Flink's KafkaSink sets no partitioner, and PyFlink's
FlinkKafkaProducer passes none either (checked on the same PyFlink: keys k0..k11 landed on
the partitions Java's murmur2 gives). That is librdkafka's `murmur2_random`; librdkafka's own
default (`consistent_random`, CRC32) would put keys on other partitions. A record without a
key goes to a partition of the client's choosing in both.

Delivery: records are produced as they come (memory stays bounded: librdkafka's queue);
flush() waits for every record to be acknowledged and fails on the first that was not.
The sink flushes at the end of input and at the end of each micro-batch (its checkpoint),
before Spark records the batch as done: what Flink's AT_LEAST_ONCE does at a checkpoint.
A failed delivery fails the task at a later record, as Flink's KafkaWriter does (its
producer's callback runs on the client's I/O thread and the writer checks at each write):
librdkafka reports only failed deliveries (delivery.report.only.error, unless the job sets
it), and the writer serves its reports every POLL_EVERY records. A report and a poll for
every record cost as much CPU as the produce itself (issue 41: the sink was a third of the
Python worker's samples in Kafka -> keyed state -> Kafka).
"""
from __future__ import annotations

import re
import sys
import time
from typing import Dict, List, Optional

from pyflink_on_spark.codecs.kafka.brokers import (SINK_WAIT, BrokerErrors,
                                                   broker_wait_seconds, quiet_config,
                                                   unreachable_error)

# Java client settings librdkafka does not have (serializers are Flink's business; a
# transactional.id is the transactional writer's own; max.block.ms: how long the writer
# waits for a silent broker, codecs/kafka/brokers.py)
JAVA_ONLY = {"key.serializer", "value.serializer", "transactional.id", SINK_WAIT}
# the Java client's default partitioner for keyed records (see the module's docstring)
JAVA_PARTITIONER = "murmur2_random"
TIMEOUT_S = 60.0
# close() after a failure: what is still queued is given this long, not TIMEOUT_S (the task
# has failed already; its records are written again by the retry)
CLOSE_TIMEOUT_S = 5.0
# records produced between two polls of librdkafka's reports (failed deliveries, client
# errors): a failure fails the task at most this many records later (flush() checks all)
POLL_EVERY = 512
# Java client names with a librdkafka equivalent of another name
JAVA_RENAMED = {"max.request.size": "message.max.bytes"}
# a PLAIN or SCRAM login in the Java client's JAAS form: its username and password are
# librdkafka's sasl.username / sasl.password
_JAAS_LOGIN = re.compile(r"\b(PlainLoginModule|ScramLoginModule)\b")
_JAAS_OPTION = re.compile(r'\b(username|password)\s*=\s*"([^"]*)"')


class KafkaWriteError(RuntimeError):
    """A write to Kafka failed (its message says what to do)."""


def producer_config(properties: Dict[str, str]) -> Dict[str, str]:
    """librdkafka's producer settings for the sink's properties. The Java client's names are
    librdkafka's for most of what a Flink job sets; the ones that differ are translated
    (JAVA_RENAMED, a SASL login's sasl.jaas.config)."""
    config = {k: str(v) for k, v in properties.items() if k not in JAVA_ONLY}
    for java, librdkafka in JAVA_RENAMED.items():
        if java in config:
            config.setdefault(librdkafka, config.pop(java))
    jaas = config.get("sasl.jaas.config")
    login = _JAAS_LOGIN.search(jaas or "")
    if login is not None:
        del config["sasl.jaas.config"]
        found = dict(_JAAS_OPTION.findall(jaas))
        for option in ("username", "password"):
            if option in found:
                config.setdefault("sasl." + option, found[option])
    config.setdefault("partitioner", JAVA_PARTITIONER)
    return config


def _unknown_property(error: Exception) -> Optional[str]:
    """The property librdkafka's error names as unknown (None: another error)."""
    found = re.search(r'No such configuration property: "([^"]+)"', str(error))
    return found.group(1) if found else None


class KafkaRecordWriter:
    """Produces a sink subtask's records; flush() makes sure they are in Kafka."""

    guarantee = "AT_LEAST_ONCE"

    def __init__(self, properties: Dict[str, str], sink_name: str = "KafkaSink") -> None:
        self.config = producer_config(properties)
        self.sink_name = sink_name
        self.producer = None
        self._failed: Optional[str] = None
        # records produced since the last poll; the queue's length at the last poll while
        # every broker was down (it shrinking says a broker answers again)
        self._unpolled = 0
        self._queued_when_down: Optional[int] = None
        # librdkafka's errors (not its stderr log); a silent broker fails the write after
        # wait_s without progress (codecs/kafka/brokers.py)
        self.errors = BrokerErrors()
        self.wait_s = broker_wait_seconds(properties, SINK_WAIT)

    def describe(self) -> str:
        return "%s (%s)" % (self.sink_name, self.guarantee)

    def _error(self, doing: str, e: Exception) -> KafkaWriteError:
        text = str(e)
        hint = ""
        if "not supported" in text or "Invalid value" in text:
            hint = (" %s writes with confluent-kafka (librdkafka) in the tasks: give the "
                    "property librdkafka's way (its CONFIGURATION.md)." % self.sink_name)
        return KafkaWriteError("%s: %s failed: %s.%s" % (self.describe(), doing, text, hint))

    def open(self) -> None:
        self.producer = self._producer()

    def _producer(self):
        """A Producer for self.config. A property librdkafka does not know is left out with
        a warning, as the Java client ignores the ones it does not know (e.g. buffer.memory,
        max.block.ms: tuning of the Java client's own)."""
        from confluent_kafka import KafkaException, Producer
        ignored: List[str] = []
        while True:
            try:
                settings = quiet_config(self.config, self.errors)
                settings.setdefault("delivery.report.only.error", True)
                settings.setdefault("on_delivery", self._delivered)
                producer = Producer(settings)
                break
            except (KafkaException, ValueError, TypeError) as e:
                unknown = _unknown_property(e)
                if unknown is None or unknown not in self.config:
                    raise self._error("creating the producer", e) from None
                del self.config[unknown]
                ignored.append(unknown)
        if ignored:
            sys.stderr.write("WARNING: %s: producer properties librdkafka does not have were "
                             "ignored: %s\n" % (self.sink_name, ", ".join(sorted(ignored))))
        return producer

    def write(self, topic: str, key: Optional[bytes], value: bytes,
              timestamp: Optional[int] = None) -> None:
        """Produces one record; `timestamp` (epoch ms) becomes its CreateTime, None leaves
        it to the producer (its wall-clock time)."""
        if self._failed is not None:
            raise self._delivery_error()
        producer = self.producer
        stuck_since, stuck_queued = None, 0
        while True:
            try:
                if timestamp is None:
                    producer.produce(topic, value, key)
                else:
                    producer.produce(topic, value, key, timestamp=timestamp)
                break
            except BufferError:   # librdkafka's queue is full: let it send
                # progress is a record leaving the queue (poll() also counts the error
                # callbacks a broker that is down keeps making)
                queued = len(producer)
                if stuck_since is None or queued < stuck_queued:
                    stuck_since, stuck_queued = time.monotonic(), queued
                producer.poll(0.1)
                self._fail_if_unreachable(stuck_since, len(producer))
            except Exception as e:   # noqa: BLE001 - e.g. a record over message.max.bytes
                raise self._error("producing a record to topic %r" % topic, e) from None
        self._unpolled += 1
        if self._unpolled >= POLL_EVERY:
            self._poll()

    def _poll(self) -> None:
        """Serves librdkafka's reports; while every broker was down, a queue that shrank
        since the last poll says one answers again."""
        self._unpolled = 0
        producer = self.producer
        producer.poll(0)
        errors = self.errors
        if not errors.all_down:
            self._queued_when_down = None
            return
        queued, before = len(producer), self._queued_when_down
        if before is not None and queued < before:
            errors.all_down = False
            queued = None
        self._queued_when_down = queued

    def _delivered(self, error, message) -> None:
        if error is None:   # a successful delivery's report (the job asked for them all)
            self.errors.all_down = False   # a broker answers (again)
        elif self._failed is None:
            self._failed = "%s (topic %s)" % (error, message.topic())

    def _fail_if_unreachable(self, stuck_since: float, left: int) -> None:
        """Raises when every broker is down and no record was delivered for wait_s."""
        if self.errors.all_down and time.monotonic() - stuck_since >= self.wait_s:
            raise unreachable_error(self.describe(), self.config.get("bootstrap.servers"),
                                    self.wait_s, self.errors,
                                    "while writing (%d record(s) not delivered)" % left,
                                    SINK_WAIT)

    def _delivery_error(self) -> KafkaWriteError:
        return KafkaWriteError("%s: a record was not delivered: %s"
                               % (self.describe(), self._failed))

    def flush(self) -> None:
        """Waits until every record produced so far is in Kafka; raises if one is not."""
        if self.producer is None:
            return
        deadline = time.monotonic() + TIMEOUT_S
        stuck_since = time.monotonic()
        left = len(self.producer)
        while True:
            now_left = self.producer.flush(min(0.5, max(deadline - time.monotonic(), 0)))
            if self._failed is not None:
                raise self._delivery_error()
            if not now_left or time.monotonic() >= deadline:
                break
            if now_left < left:
                stuck_since = time.monotonic()
            left = now_left
            self._fail_if_unreachable(stuck_since, left)
        left = now_left
        if left:
            raise KafkaWriteError("%s: %d record(s) still not delivered after %.0f s (is the "
                                  "broker at %s reachable?)"
                                  % (self.describe(), left, TIMEOUT_S,
                                     self.config.get("bootstrap.servers")))

    def close(self) -> None:
        """Lets go of the producer. After end of input or a micro-batch nothing is queued
        (flush() ran); after a failure, what is gets CLOSE_TIMEOUT_S to leave."""
        if self.producer is not None:
            producer, self.producer = self.producer, None
            # every broker down: nothing queued can leave, do not wait for it
            producer.flush(0 if self.errors.all_down else CLOSE_TIMEOUT_S)
