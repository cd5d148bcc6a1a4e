"""pyflink.common.watermark_strategy mirror: a declarative WatermarkStrategy.

The strategy is data for the engine, which generates watermarks from these attributes:

* ``_kind``: 'monotonous', 'bounded_out_of_orderness' or 'no_watermarks'
* ``_max_out_of_orderness_ms``: int (0 for monotonous; Flink's watermark is then
  max_timestamp - out_of_orderness - 1)
* ``_timestamp_assigner``: a TimestampAssigner, a plain callable (value, record_ts) -> ts,
  or None (records keep the timestamps they already carry)
* ``_idle_timeout_ms``: int or None
* ``_alignment``: (watermark_group, max_allowed_drift_ms, update_interval_ms) or None

PyFlink quirk kept on purpose: ``with_timestamp_assigner`` changes and returns the same
strategy, while ``with_idleness`` / ``with_watermark_alignment`` return a *new* strategy that
has no timestamp assigner. So ``...with_timestamp_assigner(a).with_idleness(d)`` loses ``a``
on real PyFlink (records keep their previous timestamps); call with_timestamp_assigner last.
"""
import abc
from typing import Any, Callable, Optional, Tuple, Union

from pyflink_on_spark.common.time import Duration
from pyflink_on_spark.common.utils import no_jvm

__all__ = ['WatermarkStrategy', 'TimestampAssigner', 'AssignerWithPeriodicWatermarksWrapper']

_MONOTONOUS = 'monotonous'
_BOUNDED = 'bounded_out_of_orderness'
_NO_WATERMARKS = 'no_watermarks'
_DEFAULT_ALIGNMENT_UPDATE_INTERVAL_MS = 1000


def _millis(duration: Duration, what: str) -> int:
    if not isinstance(duration, Duration):
        # PyFlink reads duration._j_duration and fails with an AttributeError
        raise TypeError("%s expects a pyflink Duration (e.g. Duration.of_seconds(5)), got %s %r"
                        % (what, type(duration).__name__, duration))
    return duration._to_millis()


class WatermarkStrategy(object):
    """How sources assign event timestamps and generate watermarks.

    Build one with ``for_monotonous_timestamps()``, ``for_bounded_out_of_orderness(d)`` or
    ``no_watermarks()``, then refine it with ``with_timestamp_assigner``, ``with_idleness``
    and ``with_watermark_alignment``.
    """

    def __init__(self, j_watermark_strategy):
        # PyFlink wraps a Java WatermarkStrategy; the shim takes its own description
        if not isinstance(j_watermark_strategy, _StrategySpec):
            no_jvm("WatermarkStrategy(j_watermark_strategy)",
                   "it wraps a Java object; use WatermarkStrategy.for_monotonous_timestamps(),"
                   " for_bounded_out_of_orderness() or no_watermarks()")
        self._kind = j_watermark_strategy.kind
        self._max_out_of_orderness_ms = j_watermark_strategy.max_out_of_orderness_ms
        self._idle_timeout_ms = j_watermark_strategy.idle_timeout_ms
        self._alignment = j_watermark_strategy.alignment
        self._timestamp_assigner = None

    def _spec(self) -> '_StrategySpec':
        return _StrategySpec(self._kind, self._max_out_of_orderness_ms, self._idle_timeout_ms,
                             self._alignment)

    def with_timestamp_assigner(self, timestamp_assigner: 'TimestampAssigner') -> \
            'WatermarkStrategy':
        """Use the given assigner to extract event timestamps (changes this strategy)."""
        self._timestamp_assigner = timestamp_assigner
        return self

    def with_idleness(self, idle_timeout: Duration) -> 'WatermarkStrategy':
        """A new strategy that marks a split idle after idle_timeout without records."""
        spec = self._spec()
        spec.idle_timeout_ms = _millis(idle_timeout, "with_idleness()")
        return WatermarkStrategy(spec)

    def with_watermark_alignment(self, watermark_group: str,
                                 max_allowed_watermark_drift: Duration,
                                 update_interval: Optional[Duration] = None) -> \
            'WatermarkStrategy':
        """A new strategy whose sources pause when ahead of their group's watermark by more
        than max_allowed_watermark_drift (update_interval defaults to 1 s)."""
        spec = self._spec()
        spec.alignment = (
            watermark_group,
            _millis(max_allowed_watermark_drift, "with_watermark_alignment()"),
            _DEFAULT_ALIGNMENT_UPDATE_INTERVAL_MS if update_interval is None
            else _millis(update_interval, "with_watermark_alignment()"))
        return WatermarkStrategy(spec)

    @staticmethod
    def for_monotonous_timestamps() -> 'WatermarkStrategy':
        """Timestamps ascend: the watermark follows the largest timestamp seen."""
        return WatermarkStrategy(_StrategySpec(_MONOTONOUS, 0))

    @staticmethod
    def for_bounded_out_of_orderness(max_out_of_orderness: Duration) -> 'WatermarkStrategy':
        """Records are at most max_out_of_orderness late relative to the largest timestamp."""
        return WatermarkStrategy(_StrategySpec(
            _BOUNDED, _millis(max_out_of_orderness, "for_bounded_out_of_orderness()")))

    @staticmethod
    def no_watermarks() -> 'WatermarkStrategy':
        """No watermarks at all (processing-time programs)."""
        return WatermarkStrategy(_StrategySpec(_NO_WATERMARKS, 0))

    def __repr__(self):
        parts = [self._kind]
        if self._kind == _BOUNDED:
            parts.append("max_out_of_orderness_ms=%d" % self._max_out_of_orderness_ms)
        if self._timestamp_assigner is not None:
            parts.append("timestamp_assigner=%r" % (self._timestamp_assigner,))
        if self._idle_timeout_ms is not None:
            parts.append("idle_timeout_ms=%d" % self._idle_timeout_ms)
        if self._alignment is not None:
            parts.append("alignment=%r" % (self._alignment,))
        return "WatermarkStrategy(%s)" % ", ".join(parts)


class _StrategySpec(object):
    """The parts of a strategy the JVM object would hold (everything but the assigner)."""

    __slots__ = ('kind', 'max_out_of_orderness_ms', 'idle_timeout_ms', 'alignment')

    def __init__(self, kind: str, max_out_of_orderness_ms: int,
                 idle_timeout_ms: Optional[int] = None,
                 alignment: Optional[Tuple[str, int, int]] = None):
        self.kind = kind
        self.max_out_of_orderness_ms = max_out_of_orderness_ms
        self.idle_timeout_ms = idle_timeout_ms
        self.alignment = alignment


class TimestampAssigner(abc.ABC):
    """Assigns event-time timestamps (milliseconds since the epoch) to records."""

    @abc.abstractmethod
    def extract_timestamp(self, value: Any, record_timestamp: int) -> int:
        """Return the timestamp of value; record_timestamp is its previous timestamp (the
        minimum long value when it had none)."""
        pass


TimestampAssignerLike = Union[TimestampAssigner, Callable[[Any, int], int]]


class AssignerWithPeriodicWatermarksWrapper(object):
    """Wraps a Java AssignerWithPeriodicWatermarks (legacy API; no Java side in the shim)."""

    def __init__(self, j_assigner_with_periodic_watermarks):
        self._j_assigner_with_periodic_watermarks = j_assigner_with_periodic_watermarks
