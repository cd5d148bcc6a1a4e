"""The names of a SELECT's result columns when two would be equal: Flink's SQL (Calcite's
SqlValidatorUtil.uniquify with its EXPR suggester) keeps the first and renames a later one
to the name followed by 0, 1, 2... (the first not yet taken, in select order). Seen on
PyFlink 1.20.5: `SELECT k, k, k, k` gives k, k0, k1, k2; `SELECT k, v AS k1, k, k` gives
k, k1, k0, k2; `SELECT k, k, k0 FROM (SELECT k, v AS k0 ...)` gives k, k0, k00; an
unnamed `UPPER(k)` after `v AS EXPR$1` gives EXPR$10; names differing in case are two
names (`k, UPPER(k) AS K`). The Table API's select refuses such names instead
(table_queries.py)."""
from __future__ import annotations

from typing import List, Sequence

__all__ = ['uniquified', 'unique_projections', 'result_select']


def uniquified(names: Sequence[str]) -> List[str]:
    taken = set()
    out = []
    for name in names:
        unique, attempt = name, 0
        while unique in taken:
            unique = "%s%d" % (name, attempt)
            attempt += 1
        taken.add(unique)
        out.append(unique)
    return out


def unique_projections(projections: list, out: list, sources: list, using) -> tuple:
    """A translated SELECT's projections and result columns ((name, type) pairs, in order)
    with later equal names renamed as Flink renames them (uniquified): a renamed expression
    takes the new alias, and a star giving a renamed column is written as its columns
    (`t1.k, t2.k AS k0`). `sources`: the FROM items (.qualifier, .columns) the stars
    expand over, in order; `using`: the JOIN ... USING columns, if any."""
    from sqlglot import exp
    from pyflink_on_spark.table.sql.errors import UnsupportedSqlError
    names = [name for name, _ in out]
    unique = uniquified(names)
    if unique == names:
        return projections, out
    renamed, position = [], 0
    for projection in projections:
        star = isinstance(projection, exp.Star) or (
            isinstance(projection, exp.Column) and isinstance(projection.this, exp.Star))
        if not star:
            if unique[position] != names[position]:
                projection.set('alias', exp.Identifier(this=unique[position], quoted=True))
            renamed.append(projection)
            position += 1
            continue
        qualifier = projection.table if isinstance(projection, exp.Column) else None
        if using and not qualifier:
            raise UnsupportedSqlError(
                'SELECT * over JOIN ... USING giving two columns of one name (%s): Flink '
                'renames the second; not supported by pyflink_on_spark yet: name the '
                'columns' % ", ".join(sorted({n for n in names if names.count(n) > 1})))
        for source in sources:
            if qualifier and source.qualifier != qualifier:
                continue
            for name, _ in source.columns:
                if source.qualifier is None and len(sources) > 1:
                    raise UnsupportedSqlError(
                        'SELECT * over an unnamed FROM item giving two columns of one name '
                        '(%s): not supported by pyflink_on_spark yet: give the FROM items '
                        'aliases' % name)
                column = exp.Column(
                    this=exp.Identifier(this=name, quoted=True),
                    table=None if source.qualifier is None else
                    exp.Identifier(this=source.qualifier, quoted=True))
                renamed.append(exp.alias_(column, exp.Identifier(
                    this=unique[position], quoted=True), copy=False))
                position += 1
    return renamed, [(name, dt) for name, (_, dt) in zip(unique, out)]


def result_select(tree):
    """The SELECT whose names are a query's result names (a set operation's: its left
    one's), or None (VALUES)."""
    from sqlglot import exp
    node = tree
    while True:
        if isinstance(node, exp.Subquery):
            node = node.this
        elif isinstance(node, (exp.Union, exp.Intersect, exp.Except)):
            node = node.left
        else:
            return node if isinstance(node, exp.Select) else None
