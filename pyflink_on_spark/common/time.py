"""pyflink.common.time mirror: Duration (java.time.Duration), Instant and Time."""
from typing import Tuple

from pyflink_on_spark.common._java_text import java_duration_str
from pyflink_on_spark.common.utils import no_jvm

__all__ = ['Duration', 'Instant', 'Time']

_NANOS_PER_SECOND = 1_000_000_000


def _require_int(value, method: str) -> int:
    # java.time.Duration's factories take a long; py4j rejects floats, so do we.
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("Duration.%s() expects an int, got %s" % (method, type(value).__name__))
    return value


class Duration(object):
    """An amount of time such as '34.5 seconds', kept like java.time.Duration.

    ``seconds`` may be negative; ``nanos`` is always in [0, 999_999_999].
    """

    __slots__ = ('_seconds', '_nanos')

    def __init__(self, j_duration: Tuple[int, int]):
        # PyFlink wraps a Java Duration here. The shim stores the (seconds, nanos) pair
        # itself; the factories below are the public way to build one.
        if not (isinstance(j_duration, tuple) and len(j_duration) == 2):
            no_jvm("Duration(j_duration)",
                   "it wraps a Java Duration; use Duration.of_millis()/of_seconds()/...")
        seconds, nanos = j_duration
        extra, nanos = divmod(nanos, _NANOS_PER_SECOND)
        self._seconds = seconds + extra
        self._nanos = nanos

    @staticmethod
    def of_days(days: int) -> 'Duration':
        return Duration((_require_int(days, "of_days") * 86400, 0))

    @staticmethod
    def of_hours(hours: int) -> 'Duration':
        return Duration((_require_int(hours, "of_hours") * 3600, 0))

    @staticmethod
    def of_millis(millis: int) -> 'Duration':
        millis = _require_int(millis, "of_millis")
        return Duration((millis // 1000, (millis % 1000) * 1_000_000))

    @staticmethod
    def of_minutes(minutes: int) -> 'Duration':
        return Duration((_require_int(minutes, "of_minutes") * 60, 0))

    @staticmethod
    def of_nanos(nanos: int) -> 'Duration':
        return Duration((0, _require_int(nanos, "of_nanos")))

    @staticmethod
    def of_seconds(seconds: int) -> 'Duration':
        return Duration((_require_int(seconds, "of_seconds"), 0))

    def _to_millis(self) -> int:
        """java.time.Duration.toMillis(): whole milliseconds, rounded towards -infinity
        for the nanos part (as Java does with its normalised representation)."""
        return self._seconds * 1000 + self._nanos // 1_000_000

    def _to_nanos(self) -> int:
        return self._seconds * _NANOS_PER_SECOND + self._nanos

    def __eq__(self, other):
        return isinstance(other, Duration) and self._seconds == other._seconds \
            and self._nanos == other._nanos

    def __hash__(self):
        return hash((self._seconds, self._nanos))

    def __repr__(self):
        return "Duration(%s)" % java_duration_str(self._seconds, self._nanos)

    def __reduce__(self):
        return Duration, ((self._seconds, self._nanos),)


class Instant(object):
    """A point on the time-line: ``seconds`` since the epoch plus ``nanos`` (like Java's)."""

    __slots__ = ('seconds', 'nanos')

    def __init__(self, seconds, nanos):
        self.seconds = seconds
        self.nanos = nanos

    def to_epoch_milli(self) -> int:
        if self.seconds < 0 < self.nanos:
            # Same arithmetic as PyFlink 1.20, including its divisor of 10_001_000 here (so
            # Instant(-2, 500_000_000) gives -1951, not -1500): results must match PyFlink.
            return (self.seconds + 1) * 1000 + self.nanos // 1000_1000 - 1000
        return self.seconds * 1000 + self.nanos // 1000_000

    @staticmethod
    def of_epoch_milli(epoch_milli: int) -> 'Instant':
        secs, millis = divmod(epoch_milli, 1000)
        return Instant(secs, millis * 1000_000)

    def __eq__(self, other):
        return (self.__class__ == other.__class__ and self.seconds == other.seconds
                and self.nanos == other.nanos)

    def __hash__(self):
        return hash((self.seconds, self.nanos))

    def __repr__(self):
        return 'Instant<{}, {}>'.format(self.seconds, self.nanos)

    def __reduce__(self):
        return Instant, (self.seconds, self.nanos)


class Time(object):
    """A time interval in milliseconds (Flink's deprecated Time, used by windows and TTL)."""

    __slots__ = ('_milliseconds',)

    def __init__(self, milliseconds: int):
        self._milliseconds = milliseconds

    def to_milliseconds(self) -> int:
        return self._milliseconds

    @staticmethod
    def milliseconds(milliseconds: int) -> 'Time':
        return Time(milliseconds)

    @staticmethod
    def seconds(seconds: int) -> 'Time':
        return Time.milliseconds(seconds * 1000)

    @staticmethod
    def minutes(minutes: int) -> 'Time':
        return Time.seconds(minutes * 60)

    @staticmethod
    def hours(hours: int) -> 'Time':
        return Time.minutes(hours * 60)

    @staticmethod
    def days(days: int) -> 'Time':
        return Time.hours(days * 24)

    def __eq__(self, other):
        return self.__class__ == other.__class__ and self._milliseconds == other._milliseconds

    def __hash__(self):
        return hash(self._milliseconds)

    def __str__(self):
        return "{} ms".format(self._milliseconds)

    def __repr__(self):
        return "Time.milliseconds({})".format(self._milliseconds)

    def __reduce__(self):
        return Time, (self._milliseconds,)
