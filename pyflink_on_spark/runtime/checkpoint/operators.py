"""What one operator instance contributes to a checkpoint, and how it is put back.

An operator's snapshot is a dict:

* ``watermark``: the operator's current watermark;
* ``keyed``: its keyed state backend (see keyed.py), ``timers``: its event- and
  processing-time timer queues (live timers in firing order);
* ``broadcast``: broadcast (operator) state; ``generator``: a watermark generator's
  position (sources and assign_timestamps_and_watermarks); ``sink``: a file sink's part
  naming (subtask id and part counters), so a re-run batch writes the same part names.

Restoring at another parallelism (rescaling) merges the old subtasks' snapshots: keyed state
and timers by key group, broadcast state from any one old subtask (they are replicas),
watermarks and generator positions as the minimum (never ahead of any merged input).
"""
from __future__ import annotations

import pickle
from typing import Callable, List, Optional, Tuple

from pyflink_on_spark.runtime.checkpoint import keyed as keyed_snapshots
from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.runtime.watermarks import MIN_WATERMARK
from pyflink_on_spark.runtime.timers import TimerQueue

KeyFilter = Optional[Callable[[object], bool]]


# ---------------------------------------------------------------------------------- timers

def export_timers(queue: TimerQueue) -> List[Tuple[int, object, object]]:
    """Live timers in heap order: importing them in this order rebuilds the same queue."""
    return queue.export()


def import_timers(queue: TimerQueue, timers, keep: KeyFilter = None) -> None:
    queue.restore([(ts, key, ns) for ts, key, ns in timers if keep is None or keep(key)])


# ---------------------------------------------------------------------------------- operators

def _kind(operator) -> str:
    from pyflink_on_spark.runtime.operators.file_sink import FileSinkOperator
    from pyflink_on_spark.runtime.operators.jdbc_sink import JdbcSinkOperator
    from pyflink_on_spark.runtime.operators.kafka_sink import KafkaSinkOperator
    from pyflink_on_spark.runtime.operators.kafka_transactional_sink import (
        KafkaTransactionalSinkOperator)
    from pyflink_on_spark.runtime.operators.timestamps import TimestampsAndWatermarksOperator
    if isinstance(operator, FileSinkOperator):
        return "file_sink"
    if isinstance(operator, JdbcSinkOperator):
        return "jdbc_sink"
    if isinstance(operator, KafkaTransactionalSinkOperator):
        return "kafka_transactions"
    if isinstance(operator, KafkaSinkOperator):
        return "kafka_sink"
    if isinstance(operator, TimestampsAndWatermarksOperator):
        return "timestamps"
    return "other"


def snapshot_operator(operator, store: SnapshotStore, version: int, node: str,
                      subtask: int) -> dict:
    snap = {"watermark": operator.current_watermark}
    backend = getattr(operator, "backend", None)
    if backend is not None:
        if keyed_snapshots.is_rocksdb(backend):
            snap["keyed"] = keyed_snapshots.snapshot_rocksdb(backend, store, version, node,
                                                            subtask)
        else:
            snap["keyed"] = {"kind": "heap", "data": keyed_snapshots.export_heap(backend)}
    timers = getattr(operator, "timers", None)
    if timers is not None:
        snap["timers"] = {"event": export_timers(timers.event_time),
                          "processing": export_timers(timers.processing_time),
                          "watermark": timers.current_watermark}
    broadcast = getattr(operator, "broadcast_states", None)
    if broadcast is not None:
        snap["broadcast"] = broadcast.snapshot()
    kind = _kind(operator)
    if kind == "timestamps":
        generator = operator._generator
        snap["generator"] = {"max_timestamp": generator._max_timestamp,
                             "emitted": operator._emitted, "count": operator._count}
        splits = getattr(operator, "splits", None)
        if splits is not None and splits.generators:
            snap["generator"]["splits"] = splits.export()
    elif kind == "file_sink":
        if operator._open:
            raise RuntimeError("file sink %s has open parts at a checkpoint" % operator.name)
        snap["sink"] = {"subtask_id": operator._subtask_id,
                        "counters": dict(operator._counters)}
    return snap


def restore_operator(operator, store: SnapshotStore, version: int, node: str,
                     parts: List[Tuple[int, dict]], keep: KeyFilter,
                     subtask: int) -> None:
    """``parts``: [(old subtask, snapshot)] this instance takes state from: its own old
    snapshot (same parallelism, ``keep`` None), or every old subtask's (rescaling)."""
    if not parts:
        return
    snaps = [snap for _, snap in parts]
    watermark = min(s["watermark"] for s in snaps)
    operator.current_watermark = watermark
    backend = getattr(operator, "backend", None)
    if backend is not None:
        kinds = {s["keyed"]["kind"] for s in snaps if "keyed" in s}
        if kinds == {"heap"} and not keyed_snapshots.is_rocksdb(backend):
            data = keyed_snapshots.merge_heap([s["keyed"]["data"] for s in snaps], keep) \
                if keep is not None or len(snaps) > 1 else snaps[0]["keyed"]["data"]
            keyed_snapshots.import_heap(backend, data)
        elif kinds == {"rocksdb"} and keyed_snapshots.is_rocksdb(backend):
            if keep is None and len(parts) == 1:
                old, snap = parts[0]
                keyed_snapshots.restore_rocksdb(backend, store, snap["keyed"], version, node,
                                                old)
            else:
                keyed_snapshots.restore_rocksdb_rescaled(
                    backend, store, [(old, s["keyed"]) for old, s in parts], version, node,
                    keep)
        elif kinds:
            raise RuntimeError(
                "operator %s: the checkpoint holds %s keyed state but the job now uses %s; "
                "restoring across state backends is not supported (start from an empty "
                "checkpoint directory)" % (operator.name, "/".join(sorted(kinds)),
                                           type(backend).__name__))
    timers = getattr(operator, "timers", None)
    if timers is not None:
        for attr, field in (("event_time", "event"), ("processing_time", "processing")):
            merged = []
            for s in snaps:
                merged.extend(s.get("timers", {}).get(field, ()))
            if len(snaps) > 1:
                merged.sort(key=lambda t: t[0])
            import_timers(getattr(timers, attr), merged, keep)
        timers.current_watermark = min(s.get("timers", {}).get("watermark", MIN_WATERMARK)
                                       for s in snaps)
    broadcast = getattr(operator, "broadcast_states", None)
    if broadcast is not None and "broadcast" in snaps[0]:
        broadcast.restore(snaps[0]["broadcast"])
    kind = _kind(operator)
    if kind == "timestamps":
        generators = [s["generator"] for s in snaps if "generator" in s]
        if generators:
            operator._generator._max_timestamp = min(g["max_timestamp"] for g in generators)
            operator._emitted = min(g["emitted"] for g in generators)
            operator._count = generators[0]["count"] if len(generators) == 1 else 0
            own = [s["generator"] for old, s in parts if old == subtask and "generator" in s]
            if len(parts) == 1 and own and "splits" in own[0]:
                # the same subtask reads the same Kafka partitions again; after rescaling
                # the partitions move, and each registers anew with its next records
                operator.splits.restore(own[0]["splits"])
    elif kind == "file_sink":
        own = [s for old, s in parts if old == subtask and "sink" in s]
        if own:
            operator._subtask_id = own[0]["sink"]["subtask_id"]
            operator._counters = dict(own[0]["sink"]["counters"])


def snapshot_size(snapshot: dict) -> int:
    """Bytes of a snapshot as stored (RocksDB: plus what it uploaded)."""
    size = len(pickle.dumps(snapshot, 5))
    keyed = snapshot.get("keyed")
    if keyed and keyed.get("kind") == "rocksdb":
        size += keyed.get("uploaded", 0)
    return size
