from enum import Enum

__all__ = ["RuntimeExecutionMode"]


class RuntimeExecutionMode(Enum):
    """STREAMING: arrival order with watermarks; BATCH: grouped by key, final results only."""
    STREAMING = 0
    BATCH = 1
    AUTOMATIC = 2
