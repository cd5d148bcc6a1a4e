from enum import Enum

__all__ = ["TimeCharacteristic"]


class TimeCharacteristic(Enum):
    """Deprecated in Flink: kept for API compatibility; event time is always available."""
    ProcessingTime = 0
    IngestionTime = 1
    EventTime = 2
