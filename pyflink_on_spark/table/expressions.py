"""pyflink.table.expressions: col, lit, the built-in functions below and the operators of
Expression, rendered as Flink SQL text (the Table API's methods run as SQL queries through
the translator, table/sql, which refuses a function it has not checked, naming it)."""
from __future__ import annotations

from typing import Any

from pyflink_on_spark.table.expression import (
    Expression, combined, expression_of, literal_sql)

__all__ = ['col', 'lit', 'and_', 'or_', 'not_', 'if_then_else', 'coalesce', 'concat',
           'concat_ws', 'call', 'call_sql', 'negative']

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
