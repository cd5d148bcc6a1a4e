from enum import Enum

__all__ = ["TimeDomain"]


class TimeDomain(Enum):
    """The time domain a timer fired in."""
    EVENT_TIME = 0
    PROCESSING_TIME = 1
