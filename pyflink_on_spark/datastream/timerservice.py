import abc

__all__ = ["TimerService"]


class TimerService(abc.ABC):
    """Query time and register timers (timers only on keyed streams)."""

    @abc.abstractmethod
    def current_processing_time(self):
        pass

    @abc.abstractmethod
    def current_watermark(self):
        pass

    @abc.abstractmethod
    def register_processing_time_timer(self, timestamp: int):
        pass

    @abc.abstractmethod
    def register_event_time_timer(self, timestamp: int):
        pass

    def delete_processing_time_timer(self, timestamp: int):
        raise NotImplementedError("delete_processing_time_timer")

    def delete_event_time_timer(self, timestamp: int):
        raise NotImplementedError("delete_event_time_timer")
