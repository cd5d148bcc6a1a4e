"""ExternalizedCheckpointRetention (mirror of PyFlink 1.20's externalized_checkpoint_retention)."""
from enum import Enum

__all__ = ['ExternalizedCheckpointRetention']


class ExternalizedCheckpointRetention(Enum):
    """What happens to externalized checkpoints when the job is cancelled.

    DELETE_ON_CANCELLATION: checkpoint data is deleted on cancellation.
    RETAIN_ON_CANCELLATION: checkpoint data is kept on cancellation (delete it yourself).
    NO_EXTERNALIZED_CHECKPOINTS: checkpoints are not externalized.
    """

    DELETE_ON_CANCELLATION = 0
    RETAIN_ON_CANCELLATION = 1
    NO_EXTERNALIZED_CHECKPOINTS = 2

    @staticmethod
    def _from_j_externalized_checkpoint_retention(j_retention_mode) \
            -> 'ExternalizedCheckpointRetention':
        raise NotImplementedError(
            "ExternalizedCheckpointRetention._from_j_externalized_checkpoint_retention converts "
            "a Java object; pyflink_on_spark runs without a JVM-side Flink.")

    def _to_j_externalized_checkpoint_retention(self):
        raise NotImplementedError(
            "ExternalizedCheckpointRetention._to_j_externalized_checkpoint_retention creates a "
            "Java object; pyflink_on_spark runs without a JVM-side Flink.")
