"""The writer task of an upsert-kafka table's sink with sink.buffer-flush.* (specs.sinks.
KafkaUpsertBufferSinkSpec, table/upsert_kafka_tables.py): as Flink's ReducingUpsertWriter,
each encoded record replaces the buffered one of its key (a tombstone too); the buffer is
written, each key's last record in the keys' first order, when it holds max-rows keys, when
the interval passed since the last flush (checked as records come and as the task polls
processing time), and at the end of input or of each micro-batch (its checkpoint)."""
from __future__ import annotations

import time
from typing import Dict, Optional, Tuple

from pyflink_on_spark.runtime.operators.kafka_sink import KafkaSinkOperator, kafka_timestamp


class UpsertBufferKafkaSinkOperator(KafkaSinkOperator):
    has_timers = True

    def __init__(self, spec) -> None:
        super().__init__(spec)
        self.max_rows = spec.max_rows
        self.interval_ms = spec.interval_ms
        # (topic, key) -> (value, timestamp), in the keys' first order
        self.buffer: Dict[Tuple[str, Optional[bytes]], Tuple[Optional[bytes], Optional[int]]] = {}
        self.last_flush = _now_ms()

    def process_element(self, value, timestamp) -> None:
        topic, key, encoded = self._encoded(value)
        self.buffer[(topic, key)] = (encoded, kafka_timestamp(self.records, timestamp))
        if len(self.buffer) >= self.max_rows:
            self.write_buffer()
        else:
            self.advance_processing_time(_now_ms())

    def advance_processing_time(self, now: int) -> None:
        if now - self.last_flush >= self.interval_ms:
            self.write_buffer()

    def write_buffer(self) -> None:
        """The buffered records to the producer (delivered at the writer's flush)."""
        buffer, self.buffer = self.buffer, {}
        for (topic, key), (value, timestamp) in buffer.items():
            self.writer.write(topic, key, value, timestamp)
        self.last_flush = _now_ms()

    def flush(self) -> None:
        self.write_buffer()
        super().flush()

    def end_input(self) -> None:
        self.write_buffer()
        super().end_input()


def _now_ms() -> int:
    return int(time.time() * 1000)
