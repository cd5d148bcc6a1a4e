"""Duration/Time/Instant, restart strategies and watermark strategies, as observed on
PyFlink 1.20 (tests/reference/probe_api.py)."""
import pickle
from datetime import timedelta

import pytest

from pyflink_on_spark.common import Duration, Instant, RestartStrategies, Time, \
    WatermarkStrategy
from pyflink_on_spark.common.watermark_strategy import TimestampAssigner


def test_duration():
    assert Duration.of_seconds(1) == Duration.of_millis(1000)
    assert Duration.of_nanos(1) != Duration.of_millis(0)
    assert Duration.of_days(1) == Duration.of_hours(24) == Duration.of_minutes(1440)
    assert Duration.of_millis(-1500)._to_millis() == -1500
    assert Duration.of_nanos(1_500_000)._to_millis() == 1
    assert repr(Duration.of_millis(1500)) == "Duration(PT1.5S)"
    assert hash(Duration.of_seconds(1)) == hash(Duration.of_millis(1000))
    assert pickle.loads(pickle.dumps(Duration.of_millis(7))) == Duration.of_millis(7)
    with pytest.raises(TypeError, match="of_millis"):
        Duration.of_millis(1.5)
    with pytest.raises(NotImplementedError, match="Duration"):
        Duration(object())


def test_time():
    assert str(Time.seconds(2)) == "2000 ms"
    assert Time.minutes(1).to_milliseconds() == 60000
    assert Time.days(1).to_milliseconds() == 86400000
    assert Time.seconds(1) == Time.milliseconds(1000)
    assert Time.seconds(1) != Duration.of_seconds(1)
    assert pickle.loads(pickle.dumps(Time.hours(1))) == Time.hours(1)


def test_instant():
    assert repr(Instant.of_epoch_milli(-1500)) == "Instant<-2, 500000000>"
    assert str(Instant(1, 2)) == "Instant<1, 2>"
    assert Instant.of_epoch_milli(1500).to_epoch_milli() == 1500
    # PyFlink 1.20's arithmetic for negative seconds with nanos (divides by 10_001_000)
    assert Instant.of_epoch_milli(-1500).to_epoch_milli() == -1951
    assert Instant(-2, 500_000_000).to_epoch_milli() == -1951
    assert Instant(1, 2) == Instant(1, 2) and Instant(1, 2) != Instant(1, 3)
    assert hash(Instant(1, 2)) == hash(Instant(1, 2))


DESCRIPTIONS = [
    (RestartStrategies.no_restart, "Restart deactivated."),
    (RestartStrategies.fall_back_restart, "Cluster level default restart strategy"),
    (lambda: RestartStrategies.fixed_delay_restart(3, 1500),
     "Restart with fixed delay (PT1.5S). #3 restart attempts."),
    (lambda: RestartStrategies.fixed_delay_restart(3, timedelta(seconds=2, microseconds=500)),
     "Restart with fixed delay (PT2S). #3 restart attempts."),
    (lambda: RestartStrategies.failure_rate_restart(2, 60000, 1000),
     "Failure rate restart with maximum of 2 failures within interval PT1M and fixed delay "
     "PT1S."),
]


@pytest.mark.parametrize("factory,description", DESCRIPTIONS)
def test_restart_strategy_descriptions(factory, description):
    assert factory().get_description() == description
    assert factory() == factory()
    assert hash(factory()) == hash(factory())


def test_restart_strategy_getters_and_errors():
    fixed = RestartStrategies.fixed_delay_restart(3, 1500)
    assert fixed.get_restart_attempts() == 3
    assert fixed.get_delay_between_attempts_interval() == timedelta(seconds=1, microseconds=500000)
    rate = RestartStrategies.failure_rate_restart(2, 60000, 1000)
    assert (rate.get_max_failure_rate(), rate.get_failure_interval(),
            rate.get_delay_between_attempts_interval()) == \
        (2, timedelta(seconds=60), timedelta(seconds=1))
    with pytest.raises(TypeError, match="only supports integer and datetime.timedelta"):
        RestartStrategies.fixed_delay_restart(3, 1.5)
    assert RestartStrategies.fixed_delay_restart(3, 1500) != \
        RestartStrategies.fixed_delay_restart(4, 1500)
    assert RestartStrategies.no_restart() != RestartStrategies.fall_back_restart()


class _Assigner(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value


def test_watermark_strategy_kinds():
    mono = WatermarkStrategy.for_monotonous_timestamps()
    assert (mono._kind, mono._max_out_of_orderness_ms, mono._timestamp_assigner,
            mono._idle_timeout_ms, mono._alignment) == ('monotonous', 0, None, None, None)
    bounded = WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(5))
    assert (bounded._kind, bounded._max_out_of_orderness_ms) == ('bounded_out_of_orderness',
                                                                 5000)
    assert WatermarkStrategy.no_watermarks()._kind == 'no_watermarks'
    with pytest.raises(TypeError, match="Duration"):
        WatermarkStrategy.for_bounded_out_of_orderness(5)


def test_watermark_strategy_refinements_like_pyflink():
    strategy = WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(20))
    assigner = _Assigner()
    # with_timestamp_assigner changes the strategy itself
    assert strategy.with_timestamp_assigner(assigner) is strategy
    assert strategy._timestamp_assigner is assigner
    idle = strategy.with_idleness(Duration.of_minutes(1))
    assert idle is not strategy and idle._idle_timeout_ms == 60000
    # observed on PyFlink: the new strategy has no timestamp assigner
    assert idle._timestamp_assigner is None
    assert idle._max_out_of_orderness_ms == 20
    aligned = idle.with_watermark_alignment("g", Duration.of_seconds(1))
    assert aligned._alignment == ("g", 1000, 1000)
    assert aligned._idle_timeout_ms == 60000 and aligned._timestamp_assigner is None
    assert idle.with_watermark_alignment("g", Duration.of_seconds(1), Duration.of_millis(5)) \
        ._alignment == ("g", 1000, 5)
    assert WatermarkStrategy.no_watermarks().with_timestamp_assigner(
        lambda v, t: 0)._timestamp_assigner is not None
    with pytest.raises(TypeError):
        TimestampAssigner()
    with pytest.raises(NotImplementedError, match="WatermarkStrategy"):
        WatermarkStrategy(object())
