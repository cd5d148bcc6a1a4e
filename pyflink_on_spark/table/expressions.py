"""pyflink.table.expressions: col, lit, the built-in functions below and the operators of
Expression, rendered as Flink SQL text (the Table API's methods run as SQL queries through
the translator, table/sql, which refuses a function it has not checked, naming it)."""
from __future__ import annotations

from typing import Any

from pyflink_on_spark.table.expression import (
    Expression, combined, expression_of, literal_sql)

__all__ = ['col', 'lit', 'and_', 'or_', 'not_', 'if_then_else', 'coalesce', 'concat',
           'concat_ws', 'call', 'call_sql', 'negative', 'row_interval', 'UNBOUNDED_ROW',
           'UNBOUNDED_RANGE', 'CURRENT_ROW', 'CURRENT_RANGE', 'json_string', 'json_object',
           'json_array', 'null_of']

# built-in aggregate functions by the name call() takes (Flink's names)
_AGGREGATES = ("SUM", "COUNT", "AVG", "MIN", "MAX")


def col(name: str) -> Expression:
    return Expression("`%s`" % name.replace("`", "``"), name, refs=(name,))


def lit(v: Any, data_type=None) -> Expression:
    if data_type is not None:
        from pyflink_on_spark.table.sql import flink_type_string
        if v is not None and not flink_type_string(data_type).endswith(" NOT NULL"):
            from pyflink_on_spark.table.sql.errors import SqlValidationError
            raise SqlValidationError("Literals that have a non-null value must not have a "
                                     "nullable data type.")
        return expression_of(v).cast(data_type)
    return Expression(literal_sql(v))


def _joined(word: str, parts) -> Expression:
    parts = [expression_of(p) for p in parts]
    return combined("(" + (" %s " % word).join(p.sql for p in parts) + ")", *parts)


def and_(predicate0, predicate1, *predicates) -> Expression:
    return _joined("AND", (predicate0, predicate1) + predicates)


def or_(predicate0, predicate1, *predicates) -> Expression:
    return _joined("OR", (predicate0, predicate1) + predicates)


def not_(expression: Expression) -> Expression:
    return combined("(NOT %s)" % expression.sql, expression)


def negative(v) -> Expression:
    v = expression_of(v)
    return combined("(- %s)" % v.sql, v)


def if_then_else(condition, if_true, if_false) -> Expression:
    parts = [expression_of(p) for p in (condition, if_true, if_false)]
    return combined("(CASE WHEN %s THEN %s ELSE %s END)" % tuple(p.sql for p in parts),
                    *parts)


def _call(name: str, args) -> Expression:
    parts = [expression_of(a) for a in args]
    return combined("%s(%s)" % (name, ", ".join(p.sql for p in parts)), *parts)


def coalesce(*args) -> Expression:
    return _call("COALESCE", args)


def concat(first, *others) -> Expression:
    return _call("CONCAT", (first,) + others)


def concat_ws(separator, first, *others) -> Expression:
    return _call("CONCAT_WS", (separator, first) + others)


def call(f, *args) -> Expression:
    """A built-in function by its name (`call('UPPER', col('a'))`); the SQL translator
    refuses, by name, a function it has not checked against Flink."""
    if not isinstance(f, str):      # a Python user-defined function (pyflink.table.udf)
        return f(*args)
    name = f.upper()
    if name in _AGGREGATES and len(args) == 1:
        return getattr(expression_of(args[0]), name.lower())
    return _call(name, args)


def call_sql(sql_expression: str) -> Expression:
    """A Flink SQL expression, as text (read by the translator with the query). The
    columns it reads are not known here; an aggregate in it is not recognised as one."""
    return Expression("(%s)" % sql_expression)


def __getattr__(name):
    if name.startswith("_"):
        raise AttributeError(name)
    raise NotImplementedError(
        "pyflink.table.expressions.%s is not supported by pyflink_on_spark yet (%s and "
        "Expression's operators run; docs/table.md)" % (name, ", ".join(__all__)))


def _over_bound(name: str, kind: str, sql: str) -> Expression:
    bound = Expression(name)
    bound.over_bound = (kind, sql)
    return bound


# over window bounds (pyflink.table.window.Over ... .preceding / .following)
UNBOUNDED_ROW = _over_bound("UNBOUNDED_ROW", "ROWS", "UNBOUNDED PRECEDING")
UNBOUNDED_RANGE = _over_bound("UNBOUNDED_RANGE", "RANGE", "UNBOUNDED PRECEDING")
CURRENT_ROW = _over_bound("CURRENT_ROW", "ROWS", "CURRENT ROW")
CURRENT_RANGE = _over_bound("CURRENT_RANGE", "RANGE", "CURRENT ROW")


def row_interval(rows: int) -> Expression:
    """An over window's row count bound: `preceding(row_interval(2))`."""
    if not isinstance(rows, int) or isinstance(rows, bool) or rows < 0:
        raise TypeError("row_interval takes a row count (an int >= 0), got %r" % (rows,))
    return _over_bound("row_interval(%d)" % rows, "ROWS", "%d PRECEDING" % rows)


# -- JSON construction (Flink SQL's JSON_STRING / JSON_OBJECT / JSON_ARRAY) ------------------

def json_string(value) -> Expression:
    """The value as JSON text: JSON_STRING(value)."""
    return _call("JSON_STRING", (value,))


def json_object(on_null=None, *args) -> Expression:
    """JSON_OBJECT(KEY k VALUE v, ... NULL ON NULL | ABSENT ON NULL): `args` alternate keys and
    values."""
    from pyflink_on_spark.table.expression import JsonOnNull
    if len(args) % 2:
        raise ValueError("json_object takes keys and values in pairs")
    parts = [expression_of(a) for a in args]
    entries = ["KEY %s VALUE %s" % (parts[i].sql, parts[i + 1].sql)
               for i in range(0, len(parts), 2)]
    clause = "%s ON NULL" % (on_null or JsonOnNull.NULL).name
    return combined("JSON_OBJECT(%s)" % ", ".join(entries + [clause]), *parts)


def json_array(on_null=None, *args) -> Expression:
    """JSON_ARRAY(v, ... NULL ON NULL | ABSENT ON NULL)."""
    from pyflink_on_spark.table.expression import JsonOnNull
    parts = [expression_of(a) for a in args]
    clause = "%s ON NULL" % (on_null or JsonOnNull.ABSENT).name
    items = ", ".join(p.sql for p in parts)
    return combined("JSON_ARRAY(%s)" % ((items + " " if items else "") + clause), *parts)


def null_of(data_type) -> Expression:
    """A NULL of the type: CAST(NULL AS type)."""
    from pyflink_on_spark.table.expression import _nullable_type, _type_sql
    return Expression("CAST(NULL AS %s)" % _nullable_type(_type_sql(data_type)))
