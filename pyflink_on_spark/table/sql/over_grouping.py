"""An OVER window query over an unbounded table split into what runs per row and what the
keyed over aggregate keeps (table/over_window_streams.py), as window_grouping.py splits a
window aggregate.

    SELECT k, ts, x, SUM(x) OVER w AS s FROM t WHERE c
    WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)

is the row-by-row query `SELECT ts AS __t, k AS __k0, k AS __c0, ts AS __c1, x AS __c2,
x AS __a0 FROM t WHERE c` and, per partition key, the aggregate calls over the frame.
Only that shape is split: one select over one table, its items columns / expressions of a
row (`*`: the table's columns, passed through unaliased) or single aggregate calls (COUNT(*), COUNT, SUM, MIN, MAX, AVG, not DISTINCT) over one
window ending at the current row; anything else raises UnsupportedSqlError naming it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

from pyflink_on_spark.table.sql.errors import UnsupportedSqlError
from pyflink_on_spark.table.sql.grouping import AGGREGATE, aggregate_item

__all__ = ['OverGrouping', 'split_over_grouping', 'is_over_query', 'ROW_VALUE', 'ALL_COLUMNS',
           'AGGREGATE']

ROW_VALUE = "row value"      # what: the index of the item's value among the per-row __c columns
ALL_COLUMNS = "all columns"  # what: the index of `*` among them (the input's columns, in order)

_AGGREGATES = ('COUNT', 'SUM', 'MIN', 'MAX', 'AVG')


@dataclass(frozen=True)
class OverGrouping:
    """`per_row`: Flink SQL of the row-by-row query: the window's time column `__t`, the
    partition keys `__k0`.., the select's row values `__c0`.., then the aggregates'
    arguments `__a0`..; `items`: per result column, (ROW_VALUE, index), (ALL_COLUMNS, index:
    `*`, as many columns as the input has, unaliased in the per-row query) or (AGGREGATE,
    (function name, argument index or None for COUNT(*))); the frame: `rows` (ROWS, else
    RANGE) and `preceding` (None: UNBOUNDED; ROWS: a count of rows; RANGE: milliseconds);
    `table` and `time_column` the window's input and time attribute."""
    per_row: str
    keys: int
    values: int
    items: Tuple[Tuple[str, object], ...]
    rows: bool
    preceding: Optional[int]
    table: str
    time_column: str


def is_over_query(query: str) -> bool:
    """Whether a Flink query has an OVER clause (a cheap look, no parse)."""
    import re
    return re.search(r"\bOVER\b", query, re.IGNORECASE) is not None


def split_over_grouping(query: str) -> OverGrouping:
    import sqlglot
    from sqlglot import exp
    from pyflink_on_spark.table.sql.over_windows import inline_named_windows
    from pyflink_on_spark.table.sql.translate import FLINK_DIALECT
    try:
        tree = sqlglot.parse_one(query, read=FLINK_DIALECT)
    except sqlglot.errors.ParseError as e:
        raise _refused("a query sqlglot does not parse (%s)" % str(e).split("\n")[0])
    if not isinstance(tree, exp.Select):
        raise _refused("a set operation (UNION, INTERSECT, EXCEPT)")
    for node, what in ((exp.Join, "a JOIN"), (exp.Group, "GROUP BY"), (exp.Having, "HAVING"),
                       (exp.Limit, "LIMIT"), (exp.With, "WITH"), (exp.Subquery, "a subquery")):
        if tree.find(node) is not None:
            raise _refused(what)
    if tree.args.get("order") is not None:     # (a window's own ORDER BY is its spec's)
        raise _refused("ORDER BY")
    if tree.args.get("distinct") is not None:
        raise _refused("SELECT DISTINCT")
    source = tree.args.get("from_") or tree.args.get("from")
    if source is None or not isinstance(source.this, exp.Table):
        raise _refused("a subquery as the input")
    inline_named_windows(tree)

    def render(e) -> str:
        return e.sql(dialect=FLINK_DIALECT)

    where = tree.args.get("where")
    if where is not None and where.find(exp.Window) is not None:
        raise _refused("an OVER window in WHERE")
    window_key, window = None, None
    values, args, items = [], [], []
    for item in (e.unalias() if isinstance(e, exp.Alias) else e for e in tree.expressions):
        text = render(item)
        if isinstance(item, exp.Star):
            if any(kind == ALL_COLUMNS for kind, _ in items):
                raise _refused("SELECT *, * beside OVER windows")
            values.append("*")
            items.append((ALL_COLUMNS, len(values) - 1))
            continue
        if not isinstance(item, exp.Window):
            if item.find(exp.Window) is not None:
                raise _refused("the select item %s (an expression over an OVER aggregate: "
                               "each aggregate call OVER a window is kept alone here; select "
                               "it alone and compute the expression on the rows of "
                               "to_data_stream, a map)" % text)
            values.append(text)
            items.append((ROW_VALUE, len(values) - 1))
            continue
        call = item.this
        name = call.name.upper() if isinstance(call, exp.Anonymous) else \
            "COUNT" if isinstance(call, exp.Count) else None
        if name not in _AGGREGATES:
            raise _refused("the window function %s" % render(call))
        spec_key = render(exp.Window(partition_by=item.args.get("partition_by"),
                                     order=item.args.get("order"),
                                     spec=item.args.get("spec")))
        if window_key is not None and spec_key != window_key:
            raise _refused("OVER windows of different specifications in one select")
        window_key, window = spec_key, item
        if isinstance(call, exp.Count):
            # (sqlglot's own COUNT node, where it makes one: its argument is `this`)
            call = exp.Anonymous(this="COUNT", expressions=[call.this])
        items.append(aggregate_item(call, name, text, args, render, _refused))
    if window is None:
        raise _refused("a query without an OVER window")
    order = window.args.get("order")
    if order is None or len(order.expressions) != 1 or \
            not isinstance(order.expressions[0].this, exp.Column):
        raise _refused("an OVER window not ordered by one time column")
    time_column = order.expressions[0].this.name
    rows, preceding = _frame(window.args.get("spec"), render)
    keys = [render(p) for p in window.args.get("partition_by") or []]
    table = source.this.name
    columns = ["`%s` AS `__t`" % time_column] + \
        ["%s AS `__k%d`" % (k, i) for i, k in enumerate(keys)] + \
        [v if v == "*" else "%s AS `__c%d`" % (v, i) for i, v in enumerate(values)] + \
        ["%s AS `__a%d`" % (a, i) for i, a in enumerate(args)]
    per_row = "SELECT %s FROM `%s`%s" % (", ".join(columns), table,
                                         " WHERE %s" % render(where.this) if where else "")
    return OverGrouping(per_row, len(keys), len(values), tuple(items), rows, preceding, table,
                        time_column)


def _frame(spec, render) -> Tuple[bool, Optional[int]]:
    """(ROWS?, preceding) of a frame ending at the current row (no frame: RANGE UNBOUNDED
    PRECEDING, SQL's default)."""
    from sqlglot import exp
    from pyflink_on_spark.table.sql.windows import interval_millis
    if spec is None:
        return False, None
    rows = str(spec.args.get("kind") or "").upper() == "ROWS"
    start, end = spec.args.get("start"), spec.args.get("end")
    if str(spec.args.get("start_side") or "").upper() != "PRECEDING" or \
            (end is not None and str(end).upper() != "CURRENT ROW"):
        raise _refused("the frame %s (a frame from n PRECEDING to CURRENT ROW is kept "
                       "here)" % render(spec))
    if isinstance(start, str) and start.upper() == "UNBOUNDED":
        return rows, None
    if rows and isinstance(start, exp.Literal) and not start.is_string:
        return True, int(start.this)
    if not rows and isinstance(start, exp.Interval):
        return False, interval_millis(render(start))
    raise _refused("the frame %s" % render(spec))


def _refused(what: str) -> UnsupportedSqlError:
    return UnsupportedSqlError(
        "%s in an OVER window query over an unbounded table: pyflink_on_spark keeps a single "
        "SELECT of row values and aggregate calls (COUNT, SUM, MIN, MAX, AVG) over one "
        "window ending at the current row, of one input (docs/table.md)" % what)
