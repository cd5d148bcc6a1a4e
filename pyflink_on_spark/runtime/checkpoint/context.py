"""What an operator's checkpoint lifecycle is told (runtime/operators/base.py: snapshot_state,
restore_state, begin_batch)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional

if TYPE_CHECKING:
    from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore


@dataclass(frozen=True)
class CheckpointContext:
    """One operator instance's place in a checkpoint."""

    # the checkpoint store: state too large for the snapshot dict goes into its files
    store: Optional["SnapshotStore"]
    # snapshot_state: the version written; restore_state: the version read (None: a fresh
    # start); begin_batch: the micro-batch's id (None: a batch outside any checkpoint)
    version: Optional[int]
    # the operator's state id (``uid-<uid>`` or ``op<k>``: micro_batch.state_ids_of)
    state_id: str
    subtask: int
    # the checkpoint's seed for what a re-run of a batch must name as the first run did
    # (file sinks' part names, Kafka transactions)
    naming_seed: str = ""
    # restore_state after rescaling: key -> whether this subtask owns its key group (None:
    # every key of the parts is this subtask's)
    keep: Optional[Callable[[Any], bool]] = None
