"""The unbounded sources of a streaming job, as the executor (executor.py) sees them.

An unbounded source is one object per source stage with three methods:

* ``plan(batch_id) -> list``: what batch ``batch_id`` reads (a monitored directory: its new
  files; a Kafka topic would be its offset ranges per partition). The source records the
  plan in the checkpoint (``SnapshotStore``, under ``sources/<source id>/<batch id>``)
  *before* the batch runs, and a re-run of the batch (after a crash) returns the recorded
  plan instead of planning again: same batch id, same input. An empty list: nothing new
  (the batch still runs: watermarks, idleness, processing time).
* ``frame(plan, session) -> DataFrame``: the plan's records as rows of the boundary schema
  (spark/batch_schema.py), each row's ``dest`` the source subtask that reads it, the same
  subtask in every run of the batch (so that records keep their order per subtask).
* ``compact(before)``: forget plans of batches older than ``before`` (they never run again)
  beyond what planning needs (e.g. the set of files already read); called after every batch.
* ``close()``: releases what it holds (a Kafka metadata client) when the job stops.

``unbounded_source`` picks the implementation for a stage's source spec.
"""
from __future__ import annotations

from typing import List, Protocol


class UnboundedSource(Protocol):
    def plan(self, batch_id: int) -> List: ...

    def frame(self, plan: List, session): ...

    def compact(self, before: int) -> None: ...

    def close(self) -> None: ...


def is_unbounded_source(spec) -> bool:
    """A monitored FileSource, a KafkaSource without a stopping offset, an RMQSource, or a
    HybridSource whose last source is one of the first two."""
    from pyflink_on_spark.specs.sources import RabbitMQSourceSpec
    if isinstance(spec, RabbitMQSourceSpec):      # RMQSource: never ends
        return True
    from pyflink_on_spark.specs.table_feeds import TableFeed
    if isinstance(spec, TableFeed):     # a table of unbounded streams of the same job
        return True
    from pyflink_on_spark.specs.datagen_source import DatagenSourceSpec
    if isinstance(spec, DatagenSourceSpec):     # an unbounded datagen table's rows
        return True
    from pyflink_on_spark.specs.sources import FileSourceSpec, HybridSourceSpec, KafkaSourceSpec
    if isinstance(spec, KafkaSourceSpec):
        return not spec.bounded
    if isinstance(spec, HybridSourceSpec):      # its last source is the unbounded one
        return is_unbounded_source(spec.sources[-1])
    return isinstance(spec, FileSourceSpec) and spec.monitor_interval_ms > 0


def is_unbounded(job) -> bool:
    """Whether a CompiledJob reads an unbounded source (what decides Structured Streaming).
    Here, not in the streaming executor, so that a bounded job does not import that."""
    return any(is_unbounded_source(stage.source.frame)
               for stage in job.stages if stage.source is not None)


# what an unbounded job's sources may be, for the messages that say so
UNBOUNDED_SOURCES = ("monitored FileSources (monitor_continuously), unbounded KafkaSources, "
                     "RMQSources, unbounded datagen tables, and HybridSources whose last source "
                     "is one of these")


def check_unbounded_source(spec) -> None:
    """Raises NotImplementedError unless ``spec`` has an UnboundedSource here."""
    if not is_unbounded_source(spec):
        raise NotImplementedError(
            "Unbounded jobs read %s so far (got %r)" % (UNBOUNDED_SOURCES, spec))


def unbounded_source(spec, store, source_id: str, parallelism: int) -> UnboundedSource:
    """The UnboundedSource of source spec ``spec`` (a stage's StageSource.frame)."""
    check_unbounded_source(spec)
    from pyflink_on_spark.specs.table_feeds import TableFeed
    if isinstance(spec, TableFeed):
        from pyflink_on_spark.spark.streaming.table_feeds import TableFeedSource
        return TableFeedSource(spec)
    from pyflink_on_spark.specs.datagen_source import DatagenSourceSpec
    if isinstance(spec, DatagenSourceSpec):
        from pyflink_on_spark.spark.streaming.datagen_source import GeneratedRows
        return GeneratedRows(spec, store, source_id, parallelism)
    from pyflink_on_spark.specs.sources import RabbitMQSourceSpec
    if isinstance(spec, RabbitMQSourceSpec):
        from pyflink_on_spark.spark.streaming.rabbitmq_queue import RabbitMQQueue
        return RabbitMQQueue(spec, store, source_id, parallelism)
    from pyflink_on_spark.specs.sources import HybridSourceSpec, KafkaSourceSpec
    if isinstance(spec, HybridSourceSpec):
        from pyflink_on_spark.spark.streaming.hybrid_index import HybridSourceIndex
        return HybridSourceIndex(spec, store, source_id, parallelism)
    if isinstance(spec, KafkaSourceSpec):
        from pyflink_on_spark.spark.streaming.kafka_index import KafkaOffsetIndex
        return KafkaOffsetIndex(spec, store, source_id, parallelism)
    from pyflink_on_spark.spark.streaming.file_source import MonitoredFiles
    return MonitoredFiles(spec, store, source_id, parallelism)
