"""pyflink.table.expressions: col, lit and the operators of Expression, rendered as Flink SQL
text (the Table API's select / where / filter run as SQL queries, docs/table.md)."""
from __future__ import annotations

from typing import Any

from pyflink_on_spark.table.expression import Expression, literal_sql

__all__ = ['col', 'lit', 'and_', 'or_', 'not_']


def col(name: str) -> Expression:
    return Expression("`%s`" % name.replace("`", "``"), name)


def lit(v: Any, data_type=None) -> Expression:
    if data_type is not None:
        raise NotImplementedError("lit(value, data_type) is not supported by pyflink_on_spark "
                                  "yet: pass the value alone")
    return Expression(literal_sql(v))


def and_(predicate0: Expression, predicate1: Expression, *predicates: Expression) \
        -> Expression:
    parts = [predicate0, predicate1] + list(predicates)
    return Expression("(" + " AND ".join(p.sql for p in parts) + ")")


def or_(predicate0: Expression, predicate1: Expression, *predicates: Expression) -> Expression:
    parts = [predicate0, predicate1] + list(predicates)
    return Expression("(" + " OR ".join(p.sql for p in parts) + ")")


def not_(expression: Expression) -> Expression:
    return Expression("(NOT %s)" % expression.sql)


def __getattr__(name):
    if name.startswith("_"):
        raise AttributeError(name)
    raise NotImplementedError(
        "pyflink.table.expressions.%s is not supported by pyflink_on_spark yet (col, lit, "
        "and_, or_, not_ and Expression's operators run; docs/table.md)" % name)
