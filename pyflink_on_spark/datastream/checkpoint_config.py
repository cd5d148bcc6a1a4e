"""CheckpointConfig (mirror of pyflink.datastream.checkpoint_config).

Every setting is recorded and returned by its getter, with Flink's defaults and argument
checks. Bounded jobs take no checkpoints (as Flink's BATCH mode); for unbounded jobs the Spark
layer reads the interval (micro-batch trigger) and the checkpoint storage (checkpointLocation).
"""
from __future__ import annotations

import warnings
from enum import Enum
from typing import Optional

from pyflink_on_spark.datastream.checkpoint_storage import (
    CheckpointStorage, FileSystemCheckpointStorage)
from pyflink_on_spark.datastream.checkpointing_mode import CheckpointingMode
from pyflink_on_spark.datastream.externalized_checkpoint_retention import \
    ExternalizedCheckpointRetention

__all__ = ['CheckpointConfig', 'ExternalizedCheckpointCleanup']

_MINIMAL_CHECKPOINT_TIME = 10
_INT_MAX = 2 ** 31 - 1


class ExternalizedCheckpointCleanup(Enum):
    """What happens to externalized checkpoints when the job is cancelled (deprecated in favour
    of ExternalizedCheckpointRetention; same members)."""

    DELETE_ON_CANCELLATION = 0
    RETAIN_ON_CANCELLATION = 1
    NO_EXTERNALIZED_CHECKPOINTS = 2

    @staticmethod
    def _from_j_externalized_checkpoint_cleanup(j_cleanup_mode) \
            -> 'ExternalizedCheckpointCleanup':
        raise NotImplementedError(
            "ExternalizedCheckpointCleanup._from_j_externalized_checkpoint_cleanup converts a "
            "Java object; pyflink_on_spark runs without a JVM-side Flink.")

    def _to_j_externalized_checkpoint_cleanup(self):
        raise NotImplementedError(
            "ExternalizedCheckpointCleanup._to_j_externalized_checkpoint_cleanup creates a Java "
            "object; pyflink_on_spark runs without a JVM-side Flink.")


def _duration_of_millis(ms: int):
    from pyflink_on_spark.common.time import Duration
    return Duration.of_millis(ms)


class CheckpointConfig(object):
    """Configuration of checkpointing for a job."""

    DEFAULT_MODE = CheckpointingMode.EXACTLY_ONCE
    DEFAULT_TIMEOUT = 10 * 60 * 1000
    DEFAULT_MIN_PAUSE_BETWEEN_CHECKPOINTS = 0
    DEFAULT_MAX_CONCURRENT_CHECKPOINTS = 1

    def __init__(self, j_checkpoint_config=None):
        if j_checkpoint_config is not None and not isinstance(j_checkpoint_config,
                                                              CheckpointConfig):
            raise NotImplementedError(
                "CheckpointConfig(j_checkpoint_config) wraps a Java CheckpointConfig; "
                "pyflink_on_spark runs without a JVM-side Flink. Use "
                "StreamExecutionEnvironment.get_checkpoint_config().")
        self._mode = CheckpointConfig.DEFAULT_MODE
        self._interval = -1
        self._timeout = CheckpointConfig.DEFAULT_TIMEOUT
        self._min_pause = CheckpointConfig.DEFAULT_MIN_PAUSE_BETWEEN_CHECKPOINTS
        self._max_concurrent = CheckpointConfig.DEFAULT_MAX_CONCURRENT_CHECKPOINTS
        self._fail_on_errors = True
        self._tolerable_failures = None  # None: not set explicitly (reported as 0)
        self._retention = ExternalizedCheckpointRetention.NO_EXTERNALIZED_CHECKPOINTS
        self._unaligned = False
        self._force_unaligned = False
        self._alignment_timeout = None  # a Duration; None means zero
        self._storage = None  # type: Optional[CheckpointStorage]
        if isinstance(j_checkpoint_config, CheckpointConfig):
            self.__dict__.update(j_checkpoint_config.__dict__)

    # -- mode / interval --------------------------------------------------------------------

    def is_checkpointing_enabled(self) -> bool:
        return self._interval > 0

    def get_checkpointing_mode(self) -> CheckpointingMode:
        return self._mode

    def set_checkpointing_mode(self, checkpointing_mode: CheckpointingMode) -> 'CheckpointConfig':
        if not isinstance(checkpointing_mode, CheckpointingMode):
            raise TypeError("checkpointing_mode must be a CheckpointingMode, got %r"
                            % (checkpointing_mode,))
        self._mode = checkpointing_mode
        return self

    def get_checkpoint_interval(self) -> int:
        return self._interval

    def set_checkpoint_interval(self, checkpoint_interval: int) -> 'CheckpointConfig':
        if checkpoint_interval < _MINIMAL_CHECKPOINT_TIME:
            raise ValueError("Checkpoint interval must be larger than or equal to %s ms"
                             % _MINIMAL_CHECKPOINT_TIME)
        self._interval = int(checkpoint_interval)
        return self

    def get_checkpoint_timeout(self) -> int:
        return self._timeout

    def set_checkpoint_timeout(self, checkpoint_timeout: int) -> 'CheckpointConfig':
        if checkpoint_timeout < _MINIMAL_CHECKPOINT_TIME:
            raise ValueError("Checkpoint timeout must be larger than or equal to %s ms"
                             % _MINIMAL_CHECKPOINT_TIME)
        self._timeout = int(checkpoint_timeout)
        return self

    def get_min_pause_between_checkpoints(self) -> int:
        return self._min_pause

    def set_min_pause_between_checkpoints(self,
                                          min_pause_between_checkpoints: int) -> 'CheckpointConfig':
        if min_pause_between_checkpoints < 0:
            raise ValueError("Pause value must be zero or positive")
        self._min_pause = int(min_pause_between_checkpoints)
        return self

    def get_max_concurrent_checkpoints(self) -> int:
        return self._max_concurrent

    def set_max_concurrent_checkpoints(self, max_concurrent_checkpoints: int) -> 'CheckpointConfig':
        if max_concurrent_checkpoints < 1:
            raise ValueError("The maximum number of concurrent attempts must be at least one.")
        self._max_concurrent = int(max_concurrent_checkpoints)
        return self

    # -- failures -----------------------------------------------------------------------------

    def is_fail_on_checkpointing_errors(self) -> bool:
        return self._fail_on_errors

    def set_fail_on_checkpointing_errors(self,
                                         fail_on_checkpointing_errors: bool) -> 'CheckpointConfig':
        self._fail_on_errors = bool(fail_on_checkpointing_errors)
        # As Flink: this deprecated switch maps onto the tolerable failure number unless that
        # number was set explicitly.
        if self._tolerable_failures is None or self._tolerable_failures in (0, _INT_MAX):
            self._tolerable_failures = 0 if fail_on_checkpointing_errors else _INT_MAX
        return self

    def get_tolerable_checkpoint_failure_number(self) -> int:
        return 0 if self._tolerable_failures is None else self._tolerable_failures

    def set_tolerable_checkpoint_failure_number(self,
                                                tolerable_checkpoint_failure_number: int
                                                ) -> 'CheckpointConfig':
        if tolerable_checkpoint_failure_number < 0:
            raise ValueError("The tolerable failure checkpoint number must be non-negative.")
        self._tolerable_failures = int(tolerable_checkpoint_failure_number)
        return self

    # -- externalized checkpoints -------------------------------------------------------------

    def enable_externalized_checkpoints(
            self,
            cleanup_mode: 'ExternalizedCheckpointCleanup') -> 'CheckpointConfig':
        return self.set_externalized_checkpoint_cleanup(cleanup_mode)

    def set_externalized_checkpoint_cleanup(
            self,
            cleanup_mode: 'ExternalizedCheckpointCleanup') -> 'CheckpointConfig':
        if not isinstance(cleanup_mode, (ExternalizedCheckpointCleanup,
                                         ExternalizedCheckpointRetention)):
            raise TypeError("cleanup_mode must be an ExternalizedCheckpointCleanup, got %r"
                            % (cleanup_mode,))
        self._retention = ExternalizedCheckpointRetention[cleanup_mode.name]
        return self

    def set_externalized_checkpoint_retention(
            self,
            retention_mode: 'ExternalizedCheckpointRetention') -> 'CheckpointConfig':
        if not isinstance(retention_mode, (ExternalizedCheckpointRetention,
                                           ExternalizedCheckpointCleanup)):
            raise TypeError("retention_mode must be an ExternalizedCheckpointRetention, got %r"
                            % (retention_mode,))
        self._retention = ExternalizedCheckpointRetention[retention_mode.name]
        return self

    def is_externalized_checkpoints_enabled(self) -> bool:
        return self._retention is not None and \
            self._retention != ExternalizedCheckpointRetention.NO_EXTERNALIZED_CHECKPOINTS

    def get_externalized_checkpoint_cleanup(self) -> Optional['ExternalizedCheckpointCleanup']:
        if self._retention is None:
            return None
        return ExternalizedCheckpointCleanup[self._retention.name]

    def get_externalized_checkpoint_retention(self) -> Optional['ExternalizedCheckpointRetention']:
        return self._retention

    # -- unaligned checkpoints ----------------------------------------------------------------

    def is_unaligned_checkpoints_enabled(self) -> bool:
        return self._unaligned

    def enable_unaligned_checkpoints(self, enabled: bool = True) -> 'CheckpointConfig':
        self._unaligned = bool(enabled)
        return self

    def disable_unaligned_checkpoints(self) -> 'CheckpointConfig':
        return self.enable_unaligned_checkpoints(False)

    def set_alignment_timeout(self, alignment_timeout) -> 'CheckpointConfig':
        self._alignment_timeout = alignment_timeout
        return self

    def get_alignment_timeout(self):
        if self._alignment_timeout is None:
            return _duration_of_millis(0)
        return self._alignment_timeout

    def set_force_unaligned_checkpoints(
            self,
            force_unaligned_checkpoints: bool = True) -> 'CheckpointConfig':
        self._force_unaligned = bool(force_unaligned_checkpoints)
        return self

    def is_force_unaligned_checkpoints(self) -> 'bool':
        return self._force_unaligned

    # -- storage ------------------------------------------------------------------------------

    def set_checkpoint_storage(self, storage: CheckpointStorage) -> 'CheckpointConfig':
        warnings.warn("Deprecated since version 1.19: This method is deprecated and will be "
                      "removed in future FLINK major version. Use "
                      "`stream_execution_environment.configure` method instead to set the "
                      "checkpoint storage.", DeprecationWarning, stacklevel=2)
        if not isinstance(storage, CheckpointStorage):
            raise TypeError("storage must be a CheckpointStorage, got %r" % (storage,))
        self._storage = storage
        return self

    def set_checkpoint_storage_dir(self, checkpoint_path: str) -> 'CheckpointConfig':
        warnings.warn("Deprecated since version 1.19: This method is deprecated and will be "
                      "removed in future FLINK major version. Use "
                      "`stream_execution_environment.configure` method instead to set the "
                      "checkpoint storage.", DeprecationWarning, stacklevel=2)
        self._storage = FileSystemCheckpointStorage(checkpoint_path)
        return self

    def get_checkpoint_storage(self) -> Optional[CheckpointStorage]:
        warnings.warn("Deprecated since version 1.19: This method is deprecated and will be "
                      "removed in future FLINK major version. It is recommended to find which "
                      "checkpoint storage is used by checkpoint storage ConfigOption.",
                      DeprecationWarning, stacklevel=2)
        return self._storage

    # -- for the engine -------------------------------------------------------------------------

    def _to_dict(self) -> dict:
        """All settings as plain values (for the Spark layer and execution plans)."""
        storage = self._storage
        return {
            "enabled": self.is_checkpointing_enabled(),
            "interval": self._interval,
            "mode": self._mode.name,
            "timeout": self._timeout,
            "min_pause": self._min_pause,
            "max_concurrent": self._max_concurrent,
            "tolerable_failures": self.get_tolerable_checkpoint_failure_number(),
            "externalized_retention": None if self._retention is None else self._retention.name,
            "unaligned": self._unaligned,
            "force_unaligned": self._force_unaligned,
            "checkpoint_path": None if storage is None else storage.get_checkpoint_path(),
            "storage": None if storage is None else type(storage).__name__,
        }

    def __repr__(self):
        return "CheckpointConfig(%s)" % ", ".join(
            "%s=%r" % kv for kv in sorted(self._to_dict().items()))
