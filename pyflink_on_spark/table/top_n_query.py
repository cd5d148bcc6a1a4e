"""A ROW_NUMBER() query in STREAMING mode (Flink's Top-N and deduplication) split into what
runs per row and what the keyed Top-N keeps (table/top_n_streams.py), as
table/sql/over_grouping.py splits an OVER window query:

    SELECT k, v, rn FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC)
    AS rn FROM t WHERE c) WHERE rn <= 2

is the row-by-row query `SELECT k, v, CAST(0 AS BIGINT) AS rn, k AS __k0, v AS __o0 FROM t
WHERE c` (the inner select's items, its ROW_NUMBER() a placeholder, then the partition keys
and the sort values) and, per partition key, ranks 1 to 2 by __o0 DESC. The outer select
keeps columns of the inner one (renamed or not, `*`); its WHERE only bounds rn (`rn <= N`,
`rn < N`, `rn = N`, `BETWEEN`, ANDed). Anything else raises UnsupportedSqlError naming it.
A ranked select that reads a grouping subquery (an updating input) splits into that
subquery, whose changelog the rank takes, and the ranks (split_updating_top_n).

RANK() and DENSE_RANK() split the same way; PyFlink 1.20.5 runs neither as a Top-N in
STREAMING mode (seen: execute() fails with rank_unsupported()'s words, or NO_RANK_END's when
the filter has no end: Flink's StreamExecRank refuses the rank type when it translates the
plan), so `failure` names what running them fails with."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

from pyflink_on_spark.table.sql.errors import UnsupportedSqlError

__all__ = ['TopNQuery', 'UpdatingTopNQuery', 'split_top_n', 'split_updating_top_n', 'STAR',
           'COLUMN', 'NO_RANK_END', 'NO_TIME_ORDER', 'RANK_FUNCTIONS', 'rank_unsupported',
           'as_over_aggregate', 'rank_top_n_failure', 'source_of']

STAR = "*"          # an outer item: all the inner select's columns
COLUMN = "column"   # an outer item: (COLUMN, (inner column name, result name))

# seen on PyFlink 1.20.5: sql_query accepts these, running them fails with these words
NO_RANK_END = ("org.apache.flink.table.api.TableException: Rank end is not specified. "
               "Currently rank only support TopN, which means the rank end must be "
               "specified.")
NO_TIME_ORDER = ("org.apache.flink.table.api.TableException: OVER windows' ordering in "
                 "stream mode must be defined on a time attribute.")
# seen too, an unfiltered ranking (Flink's over aggregate) checked in this order
NO_SINGLE_TIME = ("org.apache.flink.table.api.TableException: The window can only be ordered "
                  "by a single time column.")
NOT_ASCENDING = ("org.apache.flink.table.api.TableException: The window can only be ordered "
                 "in ASCENDING mode.")
RANK_FUNCTIONS = ("ROW_NUMBER", "RANK", "DENSE_RANK")


def rank_unsupported(function: str) -> str:
    """Seen on PyFlink 1.20.5: what running a filtered RANK() / DENSE_RANK() (a Top-N) in
    STREAMING mode fails with, whatever its order or bounds (rank 1 over a rowtime too)."""
    return ("org.apache.flink.table.api.TableException: %s() on streaming table is not "
            "supported currently" % function)


@dataclass(frozen=True)
class TopNQuery:
    """`per_row`: Flink SQL of the row-by-row query: the inner select's items (rn a BIGINT
    placeholder named `rank_name`), then `keys` partition keys `__k0`.., then the sort
    values `__o0`..; `order`: per sort value (DESC?, NULLS FIRST?); ranks `start` to `end`
    (None: no end, or no filter at all: `filtered`); `items`: the outer select's;
    `function`: ROW_NUMBER, RANK or DENSE_RANK."""
    per_row: str
    keys: int
    order: Tuple[Tuple[bool, bool], ...]
    start: int
    end: Optional[int]
    filtered: bool
    items: Tuple[Tuple[str, object], ...]
    rank_name: str
    table: str
    function: str = "ROW_NUMBER"

    def failure(self, time_ordered: bool) -> Optional[str]:
        """What running it fails with on PyFlink (None: it runs). `time_ordered`: the
        window's first sort column is a time attribute."""
        if not self.filtered:
            # an over aggregate: Flink's checks of its window, in their order (seen)
            if len(self.order) != 1:
                return NO_SINGLE_TIME
            if self.order[0][0]:
                return NOT_ASCENDING
            return None if time_ordered else NO_TIME_ORDER
        if self.end is None:
            return NO_RANK_END
        return None if self.function == "ROW_NUMBER" else rank_unsupported(self.function)


def split_top_n(query: str) -> TopNQuery:
    import sqlglot
    from sqlglot import exp
    from pyflink_on_spark.table.sql.translate import FLINK_DIALECT
    try:
        tree = sqlglot.parse_one(query, read=FLINK_DIALECT)
    except sqlglot.errors.ParseError as e:
        raise _refused("a query sqlglot does not parse (%s)" % str(e).split("\n")[0])

    def render(e) -> str:
        return e.sql(dialect=FLINK_DIALECT)

    if not isinstance(tree, exp.Select):
        raise _refused("a set operation (UNION, INTERSECT, EXCEPT)")
    source = tree.args.get("from_") or tree.args.get("from")
    if source is not None and isinstance(source.this, exp.Subquery) and \
            not any(isinstance(e.unalias(), exp.Window) for e in tree.expressions):
        outer, inner = tree, source.this.this
    else:
        outer, inner = None, tree       # ROW_NUMBER() in the query's own select: no filter
    if not isinstance(inner, exp.Select):
        raise _refused("a set operation (UNION, INTERSECT, EXCEPT) as the ranked input")
    for select in (s for s in (outer, inner) if s is not None):
        for clause, what in (("joins", "a JOIN"), ("laterals", "a LATERAL TABLE"),
                             ("group", "GROUP BY (an updating input: Flink ranks it with "
                                       "retractions)"),
                             ("having", "HAVING"), ("limit", "LIMIT"), ("with", "WITH"),
                             ("order", "ORDER BY"), ("distinct", "SELECT DISTINCT (an "
                                                                 "updating input)")):
            if select.args.get(clause):
                raise _refused(what)
    inner_source = inner.args.get("from_") or inner.args.get("from")
    if inner_source is None or not isinstance(inner_source.this, exp.Table):
        raise _refused("a subquery as the ranked input")
    if any(isinstance(n, exp.AggFunc) and n.find_ancestor(exp.Window) is None
           for n in inner.walk()):
        raise _refused("an aggregate call (an updating input: Flink ranks it with retractions)")
    windows = [e for e in inner.expressions if isinstance(e.unalias(), exp.Window)]
    if len(windows) != 1 or any(w.find(exp.Window) is not None for w in inner.expressions
                                if w not in windows):
        raise _refused("other than one ROW_NUMBER() OVER (...) select item")
    window_item = windows[0]
    window = window_item.unalias()
    call = window.this
    function = "ROW_NUMBER" if isinstance(call, exp.RowNumber) else \
        call.name.upper() if isinstance(call, exp.Anonymous) else None
    if function not in RANK_FUNCTIONS:
        raise _refused("the window function %s (Flink's streaming rank takes ROW_NUMBER, "
                       "RANK, DENSE_RANK)" % render(call))
    if not isinstance(window_item, exp.Alias):
        raise _refused("%s() OVER (...) without an alias" % function)
    rank_name = window_item.alias
    order = window.args.get("order")
    if order is None or window.args.get("spec") is not None:
        raise _refused("%s() OVER (...) without ORDER BY, or with a frame" % function)
    keys = [render(p) for p in window.args.get("partition_by") or []]
    sorts = [render(o.this) for o in order.expressions]
    directions = tuple((bool(o.args.get("desc")), bool(o.args.get("nulls_first")))
                       for o in order.expressions)
    window_item.set("this", exp.Cast(this=exp.Literal.number(0),
                                     to=exp.DataType.build("BIGINT")))
    where = inner.args.get("where")
    columns = [render(e) for e in inner.expressions] + \
        ["%s AS `__k%d`" % (k, i) for i, k in enumerate(keys)] + \
        ["%s AS `__o%d`" % (s, i) for i, s in enumerate(sorts)]
    table = inner_source.this.name
    per_row = "SELECT %s FROM %s%s" % (", ".join(columns), render(inner_source.this),
                                       " WHERE %s" % render(where.this) if where else "")
    if outer is None:
        return TopNQuery(per_row, len(keys), directions, 1, None, False,
                         _outer_items_of_inner(inner, window_item, rank_name, render),
                         rank_name, table, function)
    items = tuple((STAR, None) if isinstance(e, exp.Star) else _column(e, render)
                  for e in outer.expressions)
    start, end, filtered = _rank_range(outer.args.get("where"), rank_name, render)
    return TopNQuery(per_row, len(keys), directions, start, end, filtered, items, rank_name,
                     table, function)


@dataclass(frozen=True)
class UpdatingTopNQuery:
    """A ROW_NUMBER() Top-N over a grouping subquery (an updating input, issue 44):

        SELECT * FROM (SELECT k, cnt, ROW_NUMBER() OVER (PARTITION BY k ORDER BY cnt DESC)
        AS rn FROM (SELECT k, item, COUNT(*) AS cnt FROM v GROUP BY k, item)) WHERE rn <= 3

    `grouping`: the subquery (Flink SQL), whose changelog the rank takes row by row (its
    rows: its columns in order, then `__g<i>` for each GROUP BY column it does not select,
    `columns` their names); `group_keys`: its GROUP BY columns; `monotonicity`: per
    column of it, Flink's modified monotonicity (retract_top_n_rules: a group key constant,
    COUNT / MAX increasing, MIN decreasing, SUM / AVG none); `keys` / `sorts`: the partition
    and sort columns' indexes in its row, `order` per sort column (DESC?, NULLS FIRST?);
    `middle`: per item of the ranked select, the index of its column in the row or None for
    the rank; `items`, `start`, `end`, `rank_name` as TopNQuery's."""
    grouping: str
    columns: Tuple[str, ...]
    group_keys: Tuple[int, ...]
    monotonicity: Tuple[Optional[str], ...]
    keys: Tuple[int, ...]
    sorts: Tuple[int, ...]
    order: Tuple[Tuple[bool, bool], ...]
    middle: Tuple[Tuple[str, Optional[int]], ...]
    items: Tuple[Tuple[str, object], ...]
    start: int
    end: Optional[int]
    rank_name: str


def source_of(select):
    """What a parsed SELECT reads from (its FROM's table or subquery), None without a FROM
    (sqlglot names the argument `from_` or `from` by version)."""
    source = select.args.get("from_") or select.args.get("from")
    return source.this if source is not None else None


def split_updating_top_n(query: str) -> Optional[UpdatingTopNQuery]:
    """The split of a ROW_NUMBER() query whose ranked select reads a grouping subquery
    (GROUP BY, SELECT DISTINCT or aggregate calls); None for any other query (split_top_n
    splits or refuses those). What is not built raises UnsupportedSqlError naming it."""
    import sqlglot
    from sqlglot import exp
    from pyflink_on_spark.table.retract_top_n_rules import (CONSTANT, DECREASING,
                                                            INCREASING, NOT_MONOTONIC)
    from pyflink_on_spark.table.sql.translate import FLINK_DIALECT
    try:
        tree = sqlglot.parse_one(query, read=FLINK_DIALECT)
    except sqlglot.errors.ParseError:
        return None

    def render(e) -> str:
        return e.sql(dialect=FLINK_DIALECT)

    if not isinstance(tree, exp.Select) or not isinstance(source_of(tree), exp.Subquery):
        return None
    middle = source_of(tree).this
    if not isinstance(middle, exp.Select) or \
            not isinstance(source_of(middle), exp.Subquery):
        return None
    grouping = source_of(middle).this
    if not isinstance(grouping, exp.Select) or not (
            grouping.args.get("group") or grouping.args.get("distinct") or
            any(_aggregate_call(n)[0] is not None for n in grouping.walk())):
        return None
    windows = [e for e in middle.expressions if isinstance(e.unalias(), exp.Window)]
    call = windows[0].unalias().this if len(windows) == 1 else None
    if not (isinstance(call, exp.RowNumber) or
            isinstance(call, exp.Anonymous) and call.name.upper() == "ROW_NUMBER"):
        return None     # RANK() / DENSE_RANK() fail as PyFlink's do (rank_top_n_failure)
    updating = "over an updating input (the grouping subquery %s)" % render(grouping)
    for select, where in ((tree, "the outer select"), (middle, "the ranked select")):
        for clause, what in (("joins", "a JOIN"), ("laterals", "a LATERAL TABLE"),
                             ("group", "GROUP BY"), ("having", "HAVING"), ("limit", "LIMIT"),
                             ("with", "WITH"), ("order", "ORDER BY"),
                             ("distinct", "SELECT DISTINCT")):
            if select.args.get(clause):
                raise _refused("%s in %s %s" % (what, where, updating))
    if middle.args.get("where"):
        raise _refused("a WHERE in the ranked select %s" % updating)
    distinct = grouping.args.get("distinct") is not None
    for clause, what in (("having", "HAVING"), ("joins", "a JOIN"), ("limit", "LIMIT"),
                         ("order", "ORDER BY"), ("group" if distinct else "",
                                                 "SELECT DISTINCT with GROUP BY")):
        if grouping.args.get(clause):
            raise _refused("%s in the grouping subquery ranked by ROW_NUMBER() (not compared "
                           "with PyFlink)" % what)
    if not isinstance(source_of(grouping), exp.Table):
        raise _refused("a grouping subquery over a subquery or a join %s" % updating)
    group = grouping.args.get("group")
    group_by = [render(g) for g in group.expressions] if group is not None else \
        [render(e.unalias()) for e in grouping.expressions] if distinct else []
    if not group_by:
        raise _refused("a global aggregate (no GROUP BY) ranked by ROW_NUMBER()")
    columns, monotonicity, key_columns = [], [], {}
    for item in grouping.expressions:
        value = item.unalias()
        name = item.alias_or_name
        columns.append(name)
        if isinstance(value, exp.Column) and render(value) in group_by:
            key_columns[render(value)] = len(columns) - 1
            monotonicity.append(CONSTANT)
        else:
            name, arguments = _aggregate_call(value)
            column = len(arguments) == 1 and isinstance(arguments[0], exp.Column)
            if name == "COUNT":
                monotonicity.append(INCREASING)
            elif name in ("MAX", "MIN") and column:
                monotonicity.append(INCREASING if name == "MAX" else DECREASING)
            elif name in ("SUM", "AVG") and column:
                monotonicity.append(NOT_MONOTONIC)
            else:
                monotonicity.append("unknown:" + render(item))
    by_name = {c.lower(): i for i, c in enumerate(columns)}
    for i, g in enumerate(group_by):
        if g not in key_columns:
            # seen: Flink ranks the aggregate's rows, its GROUP BY columns selected or not
            # (the projection goes after the rank: they key an UpdateFast ranking, and a
            # retracted row is the whole row): a hidden column of the grouping query here
            grouping.append("expressions", exp.alias_(
                sqlglot.parse_one(g, read=FLINK_DIALECT), "__g%d" % i, quoted=True))
            key_columns[g] = len(columns)
            columns.append("__g%d" % i)
            monotonicity.append(CONSTANT)
    group_keys = tuple(key_columns[g] for g in group_by)

    def column_index(e, what: str) -> int:
        if not isinstance(e, exp.Column) or e.name.lower() not in by_name:
            raise _refused("%s %s (columns of the grouping subquery are ranked here)"
                           % (what, render(e)))
        return by_name[e.name.lower()]

    window_item = windows[0]
    window = window_item.unalias()
    if not isinstance(window_item, exp.Alias):
        raise _refused("ROW_NUMBER() OVER (...) without an alias")
    rank_name = window_item.alias
    order = window.args.get("order")
    if order is None or window.args.get("spec") is not None:
        raise _refused("ROW_NUMBER() OVER (...) without ORDER BY, or with a frame")
    keys = tuple(column_index(p, "the partition key") for p in
                 window.args.get("partition_by") or [])
    sorts = tuple(column_index(o.this, "the sort key") for o in order.expressions)
    for i in sorts:
        if str(monotonicity[i]).startswith("unknown:"):
            raise _refused("ordering by %s %s (only a group key, COUNT, MAX, MIN, SUM or AVG "
                           "of a column were compared with PyFlink)"
                           % (monotonicity[i][len("unknown:"):], updating))
    directions = tuple((bool(o.args.get("desc")), bool(o.args.get("nulls_first")))
                       for o in order.expressions)
    middle_items = []
    for e in middle.expressions:
        if e is window_item:
            middle_items.append((rank_name, None))
        elif isinstance(e, exp.Star):
            middle_items.extend((c, i) for i, c in enumerate(columns[:len(by_name)]))
        else:
            middle_items.append((e.alias_or_name, column_index(e.unalias(),
                                                               "the ranked select item")))
    items = tuple((STAR, None) if isinstance(e, exp.Star) else _column(e, render)
                  for e in tree.expressions)
    start, end, filtered = _rank_range(tree.args.get("where"), rank_name, render)
    if not filtered or end is None:
        raise _refused("ROW_NUMBER() without a rank end %s" % updating)
    return UpdatingTopNQuery(render(grouping), tuple(columns), group_keys,
                             tuple(None if str(m).startswith("unknown:") else m
                                   for m in monotonicity),
                             keys, sorts, directions, tuple(middle_items), items, start, end,
                             rank_name)


def _aggregate_call(node):
    """(the upper-case name of the aggregate function it calls, its arguments), or (None,
    ()) for anything else (Flink's dialect parses most calls as Anonymous)."""
    from sqlglot import exp
    from pyflink_on_spark.table.sql.grouping import AGGREGATES
    if isinstance(node, exp.Anonymous) and node.name.upper() in AGGREGATES:
        return node.name.upper(), list(node.expressions)
    if isinstance(node, exp.AggFunc):
        return node.key.upper(), [a for a in (node.this,) if a is not None]
    return None, ()


def rank_top_n_failure(query: str) -> Optional[str]:
    """What running a RANK() / DENSE_RANK() Top-N fails with on PyFlink, for any shape that
    filters the rank by a number (ANDed with anything: seen also over a GROUP BY input,
    beside a condition on another column, under an expression in the outer select): with
    an upper bound rank_unsupported(), with lower bounds only NO_RANK_END; else None."""
    import sqlglot
    from sqlglot import exp
    from pyflink_on_spark.table.sql.translate import FLINK_DIALECT
    try:
        tree = sqlglot.parse_one(query, read=FLINK_DIALECT)
    except sqlglot.errors.ParseError:
        return None
    ranked = [w for w in tree.find_all(exp.Window) if isinstance(w.this, exp.Anonymous)
              and w.this.name.upper() in ("RANK", "DENSE_RANK")]
    if len(ranked) != 1 or not isinstance(ranked[0].parent, exp.Alias):
        return None
    window = ranked[0]
    alias = window.parent.alias.lower()
    inner = window.find_ancestor(exp.Select)
    subquery = inner.parent if inner is not None else None
    outer = subquery.find_ancestor(exp.Select) if isinstance(subquery, exp.Subquery) else None
    where = outer.args.get("where") if outer is not None else None
    if where is None:
        return None
    upper = lower = False
    stack = [where.this]
    while stack:
        node = stack.pop()
        if isinstance(node, (exp.And, exp.Paren)):
            stack.extend(a for a in (node.this, node.args.get("expression")) if a is not None)
            continue
        sides = [node.this, node.args.get("expression")] if isinstance(
            node, (exp.LT, exp.LTE, exp.GT, exp.GTE, exp.EQ)) else []
        if isinstance(node, exp.Between) and _is_column(node.this, alias):
            upper = True
        elif len(sides) == 2 and any(_is_column(e, alias) for e in sides) and \
                any(isinstance(e, exp.Literal) and not e.is_string for e in sides):
            rank_left = _is_column(sides[0], alias)
            kinds_up = (exp.LT, exp.LTE) if rank_left else (exp.GT, exp.GTE)
            if isinstance(node, exp.EQ) or isinstance(node, kinds_up):
                upper = True
            else:
                lower = True
    function = window.this.name.upper()
    return rank_unsupported(function) if upper else NO_RANK_END if lower else None


def _is_column(e, name: str) -> bool:
    from sqlglot import exp
    return isinstance(e, exp.Column) and e.name.lower() == name


def as_over_aggregate(query: str) -> str:
    """An unfiltered ranking (split_top_n's `filtered` false) ordered by one ascending time
    attribute as the over aggregate Flink runs it: its call COUNT(*) over the window's rows
    up to the current one, RANK() / DENSE_RANK() with a RANGE frame (rows of one time
    counted together), ROW_NUMBER() with a ROWS frame (in arrival order). Seen on PyFlink
    1.20.5: two rows of one rowtime after one earlier get RANK() 2, 2 (not 1, 1), DENSE_RANK()
    the same values, ROW_NUMBER() 1, 2; both BIGINT NOT NULL as COUNT(*) is."""
    import sqlglot
    from sqlglot import exp
    from pyflink_on_spark.table.sql.translate import FLINK_DIALECT
    tree = sqlglot.parse_one(query, read=FLINK_DIALECT)
    windows = [w for w in tree.find_all(exp.Window) if isinstance(w.this, exp.RowNumber) or
               isinstance(w.this, exp.Anonymous) and w.this.name.upper() in RANK_FUNCTIONS]
    if len(windows) != 1:
        raise _refused("other than one ranking call")
    window = windows[0]
    kind = "ROWS" if isinstance(window.this, exp.RowNumber) or \
        window.this.name.upper() == "ROW_NUMBER" else "RANGE"
    window.set("this", exp.Count(this=exp.Star()))
    window.set("spec", exp.WindowSpec(kind=kind, start="UNBOUNDED", start_side="PRECEDING",
                                      end="CURRENT ROW"))
    return tree.sql(dialect=FLINK_DIALECT)


def _outer_items_of_inner(inner, window_item, rank_name: str, render):
    """A ranked select without an outer query: its own items, rn at its place."""
    from sqlglot import exp
    return tuple((STAR, None) if isinstance(e, exp.Star) else
                 (COLUMN, (rank_name, rank_name)) if e is window_item else
                 _column(e, render) for e in inner.expressions)


def _column(item, render) -> Tuple[str, Tuple[str, str]]:
    from sqlglot import exp
    value = item.unalias()
    if not isinstance(value, exp.Column):
        raise _refused("the outer select item %s (columns of the ranked query are kept "
                       "here)" % render(item))
    return COLUMN, (value.name, item.alias_or_name)


def _rank_range(where, rank_name: str, render) -> Tuple[int, Optional[int], bool]:
    """(start, end, whether there is a filter) of the outer WHERE's bounds of rn."""
    from sqlglot import exp
    if where is None:
        return 1, None, False
    start, end = 1, None
    conditions, stack = [], [where.this]
    while stack:
        node = stack.pop()
        if isinstance(node, exp.And):
            stack.extend((node.this, node.expression))
        elif isinstance(node, exp.Paren):
            stack.append(node.this)
        else:
            conditions.append(node)

    def is_rank(e) -> bool:
        return isinstance(e, exp.Column) and e.name.lower() == rank_name.lower()

    def number(e) -> Optional[int]:
        if isinstance(e, exp.Literal) and not e.is_string and e.this.isdigit():
            return int(e.this)
        return None

    for c in conditions:
        if isinstance(c, exp.Between) and is_rank(c.this) and \
                number(c.args.get("low")) is not None and number(c.args.get("high")) is not None:
            low, high = number(c.args["low"]), number(c.args["high"])
            start, end = max(start, low), high if end is None else min(end, high)
            continue
        flipped = {exp.LT: exp.GT, exp.LTE: exp.GTE, exp.GT: exp.LT, exp.GTE: exp.LTE,
                   exp.EQ: exp.EQ}
        kind = type(c)
        if kind in flipped and is_rank(c.expression) and number(c.this) is not None:
            left, right, kind = c.expression, c.this, flipped[kind]
        else:
            left, right = c.this, c.expression if kind in flipped else None
        n = number(right) if right is not None else None
        if kind not in flipped or not is_rank(left) or n is None:
            raise _refused("the condition %s beside the bounds of %s (Flink applies it to "
                           "the ranked changelog)" % (render(c), rank_name))
        if kind in (exp.LT, exp.LTE, exp.EQ):
            bound = n - 1 if kind is exp.LT else n
            end = bound if end is None else min(end, bound)
        if kind in (exp.GT, exp.GTE, exp.EQ):
            start = max(start, n + 1 if kind is exp.GT else n)
    return start, end, True


def _refused(what: str) -> UnsupportedSqlError:
    return UnsupportedSqlError(
        "%s in a ROW_NUMBER() query in STREAMING mode: pyflink_on_spark runs Flink's Top-N "
        "and deduplication as `SELECT <columns> FROM (SELECT ..., ROW_NUMBER() OVER "
        "(PARTITION BY ... ORDER BY ...) AS rn FROM <table> [WHERE ...]) WHERE rn <= N` "
        "(rn < N, rn = N, BETWEEN) over an insert-only table, or over a grouping subquery "
        "of one (`FROM (SELECT <keys>, <aggregates> FROM <table> GROUP BY <keys>)`, "
        "docs/table.md)" % what)
