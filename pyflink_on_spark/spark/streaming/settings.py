"""What an unbounded job's execution needs from the environment: checkpoint interval and
storage, the state directory, the micro-batch trigger."""
from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass
from typing import Optional, Tuple

DEFAULT_TRIGGER_MS = 1000     # the micro-batch interval without checkpointing
RETAINED_VERSIONS = 2         # state versions kept (the newest completed one and the one before)

_NO_RECOVERY = ("pyflink_on_spark: checkpointing is not enabled (or no checkpoint storage "
                "directory is set); this unbounded job runs, but will not recover after a "
                "crash or restart. Enable it with env.enable_checkpointing(ms) and "
                "CheckpointConfig.set_checkpoint_storage_dir(dir) (or "
                "'state.checkpoints.dir' in the job's configuration).")


# CheckpointConfig settings that have no effect here, and why (said once on stderr when set)
_TIMEOUT_IGNORED = (
    "pyflink_on_spark: the checkpoint timeout (%d ms) has no effect: a checkpoint here is a "
    "micro-batch's state snapshot and sink commit, which runs to its end however long it "
    "takes (docs/streaming.md).")
_TOLERABLE_IGNORED = (
    "pyflink_on_spark: tolerable checkpoint failures (%d) have no effect: a checkpoint here is "
    "part of its micro-batch, and a failed micro-batch fails the job (as with 0 tolerable "
    "failures); run the job again to resume from the last completed checkpoint "
    "(docs/streaming.md).")


@dataclass(frozen=True)
class StreamingSettings:
    trigger_ms: int                 # micro-batch interval (the checkpoint interval)
    checkpoint_dir: str             # Spark's checkpointLocation lives in <dir>/spark
    recoverable: bool               # False: a temporary directory, removed at the end
    retained_versions: int = RETAINED_VERSIONS
    # CheckpointConfig.min_pause_between_checkpoints: a micro-batch (one checkpoint) starts
    # no sooner than this after the previous one completed
    min_pause_ms: int = 0
    # ExternalizedCheckpointRetention.DELETE_ON_CANCELLATION: a cancelled job (JobClient
    # cancel, a closed execute_and_collect iterator) deletes its checkpoints
    delete_on_cancel: bool = False
    # savepoints (runtime/checkpoint/savepoints.py): the default target directory, the
    # savepoint this job starts from, and whether state no operator claims is dropped
    savepoint_dir: Optional[str] = None
    restore_path: Optional[str] = None
    allow_non_restored: bool = False
    # a Prometheus reporter configured with Flink's keys: the ports to serve /metrics on
    prometheus_ports: Optional[Tuple[int, ...]] = None


def streaming_settings(checkpoints, metric_reporters=(),
                       note_no_recovery: bool = True) -> StreamingSettings:
    """What the job's CheckpointSettings (specs.stage) mean for its micro-batches. Without
    checkpointing or a storage directory: a temporary directory, and a note on stderr.
    ``metric_reporters``: the job's metrics.reporter.* keys."""
    from pyflink_on_spark.spark.streaming.metrics_reporting import prometheus_ports
    interval = checkpoints.interval_ms
    directory = checkpoints.directory
    enabled = interval is not None and interval > 0
    if enabled and checkpoints.timeout_ms is not None:
        _say(_TIMEOUT_IGNORED % checkpoints.timeout_ms)
    if enabled and checkpoints.tolerable_failures:
        _say(_TOLERABLE_IGNORED % checkpoints.tolerable_failures)
    ports = prometheus_ports(metric_reporters)
    savepoints = dict(savepoint_dir=checkpoints.savepoint_dir,
                      restore_path=checkpoints.restore_path,
                      allow_non_restored=checkpoints.allow_non_restored,
                      prometheus_ports=tuple(ports) if ports else None)
    if enabled and directory:
        path = directory[len("file://"):] if directory.startswith("file://") else directory
        return StreamingSettings(
            trigger_ms=interval, checkpoint_dir=path, recoverable=True,
            min_pause_ms=max(0, checkpoints.min_pause_ms or 0),
            delete_on_cancel=checkpoints.retention == "DELETE_ON_CANCELLATION", **savepoints)
    if note_no_recovery:
        sys.stderr.write(_NO_RECOVERY + "\n")
        sys.stderr.flush()
    temporary = tempfile.mkdtemp(prefix="pyflink-on-spark-stream-")
    return StreamingSettings(trigger_ms=interval if enabled else DEFAULT_TRIGGER_MS,
                             checkpoint_dir=temporary, recoverable=False,
                             min_pause_ms=max(0, checkpoints.min_pause_ms or 0), **savepoints)


_said = set()


def _say(note: str) -> None:
    """Writes `note` on stderr once per process."""
    if note not in _said:
        _said.add(note)
        sys.stderr.write(note + "\n")
        sys.stderr.flush()


def job_identity(checkpoint_dir: str) -> str:
    """A random id made once per checkpoint directory (seeds deterministic part-file names:
    a re-run batch must name its parts as the first run did)."""
    from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
    import uuid
    store = SnapshotStore(os.path.join(checkpoint_dir, "state"))
    path = store.path("_JOB_ID")
    if store.exists(path):
        return store.read_bytes(path).decode()
    ident = uuid.uuid4().hex
    store.write_bytes(path, ident.encode())
    return ident
