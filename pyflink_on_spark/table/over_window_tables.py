"""Table.over_window(Over...alias('w')).select(..., col('x').sum.over(col('w'))): the Flink
SQL OVER window query it stands for (SELECT ..., SUM(x) OVER `w` FROM t WINDOW `w` AS
(PARTITION BY ... ORDER BY ... ROWS | RANGE BETWEEN ...)), run by the SQL translator
(table/sql/over_windows.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from pyflink_on_spark.table import table_queries as queries
from pyflink_on_spark.table.window import OverWindow

if TYPE_CHECKING:
    from pyflink_on_spark.table.table import Table

__all__ = ['OverWindowedTable']


class OverWindowedTable(object):
    """A table with over windows (Table.over_window): select computes aggregates over them,
    one row for each input row."""

    def __init__(self, table: 'Table', windows: Sequence[OverWindow]) -> None:
        if not windows:
            raise TypeError("Table.over_window takes at least one over window")
        for w in windows:
            if not isinstance(w, OverWindow):
                raise TypeError("Table.over_window takes over windows (Over.partition_by(...)"
                                ".order_by(...)...alias('w')), got %r" % (w,))
        self._table = table
        self._windows = {w.alias: w for w in windows}

    def select(self, *fields) -> 'Table':
        fields = [queries.as_expression(f, "select") for f in fields]
        names = self._table._names()
        used = []
        for f in fields:
            if f.aggregates:
                raise queries.SqlValidationError(
                    "%s: an aggregate in an over window's select must be called over the "
                    "window (.over(col('w')))" % f.sql)
            for alias in f.over_aliases:
                if alias not in self._windows:
                    raise queries.SqlValidationError(
                        "Over window with alias %s could not be resolved." % alias)
                if alias not in used:
                    used.append(alias)
        if self._table._streaming():
            self._check_time_attributes(used)
        sql = queries.select_query(self._table._name, names, fields)
        if used:
            sql += " WINDOW %s" % ", ".join("%s AS (%s)" % (queries.q(a),
                                                            self._windows[a].spec_sql())
                                            for a in used)
        return self._table._query(sql)

    def _check_time_attributes(self, aliases) -> None:
        """Seen on PyFlink 1.20.5 (STREAMING): select() of an aggregate over a window ordered
        by a column that is no time attribute fails at once (a ValidationException whose
        cause reads as below)."""
        columns = {c.name: c for c in self._table._resolved_columns()}
        for alias in aliases:
            column = columns.get(self._windows[alias].order_column)
            if column is not None and not column.rowtime:
                raise queries.SqlValidationError(
                    "Second argument in OVER window must be a TIME ATTRIBUTE, but is: %s"
                    % (column.sql_type + ("" if column.nullable else " NOT NULL")))
