"""Table.window(group_window).group_by(..., w).select(...): the Flink SQL group window query
it stands for (GROUP BY keys, TUMBLE(ts, size); w.start / w.end / w.rowtime as
TUMBLE_START / _END / _ROWTIME), run by the SQL translator. Seen on PyFlink 1.20.5: the
select's aggregates and window properties are named EXPR$0, EXPR$1... in select order
(an aliased one takes a number too), columns keep their names."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from pyflink_on_spark.table import table_queries as queries
from pyflink_on_spark.table.window import GroupWindow

if TYPE_CHECKING:
    from pyflink_on_spark.table.table import Table

__all__ = ['GroupWindowedTable', 'WindowGroupedTable']

_PROPERTY = re.compile(r"WINDOW_PROPERTY_(START|END|ROWTIME|PROCTIME)\(`((?:[^`]|``)+)`\)")


class GroupWindowedTable(object):
    """A table with a group window (Table.window): group_by names the window's alias."""

    def __init__(self, table: 'Table', window: GroupWindow) -> None:
        if not isinstance(window, GroupWindow):
            raise TypeError("Table.window takes a group window (Tumble / Slide / Session ..."
                            ".alias('w')), got %r" % (window,))
        self._table = table
        self._window = window

    def group_by(self, *fields) -> 'WindowGroupedTable':
        keys = [queries.as_expression(f, "group_by") for f in fields]
        window_keys = [k for k in keys if k.is_column and k.name == self._window.alias]
        if not window_keys:
            raise ValueError("group_by of a windowed table must name the window's alias %r "
                             "(group_by(col('key'), col(%r)))"
                             % (self._window.alias, self._window.alias))
        return WindowGroupedTable(self._table, self._window,
                                  [k for k in keys if all(k is not w for w in window_keys)])


class WindowGroupedTable(object):
    """A windowed table grouped by its window and keys: select gives one row per window and
    key, when the window closes."""

    def __init__(self, table: 'Table', window: GroupWindow, keys) -> None:
        self._table = table
        self._window = window
        self._keys = keys

    def _window_sql(self, sql: str) -> str:
        def replace(match):
            alias = match.group(2).replace("``", "`")
            if alias != self._window.alias:
                raise ValueError("%s: the window is named %r"
                                 % (match.group(0), self._window.alias))
            return self._window.sql_call("_" + match.group(1))
        return _PROPERTY.sub(replace, sql)

    def aggregate(self, func):
        raise NotImplementedError(
            "WindowGroupedTable.aggregate (an aggregate function over group windows) is not "
            "supported by pyflink_on_spark yet: select() with aggregate calls runs "
            "(docs/table.md)")

    def select(self, *fields) -> 'Table':
        fields = [queries.as_expression(f, "select") for f in fields]
        names = self._table._names()
        for key in self._keys:
            queries.check_reads(key, names)
        items, number, properties = [], 0, set()
        for position, f in enumerate(fields):
            sql = self._window_sql(f.sql)
            computed = sql != f.sql or bool(f.aggregates)
            if f.is_column:
                queries.check_reads(f, names)
                items.append(f.sql)
                continue
            if sql != f.sql:
                properties.add(position)
            if computed:
                name, number = f.name or "EXPR$%d" % number, number + 1
            else:
                name = f.name or "_c%d" % position
            items.append("%s AS %s" % (sql, queries.q(name)))
        group = [k.sql for k in self._keys] + [self._window.sql_call()]
        table = self._table._query("SELECT %s FROM %s GROUP BY %s" % (
            ", ".join(items), queries.q(self._table._name), ", ".join(group)))
        return _nullable_properties(table, properties)


def _nullable_properties(table: 'Table', positions) -> 'Table':
    """Seen on PyFlink 1.20.5: the Table API's window properties are nullable columns
    (`TIMESTAMP(3)`), where SQL's TUMBLE_START... are `TIMESTAMP(3) NOT NULL`."""
    from pyflink_on_spark.table.table import Table
    columns = tuple(replace(c, nullable=True) if i in positions else c
                    for i, c in enumerate(table._resolved_columns()))
    description = replace(table._description, columns=columns)
    result = Table(description, table._t_env, columns)
    result._failure = table._failure
    return result
