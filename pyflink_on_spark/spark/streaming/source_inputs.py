"""The unbounded sources a streaming job reads, behind one interface: what batch N reads
(``input_for_batch``: recorded in the checkpoint before the batch runs, read back by a
re-run) and the split rows of that input (``frame``)."""
from __future__ import annotations

from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.specs.sources import FileSourceSpec, KafkaSourceSpec


def is_unbounded_source(frame) -> bool:
    if isinstance(frame, KafkaSourceSpec):
        return not frame.bounded
    return bool(getattr(frame, "monitor_interval_ms", 0))


class MonitoredFiles:
    """A monitored directory (FileSource.monitor_continuously): the batch's new files."""

    def __init__(self, store: SnapshotStore, source_id: str, spec: FileSourceSpec) -> None:
        from pyflink_on_spark.spark.streaming.file_index import FileIndex
        self.spec = spec
        self.index = FileIndex(store, source_id, spec.paths)

    def input_for_batch(self, batch_id: int):
        return self.index.files_for_batch(batch_id)

    def frame(self, entries, parallelism: int, session):
        from pyflink_on_spark.spark.streaming.file_source import monitored_file_frame
        return monitored_file_frame(self.spec, entries, parallelism, session)

    def close(self) -> None:
        pass


def source_input(store: SnapshotStore, source_id: str, spec):
    if isinstance(spec, KafkaSourceSpec):
        from pyflink_on_spark.spark.streaming.kafka_index import KafkaOffsetIndex
        return KafkaOffsetIndex(store, source_id, spec)
    return MonitoredFiles(store, source_id, spec)
