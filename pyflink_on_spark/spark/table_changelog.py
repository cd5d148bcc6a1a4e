"""Flink's changelog of a grouping query over a bounded stream in STREAMING mode, on Spark.

Seen on PyFlink 1.20.5 (compat_tests/cases/table/streaming_changelog.py): the aggregate
takes the input rows in arrival order; a group's first row emits +I[result], every later
row of the group emits -U[previous result] then +U[new result], or nothing when the result
did not change (MAX unchanged, a DISTINCT key seen before). A query without GROUP BY is one
group.

On Spark: the query's aggregate calls become running aggregates (window functions over the
group, ordered by the input's arrival position, rows up to the current one), which gives
each input row its group's result after it; one task then walks the rows in arrival order
and emits the +I / -U / +U rows, keeping each group's last result (the work of Flink's
aggregate operator at parallelism 1). Only a single SELECT over one input with GROUP BY /
aggregates / DISTINCT is rewritten; anything else that updates (joins, HAVING, ORDER BY,
DISTINCT aggregates, OVER windows, nested aggregates) raises NotImplementedError naming it.

At parallelism > 1 a query of the shape table/sql/grouping.py splits (group keys and single
aggregate calls, or SELECT DISTINCT) does not take this path: its changelog is the keyed
aggregate's (table/group_aggregates.py at the job's parallelism, QueryTable.keyed_changelog),
decoded by changelog_records_frame below. This one-task path stays for the other updating
shapes (expressions over aggregates such as SUM(x) + 1, which the split refuses) and at
parallelism 1, where it gives the same rows in the same order in less time (measured:
docs/table.md).
"""
from __future__ import annotations

import re
from typing import Collection, Iterator, List, Optional, Tuple

from pyflink_on_spark.specs.tables import QueryTable, RenamedTable

SEQ = "__pyflink_seq"          # an input row's arrival position
KIND = "__pyflink_kind"        # a result row's RowKind value (0 +I, 1 -U, 2 +U, 3 -D)
_KEY = "__pyflink_key%d"


def _parse(sql: str):
    import sqlglot
    from sqlglot.errors import ParseError
    try:
        return sqlglot.parse_one(sql, read="spark")
    except ParseError as e:
        raise NotImplementedError("a query pyflink_on_spark cannot plan as Flink's changelog "
                                  "(%s): %s" % (str(e).split("\n")[0], sql)) from None


def is_changelog(description) -> bool:
    """A query made in STREAMING mode whose result updates (a GROUP BY, an aggregate,
    DISTINCT; not a window aggregate, whose windows emit their final rows), or an alias
    (Table.alias) of one."""
    if isinstance(description, RenamedTable):
        return is_changelog(description.input)
    return isinstance(description, QueryTable) and description.streaming and \
        (description.keyed_changelog is not None or     # a grouping query's, or a Top-N's
         is_updating(description.query, {f.spark_name.lower() for f in description.functions
                                         if f.kind == "aggregate"}))


def is_updating(sql: str, aggregate_functions: Collection[str] = ()) -> bool:
    """Whether a query's result over an append-only input is a changelog with updates (an
    aggregate, GROUP BY, DISTINCT, an outer join, an OVER window: Flink plans these as
    updating). `aggregate_functions`: the lowercase names of the Python aggregate functions
    it may call (a call of one aggregates, a GROUP BY or not: Table.aggregate's one group)."""
    from sqlglot import exp
    if _WINDOW_CALL.search(sql):
        return False    # a window aggregate (TUMBLE / HOP / SESSION, table/sql/windows.py)
    # an OVER window's aggregates are insert-only: one final row per input row (Flink's
    # over aggregate, ordered by a time attribute: table/sql/over_windows.py)
    nodes = [n for n in _parse(sql).walk() if n.find_ancestor(exp.Window) is None
             and not isinstance(n, exp.Window)]
    # an inner / cross join of insert-only inputs is insert-only (PyFlink 1.20.5: +I rows);
    # an outer join retracts its NULL-padded rows when a match arrives
    return any(isinstance(node, (exp.Group, exp.AggFunc, exp.Distinct)) or
               isinstance(node, exp.Anonymous) and node.name.lower() in aggregate_functions or
               isinstance(node, exp.Join) and node.side for node in nodes)


# a call of Spark's time window functions, which the SQL translator makes of Flink's window
# TVFs and group windows (sqlglot's Spark dialect does not parse `GROUP BY window(...)`)
_WINDOW_CALL = re.compile(r"\b(session_)?window\s*\(", re.IGNORECASE)


def running_query(sql: str) -> Tuple[str, List[str], int]:
    """(the query as running aggregates per input row with the group keys and SEQ as extra
    columns, the names of the result columns, the number of key columns). Raises
    NotImplementedError for what it cannot rewrite faithfully."""
    from sqlglot import exp
    tree = _parse(sql)
    if not isinstance(tree, exp.Select):
        raise _refused("a set operation (UNION, INTERSECT, EXCEPT) over updating results")
    for node, what in ((exp.Join, "a JOIN"), (exp.Having, "HAVING"), (exp.Order, "ORDER BY"),
                       (exp.Limit, "LIMIT"), (exp.Window, "an OVER window")):
        if tree.find(node) is not None:
            raise _refused(what)
    source = tree.args.get("from_")
    if source is None or not isinstance(source.this, (exp.Table, exp.Subquery)):
        raise _refused("a subquery as the input of an aggregate")
    if isinstance(source.this, exp.Subquery):
        source = source.copy()
        source.set("this", _carrying_seq(source.this))
    for agg in tree.find_all(exp.AggFunc):
        if agg.find(exp.Distinct) is not None:
            raise _refused("a DISTINCT aggregate (COUNT(DISTINCT ...))")
        if any(isinstance(p, exp.AggFunc) for p in agg.iter_expressions()
               for p in p.walk()):
            raise _refused("a nested aggregate")
    group = tree.args.get("group")
    distinct = tree.args.get("distinct")
    if distinct is not None:
        keys = [e.unalias() if isinstance(e, exp.Alias) else e for e in tree.expressions]
    else:
        keys = list(group.expressions) if group is not None else []
    names = [e.alias_or_name for e in tree.expressions]
    def over(agg):
        return exp.Window(
            this=agg, partition_by=[k.copy() for k in keys],
            order=exp.Order(expressions=[exp.Ordered(this=exp.column(SEQ))]),
            spec=exp.WindowSpec(kind="ROWS", start="UNBOUNDED", start_side="PRECEDING",
                                end="CURRENT ROW"))

    projections = []
    for e in tree.expressions:
        e = e.copy()
        for agg in list(e.find_all(exp.AggFunc)):
            agg.replace(over(agg.copy()))
        projections.append(e)
    projections += [exp.alias_(k.copy(), _KEY % i) for i, k in enumerate(keys)]
    projections.append(exp.column(SEQ))
    running = exp.select(*projections).from_(source.this.copy())
    where = tree.args.get("where")
    if where is not None:
        running = running.where(where.this.copy())
    return running.sql(dialect="spark"), names, len(keys)


def _carrying_seq(subquery):
    """A stateless subquery as an aggregate's input (a projection / filter of one input,
    seen on PyFlink 1.20.5: `SELECT id, SUM(data) FROM (SELECT id / 2 AS id, data FROM src)
    WHERE id > 1 GROUP BY id` gives the changelog of its rows in arrival order), with the
    input's SEQ selected through it; one that aggregates, joins, orders, limits or ranks is
    refused by name."""
    from sqlglot import exp
    select = subquery.this
    if not isinstance(select, exp.Select):
        raise _refused("a set operation (UNION, INTERSECT, EXCEPT) as the input of an "
                       "aggregate")
    for node, what in ((exp.Join, "a JOIN"), (exp.Group, "GROUP BY"), (exp.AggFunc,
                       "an aggregate"), (exp.Distinct, "DISTINCT"), (exp.Window,
                       "an OVER window"), (exp.Order, "ORDER BY"), (exp.Limit, "LIMIT")):
        if select.find(node) is not None:
            raise _refused("a subquery with %s as the input of an aggregate" % what)
    select = select.copy()
    inner = select.args.get("from_")
    if inner is not None and isinstance(inner.this, exp.Subquery):
        inner.set("this", _carrying_seq(inner.this))
    elif inner is None or not isinstance(inner.this, exp.Table):
        raise _refused("a subquery as the input of an aggregate")
    if not any(isinstance(e, exp.Star) for e in select.expressions):
        select.set("expressions", list(select.expressions) + [exp.column(SEQ)])
    result = subquery.copy()
    result.set("this", select)
    return result


def _refused(what: str) -> NotImplementedError:
    return NotImplementedError(
        "%s in a query whose result updates (STREAMING mode): pyflink_on_spark produces "
        "Flink's changelog for a single SELECT with GROUP BY / aggregates / DISTINCT over one "
        "input only (docs/table.md)" % what)


def changelog_frame(session, sql: str, spark_schema):
    """The changelog rows of a grouping query (spark_schema: its result columns), in
    arrival order, with KIND as the last column. The inputs are registered as views with a
    SEQ column."""
    from pyspark.sql.types import IntegerType, StructField, StructType
    running, names, keys = running_query(sql)
    frame = session.sql(running).orderBy(SEQ).coalesce(1)
    out = StructType(list(spark_schema.fields) + [StructField(KIND, IntegerType(), False)])
    return frame.mapInArrow(_changes(len(names), keys), out)


def _changes(width: int, keys: int):
    """Running results (result columns, key columns, SEQ) in arrival order -> the changelog
    rows (result columns, KIND)."""
    import pyarrow as pa

    def emit(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        last: dict = {}
        schema: Optional[pa.Schema] = None
        for batch in batches:
            if schema is None:
                fields = [batch.schema.field(i) for i in range(width)]
                schema = pa.schema(fields + [pa.field(KIND, pa.int32(), False)])
            columns = [batch.column(i).to_pylist() for i in range(width + keys)]
            out: List[list] = [[] for _ in range(width + 1)]
            for row in zip(*columns):
                values, key = row[:width], row[width:]
                previous = last.get(key)
                if previous is None:
                    changes = ((values, 0),)
                elif previous != values:
                    changes = ((previous, 1), (values, 2))
                else:
                    continue
                last[key] = values
                for change, kind in changes:
                    for i, v in enumerate(change):
                        out[i].append(v)
                    out[width].append(kind)
            if out[width]:
                yield pa.RecordBatch.from_arrays(
                    [pa.array(c, type=f.type) for c, f in zip(out, schema)], schema=schema)
    return emit


def changelog_records_frame(payloads, columns):
    """The collect sink's record chunks of a changelog stream (the keyed aggregate's output:
    tuples of the values with the RowKind's value last, or Rows with their RowKinds) as the
    table's columns and KIND, decoded in the tasks."""
    from pyspark.sql.types import IntegerType, StructField, StructType
    from pyflink_on_spark.spark.table_frames import arrow_schema, spark_schema
    out = StructType(list(spark_schema(columns).fields) +
                     [StructField(KIND, IntegerType(), False)])
    return payloads.mapInArrow(_changelog_decoder(arrow_schema(columns)), out)


def _changelog_decoder(schema):
    import pyarrow as pa
    from pyflink_on_spark.runtime.boundary import loads_records
    width = len(schema)
    full = pa.schema(list(schema) + [pa.field(KIND, pa.int32(), False)])

    def decode(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            columns: List[list] = [[] for _ in range(width + 1)]
            for payload in batch.column(0).to_pylist():
                records = loads_records(payload)[0]
                if records and type(records[0]) is tuple:   # values..., kind (plain)
                    for column, values in zip(columns, zip(*records)):
                        column.extend(values)
                    continue
                for row in records:
                    for i in range(width):
                        columns[i].append(row[i])
                    columns[width].append(row.get_row_kind().value)
            if columns[width]:
                yield pa.RecordBatch.from_arrays(
                    [pa.array(_instant_micros(c, f.type), type=f.type)
                     for c, f in zip(columns, full)], schema=full)
    return decode


def _instant_micros(values: list, arrow) -> list:
    """A TIMESTAMP_LTZ column's Instants (a deduplication's rowtime, table/top_n_streams.py)
    as Spark's microseconds since the epoch (as table_frames decodes a stream's)."""
    import pyarrow as pa
    if not (pa.types.is_timestamp(arrow) and arrow.tz is not None):
        return values
    from pyflink_on_spark.common.time import Instant
    return [v.seconds * 1_000_000 + v.nanos // 1000 if isinstance(v, Instant) else v
            for v in values]
