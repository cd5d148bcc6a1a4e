"""CheckpointingMode (mirror of pyflink.datastream.checkpointing_mode)."""
from enum import Enum

__all__ = ['CheckpointingMode']


class CheckpointingMode(Enum):
    """The consistency guarantee checkpoints give.

    EXACTLY_ONCE: after recovery every record is reflected exactly once in operator state.
    AT_LEAST_ONCE: after recovery some records may be reflected more than once.

    On Spark, bounded jobs take no checkpoints (as Flink's BATCH mode); for unbounded jobs the
    mode is recorded and reported.
    """

    EXACTLY_ONCE = 0
    AT_LEAST_ONCE = 1

    @staticmethod
    def _from_j_checkpointing_mode(j_checkpointing_mode) -> 'CheckpointingMode':
        raise NotImplementedError(
            "CheckpointingMode._from_j_checkpointing_mode converts a Java object; "
            "pyflink_on_spark runs without a JVM-side Flink.")

    def _to_j_checkpointing_mode(self):
        raise NotImplementedError(
            "CheckpointingMode._to_j_checkpointing_mode creates a Java object; "
            "pyflink_on_spark runs without a JVM-side Flink.")
