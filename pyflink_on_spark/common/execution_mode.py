"""pyflink.common.execution_mode mirror."""
from enum import Enum

from pyflink_on_spark.common.utils import no_jvm

__all__ = ['ExecutionMode']


class ExecutionMode(Enum):
    """How a batch program exchanges data (DataSet-era setting, recorded only).

    PIPELINED: pipelined exchanges except where that could deadlock.
    PIPELINED_FORCED: pipelined exchanges everywhere.
    BATCH: shuffles and broadcasts are batched, local forwards pipelined.
    BATCH_FORCED: every exchange is batched.
    """
    PIPELINED = 0
    PIPELINED_FORCED = 1
    BATCH = 2
    BATCH_FORCED = 3

    @staticmethod
    def _from_j_execution_mode(j_execution_mode) -> 'ExecutionMode':
        no_jvm("ExecutionMode._from_j_execution_mode()")

    def _to_j_execution_mode(self):
        no_jvm("ExecutionMode._to_j_execution_mode()")
