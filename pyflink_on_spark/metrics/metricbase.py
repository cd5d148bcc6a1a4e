"""The metric interfaces user functions see (mirror of pyflink.metrics.metricbase, 1.20).

RuntimeContext.get_metrics_group() returns a MetricGroup; the counters, meters and
distributions it registers are instances of these classes (the task-local implementations in
pyflink_on_spark.runtime.metrics derive from them), so `isinstance(c, pyflink.metrics.Counter)`
holds as on PyFlink.
"""
from abc import ABC, abstractmethod
from typing import Callable

__all__ = ["MetricGroup", "Metric", "Counter", "Meter", "Distribution"]


class MetricGroup(ABC):
    """A named scope that registers metrics and nested groups."""

    @abstractmethod
    def add_group(self, name: str, extra: str = None) -> 'MetricGroup':
        """A subgroup `name`; with `extra`, a key-value group (`name.extra`)."""

    @abstractmethod
    def counter(self, name: str) -> 'Counter':
        """Registers a Counter."""

    @abstractmethod
    def gauge(self, name: str, obj: Callable[[], int]) -> None:
        """Registers a Gauge reporting what `obj()` returns."""

    @abstractmethod
    def meter(self, name: str, time_span_in_seconds: int = 60) -> 'Meter':
        """Registers a Meter (events per second over the time span)."""

    @abstractmethod
    def distribution(self, name: str) -> 'Distribution':
        """Registers a Distribution of reported values."""


class Metric(ABC):
    """Base of every metric."""


class Counter(Metric, ABC):
    """Counts up and down."""

    @abstractmethod
    def inc(self, n: int = 1):
        """Increments by n."""

    @abstractmethod
    def dec(self, n: int = 1):
        """Decrements by n."""

    @abstractmethod
    def get_count(self) -> int:
        """The current count."""


class Meter(Metric, ABC):
    """Counts events and their rate."""

    @abstractmethod
    def mark_event(self, value: int = 1):
        """Records `value` events."""

    @abstractmethod
    def get_count(self) -> int:
        """The number of events recorded."""


class Distribution(Metric, ABC):
    """Statistics of reported values."""

    @abstractmethod
    def update(self, value):
        """Reports one value."""
