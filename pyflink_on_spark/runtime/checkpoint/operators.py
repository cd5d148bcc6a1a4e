"""What one operator instance contributes to a checkpoint.

Each operator saves and restores its own state through the checkpoint lifecycle of the
operator interface (runtime/operators/base.py: snapshot_state, restore_state, begin_batch,
end_batch, as Flink's StreamOperator). An operator's snapshot is a dict:

* ``watermark``: the operator's current watermark (every operator);
* ``keyed``: its keyed state backend's own description (runtime/state/: heap tables, or a
  RocksDB checkpoint's files in the store: keyed.py), ``timers``: its event- and
  processing-time timer queues (live timers in firing order) and their watermark
  (runtime/timers.py), ``broadcast``: broadcast (operator) state;
* ``generator``: a watermark generator's position (sources and
  assign_timestamps_and_watermarks: runtime/operators/timestamps.py, source.py);
* ``sink``: a file sink's part naming (subtask id and part counters), so a re-run batch
  writes the same part names (runtime/operators/file_sink.py);

and the stage head's snapshot also holds the task's: ``valve``, ``exits`` (each exit's
channel selector position: runtime/exits/chunked.py), ``last_input_time``, ``records_in``,
``watermark_out`` (micro_batch.py).

Restoring at another parallelism (rescaling) merges the old subtasks' snapshots: keyed state
and timers by key group, broadcast state from any one old subtask (they are replicas),
watermarks and generator positions as the minimum (never ahead of any merged input).
"""
from __future__ import annotations

import pickle
from typing import Callable, List, Optional, Tuple

from pyflink_on_spark.runtime.timers import TimerQueue

KeyFilter = Optional[Callable[[object], bool]]


def export_timers(queue: TimerQueue) -> List[Tuple[int, object, object]]:
    """Live timers in heap order: importing them in this order rebuilds the same queue."""
    return queue.export()


def import_timers(queue: TimerQueue, timers, keep: KeyFilter = None) -> None:
    queue.restore(timers, keep)


def snapshot_size(snapshot: dict) -> int:
    """Bytes of a snapshot as stored (RocksDB: plus what it uploaded)."""
    size = len(pickle.dumps(snapshot, 5))
    keyed = snapshot.get("keyed")
    if keyed and keyed.get("kind") == "rocksdb":
        size += keyed.get("uploaded", 0)
    return size
