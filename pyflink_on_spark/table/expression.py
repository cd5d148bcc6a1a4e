"""Expression: a Table API expression as the Flink SQL text it stands for (translated to
Spark SQL with the queries, table/sql)."""
from __future__ import annotations

import datetime
import decimal
from typing import Any, Optional

__all__ = ['Expression']


def literal_sql(value: Any) -> str:
    """A Python value as a Flink SQL literal of the type PyFlink's lit() gives it (the
    Table API's expressions go through the SQL translator, table/sql)."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value) if -2 ** 31 <= value < 2 ** 31 else "CAST(%d AS BIGINT)" % value
    if isinstance(value, float):
        return "CAST(%r AS DOUBLE)" % value
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, str):
        return "'%s'" % value.replace("'", "''")
    if isinstance(value, datetime.datetime):
        return "TIMESTAMP '%s'" % value.isoformat(sep=" ")
    if isinstance(value, datetime.date):
        return "DATE '%s'" % value.isoformat()
    raise NotImplementedError("lit(%r): a literal of type %s is not supported by "
                              "pyflink_on_spark yet" % (value, type(value).__name__))


def _sql(value: Any) -> str:
    return value.sql if isinstance(value, Expression) else literal_sql(value)


class Expression(object):
    """`sql`: its Flink SQL text; `name`: the column it names, if it is a column reference
    (a select keeps that name; Flink names other unnamed expressions _c<position>)."""

    def __init__(self, sql: str, name: Optional[str] = None) -> None:
        self.sql = sql
        self.name = name

    def _binary(self, op: str, other: Any) -> 'Expression':
        return Expression("(%s %s %s)" % (self.sql, op, _sql(other)))

    def _reflected(self, op: str, other: Any) -> 'Expression':
        return Expression("(%s %s %s)" % (_sql(other), op, self.sql))

    def __add__(self, other): return self._binary("+", other)
    def __radd__(self, other): return self._reflected("+", other)
    def __sub__(self, other): return self._binary("-", other)
    def __rsub__(self, other): return self._reflected("-", other)
    def __mul__(self, other): return self._binary("*", other)
    def __rmul__(self, other): return self._reflected("*", other)
    def __truediv__(self, other): return self._binary("/", other)
    def __rtruediv__(self, other): return self._reflected("/", other)
    def __mod__(self, other): return self._binary("%", other)
    def __rmod__(self, other): return self._reflected("%", other)
    def __eq__(self, other): return self._binary("=", other)
    def __ne__(self, other): return self._binary("<>", other)
    def __lt__(self, other): return self._binary("<", other)
    def __le__(self, other): return self._binary("<=", other)
    def __gt__(self, other): return self._binary(">", other)
    def __ge__(self, other): return self._binary(">=", other)
    def __and__(self, other): return self._binary("AND", other)
    def __rand__(self, other): return self._reflected("AND", other)
    def __or__(self, other): return self._binary("OR", other)
    def __ror__(self, other): return self._reflected("OR", other)
    def __invert__(self): return Expression("(NOT %s)" % self.sql)
    def __neg__(self): return Expression("(- %s)" % self.sql)
    __hash__ = object.__hash__

    def alias(self, name: str, *extra_names: str) -> 'Expression':
        if extra_names:
            raise NotImplementedError("Expression.alias with several names is not supported "
                                      "by pyflink_on_spark yet")
        return Expression("%s AS `%s`" % (self.sql, name), name)

    @property
    def is_null(self) -> 'Expression':
        return Expression("(%s IS NULL)" % self.sql)

    @property
    def is_not_null(self) -> 'Expression':
        return Expression("(%s IS NOT NULL)" % self.sql)

    def __str__(self) -> str:
        return self.sql

    def __repr__(self) -> str:
        return "Expression(%s)" % self.sql
