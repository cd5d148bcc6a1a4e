"""pyflink.table.window: group windows of the Table API (Tumble, Slide, Session), declared in
Python and run as Flink SQL's group windows (GROUP BY TUMBLE(ts, size), HOP, SESSION) by the
translator (table/window_tables.py builds the query); over windows (Over) as Flink SQL's
OVER windows (WINDOW w AS (PARTITION BY ... ORDER BY ... ROWS | RANGE BETWEEN ...),
table/over_window_tables.py)."""
from __future__ import annotations

from dataclasses import dataclass

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
    """An over window (Over.partition_by(...).order_by(...).preceding(...).alias('w')): the
    Flink SQL window specification it stands for, named by its alias; an aggregate calls
    over it with `.over(col('w'))` (Table.over_window, table/over_window_tables.py)."""

    def __init__(self, alias: str, partition_by: tuple, order_by: str, preceding,
                 following, order_column=None) -> None:
        self.alias = alias
        self.order_column = order_column    # the column it is ordered by (None: an expression)
        self.partition_by = partition_by
        self.order_by = order_by
        self.preceding = preceding
        self.following = following

    def spec_sql(self) -> str:
        """PARTITION BY ... ORDER BY ... ROWS | RANGE BETWEEN ... AND ...: the frame of
        PyFlink's defaults (an unbounded RANGE without preceding; following CURRENT_ROW for
        a row count, CURRENT_RANGE for an interval)."""
        kind, start = _bound(self.preceding, "preceding")
        if self.following is None:
            end_kind, end = kind, "CURRENT ROW"
        else:
            end_kind, end = _bound(self.following, "following")
            if end != "CURRENT ROW":
                end = end.replace("PRECEDING", "FOLLOWING")
        if self.following is not None and end_kind != kind:
            # seen on PyFlink 1.20.5: an interval preceding and CURRENT_ROW following (also
            # UNBOUNDED_RANGE and CURRENT_ROW) fail at select() with a ValidationException
            from pyflink_on_spark.table.sql.errors import SqlValidationError
            raise SqlValidationError("Preceding and following must be of same interval type.")
        parts = []
        if self.partition_by:
            parts.append("PARTITION BY %s" % ", ".join(self.partition_by))
        parts.append("ORDER BY %s" % self.order_by)
        parts.append("%s BETWEEN %s AND %s" % (kind, start, end))
        return " ".join(parts)


def _bound(expression, what: str):
    """(ROWS / RANGE, the frame bound's SQL) of row_interval(n), an interval literal,
    UNBOUNDED_ROW / UNBOUNDED_RANGE, CURRENT_ROW / CURRENT_RANGE."""
    if expression is None:
        return "RANGE", "UNBOUNDED PRECEDING"
    marker = getattr(expression, "over_bound", None)
    if marker is not None:
        return marker
    interval = getattr(expression, "interval_sql", None)
    if interval is not None:
        return "RANGE", "%s PRECEDING" % interval
    raise NotImplementedError(
        "Over ... .%s takes row_interval(n), an interval (lit(1).seconds), UNBOUNDED_ROW, "
        "UNBOUNDED_RANGE, CURRENT_ROW or CURRENT_RANGE on pyflink_on_spark; got %r"
        % (what, expression))


def _order_field(expression) -> str:
    if getattr(expression, "ordering", None) == "DESC":
        return "%s DESC" % expression.sql
    sql = getattr(expression, "sql", None)
    if sql is None:
        raise TypeError("Over.order_by takes an expression (col('ts')), got %r" % (expression,))
    return sql


class OverWindowPartitionedOrderedPreceding(object):
    def __init__(self, partition_by: tuple, order_by, preceding, following=None) -> None:
        self._partition_by, self._order_by = partition_by, order_by
        self._preceding, self._following = preceding, following

    def following(self, following) -> 'OverWindowPartitionedOrderedPreceding':
        return OverWindowPartitionedOrderedPreceding(self._partition_by, self._order_by,
                                                     self._preceding, following)

    def alias(self, alias: str) -> OverWindow:
        return OverWindow(alias, self._partition_by, _order_field(self._order_by),
                          self._preceding, self._following, _order_column(self._order_by))


class OverWindowPartitionedOrdered(object):
    def __init__(self, partition_by: tuple, order_by) -> None:
        self._partition_by, self._order_by = partition_by, order_by
        _order_field(order_by)

    def preceding(self, preceding) -> OverWindowPartitionedOrderedPreceding:
        return OverWindowPartitionedOrderedPreceding(self._partition_by, self._order_by,
                                                     preceding)

    def alias(self, alias: str) -> OverWindow:
        return OverWindow(alias, self._partition_by, _order_field(self._order_by), None, None,
                          _order_column(self._order_by))


def _order_column(expression):
    return expression.name if getattr(expression, "is_column", False) else None


class OverWindowPartitioned(object):
    def __init__(self, partition_by: tuple) -> None:
        self._partition_by = partition_by

    def order_by(self, order_by) -> OverWindowPartitionedOrdered:
        return OverWindowPartitionedOrdered(self._partition_by, order_by)


class Over(object):
    """Over.partition_by(col('k')).order_by(col('ts')).preceding(row_interval(2))
    [.following(CURRENT_ROW)].alias('w'), or Over.order_by(...)...: an over window for
    Table.over_window."""

    @classmethod
    def order_by(cls, order_by) -> OverWindowPartitionedOrdered:
        return OverWindowPartitionedOrdered((), order_by)

    @classmethod
    def partition_by(cls, *partition_by) -> OverWindowPartitioned:
        fields = []
        for p in partition_by:
            sql = getattr(p, "sql", None)
            if sql is None:
                raise TypeError("Over.partition_by takes expressions (col('k')), got %r" % (p,))
            fields.append(sql)
        return OverWindowPartitioned(tuple(fields))
