"""A transactional Kafka producer for one (sink, subtask): what KafkaSink /
FlinkKafkaProducer with EXACTLY_ONCE write through (confluent-kafka, in the Spark task).

The plain writer (producer.py: properties, partitions, timestamps, delivery) delivers at
least once; exactly once is built on it here:

* one transactional.id per (sink, subtask): ``<prefix>-<subtask>``. ``open()`` runs
  init_transactions(), which fences a zombie producer of the same id (a killed task attempt,
  a killed driver's tasks) and aborts the transaction it left open;
* records are produced as they come (memory stays bounded: librdkafka's queue) into one
  transaction, committed by ``commit()``: at the end of input of a bounded job, at the end
  of each micro-batch of an unbounded one;
* a micro-batch's commit also records the batch id, atomically, in the same transaction:
  send_offsets_to_transaction() commits an offset for the consumer group
  ``pyflink-on-spark-batches.<transactional.id>`` whose value is the batch id and whose
  metadata names the checkpoint (the job's checkpoint directory id). ``last_committed_batch``
  reads it back, so a batch re-run after a crash (Kafka committed, Spark's commit not yet
  written) knows its records are already in Kafka and writes nothing.
"""
from __future__ import annotations

import time
from typing import Dict, Optional

from pyflink_on_spark.codecs.kafka.producer import KafkaRecordWriter, KafkaWriteError

# Flink's KafkaSinkBuilder sets transaction.timeout.ms to one hour (DEFAULT_KAFKA_TRANSACTION
# _TIMEOUT, read in flink-connector-kafka 3.2.0-1.19's KafkaSinkBuilder)
FLINK_TRANSACTION_TIMEOUT_MS = "3600000"
MARKER_GROUP_PREFIX = "pyflink-on-spark-batches."
_MARKER = "pyflink-on-spark checkpoint %s batch %d"
_TIMEOUT_S = 60.0


class KafkaTransactionError(KafkaWriteError):
    """A transactional write to Kafka failed (its message says what to do)."""


class TransactionalKafkaWriter(KafkaRecordWriter):
    """Produces into one Kafka transaction at a time under a fixed transactional.id."""

    guarantee = "EXACTLY_ONCE"

    def __init__(self, properties: Dict[str, str], transactional_id: str,
                 sink_name: str = "KafkaSink") -> None:
        super().__init__(properties, sink_name)
        self.config.setdefault("transaction.timeout.ms", FLINK_TRANSACTION_TIMEOUT_MS)
        self.config["transactional.id"] = transactional_id
        self.transactional_id = transactional_id
        self.in_transaction = False
        self.marker_topic: Optional[str] = None   # the first topic of the transaction

    def describe(self) -> str:
        return "%s (EXACTLY_ONCE, transactional.id %r)" % (self.sink_name,
                                                           self.transactional_id)

    def _error(self, doing: str, e: Exception) -> KafkaTransactionError:
        text = str(e)
        if "TRANSACTION_TIMEOUT" in text or "transaction timeout" in text.lower():
            hint = (" The producer's transaction.timeout.ms (%s ms; Flink's KafkaSink default "
                    "is one hour) is above the broker's transaction.max.timeout.ms (default "
                    "15 minutes): set_property('transaction.timeout.ms', ...) lower, or raise "
                    "the broker's limit." % self.config["transaction.timeout.ms"])
        elif "FENCED" in text.upper():
            hint = (" Another producer now uses this transactional id: give each KafkaSink "
                    "its own set_transactional_id_prefix(...), and run one copy of the job.")
        else:
            return KafkaTransactionError(str(super()._error(doing, e)))
        return KafkaTransactionError("%s: %s failed: %s.%s" % (self.describe(), doing, text,
                                                              hint))

    def open(self) -> None:
        """Creates the producer and fences earlier producers of the same transactional id
        (their open transaction is aborted)."""
        from confluent_kafka import KafkaException
        from pyflink_on_spark.codecs.kafka.brokers import SINK_WAIT, await_answer
        super().open()
        # a broker that is down: one clear error within the wait, not init_transactions'
        await_answer(self.producer, self.errors, self.config.get("bootstrap.servers"),
                     self.wait_s, self.describe(), setting=SINK_WAIT)
        try:
            self.producer.init_transactions(_TIMEOUT_S)
        except KafkaException as e:
            raise self._error("init_transactions", e) from None

    def last_committed_batch(self, checkpoint: str) -> Optional[int]:
        """The newest micro-batch of checkpoint ``checkpoint`` whose records this
        transactional id committed (None: none). Read after open(): no transaction of this
        id is pending then, and the read waits for stable offsets."""
        from confluent_kafka import ConsumerGroupTopicPartitions, KafkaException
        from confluent_kafka.admin import AdminClient
        group = MARKER_GROUP_PREFIX + self.transactional_id
        admin = AdminClient({"bootstrap.servers": self.config["bootstrap.servers"]})
        prefix = "pyflink-on-spark checkpoint %s batch " % checkpoint
        deadline = time.monotonic() + _TIMEOUT_S
        while True:
            try:
                found = admin.list_consumer_group_offsets(
                    [ConsumerGroupTopicPartitions(group)], require_stable=True,
                    request_timeout=_TIMEOUT_S)[group].result()
            except KafkaException as e:
                if e.args[0].retriable() and time.monotonic() < deadline:
                    time.sleep(0.2)
                    continue
                raise self._error("reading the last committed batch", e) from None
            entries = found.topic_partitions or []
            if any(tp.offset < 0 and tp.metadata is None for tp in entries) and \
                    time.monotonic() < deadline:
                time.sleep(0.2)   # an offset still being completed (unstable): ask again
                continue
            batches = [tp.offset for tp in entries
                       if tp.metadata is not None and tp.metadata.startswith(prefix)]
            return max(batches) if batches else None

    def write(self, topic: str, key: Optional[bytes], value: bytes,
              timestamp: Optional[int] = None) -> None:
        if not self.in_transaction:
            self._begin()
        if self.marker_topic is None:
            self.marker_topic = topic
        super().write(topic, key, value, timestamp)

    def _begin(self) -> None:
        from confluent_kafka import KafkaException
        try:
            self.producer.begin_transaction()
        except KafkaException as e:
            raise self._error("begin_transaction", e) from None
        self.in_transaction = True
        self.marker_topic = None
        self._failed = None

    def commit(self, checkpoint: Optional[str] = None, batch_id: Optional[int] = None) -> bool:
        """Commits the open transaction, with the micro-batch ``batch_id`` of checkpoint
        ``checkpoint`` recorded in it when given. Returns whether there was one."""
        from confluent_kafka import Consumer, KafkaException, TopicPartition
        if not self.in_transaction:
            return False
        producer = self.producer
        try:
            if batch_id is not None:
                group = MARKER_GROUP_PREFIX + self.transactional_id
                consumer = Consumer({"bootstrap.servers": self.config["bootstrap.servers"],
                                     "group.id": group, "enable.auto.commit": False})
                try:
                    marker = TopicPartition(self.marker_topic, 0, batch_id,
                                            metadata=_MARKER % (checkpoint, batch_id))
                    producer.send_offsets_to_transaction(
                        [marker], consumer.consumer_group_metadata(), _TIMEOUT_S)
                finally:
                    consumer.close()
            producer.commit_transaction(_TIMEOUT_S)
        except KafkaException as e:
            detail = " (a record failed: %s)" % self._failed if self._failed else ""
            self.abort()
            raise self._error("committing the transaction%s" % detail, e) from None
        self.in_transaction = False
        return True

    def abort(self) -> None:
        """Aborts the open transaction, if any (best effort: the next open() of this
        transactional id aborts it anyway)."""
        if self.in_transaction and self.producer is not None:
            self.in_transaction = False
            try:
                self.producer.abort_transaction(_TIMEOUT_S)
            except Exception:
                pass

    def close(self) -> None:
        self.abort()
        super().close()
