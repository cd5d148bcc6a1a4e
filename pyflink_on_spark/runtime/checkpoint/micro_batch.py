"""One subtask of one stage for one micro-batch of an unbounded job.

The batch DAG of a bounded job runs once per micro-batch, on the same StreamTask
(runtime/task.py) as a bounded run; this module keeps the live tasks of a worker process
between batches and does their checkpoint store I/O. Each (stage, subtask) task:

1. restores every operator of its chain from the newest completed snapshot version before
   this batch (or keeps its live operators from the previous batch, when this worker
   process ran that batch and nothing failed since: a cache, never needed for correctness);
2. processes the batch's rows (sorted by edge, upstream subtask, sequence, as bounded);
3. ends the batch: processing-time timers fire, then every operator's end_batch (head
   first): sources and assign_timestamps_and_watermarks emit their current watermark (the
   shim's periodic watermark is "once per checkpoint", plus every PERIODIC_EVERY_RECORDS
   records), file sinks roll their parts and report them for the batch's commit, other
   sinks flush or commit; every exit sends its watermark to every downstream subtask (so
   that every subtask of every stage runs in every batch, watermarks progress and timers
   fire without data);
4. snapshots every operator as version = batch id.

Operators take part through the checkpoint lifecycle of the operator interface
(runtime/operators/base.py: restore_state, begin_batch, end_batch, snapshot_state); exits
save their channel selector's position themselves (runtime/exits/chunked.py); the task saves its own
(input valve, records in) in its head operator's snapshot (StreamTask.snapshot_state).

A stream never ends, so channels never "end" (the bounded valve counts a finished channel
as the maximum watermark): an unbounded task's StreamingValve (runtime/watermarks.py) keeps
each channel's last watermark.
"""
from __future__ import annotations

import json
import threading
import time
from typing import Callable, Dict, Iterable, List, Optional, Tuple

from pyflink_on_spark.runtime.checkpoint.context import CheckpointContext
from pyflink_on_spark.runtime.checkpoint.drain import forget_event_time
from pyflink_on_spark.runtime.checkpoint.operators import snapshot_size
from pyflink_on_spark.runtime.metrics_system import metrics_document
from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.runtime.context import wall_clock_ms
from pyflink_on_spark.runtime.task import StreamTask

METRICS_SUFFIX = ".metrics"     # v<N>/<head state id>-<subtask>.metrics: the task's metrics


class BatchClock:
    """Processing time of a micro-batch: the time the batch was first planned, the same in
    every run of the batch (a re-run after a crash then fires the same processing-time
    timers, expires the same TTL state and writes to the same time buckets)."""

    __slots__ = ("now",)

    def __init__(self, now: int = 0) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


def state_ids_of(operators) -> Dict[int, str]:
    """node id -> the id its state is stored under: ``uid-<uid>`` for operators with a uid,
    else ``op<k>`` with k its position in the program (node ids count from the program's
    first transformation), so a restarted program finds its operators' state again.
    `operators`: the OperatorSpecs of every stage of the job."""
    operators = list(operators)
    if not operators:
        return {}
    base = min(op.node_id for op in operators)
    import re
    return {op.node_id: ("uid-%s" % re.sub(r"[^A-Za-z0-9_.-]", "_", op.uid))
            if op.uid else "op%d" % (op.node_id - base) for op in operators}


def key_filter(key_type, max_parallelism: int, parallelism: int, subtask: int) -> Callable:
    """key -> whether `subtask` of `parallelism` owns the key's key group."""
    from pyflink_on_spark.runtime.key_groups import KeyToSubtask
    to_subtask = KeyToSubtask(max_parallelism, parallelism, key_type)
    return lambda key: to_subtask(key) == subtask


class MicroBatchTask:
    """A StreamTask kept across micro-batches, and its checkpoint store I/O: which snapshot
    parts each operator restores from (its own, or every old subtask's after rescaling) and
    where each operator's snapshot is written. The batch lifecycle itself is StreamTask's."""

    def __init__(self, spec, subtask: int, store: SnapshotStore, *, attempt: int = 0,
                 work_dir: Optional[str] = None, clock: Callable[[], int] = wall_clock_ms,
                 key_types: Optional[Dict[int, object]] = None,
                 state_ids: Optional[Dict[int, str]] = None,
                 owns_work_dir: bool = False, naming_seed: str = "") -> None:
        self.spec = spec
        self.naming_seed = naming_seed
        self.state_ids = state_ids or {}
        self._owns_work_dir = owns_work_dir
        self.subtask = subtask
        self.store = store
        self.key_types = key_types or {}
        self.clock = clock
        self.task = StreamTask(spec, subtask, attempt, work_dir=work_dir, clock=clock,
                               unbounded=True)
        self._work_dir = work_dir
        self.task.open()
        self.version: Optional[int] = None   # the version this task's state equals
        self.last_used = time.monotonic()     # when it last ran a batch (LIVE_IDLE_S)

    def state_id(self, node: int) -> str:
        return self.state_ids.get(node) or "node%d" % node

    def context(self, node: int, version: Optional[int], keep=None) -> CheckpointContext:
        """What operator ``node`` is told of its place in checkpoint ``version``."""
        return CheckpointContext(store=self.store, version=version,
                                 state_id=self.state_id(node), subtask=self.subtask,
                                 naming_seed=self.naming_seed, keep=keep)

    def restore(self, version: Optional[int], parallelism_then: Dict[str, int]) -> None:
        """Puts back the state of completed version ``version`` (None: start empty), written
        when node n ran at parallelism_then[n]. Every operator's restore_state runs, with
        nothing to restore from for a fresh start."""
        self.version = version
        spec = self.spec
        parts_of: Dict[int, List[Tuple[int, dict]]] = {}
        contexts: Dict[int, CheckpointContext] = {}
        same_parallelism = True
        for op_spec in spec.operators:
            node = op_spec.node_id
            then = parallelism_then.get(self.state_id(node)) if version is not None else None
            parts: List[Tuple[int, dict]] = []
            keep = None
            if then is None:
                pass    # a fresh start, or an operator the checkpoint does not know: empty
            elif then == spec.parallelism:
                snap = self.store.read_state(version, self.state_id(node), self.subtask)
                parts = [] if snap is None else [(self.subtask, snap)]
            else:
                parts = [(old, s) for old in range(then)
                         for s in [self.store.read_state(version, self.state_id(node), old)]
                         if s is not None]
                keep = key_filter(self.key_types.get(node), op_spec.max_parallelism,
                                  spec.parallelism, self.subtask) \
                    if node in self.key_types else None
            if node == spec.head:
                same_parallelism = then == spec.parallelism
            parts_of[node] = parts
            contexts[node] = self.context(node, version, keep)
        self.task.restore_state(parts_of, contexts.__getitem__, same_parallelism)

    # -- one batch -----------------------------------------------------------------------------

    def begin_batch(self, version: Optional[int] = None) -> None:
        self.task.begin_batch(lambda node: self.context(node, version))

    def process_rows(self, edges, srcs, kinds, payloads) -> List[tuple]:
        self.task.process_batch_rows(edges, srcs, kinds, payloads)
        return self.task.take_rows()

    def end_batch(self, drain: bool = False) -> List[tuple]:
        self.task.end_batch(drain)
        return self.task.take_rows()

    def snapshot(self, version: int, drained: bool = False) -> int:
        """Writes every operator's state as ``version``; returns the bytes written. A
        ``drained`` snapshot holds no event time (runtime/checkpoint/drain.py)."""
        written = 0
        started = time.perf_counter()
        snaps = self.task.snapshot_state(lambda node: self.context(node, version))
        if drained:
            forget_event_time(snaps)
        for node, snap in snaps.items():
            self.store.write_state(version, self.state_id(node), self.subtask, snap)
            written += snapshot_size(snap)
        self._write_metrics(version, written, time.perf_counter() - started)
        self.version = version
        return written

    def _write_metrics(self, version: int, checkpointed_size: int, seconds: float) -> None:
        """The user functions' metrics and Flink's system metrics (runtime/metrics_system.py)
        after the batch, with the bytes of state this subtask wrote and how long writing its
        snapshot took (snapshotMs: benchmarks/rocksdb_big_state.py reads it), as JSON
        beside the head's snapshot: the driver's reporters read them every batch without
        unpickling anything (spark/streaming/metrics_reporting.py)."""
        name = self.store.state_name(self.state_id(self.task.spec.head), self.subtask)
        self.store.write_bytes(
            self.store.path(self.store.version_dir(version), name + METRICS_SUFFIX),
            json.dumps(metrics_document(self.task, subtask=self.subtask,
                                        checkpointedSize=checkpointed_size,
                                        snapshotMs=round(seconds * 1000, 1))).encode())

    def close(self) -> None:
        try:
            self.task.close()
        finally:
            if self._owns_work_dir and self._work_dir:
                import shutil
                shutil.rmtree(self._work_dir, ignore_errors=True)


# ---- live tasks of this worker process, kept between batches --------------------------------

_live: Dict[tuple, MicroBatchTask] = {}
_live_lock = threading.Lock()
# A live task unused this long is closed at the next micro-batch this worker runs: nothing
# tells a worker that a job stopped, and a stopped job's tasks would keep their operators
# (a Kafka producer, RocksDB, their scratch directory) for as long as the worker runs other
# jobs' batches. A job whose batches come further apart than this restores its state from
# the snapshot instead: slower, the same result.
LIVE_IDLE_S = 600.0


def _take_idle_tasks(now: float) -> List[MicroBatchTask]:
    """Removes the live tasks unused for LIVE_IDLE_S from the cache (the caller holds the
    lock and closes them)."""
    idle = [key for key, task in _live.items() if now - task.last_used > LIVE_IDLE_S]
    return [_live.pop(key) for key in idle]


def _close_quietly(tasks) -> None:
    for task in tasks:
        try:
            task.close()
        except Exception:   # noqa: BLE001 - a stopped job's task: nothing to report to
            pass


def run_micro_batch(spec, subtask: int, batches: Iterable[Tuple[list, list, list, list]], *,
                    store_root: str, version: int, restore_version: Optional[int],
                    parallelism_then: Dict[str, int], job_token: str,
                    key_types: Optional[Dict[int, object]] = None,
                    state_ids: Optional[Dict[int, str]] = None, naming_seed: str = "",
                    attempt: int = 0,
                    work_dir_factory: Callable[[], str] = None,
                    batch_time_ms: Optional[int] = None, drain: bool = False):
    """Runs (stage, subtask) for batch ``version``; yields lists of output rows. The state
    after the batch is written as ``version`` before the last rows are yielded. ``drain``:
    the job's last batch ends with the end of event time (StreamTask.end_batch), its
    snapshot forgets event time, and the task closes (its functions' close(), as PyFlink
    closes them after a drain) instead of waiting for a next batch."""
    cache_key = (job_token, spec.stage_id, subtask)
    with _live_lock:
        task = _live.pop(cache_key, None)
        idle = _take_idle_tasks(time.monotonic())
    _close_quietly(idle)
    if task is not None and (task.version != restore_version or restore_version is None):
        task.close()
        task = None
    try:
        if task is None:
            clock = BatchClock(batch_time_ms) if batch_time_ms is not None else wall_clock_ms
            work_dir = work_dir_factory() if work_dir_factory is not None else None
            task = MicroBatchTask(spec, subtask, SnapshotStore(store_root), attempt=attempt,
                                  work_dir=work_dir, clock=clock, key_types=key_types,
                                  state_ids=state_ids, owns_work_dir=work_dir is not None,
                                  naming_seed=naming_seed)
            task.restore(restore_version, parallelism_then)
        if batch_time_ms is not None and isinstance(task.clock, BatchClock):
            task.clock.now = batch_time_ms
        task.begin_batch(version)
        for edges, srcs, kinds, payloads in batches:
            rows = task.process_rows(edges, srcs, kinds, payloads)
            if rows:
                yield rows
        rows = task.end_batch(drain)
        task.snapshot(version, drained=drain)
    except BaseException:
        if task is not None:
            try:
                task.close()
            except BaseException:
                pass
        raise
    if drain:
        task.close()
        if rows:
            yield rows
        return
    task.last_used = time.monotonic()
    with _live_lock:
        old = _live.pop(cache_key, None)
        _live[cache_key] = task
    if old is not None and old is not task:
        old.close()
    if rows:
        yield rows
