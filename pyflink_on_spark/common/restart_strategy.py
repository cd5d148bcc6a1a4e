"""pyflink.common.restart_strategy mirror: restart strategy configurations.

The shim records the configuration (and describes it like Flink); failures in a Spark job are
retried by Spark's own task retry, not by these strategies.
"""
from abc import ABCMeta
from datetime import timedelta
from typing import Optional, Union

from pyflink_on_spark.common._java_text import java_duration_str
from pyflink_on_spark.common.utils import no_jvm

__all__ = ['RestartStrategies', 'RestartStrategyConfiguration']


def _to_millis(interval: Union[int, timedelta], parameter: str) -> int:
    """PyFlink turns the interval into a Flink Time: milliseconds, or a timedelta truncated to
    whole milliseconds."""
    if isinstance(interval, timedelta):
        micros = round(interval.total_seconds() * 1000 * 1000)
        return int(micros / 1000)  # TimeUnit.MICROSECONDS.toMillis truncates towards zero
    if isinstance(interval, int) and not isinstance(interval, bool):
        return interval
    raise TypeError("The %s only supports integer and datetime.timedelta, current input type "
                    "is %s." % (parameter, type(interval)))


def _duration_text(millis: int) -> str:
    seconds, ms = divmod(millis, 1000)
    return java_duration_str(seconds, ms * 1_000_000)


class RestartStrategyConfiguration(object, metaclass=ABCMeta):
    """Abstract configuration for restart strategies."""

    def __init__(self, j_restart_strategy_configuration):
        if j_restart_strategy_configuration is not None:
            no_jvm("RestartStrategyConfiguration(j_restart_strategy_configuration)",
                   "it wraps a Java object; use the RestartStrategies factories")

    def get_description(self) -> str:
        """A description of the strategy (as shown in Flink's web interface)."""
        raise NotImplementedError

    def _params(self) -> tuple:
        return ()

    def __eq__(self, other):
        return isinstance(other, self.__class__) and type(other) is type(self) \
            and self._params() == other._params()

    def __hash__(self):
        return hash((type(self).__name__,) + self._params())

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, self.get_description())


class RestartStrategies(object):
    """Factories of RestartStrategyConfiguration."""

    class NoRestartStrategyConfiguration(RestartStrategyConfiguration):
        """No restarts: the job fails on the first failure."""

        def __init__(self, j_restart_strategy=None):
            super(RestartStrategies.NoRestartStrategyConfiguration, self).__init__(
                j_restart_strategy)

        def get_description(self) -> str:
            return "Restart deactivated."

    class FixedDelayRestartStrategyConfiguration(RestartStrategyConfiguration):
        """Restart a fixed number of times with a fixed delay in between."""

        def __init__(self, restart_attempts=None, delay_between_attempts_interval=None,
                     j_restart_strategy=None):
            super(RestartStrategies.FixedDelayRestartStrategyConfiguration, self).__init__(
                j_restart_strategy)
            self._restart_attempts = restart_attempts
            self._delay_ms = _to_millis(delay_between_attempts_interval,
                                        "delay_between_attempts_interval 'failure_interval'")

        def get_restart_attempts(self) -> int:
            return self._restart_attempts

        def get_delay_between_attempts_interval(self) -> timedelta:
            return timedelta(milliseconds=self._delay_ms)

        def get_description(self) -> str:
            return "Restart with fixed delay (%s). #%s restart attempts." % (
                _duration_text(self._delay_ms), self._restart_attempts)

        def _params(self) -> tuple:
            return self._restart_attempts, self._delay_ms

    class FailureRateRestartStrategyConfiguration(RestartStrategyConfiguration):
        """Restart until more than max_failure_rate failures happen within failure_interval."""

        def __init__(self, max_failure_rate=None, failure_interval=None,
                     delay_between_attempts_interval=None, j_restart_strategy=None):
            super(RestartStrategies.FailureRateRestartStrategyConfiguration, self).__init__(
                j_restart_strategy)
            self._max_failure_rate = max_failure_rate
            self._failure_interval_ms = _to_millis(failure_interval, "parameter 'failure_interval'")
            self._delay_ms = _to_millis(delay_between_attempts_interval,
                                        "delay_between_attempts_interval 'failure_interval'")

        def get_max_failure_rate(self) -> int:
            return self._max_failure_rate

        def get_failure_interval(self) -> timedelta:
            return timedelta(milliseconds=self._failure_interval_ms)

        def get_delay_between_attempts_interval(self) -> timedelta:
            return timedelta(milliseconds=self._delay_ms)

        def get_description(self) -> str:
            return ("Failure rate restart with maximum of %s failures within interval %s and "
                    "fixed delay %s." % (self._max_failure_rate,
                                         _duration_text(self._failure_interval_ms),
                                         _duration_text(self._delay_ms)))

        def _params(self) -> tuple:
            return self._max_failure_rate, self._failure_interval_ms, self._delay_ms

    class FallbackRestartStrategyConfiguration(RestartStrategyConfiguration):
        """Use the cluster-level restart strategy (the default)."""

        def __init__(self, j_restart_strategy=None):
            super(RestartStrategies.FallbackRestartStrategyConfiguration, self).__init__(
                j_restart_strategy)

        def get_description(self) -> str:
            return "Cluster level default restart strategy"

    @staticmethod
    def _from_j_restart_strategy(j_restart_strategy) -> Optional[RestartStrategyConfiguration]:
        if j_restart_strategy is None:
            return None
        no_jvm("RestartStrategies._from_j_restart_strategy()")

    @staticmethod
    def no_restart() -> 'RestartStrategies.NoRestartStrategyConfiguration':
        return RestartStrategies.NoRestartStrategyConfiguration()

    @staticmethod
    def fall_back_restart() -> 'RestartStrategies.FallbackRestartStrategyConfiguration':
        return RestartStrategies.FallbackRestartStrategyConfiguration()

    @staticmethod
    def fixed_delay_restart(restart_attempts: int, delay_between_attempts: int) -> \
            'RestartStrategies.FixedDelayRestartStrategyConfiguration':
        """delay_between_attempts: milliseconds (int) or a datetime.timedelta."""
        return RestartStrategies.FixedDelayRestartStrategyConfiguration(restart_attempts,
                                                                        delay_between_attempts)

    @staticmethod
    def failure_rate_restart(failure_rate: int, failure_interval: int, delay_interval: int) -> \
            'RestartStrategies.FailureRateRestartStrategyConfiguration':
        """Intervals: milliseconds (int) or datetime.timedelta."""
        return RestartStrategies.FailureRateRestartStrategyConfiguration(failure_rate,
                                                                         failure_interval,
                                                                         delay_interval)
