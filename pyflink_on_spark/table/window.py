"""pyflink.table.window: group windows of the Table API (Tumble, Slide, Session), declared in
Python and run as Flink SQL's group windows (GROUP BY TUMBLE(ts, size), HOP, SESSION) by the
translator (table/window_tables.py builds the query). Over windows are refused by name."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

__all__ = ['GroupWindow', 'Tumble', 'Session', 'Slide', 'Over', 'OverWindow']


@dataclass(frozen=True)
class GroupWindow(object):
    """A group window: its SQL function (TUMBLE / HOP / SESSION), the SQL of its interval
    arguments in SQL order (HOP: slide, size), its time column's SQL and its alias."""
    function: str
    intervals: tuple
    time_field: str
    alias: str

    def sql_call(self, suffix: str = "") -> str:
        """TUMBLE(`ts`, INTERVAL '5' SECOND), or with a suffix TUMBLE_START(...)."""
        return "%s%s(%s)" % (self.function, suffix,
                             ", ".join((self.time_field,) + self.intervals))


def _interval(expression, what: str) -> str:
    sql = getattr(expression, "interval_sql", None)
    if sql is None:
        raise NotImplementedError(
            "%s takes an interval literal (lit(5).seconds, lit(500).millis, lit(1).minutes)"
            " on pyflink_on_spark; got %r" % (what, expression))
    return sql


def _time_field(expression, what: str) -> str:
    if not getattr(expression, "is_column", False):
        raise NotImplementedError("%s takes a time column (col('ts')); got %r"
                                  % (what, expression))
    return expression.sql


class _OnTime(object):
    def __init__(self, function: str, intervals: tuple, time_field: str) -> None:
        self._function, self._intervals, self._time_field = function, intervals, time_field

    def alias(self, alias: str) -> GroupWindow:
        return GroupWindow(self._function, self._intervals, self._time_field, alias)


class TumbleWithSizeOnTime(_OnTime):
    """Tumble.over(size).on(time_field): alias(name) gives the window."""


class TumbleWithSize(object):
    def __init__(self, size: str) -> None:
        self._size = size

    def on(self, time_field) -> TumbleWithSizeOnTime:
        return TumbleWithSizeOnTime("TUMBLE", (self._size,),
                                    _time_field(time_field, "Tumble.on"))


class Tumble(object):
    """Tumble.over(lit(5).seconds).on(col('ts')).alias('w')."""

    @classmethod
    def over(cls, size) -> TumbleWithSize:
        return TumbleWithSize(_interval(size, "Tumble.over"))


class SlideWithSizeAndSlideOnTime(_OnTime):
    """Slide.over(size).every(slide).on(time_field): alias(name) gives the window."""


class SlideWithSizeAndSlide(object):
    def __init__(self, size: str, slide: str) -> None:
        self._size, self._slide = size, slide

    def on(self, time_field) -> SlideWithSizeAndSlideOnTime:
        # HOP's arguments are (time, slide, size)
        return SlideWithSizeAndSlideOnTime("HOP", (self._slide, self._size),
                                           _time_field(time_field, "Slide.on"))


class SlideWithSize(object):
    def __init__(self, size: str) -> None:
        self._size = size

    def every(self, slide) -> SlideWithSizeAndSlide:
        return SlideWithSizeAndSlide(self._size, _interval(slide, "Slide.every"))


class Slide(object):
    """Slide.over(lit(10).seconds).every(lit(5).seconds).on(col('ts')).alias('w')."""

    @classmethod
    def over(cls, size) -> SlideWithSize:
        return SlideWithSize(_interval(size, "Slide.over"))


class SessionWithGapOnTime(_OnTime):
    """Session.with_gap(gap).on(time_field): alias(name) gives the window."""


class SessionWithGap(object):
    def __init__(self, gap: str) -> None:
        self._gap = gap

    def on(self, time_field) -> SessionWithGapOnTime:
        return SessionWithGapOnTime("SESSION", (self._gap,),
                                    _time_field(time_field, "Session.on"))


class Session(object):
    """Session.with_gap(lit(10).minutes).on(col('ts')).alias('w')."""

    @classmethod
    def with_gap(cls, gap) -> SessionWithGap:
        return SessionWithGap(_interval(gap, "Session.with_gap"))


class OverWindow(object):
    """Over windows are not run by pyflink_on_spark: building one raises."""


class Over(object):
    """Over.partition_by(...).order_by(...)...: not supported (OVER aggregates are not run)."""

    @classmethod
    def order_by(cls, order_by) -> Optional[OverWindow]:
        raise NotImplementedError("pyflink.table.window.Over (over windows) is not supported "
                                  "by pyflink_on_spark yet (docs/table.md)")

    @classmethod
    def partition_by(cls, *partition_by) -> Optional[OverWindow]:
        return cls.order_by(None)
