"""OVER windows: `agg(x) OVER (PARTITION BY k ORDER BY ts [ROWS | RANGE] BETWEEN ... AND
CURRENT ROW)` and named windows (`WINDOW w AS (...)`, `agg(x) OVER w`), as Spark SQL window
functions over the same frame.

Why the meaning is the same: for each row, Flink's over aggregate computes the aggregate of
the rows of its partition in the frame ending at the row (ROWS: the n rows before it; RANGE:
the rows whose order key is within the interval, peers with the same key included: seen on
PyFlink 1.20.5), which is what Spark's window frame of the same words computes. The
aggregate calls are typed and computed as the translator's grouping aggregates are (SUM of
an INT is an INT, AVG of integers truncated: translate.py), each aggregate call inside them
taking the window.

What Flink refuses (in STREAMING mode when the query runs, in its words: `failure`): an order
that is not one ascending time attribute, a frame ending after the current row, two
different windows in one select. What is not translated (UnsupportedSqlError naming it):
ranking and offset functions (RANK, LAG...; ROW_NUMBER is translate.py's), DISTINCT
aggregates over a window (Spark has none), a ROWS frame of an interval (Flink runs it as an
unbounded ROWS frame).

Rows of equal time in a ROWS frame: Flink takes them in arrival order, Spark in an order of
its own (docs/table.md Differences)"""
from typing import Callable, List, Optional, Tuple

from sqlglot import exp

from pyflink_on_spark.table.sql.errors import SqlValidationError, UnsupportedSqlError
from pyflink_on_spark.table.sql.flink_types import is_rowtime
from pyflink_on_spark.table.sql.typing_rules import is_timestamp
from pyflink_on_spark.table.types import DataType

__all__ = ['inline_named_windows', 'over_aggregate', 'AGGREGATE_NAMES']

# the aggregate calls a translated aggregate may hold (functions.call names / exp.Count)
AGGREGATE_NAMES = ('SUM', 'AVG', 'MIN', 'MAX', 'COUNT')

# Flink's words (PyFlink 1.20.5, seen: TableExceptions when the query runs, in this order
# of checks) for the shapes its STREAMING planner refuses
_TABLE_EXCEPTION = 'org.apache.flink.table.api.TableException: '
SINGLE_TIME_COLUMN = _TABLE_EXCEPTION + 'The window can only be ordered by a single time column.'
ASCENDING = _TABLE_EXCEPTION + 'The window can only be ordered in ASCENDING mode.'
TIME_ORDER = (_TABLE_EXCEPTION + 'OVER windows\' ordering in stream mode must be defined on a '
              'time attribute.')
FOLLOWING = _TABLE_EXCEPTION + 'OVER RANGE FOLLOWING windows are not supported yet.'
# seen: 'Sql optimization: Cannot generate a valid execution plan for the given query:'
# followed by Flink's logical plan, which is not reproduced
DIFFERENT_WINDOWS = (_TABLE_EXCEPTION + 'Sql optimization: Cannot generate a valid execution '
                     'plan for the given query: over windows of different specifications in '
                     'one select (pyflink_on_spark does not print Flink\'s plan)')


def inline_named_windows(select: exp.Select) -> None:
    """`agg OVER w ... WINDOW w AS (spec)`: each reference replaced by the spec (a reference
    may add an ORDER BY / frame to a partition-only named window, as SQL allows)."""
    named = {}
    for w in select.args.get('windows') or []:
        named[w.name] = w
    if not named:
        return
    for window in list(select.find_all(exp.Window)):
        if window.parent is select and window.arg_key == 'windows':
            continue
        if window.find_ancestor(exp.Select) is not select:
            continue         # a subquery's OVER: its own WINDOW clause
        ref = window.args.get('alias')
        if ref is None:
            continue
        spec = named.get(ref.name)
        if spec is None:
            raise SqlValidationError("Window '%s' not found" % ref.name)
        for key in ('partition_by', 'order', 'spec'):
            if not window.args.get(key) and spec.args.get(key):
                window.set(key, spec.args[key].copy() if isinstance(spec.args[key],
                                                                     exp.Expression)
                           else [p.copy() for p in spec.args[key]])
        window.set('alias', None)
    select.set('windows', None)


class OverWindow(object):
    """One OVER clause, translated: Spark's partition / order / frame, and its key (two
    windows of one select must be the same one in Flink's STREAMING mode)."""

    def __init__(self, partition: List[exp.Expression], order: Optional[exp.Order],
                 spec: Optional[exp.WindowSpec], key: str) -> None:
        self.partition, self.order, self.spec, self.key = partition, order, spec, key
        # the time attribute it is ordered by (ascending), Flink's STREAMING shape
        self.time_order: Optional[exp.Expression] = None

    def over(self, call: exp.Expression) -> exp.Window:
        return exp.Window(this=call, partition_by=[p.copy() for p in self.partition] or None,
                          order=self.order.copy() if self.order is not None else None,
                          spec=self.spec.copy() if self.spec is not None else None)


Translate = Callable[[exp.Expression], Tuple[exp.Expression, Optional[DataType]]]


def over_window(window: exp.Window, translate: Translate) -> Tuple[OverWindow, Optional[str]]:
    """The window of an OVER clause and what Flink's STREAMING mode fails it with (None:
    it runs there)."""
    failure = None
    partition = [translate(p)[0] for p in window.args.get('partition_by') or []]
    order = window.args.get('order')
    order_types = []
    if order is not None:
        items = []
        for o in order.expressions:
            translated, dt = translate(o.this)
            order_types.append((dt, bool(o.args.get('desc'))))
            items.append(exp.Ordered(this=translated, desc=o.args.get('desc'),
                                     nulls_first=o.args.get('nulls_first')))
        order = exp.Order(expressions=items)
    if len(order_types) != 1:
        failure = SINGLE_TIME_COLUMN
    elif order_types[0][1]:
        failure = ASCENDING
    elif not is_rowtime(order_types[0][0]):
        failure = TIME_ORDER
    spec = window.args.get('spec')
    if spec is not None:
        check_frame(spec, order_types[0][0] if len(order_types) == 1 else None)
        spec = spec.copy()
        for side in ('start', 'end'):
            bound = spec.args.get(side)
            if isinstance(bound, exp.Expression) and not isinstance(bound, exp.Interval):
                spec.set(side, translate(bound)[0])
        frame_failure = _frame_failure(spec)
        failure = failure or frame_failure
    key = '%s|%s|%s' % ([p.sql() for p in partition],
                        order.sql() if order is not None else '',
                        spec.sql() if spec is not None else '')
    window = OverWindow(partition, order, spec, key)
    if failure is None and order is not None:
        window.time_order = order.expressions[0].this
    return window, failure


def emit_ordered(tree: exp.Expression, windows: List[OverWindow]) -> Optional[str]:
    """The query as Spark SQL with its rows in the order Flink's STREAMING over aggregate
    emits them: by the windows' time attribute (each row when the watermark passes its
    time; seen on PyFlink 1.20.5, rows of a bounded input sorted by time across keys), or
    None when the query has an order of its own or is not one select over such windows."""
    orders = {w.time_order.sql() for w in windows if w.time_order is not None}
    if not isinstance(tree, exp.Select) or len(orders) != 1 or any(
            w.time_order is None for w in windows) or tree.args.get('order') is not None \
            or tree.args.get('limit') is not None:
        return None
    ordered = tree.copy()
    ordered.set('order', exp.Order(expressions=[exp.Ordered(this=windows[0].time_order.copy())]))
    return ordered.sql(dialect='spark')


def _frame_failure(spec: exp.WindowSpec) -> Optional[str]:
    """Flink's STREAMING over aggregates end their frame at the current row (seen: `1
    FOLLOWING`, and `2 PRECEDING AND 1 PRECEDING`, fail with FOLLOWING)."""
    end = spec.args.get('end')
    if end is None or (isinstance(end, str) and end.upper() == 'CURRENT ROW'):
        return None      # `ROWS n PRECEDING`: up to the current row
    return FOLLOWING


def check_frame(spec: Optional[exp.WindowSpec], order_type: Optional[DataType]) -> None:
    """Frames Flink reads otherwise than Spark, refused at sql_query: a ROWS frame of an
    interval (seen on PyFlink 1.20.5: `ROWS BETWEEN INTERVAL '1' SECOND PRECEDING` runs as an
    unbounded ROWS frame there), a RANGE frame of a number over a timestamp (Flink's
    validation error)."""
    if spec is None:
        return
    kind = str(spec.args.get('kind') or '').upper()
    bounds = [spec.args.get(k) for k in ('start', 'end')]
    if kind == 'ROWS' and any(isinstance(b, exp.Interval) for b in bounds):
        raise UnsupportedSqlError('An OVER window of ROWS BETWEEN INTERVAL ... is not '
                                  'supported by pyflink_on_spark (a ROWS frame counts rows: '
                                  'write ROWS BETWEEN n PRECEDING, or RANGE BETWEEN INTERVAL)')
    if kind == 'RANGE' and order_type is not None and is_timestamp(order_type) and any(
            isinstance(b, exp.Literal) for b in bounds):
        raise SqlValidationError('Data Type mismatch between ORDER BY and RANGE clause')


def over_aggregate(call: exp.Expression, window: OverWindow) -> exp.Expression:
    """A translated aggregate expression (CAST(SUM(x) AS INT), the BIGINT sum wrapped to INT,
    AVG as SUM DIV COUNT...) with every aggregate call in it taken over the window."""
    def wrap(node: exp.Expression) -> exp.Expression:
        # (COLLECT_LIST: the values of a FLOAT's SUM, added in single precision after it)
        if isinstance(node, exp.Count) or (isinstance(node, exp.Anonymous) and node.name.upper()
                                           in AGGREGATE_NAMES + ('COLLECT_LIST', 'COLLECT_SET')):
            return window.over(node.copy())
        return node
    if isinstance(call, exp.Count) or (isinstance(call, exp.Anonymous)
                                       and call.name.upper() in AGGREGATE_NAMES):
        return window.over(call)
    return call.transform(wrap, copy=True)


def refuse_function(name: str) -> None:
    """Window functions other than the aggregates: not translated."""
    raise UnsupportedSqlError(
        '%s() OVER (...) is not supported by pyflink_on_spark: Flink plans ranking and offset '
        'functions as Top-N / deduplication (docs/table_sql.md); aggregates (COUNT, SUM, AVG, '
        'MIN, MAX) OVER a window are' % name)

