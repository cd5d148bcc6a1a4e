"""A HybridSource whose last source is unbounded (specs.sources.HybridSourceSpec), as an
unbounded source of the streaming executor (sources.py).

Flink switches to the next source when every reader of the current one has finished. Here a
micro-batch runs every subtask to the end of its input, so the switch is a batch boundary:
batch 0 reads the whole first bounded source, the next batch the whole second one, and so
on; the batch after the last bounded source reads the unbounded source, and every later
batch goes on with it (its own plans: kafka_index.py, file_index.py).

What a batch of a bounded source reads is written to ``<checkpoint>/sources/<source>/<N>``
before the batch runs (``{"source": k, "files": [[path, index], ...]}`` for a FileSource,
``{"source": k, "ranges": [[topic, partition, start, end], ...]}`` for a bounded
KafkaSource, its offsets resolved once), and so is the switch: the first batch of the
unbounded source writes ``{"source": last}``; the unbounded source keeps its own records
under ``<checkpoint>/sources/<source>/tail``. A batch re-run after a crash reads its record:
the same source and the same input. A batch with no record of its own continues from the
newest record before it: after a bounded source's batch, the next source; after the switch,
the unbounded source. So neither the files are read again after the switch, nor is the
unbounded source started twice, whenever the driver dies.
"""
from __future__ import annotations

import json
from dataclasses import replace
from typing import List, Optional

from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.specs import sources


class HybridPlan(list):
    """A batch's input: the plan of the source it reads (``source``: its position in the
    HybridSource)."""

    def __init__(self, entries, source: int) -> None:
        super().__init__(entries)
        self.source = source


class HybridSourceIndex:
    """The UnboundedSource (sources.py) of a HybridSourceSpec."""

    def __init__(self, spec: sources.HybridSourceSpec, store: SnapshotStore, source_id: str,
                 parallelism: int) -> None:
        from pyflink_on_spark.spark.streaming.sources import unbounded_source
        self.spec = spec
        self.store = store
        self.parallelism = parallelism
        self.dir = store.path("sources", source_id)
        self.last = len(spec.sources) - 1
        self.tail = unbounded_source(spec.sources[-1], store, source_id + "/tail", parallelism)

    def _record_path(self, batch_id: int) -> str:
        return "%s/%d" % (self.dir, batch_id)

    def _read(self, batch_id: int) -> dict:
        return json.loads(self.store.read_bytes(self._record_path(batch_id)))

    def _newest_before(self, batch_id: int) -> Optional[dict]:
        earlier = [int(n) for n in self.store.list_names(self.dir)
                   if n.isdigit() and int(n) < batch_id]
        return self._read(max(earlier)) if earlier else None

    def plan(self, batch_id: int) -> HybridPlan:
        """What batch ``batch_id`` reads: recorded, or planned now."""
        if self.store.exists(self._record_path(batch_id)):
            return self._recorded(batch_id, self._read(batch_id))
        before = self._newest_before(batch_id)
        source = 0 if before is None else min(before["source"] + 1, self.last)
        if before is not None and before["source"] == self.last:
            return HybridPlan(self.tail.plan(batch_id), self.last)
        if source == self.last:
            # the switch: recorded before the unbounded source plans its first batch
            self.store.write_bytes(self._record_path(batch_id),
                                   json.dumps({"source": source}).encode())
            return HybridPlan(self.tail.plan(batch_id), source)
        spec = self.spec.sources[source]
        if isinstance(spec, sources.FileSourceSpec):
            record = {"source": source, "files": _listed_files(spec)}
        else:
            record = {"source": source, "ranges": _resolved_ranges(spec)}
        self.store.write_bytes(self._record_path(batch_id), json.dumps(record).encode())
        return self._recorded(batch_id, record)

    def _recorded(self, batch_id: int, record: dict) -> HybridPlan:
        source = record["source"]
        if source == self.last:
            return HybridPlan(self.tail.plan(batch_id), source)
        if "files" in record:
            entries = [tuple(e) for e in record["files"]]
            _check_recorded_files(self.spec.sources[source], entries, batch_id)
            return HybridPlan(entries, source)
        return HybridPlan([tuple(r) for r in record["ranges"]], source)

    def frame(self, plan: HybridPlan, session):
        if plan.source == self.last:
            return self.tail.frame(list(plan), session)
        spec = self.spec.sources[plan.source]
        if isinstance(spec, sources.FileSourceSpec):
            from pyflink_on_spark.spark.streaming.file_source import monitored_file_frame
            return monitored_file_frame(spec, list(plan), self.parallelism, session)
        from pyflink_on_spark.spark.batch_schema import rows_frame
        from pyflink_on_spark.spark.kafka import kafka_scan_frame
        if not plan:
            return rows_frame(session, [])
        return kafka_scan_frame(_ranges_spec(spec, list(plan)), self.parallelism, session)

    def compact(self, before: int) -> None:
        # the bounded sources' records stay (one per bounded source): they say where the
        # switch was
        self.tail.compact(before)

    def close(self) -> None:
        self.tail.close()


def _listed_files(spec: sources.FileSourceSpec) -> List[list]:
    """Every file of the bounded FileSource, sorted by path, with its index (index %
    parallelism: the subtask that reads it, as the bounded FileSource gives files out)."""
    from pyflink_on_spark.spark.streaming.file_index import list_files
    from pyflink_on_spark.codecs.files.fs import filesystem_of
    from pyarrow import fs as pafs
    for uri in spec.paths:
        filesystem, root = filesystem_of(uri)
        if filesystem.get_file_info(root).type == pafs.FileType.NotFound:
            raise FileNotFoundError("FileSource: the path %s does not exist (or is not "
                                    "readable)" % uri)
    return [[f, i] for i, f in enumerate(list_files(spec.paths))]


def _check_recorded_files(spec: sources.FileSourceSpec, entries, batch_id: int) -> None:
    """A re-run batch reads only files under the source's own paths (file_index.py)."""
    from pyflink_on_spark.spark.streaming.file_index import is_under, root_of
    roots = [root_of(uri) for uri in spec.paths]
    for f, _ in entries:
        if not any(is_under(f, prefix, base) for prefix, base in roots):
            raise ValueError(
                "pyflink_on_spark: the checkpoint's record of batch %d names %s, which is not "
                "under the HybridSource's FileSource paths %s: run with the paths it was "
                "recorded with, or from a new checkpoint directory."
                % (batch_id, f, ", ".join(spec.paths)))


def _resolved_ranges(spec: sources.KafkaSourceSpec) -> List[list]:
    """The bounded KafkaSource's offset ranges, resolved now (kafka_offsets.py)."""
    from pyflink_on_spark.spark.kafka_offsets import resolve_bounded
    resolved = resolve_bounded(spec)
    if resolved is None:
        return []
    stops = {(t, p): o for t, p, o in resolved.stopping.offsets}
    return [[t, p, s, stops[(t, p)]] for t, p, s in resolved.starting.offsets]


def _ranges_spec(spec: sources.KafkaSourceSpec, ranges) -> sources.KafkaSourceSpec:
    return replace(spec, topics=(), topic_pattern=None,
                   partitions=tuple((t, p) for t, p, _, _ in ranges),
                   starting=sources.SpecificOffsets(tuple((t, p, s) for t, p, s, _ in ranges)),
                   stopping=sources.SpecificOffsets(tuple((t, p, e) for t, p, _, e in ranges)),
                   bounded=True)
