"""The writer task of KafkaSink / FlinkKafkaProducer with EXACTLY_ONCE: each record is
encoded (topic, key, value) and produced, with its timestamp as kafka_sink.py gives it, into
this subtask's Kafka transaction (codecs/kafka/transactions.py). Nothing leaves the task.

Bounded jobs commit the transaction at the end of input. Unbounded jobs commit one per
micro-batch (begin_batch / end_batch, the checkpoint lifecycle of base.py) with the
batch id recorded in it; a re-run of a batch whose transaction is already committed (the
driver died after the tasks committed, before the batch completed) writes nothing.
"""
from __future__ import annotations

from typing import Optional

from pyflink_on_spark.codecs.kafka.transactions import TransactionalKafkaWriter
from pyflink_on_spark.runtime.operators.kafka_sink import KafkaSinkOperator
from pyflink_on_spark.specs.sinks import KafkaTransactionalSinkSpec


class KafkaTransactionalSinkOperator(KafkaSinkOperator):
    """KafkaSinkOperator writing in transactions: `spec.records` says what to write."""

    def __init__(self, spec: KafkaTransactionalSinkSpec) -> None:
        super().__init__(spec, spec.records)
        self._skip = False               # this batch's records are already in Kafka
        self._checkpoint: Optional[str] = None
        self._batch: Optional[int] = None
        self._last_committed: Optional[int] = None
        self._read_committed = False

    def _new_writer(self) -> TransactionalKafkaWriter:
        spec = self.spec
        return TransactionalKafkaWriter(
            dict(spec.records.properties),
            "%s-%d" % (spec.transactional_id_prefix, self.task.subtask_index), spec.sink_name)

    def begin_batch(self, context) -> None:
        """A micro-batch starts: skip it if this subtask already committed it (or a later
        one) for this checkpoint (its naming seed)."""
        if context.version is not None:
            self.begin_transaction(context.naming_seed, context.version)

    def begin_transaction(self, checkpoint: str, batch_id: int) -> None:
        if not self._read_committed or checkpoint != self._checkpoint:
            self._last_committed = self.writer.last_committed_batch(checkpoint)
            self._read_committed = True
        self._checkpoint = checkpoint
        self._batch = batch_id
        self._skip = self._last_committed is not None and batch_id <= self._last_committed

    def process_element(self, value, timestamp) -> None:
        if not self._skip:
            super().process_element(value, timestamp)

    def commit_batch(self) -> None:
        """The micro-batch ends (its checkpoint): commit its records with its id."""
        if self._skip:
            return
        if self.writer.commit(self._checkpoint, self._batch):
            self._last_committed = self._batch

    def end_batch(self, now: int) -> None:
        self.commit_batch()   # the batch's transaction, with the batch id in it

    def end_input(self) -> None:
        self.writer.commit()
