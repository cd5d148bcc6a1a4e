"""A grouping query split into what runs per row and what a keyed aggregate keeps (the Table
API's changelog of a grouping query over an unbounded table, table/group_aggregates.py).

`SELECT k, COUNT(*), SUM(x + 1) FROM t WHERE c GROUP BY k` is the row-by-row query
`SELECT k, x + 1 FROM t WHERE c` (translated to Spark SQL as any query) and, per group, the
aggregate calls over its columns. Only that shape is split: one table, a select list of group
keys and single aggregate calls (COUNT(*), COUNT, SUM, MIN, MAX, AVG, not DISTINCT), or
SELECT DISTINCT; anything else raises UnsupportedSqlError naming it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Collection, Dict, List, Optional, Tuple

from pyflink_on_spark.table.sql.errors import UnsupportedSqlError
from pyflink_on_spark.table.sql.functions import AGGREGATES

KEY = "key"
AGGREGATE = "aggregate"
USER_AGGREGATE = "user aggregate"   # a Python aggregate function's call (udaf)


@dataclass(frozen=True)
class Grouping:
    """`per_row`: Flink SQL of the row-by-row query: the group keys `__k0`.., then the
    aggregates' arguments `__a0`..; `items`: per result column, (KEY, key index) or
    (AGGREGATE, (function name, argument index or None for COUNT(*))) or
    (USER_AGGREGATE, (its lowercase name, the indices of its arguments, the field of its
    ROW result the column is or None)): `f(x).a` and `f(x).b` are one call of f, its
    arguments taken once (Table.aggregate's columns, as Flink plans them: one aggregate
    call, its ROW's fields read after it)."""
    per_row: str
    keys: int
    items: Tuple[Tuple[str, object], ...]
    # a projection of a grouping query's rows (`SELECT k, s + 1 FROM (SELECT k, SUM(v) AS s
    # FROM t GROUP BY k) AS g`: Table.aggregate's select of expressions): `inner` the
    # grouping query (Flink SQL, which the fields above split), `projection` the outer select
    # list over its columns, read from the table `projected_from`; None for a grouping query
    inner: Optional[str] = None
    projection: Optional[str] = None
    projected_from: Optional[str] = None
    # the filter of those rows (Flink SQL over the grouping query's columns: a WHERE over
    # its result, Table.where / filter, HAVING), applied to each change on its own; or None
    condition: Optional[str] = None


def split_grouping(query: str, user_aggregates: Collection[str] = ()) -> Grouping:
    """`user_aggregates`: the lowercase names that call Python aggregate functions here."""
    import sqlglot
    from sqlglot import exp
    from pyflink_on_spark.table.sql.translate import FLINK_DIALECT
    tree = sqlglot.parse_one(query, read=FLINK_DIALECT)
    if not isinstance(tree, exp.Select):
        raise _refused("a set operation (UNION, INTERSECT, EXCEPT)")
    for node, what in ((exp.Join, "a JOIN"), (exp.Having, "HAVING"), (exp.Order, "ORDER BY"),
                       (exp.Limit, "LIMIT"), (exp.Window, "an OVER window"),
                       (exp.With, "WITH")):
        if tree.find(node) is not None:
            raise _refused(what)
    source = tree.args.get("from_") or tree.args.get("from")

    def render(e) -> str:
        return e.sql(dialect=FLINK_DIALECT)

    if source is not None and isinstance(source.this, exp.Subquery):
        return _projection(tree, source.this, render, user_aggregates)
    if source is None or not isinstance(source.this, exp.Table):
        raise _refused("a subquery as the input")

    items = [e.unalias() if isinstance(e, exp.Alias) else e for e in tree.expressions]
    if tree.args.get("distinct") is not None:
        keys = list(items)
    else:
        group = tree.args.get("group")
        keys = list(group.expressions) if group is not None else []
    key_text = [render(k) for k in keys]
    args, shaped = [], []
    calls: Dict[str, Tuple[int, ...]] = {}     # a user aggregate call's text -> its arguments
    for item in items:
        text = render(item)
        if text in key_text:
            shaped.append((KEY, key_text.index(text)))
            continue
        field = None
        if isinstance(item, exp.Dot) and isinstance(item.this, exp.Anonymous) and \
                item.this.name.lower() in user_aggregates:
            field, item = item.expression.name, item.this
            text = render(item)
        name = item.name.upper() if isinstance(item, exp.Anonymous) else None
        if name is not None and name.lower() in user_aggregates:
            shaped.append(_user_aggregate_item(item, text, args, render, calls, field))
            continue
        if name not in AGGREGATES:
            raise _refused("the select item %s (only group keys and single aggregate calls "
                           "are kept per group here)" % text)
        shaped.append(aggregate_item(item, name, text, args, render, _refused))
    columns = ["%s AS `__k%d`" % (k, i) for i, k in enumerate(key_text)] + \
        ["%s AS `__a%d`" % (a, i) for i, a in enumerate(args)]
    if not columns:
        columns = ["1 AS `__k`"]   # COUNT(*) alone: the rows still count
    where = tree.args.get("where")
    per_row = "SELECT %s FROM %s%s" % (", ".join(columns), render(source.this),
                                       " WHERE %s" % render(where.this) if where else "")
    return Grouping(per_row, len(keys), tuple(shaped))


def _projection(tree, subquery, render: Callable, user_aggregates: Collection[str]
                ) -> Grouping:
    """A select of expressions over a grouping query's columns, maybe filtered: the grouping
    query split, and the projection and filter each change goes through (row by row, as
    Flink's Calc after its aggregate: a change of the aggregate values is a change of the
    projected row; a change row that fails the filter is dropped on its own, seen on PyFlink
    1.20.5: `+U` without a `+I` before it when a group's count reaches `c > 1`, `-U` without
    a `+U` after it when it leaves the range). Plain selects over plain selects over the
    grouping query (a select of a select, of a filter) merge into one, as Flink merges its
    Calcs."""
    from dataclasses import replace
    from sqlglot import exp
    inner = subquery.this
    while isinstance(inner, exp.Select) and not _groups(inner, user_aggregates):
        below = _source(inner)
        if not isinstance(below, exp.Subquery):
            raise _refused("a subquery as the input")
        _merge(tree, inner, below)
        subquery, inner = below, below.this
    if not isinstance(inner, exp.Select):
        raise _refused("a subquery as the input")
    for what, present in (("GROUP BY over a grouping query's result", tree.args.get("group")),
                          ("DISTINCT over a grouping query's result",
                           tree.args.get("distinct"))):
        if present is not None:
            raise _refused(what)
    if any(isinstance(node, exp.AggFunc) or isinstance(node, exp.Anonymous) and
           node.name.upper() in AGGREGATES for e in tree.expressions for node in e.walk()):
        raise _refused("an aggregate over a grouping query's result")
    where = tree.args.get("where")
    _prune(inner, tree, user_aggregates)
    inner_text = render(inner)
    grouping = split_grouping(inner_text, user_aggregates)
    if grouping.inner is not None:
        raise _refused("a projection of a projection of a grouping query")
    return replace(grouping, inner=inner_text,
                   projection=", ".join(render(e) for e in tree.expressions),
                   projected_from=subquery.alias_or_name or "__grouped",
                   condition=render(where.this) if where is not None else None)


_PLAIN_SELECT_ARGS = ("group", "having", "distinct", "order", "limit", "joins", "windows",
                      "qualify", "with")


def _groups(select, user_aggregates: Collection[str]) -> bool:
    """Whether the SELECT itself groups (GROUP BY, DISTINCT, an aggregate call in its select
    list: not in a subquery it reads)."""
    from sqlglot import exp
    return select.args.get("group") is not None or \
        select.args.get("distinct") is not None or any(
            isinstance(node, exp.AggFunc) or isinstance(node, exp.Anonymous) and
            (node.name.upper() in AGGREGATES or node.name.lower() in user_aggregates)
            for e in select.expressions for node in e.walk())


def _source(select):
    from sqlglot import exp
    source = select.args.get("from_") or select.args.get("from")
    return source.this if isinstance(source, exp.From) else None


def _merge(outer, middle, below) -> None:
    """Rewrites the SELECT `outer` over the plain SELECT `middle` (no grouping) as one SELECT
    over `middle`'s input `below`: `outer`'s column references become `middle`'s
    expressions of those names, its star `middle`'s items, its WHERE `middle`'s WHERE and
    its own. Flink merges the Calcs the same way (a select of a select over an updating
    table is one projection of its changes, seen on PyFlink 1.20.5)."""
    from sqlglot import exp
    for arg in _PLAIN_SELECT_ARGS:
        if middle.args.get(arg):
            raise _refused("%s in a select over a grouping query's result"
                           % arg.upper().replace("_", " "))
    stars = [e for e in middle.expressions if isinstance(e, exp.Star)]
    if stars and len(middle.expressions) > 1:
        raise _refused("a star beside other columns in a select over a grouping query's "
                       "result")
    mapping = None if stars else {e.alias_or_name: e.unalias() for e in middle.expressions}
    if mapping is not None and "" in mapping:
        raise _refused("an unnamed column in a select over a grouping query's result")

    def substituted(e):
        def swap(node):
            if not isinstance(node, exp.Column) or isinstance(node.this, exp.Star):
                return node
            if mapping is None:
                return exp.column(node.this.copy())
            if node.name not in mapping:
                raise _refused("the column %s over a grouping query's result" % node.sql())
            body = mapping[node.name].copy()
            return body if isinstance(body, (exp.Column, exp.Literal)) else exp.Paren(
                this=body)
        return e.transform(swap)

    items = []
    for item in outer.expressions:
        if isinstance(item, exp.Star):
            items += [item] if mapping is None else [
                exp.alias_(body.copy(), exp.to_identifier(name, quoted=True))
                for name, body in mapping.items()]
            continue
        name = item.alias_or_name
        body = substituted(item.unalias() if isinstance(item, exp.Alias) else item)
        items.append(exp.alias_(body, exp.to_identifier(name, quoted=True))
                     if name and body.alias_or_name != name else body)
    conditions = [w.this.copy() for w in (middle.args.get("where"),) if w is not None]
    where = outer.args.get("where")
    if where is not None:
        conditions.append(substituted(where.this))
    outer.set("expressions", items)
    outer.set("where", exp.Where(this=exp.and_(*conditions)) if conditions else None)
    source = outer.args.get("from_") or outer.args.get("from")
    source.set("this", below)


def _prune(inner, tree, user_aggregates: Collection[str]) -> None:
    """Drops from the grouping query `inner` the named columns the projection `tree` (its
    select list and WHERE) does not read, as Flink prunes unread aggregate calls (seen on
    PyFlink 1.20.5: `SELECT k FROM (SELECT k, COUNT(*) AS c ... GROUP BY k)` is +I per key
    and nothing after, the count's changes gone). Kept whole: SELECT DISTINCT (its items are
    its keys), a star, a Python aggregate's call (Table.aggregate's ROW fields), or when
    nothing named would be left."""
    from sqlglot import exp
    if inner.args.get("distinct") is not None or any(
            isinstance(node, exp.Star) for e in tree.expressions for node in e.walk()) or any(
            isinstance(node, exp.Anonymous) and node.name.lower() in user_aggregates
            for node in inner.walk()):
        return
    where = tree.args.get("where")
    read = {c.name for e in list(tree.expressions) + ([where] if where else [])
            for c in e.find_all(exp.Column)}
    kept = [e for e in inner.expressions if not e.alias_or_name or e.alias_or_name in read]
    if any(e.alias_or_name for e in kept):
        inner.set("expressions", kept)


def aggregate_item(item, name: str, text: str, args: List[str], render: Callable,
                   refused: Callable[[str], UnsupportedSqlError]) -> Tuple[str, object]:
    """A select item that calls the aggregate `name` (its SQL `text`): (AGGREGATE, (name,
    index of its argument in `args`, where it is appended, or None for COUNT(*))); a
    DISTINCT, nested or many-argument call raises `refused(what)`. Grouping queries and
    window aggregates (window_grouping.py) keep the same aggregate calls."""
    from sqlglot import exp
    arguments = item.expressions
    if len(arguments) == 1 and isinstance(arguments[0], exp.Distinct):
        raise refused("a DISTINCT aggregate (%s)" % text)
    if any(a.find(exp.Anonymous) is not None and a.find(exp.Anonymous).name.upper()
           in AGGREGATES for a in arguments):
        raise refused("a nested aggregate (%s)" % text)
    if name == "COUNT" and len(arguments) == 1 and isinstance(arguments[0], exp.Star):
        return AGGREGATE, (name, None)
    if len(arguments) != 1:
        raise refused("the aggregate call %s" % text)
    args.append(render(arguments[0]))
    return AGGREGATE, (name, len(args) - 1)


def _user_aggregate_item(item, text: str, args: List[str], render: Callable,
                         calls: Dict[str, Tuple[int, ...]], field: Optional[str]
                         ) -> Tuple[str, object]:
    """(USER_AGGREGATE, (name, indices of its arguments, appended to `args` unless the
    same call came before (`calls`), the ROW field `field` or None))."""
    from sqlglot import exp
    if any(isinstance(a, exp.Distinct) for a in item.expressions):
        raise _refused("a DISTINCT aggregate (%s)" % text)
    if text not in calls:
        start = len(args)
        args.extend(render(a) for a in item.expressions)
        calls[text] = tuple(range(start, len(args)))
    return USER_AGGREGATE, (item.name.lower(), calls[text], field)


def _refused(what: str) -> UnsupportedSqlError:
    return UnsupportedSqlError(
        "%s in a grouping query over an unbounded table: pyflink_on_spark keeps the "
        "changelog of a single SELECT of group keys and aggregate calls over one input "
        "(docs/table.md)" % what)
