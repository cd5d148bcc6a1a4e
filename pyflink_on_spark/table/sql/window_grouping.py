"""A window aggregate query split into what runs per row and what a keyed window operator
keeps (the Table API's window aggregates over an unbounded table,
table/window_aggregates.py), as grouping.py splits a plain GROUP BY.

    SELECT k, window_start, window_end, COUNT(*), SUM(x)
    FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '5' SECOND)) WHERE c
    GROUP BY k, window_start, window_end

is the row-by-row query `SELECT ts AS __t, k AS __k0, x AS __a0 FROM t WHERE c` and, per
key and window, the aggregate calls over its columns; so is the group window form
`SELECT k, TUMBLE_START(ts, ...), COUNT(*) FROM t GROUP BY k, TUMBLE(ts, ...)`. Only that
shape is split: one window (TUMBLE, HOP, CUMULATE, SESSION) over one table, a select list of
group keys, the window's bounds and single aggregate calls (COUNT(*), COUNT, SUM, MIN, MAX,
AVG, not DISTINCT); anything else raises UnsupportedSqlError naming it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

from pyflink_on_spark.table.sql.errors import UnsupportedSqlError
from pyflink_on_spark.table.sql.functions import AGGREGATES
from pyflink_on_spark.table.sql.grouping import KEY, aggregate_item
from pyflink_on_spark.table.sql.windows import extract_window_tvfs, interval_millis

WINDOW = "window"            # what: START, END, TIME (window_time, *_ROWTIME)

_TVF_BOUNDS = {"window_start": "START", "window_end": "END", "window_time": "TIME"}
_GROUP_WINDOWS = ("TUMBLE", "HOP", "SESSION")
_SESSION_CALL = "_SESSION_GROUP_WINDOW"


@dataclass(frozen=True)
class WindowGrouping:
    """`per_row`: Flink SQL of the row-by-row query: the window's time column `__t`, the
    group keys `__k0`.., then the aggregates' arguments `__a0`..; `items`: per result
    column, (KEY, key index), (WINDOW, START / END / TIME) or (AGGREGATE, (function name,
    argument index or None for COUNT(*))); the window: `kind` (TUMBLE, HOP, CUMULATE,
    SESSION), `size_ms` (a session's gap), `slide_ms` (HOP's slide, CUMULATE's step);
    `table` and `time_column` the window's input and time attribute."""
    per_row: str
    keys: int
    items: Tuple[Tuple[str, object], ...]
    kind: str
    size_ms: int
    slide_ms: Optional[int]
    table: str
    time_column: str


def is_window_query(query: str) -> bool:
    """Whether a Flink query has a window TVF or a group window (a cheap look, no parse)."""
    import re
    return re.search(r"\b(TUMBLE|HOP|CUMULATE|SESSION)\s*\(", query, re.IGNORECASE) is not None


def split_window_grouping(query: str) -> WindowGrouping:
    import sqlglot
    from sqlglot import exp
    from pyflink_on_spark.table.sql.translate import FLINK_DIALECT
    from pyflink_on_spark.table.sql.tokens import tokenize
    rewritten, tvfs = extract_window_tvfs(query)
    if len(tvfs) > 1:
        raise _refused("more than one window table function")
    for tok, after in reversed(list(zip(tokenize(rewritten), tokenize(rewritten)[1:]))):
        if tok.is_word("SESSION") and after.kind == "symbol" and after.text == "(":
            rewritten = rewritten[:tok.start] + _SESSION_CALL + rewritten[tok.end:]
    try:
        tree = sqlglot.parse_one(rewritten, read=FLINK_DIALECT)
    except sqlglot.errors.ParseError as e:
        raise _refused("a query sqlglot does not parse (%s)" % str(e).split("\n")[0])
    if not isinstance(tree, exp.Select):
        raise _refused("a set operation (UNION, INTERSECT, EXCEPT)")
    for node, what in ((exp.Join, "a JOIN"), (exp.Having, "HAVING"), (exp.Order, "ORDER BY"),
                       (exp.Limit, "LIMIT"), (exp.Window, "an OVER window"),
                       (exp.With, "WITH")):
        if tree.find(node) is not None:
            raise _refused(what)
    if tree.args.get("distinct") is not None:
        raise _refused("SELECT DISTINCT")
    source = tree.args.get("from_") or tree.args.get("from")
    if source is None or not isinstance(source.this, exp.Table):
        raise _refused("a subquery as the input")

    def render(e) -> str:
        return e.sql(dialect=FLINK_DIALECT)

    group = tree.args.get("group")
    group_items = list(group.expressions) if group is not None else []
    where = tree.args.get("where")
    table_name = source.this.name
    if tvfs:
        tvf = tvfs.get(table_name)
        if tvf is None:
            raise _refused("a window table function that is not the query's input")
        kind, size, slide, table, time_column = (tvf.kind, tvf.size_ms, tvf.slide_ms,
                                                 tvf.table, tvf.time_column)
        if tvf.offset_ms:
            raise _refused("a window offset")
        names = [g.name if isinstance(g, exp.Column) else None for g in group_items]
        if "window_start" not in names or "window_end" not in names:
            raise _refused("a query over a window table function that does not group by "
                           "window_start and window_end")
        keys = [g for g, n in zip(group_items, names) if n not in _TVF_BOUNDS]
        if kind == "SESSION" and set(tvf.partition_keys) != {
                k.name for k in keys if isinstance(k, exp.Column)}:
            # each key's sessions are its own here (the window operator is keyed by them)
            raise _refused("a SESSION window whose PARTITION BY columns are not the "
                           "query's group keys")
        if where is not None and any(c.name in _TVF_BOUNDS for c in where.find_all(exp.Column)):
            raise _refused("WHERE over the window's bounds")
    else:
        windows = [g for g in group_items if isinstance(g, exp.Anonymous)
                   and _call_name(g) in _GROUP_WINDOWS]
        if len(windows) != 1:
            raise _refused("a query without one window")
        window = windows[0]
        kind = _call_name(window)
        args = window.expressions
        if not isinstance(args[0], exp.Column):
            raise _refused("a group window over an expression (%s)" % render(args[0]))
        millis = [interval_millis(render(a)) for a in args[1:]]
        size, slide = (millis[1], millis[0]) if kind == "HOP" else (millis[0], None)
        table, time_column = table_name, args[0].name
        keys = [g for g in group_items if g is not window]
    key_text = [render(k) for k in keys]
    args, shaped = [], []
    for item in (e.unalias() if isinstance(e, exp.Alias) else e for e in tree.expressions):
        text = render(item)
        if text in key_text:
            shaped.append((KEY, key_text.index(text)))
            continue
        if tvfs and isinstance(item, exp.Column) and item.name in _TVF_BOUNDS:
            shaped.append((WINDOW, _TVF_BOUNDS[item.name]))
            continue
        name = _call_name(item) if isinstance(item, exp.Anonymous) else None
        if not tvfs and name is not None and "_" in name:
            head, part = name.rsplit("_", 1)
            if head == kind and part in ("START", "END", "ROWTIME"):
                shaped.append((WINDOW, "TIME" if part == "ROWTIME" else part))
                continue
        if name not in AGGREGATES:
            raise _refused("the select item %s (only group keys, the window's bounds and "
                           "single aggregate calls are kept per window here)" % text)
        shaped.append(aggregate_item(item, name, text, args, render, _refused))
    columns = ["`%s` AS `__t`" % time_column] + \
        ["%s AS `__k%d`" % (k, i) for i, k in enumerate(key_text)] + \
        ["%s AS `__a%d`" % (a, i) for i, a in enumerate(args)]
    per_row = "SELECT %s FROM `%s`%s" % (", ".join(columns), table,
                                         " WHERE %s" % render(where.this) if where else "")
    return WindowGrouping(per_row, len(keys), tuple(shaped), kind, size, slide, table,
                          time_column)


def _call_name(node) -> str:
    name = node.name.upper()
    return "SESSION" if name == _SESSION_CALL else name


def _refused(what: str) -> UnsupportedSqlError:
    return UnsupportedSqlError(
        "%s in a window aggregate over an unbounded table: pyflink_on_spark keeps the "
        "windows of a single SELECT of group keys, the window's bounds and aggregate calls "
        "over one window of one input (docs/table.md)" % what)
