"""StreamTableEnvironment.from_changelog_stream and pyflink.table.ChangelogMode (issue 44).

Seen on PyFlink 1.20.5 (parallelism 1, STREAMING mode, a bounded stream of Rows):
- The table's rows are the stream's Rows with their RowKinds as given (execute().print(),
  collect(), to_changelog_stream: +I, -U, +U, -D in arrival order), in the mode all (the
  default) and insert_only alike (Flink does not check the kinds against the mode). A stream
  of tuples or of plain values is +I rows (columns as from_data_stream derives them).
- ChangelogMode.upsert() with a Schema primary key: Flink's ChangelogNormalize keyed by the
  key: +I / +U of a new key is +I, of a known key -U[its last row] +U[the row] (equal rows
  too), -D / -U of a known key -D[its last row] (the row's own values are not used), of an
  unknown key nothing. print_schema shows the key's columns NOT NULL and `CONSTRAINT
  `PK_<columns>` PRIMARY KEY (...) NOT ENFORCED`. Without upsert mode the key changes nothing
  but the schema. Upsert mode without a key: the kinds as given.
- A projection / filter over it: each change on its own, its kind kept (a -D carries the
  last row of its key in upsert mode, and is filtered on that).
- A GROUP BY over it (Flink's GroupAggregate with retraction): +I / +U rows accumulate, -U /
  -D rows retract; a group whose row count goes to 0 emits -D[its previous result] and starts
  again (+I) with its next row; a retraction for a group without rows is dropped; otherwise
  -U[before] +U[after], nothing when the results are equal. SUM / AVG of a group whose
  non-NULL values were all retracted are NULL, COUNT(x) counts the non-NULL values left, MIN /
  MAX are over the values left. A query without GROUP BY is one group (its count going to 0
  emits -D too).
- BATCH mode: running any query over it fails ("Querying a table in batch mode is currently
  only possible for INSERT-only table sources ..."), whatever its rows' kinds.

Here the table is a table of the stream's changes (values, then the RowKind's value: a
changelog StreamTable); a stateless query over it is the same query over those changes with
the kind passed on (as table/projected_changelog.py projects a grouping query's changes), and
a grouping query over it runs in the keyed aggregate (table_environment._group_changelog) as
RetractingGroupAggregate below."""
from __future__ import annotations

import itertools
from typing import Dict, List, Optional, Sequence, Tuple

from pyflink_on_spark.datastream.functions import KeyedProcessFunction, MapFunction
from pyflink_on_spark.specs.tables import (QueryTable, RenamedTable, StreamTable,
                                           TableColumn)
from pyflink_on_spark.table.group_aggregates import Aggregate, GroupAggregate
# a changelog frame's last column (spark/table_changelog.py KIND, which a test checks)
from pyflink_on_spark.table.projected_changelog import KIND
from pyflink_on_spark.table.table import Table

__all__ = ['changelog_table', 'changelog_query', 'reads_changelog',
           'retracting_aggregate', 'RetractingGroupAggregate', 'ChangelogNormalize']

# a stateless query's input, as the stream's changes: the column holding each change's
# RowKind value (a RenamedTable of the changelog, its KIND column renamed to it)
CHANGE_KIND = "__pyflink_change_kind"

_INSERT, _UPDATE_BEFORE, _UPDATE_AFTER, _DELETE = 0, 1, 2, 3

# Flink's anonymous table counter ('*anonymous_datastream_source$<n>*' in its BATCH-mode
# error); Flink counts the tables of from_data_stream too, this counts these tables only
_sources = itertools.count(1)


class _Source(object):
    """What a changelog table's source is: its anonymous table number, its mode, its primary
    key (constraint name, columns) or None."""

    def __init__(self, number: int, mode: str, key) -> None:
        self.number = number
        self.mode = mode
        self.key = key


class ChangelogTable(Table):
    """The Table from_changelog_stream gives: print_schema shows its primary key."""

    _primary_key = None

    def print_schema(self) -> None:
        from pyflink_on_spark.table.columns import schema_text
        text = schema_text(self._resolved_columns())
        if self._primary_key is not None:
            name, columns = self._primary_key
            text = text[:-2] + ",\n  CONSTRAINT `%s` PRIMARY KEY (%s) NOT ENFORCED\n)" % (
                name, ", ".join("`%s`" % c for c in columns))
        print(text)


def _sources_of(t_env) -> Dict[int, _Source]:
    """The changelog tables' sources of an environment, by their collect sink's id."""
    found = getattr(t_env, "_changelog_sources", None)
    if found is None:
        found = t_env._changelog_sources = {}
    return found


class _Change(MapFunction):
    """A record of the stream -> its change: (values..., RowKind value); a tuple's or a
    plain value's kind is INSERT."""

    def __init__(self, atomic: bool) -> None:
        self.atomic = atomic

    def map(self, value):
        if self.atomic:
            return (value, _INSERT)
        kind = getattr(value, "_row_kind", None)
        return tuple(getattr(value, "_values", value)) + (
            _INSERT if kind is None else kind.value,)


class _KeyOf(object):
    def __init__(self, positions: Sequence[int]) -> None:
        self.positions = tuple(positions)

    def __call__(self, value):
        values = getattr(value, "_values", value)
        return tuple(values[i] for i in self.positions)


class ChangelogNormalize(KeyedProcessFunction):
    """Flink's ChangelogNormalize of an upsert changelog, keyed by its primary key (seen on
    PyFlink 1.20.5): +I / +U of a new key -> +I; of a known key -> -U[last] +U[row], equal
    rows too; -U / -D of a known key -> -D[last]; of an unknown key nothing."""

    def open(self, runtime_context) -> None:
        from pyflink_on_spark.common.typeinfo import Types
        from pyflink_on_spark.datastream.state import ValueStateDescriptor
        self.state = runtime_context.get_state(
            ValueStateDescriptor("changelog_normalize", Types.PICKLED_BYTE_ARRAY()))

    def process_element(self, value, ctx):
        values = tuple(getattr(value, "_values", value))
        kind = getattr(value, "_row_kind", None)
        kind = _INSERT if kind is None else kind.value
        last = self.state.value()
        if kind in (_INSERT, _UPDATE_AFTER):
            self.state.update(values)
            if last is None:
                return (values + (_INSERT,),)
            return (last + (_UPDATE_BEFORE,), values + (_UPDATE_AFTER,))
        if last is None:
            return None
        self.state.clear()
        return (last + (_DELETE,),)


def changelog_table(t_env, data_stream, schema=None, changelog_mode=None) -> Table:
    """from_changelog_stream(data_stream, schema, changelog_mode)."""
    from pyflink_on_spark.common.typeinfo import Types
    from pyflink_on_spark.graph.transformations import SinkTransformation
    from pyflink_on_spark.specs.sinks import CollectSinkSpec
    from pyflink_on_spark.specs.tables import RECORD_ATOMIC, RECORD_FIELDS
    from pyflink_on_spark.table.columns import stream_columns
    # seen in PyFlink 1.20.5's from_changelog_stream: without a schema the mode is not
    # passed on (all, whatever it is)
    mode = "all" if schema is None or changelog_mode is None else changelog_mode._name
    node = data_stream._transformation
    columns, shape = stream_columns(node.output_type)
    key = None if schema is None else _schema_key(columns, schema)
    if mode == "upsert" and key is None:
        raise NotImplementedError(
            "from_changelog_stream in upsert mode with a Schema without a primary key is not "
            "supported by pyflink_on_spark yet (Schema.new_builder().primary_key(...))")
    if key is not None:     # seen on PyFlink 1.20.5: the key's columns are NOT NULL
        columns = tuple(TableColumn(c.name, c.sql_type, False) if c.name in key[1] else c
                        for c in columns)
    names = [c.name for c in columns]
    if mode == "upsert" and key is not None:
        changes = data_stream.key_by(_KeyOf([names.index(k) for k in key[1]])).process(
            ChangelogNormalize(), output_type=Types.PICKLED_BYTE_ARRAY())
    else:
        changes = data_stream.map(_Change(shape == RECORD_ATOMIC),
                                  output_type=Types.PICKLED_BYTE_ARRAY())
        if node.parallelism is not None:    # the stream's order, record by record
            changes = changes.set_parallelism(node.parallelism)
    changed = changes._transformation
    sink = SinkTransformation(name="Collect Sink", input=changed, spec=CollectSinkSpec(),
                              input_type=changed.output_type)
    sink.parallelism = 1
    description = StreamTable((sink,), sink.id, t_env._env._job_settings(), columns,
                              RECORD_FIELDS, None, changelog=True)
    source = _Source(next(_sources), mode, key)
    _sources_of(t_env)[sink.id] = source
    table = ChangelogTable(description, t_env, columns)
    table._primary_key = key
    if not t_env._is_streaming():
        table._failure = _batch_failure(source)
    return table


def _schema_key(columns, schema):
    """The primary key (constraint name, column names) a from_changelog_stream Schema
    declares, or None; a Schema declaring anything else is refused by name."""
    if schema._columns or schema._watermarks:
        raise NotImplementedError(
            "from_changelog_stream with a Schema declaring columns or a watermark is not "
            "supported by pyflink_on_spark yet (a Schema of a primary key only: "
            "Schema.new_builder().primary_key(...).build())")
    if schema._primary_key is None:
        return None
    name, keys = schema._primary_key
    name = name or "PK_" + "_".join(keys)
    missing = [k for k in keys if k not in [c.name for c in columns]]
    if missing:     # seen on PyFlink 1.20.5 (a Py4JJavaError there)
        from pyflink_on_spark.table.sql.errors import SqlValidationError
        raise SqlValidationError(
            "org.apache.flink.table.api.ValidationException: Invalid primary key '%s'. "
            "Column '%s' does not exist." % (name, missing[0]))
    return (name, tuple(keys))


def _batch_failure(source: _Source) -> str:
    # seen on PyFlink 1.20.5, in any query's execution, in every mode
    return ("org.apache.flink.table.api.TableException: Querying a table in batch mode is "
            "currently only possible for INSERT-only table sources. But the source for table "
            "'*anonymous_datastream_source$%d*' produces other changelog messages than just "
            "INSERT." % source.number)


# -- queries over a changelog table -----------------------------------------------------------

def is_retracting(description) -> bool:
    """Whether a query's input is a changelog whose rows the query must take with their
    kinds: a from_changelog_stream table (a changelog StreamTable), a stateless query over
    one (changelog_query: no Flink query of its own, its changes as keyed_changelog), an
    alias of either."""
    if isinstance(description, StreamTable):
        return description.changelog
    if isinstance(description, RenamedTable):
        return description.columns[-1].name != CHANGE_KIND and \
            is_retracting(description.input)
    return isinstance(description, QueryTable) and description.flink_query is None and \
        description.keyed_changelog is not None


def _read(description) -> list:
    """The (name, description) inputs a query reads (sql_query's inputs are every view)."""
    from pyflink_on_spark.specs.tables import mentions
    query = description.flink_query or description.query
    return [(n, v) for n, v in description.inputs if mentions(query, n)]


def reads_changelog(description) -> bool:
    return isinstance(description, QueryTable) and any(
        is_retracting(view) for _, view in _read(description))


def _leaves(t_env, description) -> List[_Source]:
    """The changelog tables' sources under a description."""
    sources = _sources_of(t_env)
    if isinstance(description, StreamTable):
        found = sources.get(description.collect_sink_id)
        return [] if found is None else [found]
    if isinstance(description, RenamedTable):
        return _leaves(t_env, description.input)
    if isinstance(description, QueryTable):
        out = []
        for _, view in _read(description):
            out.extend(_leaves(t_env, view))
        if description.keyed_changelog is not None:
            out.extend(_leaves(t_env, description.keyed_changelog))
        return out
    return []


def changelog_query(t_env, table: Table) -> Optional[Table]:
    """A query over a changelog table (reads_changelog): in BATCH mode the table failing as
    on PyFlink; a stateless query (a projection / filter) as its changes (the same query over
    the input's changes, the kind passed on); None for a grouping query (the keyed retracting
    aggregate runs it, table_environment._group_changelog); anything else is refused."""
    description = table._description
    leaves = _leaves(t_env, description)
    if not description.streaming and leaves:
        # seen on PyFlink 1.20.5: sql_query over it fails, in the insert_only mode too
        from pyflink_on_spark.util.exceptions import TableException
        raise TableException(_batch_failure(leaves[0]))
    if table._updates():
        removed = _removed_aggregate(description.flink_query,
                                     [s for s in leaves if s.mode == "upsert"],
                                     [c.name for c in table._resolved_columns()])
        if removed is None:
            return None
        return t_env._translated(removed, [(n, Table(v, t_env, getattr(v, "columns", None)))
                                           for n, v in _read(description)])
    import sqlglot
    from sqlglot import exp
    from pyflink_on_spark.table.sql.translate import FLINK_DIALECT
    from pyflink_on_spark.table.table_queries import q
    query = description.flink_query
    tree = sqlglot.parse_one(query, read=FLINK_DIALECT)
    source = tree.args.get("from_") or tree.args.get("from") \
        if isinstance(tree, exp.Select) else None
    inputs = dict(_read(description))
    name = source.this.name if source is not None and isinstance(source.this, exp.Table) \
        else None
    if name not in inputs or not is_retracting(inputs[name]) or tree.args.get("joins") or \
            any(tree.find(node) is not None for node in (
                exp.Subquery, exp.Window, exp.Order, exp.Limit, exp.Group, exp.AggFunc,
                exp.Union, exp.With)):
        raise NotImplementedError(
            "%r over a from_changelog_stream table: pyflink_on_spark runs a projection / "
            "filter of one changelog table, and grouping queries (GROUP BY, aggregates) over "
            "it, only so far (docs/table.md)" % (query.strip().split("\n")[0][:80],))
    view = inputs[name]
    columns = Table(view, t_env, getattr(view, "columns", None))._resolved_columns()
    names = [c.name for c in columns]
    expressions = []
    for e in tree.expressions:
        if isinstance(e, exp.Star):
            expressions.extend(exp.column(n, quoted=True) for n in names)
        else:
            expressions.append(e)
    expressions.append(exp.alias_(exp.column(CHANGE_KIND, quoted=True), KIND, quoted=True))
    tree.set("expressions", expressions)
    changes = RenamedTable(view, tuple(columns) + (TableColumn(CHANGE_KIND, "INT", False),))
    projected = t_env._translated(tree.sql(dialect=FLINK_DIALECT), [
        (name, Table(changes, t_env, changes.columns))])
    from dataclasses import replace
    out = Table(replace(description, flink_query=None,
                        keyed_changelog=projected._description), t_env,
                table._resolved_columns())
    out._failure = projected._failure or table._failure
    return out


def _removed_aggregate(query: str, upserts, names) -> Optional[str]:
    """A grouping of an upsert table's rows by its primary key's columns whose aggregates are
    SUM / MIN / MAX only, as Flink plans it: its rule for
    unique group keys removes the aggregate (seen on PyFlink 1.20.5: SUM(f1) GROUP BY the key
    gives the normalized rows, -U / +U of equal rows too, where an aggregate gives -D / +I,
    as it does with a COUNT beside MAX; a WHERE filters those rows), each call its
    argument: the projection (Flink SQL) of the table's changes, its columns named `names`.
    None for any other query."""
    if not upserts:
        return None
    import sqlglot
    from sqlglot import exp
    from pyflink_on_spark.table.sql.functions import AGGREGATES
    from pyflink_on_spark.table.sql.translate import FLINK_DIALECT
    tree = sqlglot.parse_one(query, read=FLINK_DIALECT)
    if not isinstance(tree, exp.Select):
        return None
    for sub in tree.find_all(exp.Select):
        if sub is not tree and _removed_aggregate(
                sub.sql(dialect=FLINK_DIALECT), upserts,
                [e.alias_or_name for e in sub.expressions]) is not None:
            raise NotImplementedError(
                "HAVING or a query over a GROUP BY of the primary key of a "
                "from_changelog_stream table in upsert mode is not supported by "
                "pyflink_on_spark yet (Flink removes that aggregate: its rows are the "
                "table's normalized changes; the GROUP BY alone runs)")
    group = tree.args.get("group")
    calls = [f for f in tree.find_all(exp.Func)
             if (f.name if isinstance(f, exp.Anonymous) else f.sql_name()).upper()
             in AGGREGATES]
    if any((f.name if isinstance(f, exp.Anonymous) else f.sql_name()).upper() not in
           ("SUM", "MIN", "MAX") for f in calls):
        return None
    if group is not None:
        keys = {e.name for e in group.expressions if isinstance(e, exp.Column)}
    elif tree.args.get("distinct") is not None and not calls:   # SELECT DISTINCT
        keys = {e.unalias().name for e in tree.expressions
                if isinstance(e.unalias(), exp.Column)}
        if any(set(source.key[1]) <= keys for source in upserts):
            # seen on PyFlink 1.20.5: the normalized rows, but not all of them (a key's +I of
            # a new value gave nothing)
            raise NotImplementedError(
                "SELECT DISTINCT of the primary key of a from_changelog_stream table in "
                "upsert mode is not supported by pyflink_on_spark yet")
        return None
    else:
        return None
    if not any(set(source.key[1]) <= keys for source in upserts):
        return None
    if any(len(f.expressions if isinstance(f, exp.Anonymous) else [f.this]) != 1
           for f in calls):
        return None
    for f in calls:
        f.replace((f.expressions[0] if isinstance(f, exp.Anonymous) else f.this).copy())
    tree.set("group", None)
    tree.set("expressions", [exp.alias_(e.unalias() if isinstance(e, exp.Alias) else e,
                                        name, quoted=True)
                             for e, name in zip(tree.expressions, names)])
    return tree.sql(dialect=FLINK_DIALECT)


# -- the grouping aggregate over a changelog (Flink's GroupAggregate with retraction) ---------

class _Retracting(object):
    """An aggregate call that also retracts (Flink's *WithRetractAggFunction): COUNT a
    count, SUM / AVG (sum, count of non-NULL values), MIN / MAX a map of the values left to
    their counts."""

    def __init__(self, aggregate: Aggregate) -> None:
        if aggregate.function in ("MIN", "MAX") and aggregate.instants:
            raise NotImplementedError(
                "%s of a TIMESTAMP_LTZ column over a from_changelog_stream table is not "
                "supported by pyflink_on_spark yet" % aggregate.function)
        self.aggregate = aggregate
        self.function = aggregate.function

    def initial(self):
        if self.function == "COUNT":
            return 0
        if self.function in ("MIN", "MAX"):
            return {}
        return (None if self.function == "SUM" else 0, 0)     # (sum, non-NULL count)

    def add(self, acc, row, sign: int):
        a = self.aggregate
        value = None if a.argument is None else row[a.argument]
        if self.function == "COUNT":
            return acc + (sign if a.argument is None or value is not None else 0)
        if value is None:
            return acc
        if self.function in ("MIN", "MAX"):
            # the map changed in place (a copy a row cost as much as the group's values):
            # the caller took the results before adding
            count = acc.get(value, 0) + sign
            if count == 0:
                del acc[value]
            else:
                acc[value] = count
            return acc
        total, count = acc
        if sign < 0:
            value = -value
        if self.function == "SUM":
            return (a._sum(total, value), count + sign)
        return (a._avg_sum(total, value), count + sign)

    def result(self, acc):
        if self.function == "COUNT":
            return acc
        if self.function in ("MIN", "MAX"):
            values = [v for v, c in acc.items() if c > 0]
            if not values:
                return None
            return min(values) if self.function == "MIN" else max(values)
        total, count = acc
        if count == 0:
            return None
        if self.function == "SUM":
            return total
        return self.aggregate.result((total, count))


class RetractingGroupAggregate(GroupAggregate):
    """GroupAggregate over a changelog (Rows with their RowKinds), as Flink's GroupAggFunction
    with retraction (seen on PyFlink 1.20.5): +I / +U accumulate, -U / -D retract; a group's
    row count at 0 emits -D[previous result] and clears the group; a retraction for a group
    without state is dropped; else +I the first time, -U / +U when the results changed."""

    def _prepare(self) -> None:
        from pyflink_on_spark.common.types import RowKind
        self._calls = [_Retracting(a) for a in self.aggregates]
        self._make = self._maker()
        self._delete = RowKind.DELETE.value if self.plain else RowKind.DELETE

    def process_element(self, value, ctx):
        values = getattr(value, "_values", value)
        kind = getattr(value, "_row_kind", None)
        sign = -1 if kind is not None and kind.value in (_UPDATE_BEFORE, _DELETE) else 1
        state = self.state.value()
        if state is None:
            if sign < 0:
                return None
            rows, accs = 0, tuple(c.initial() for c in self._calls)
            before = None
        else:
            rows, accs = state
            before = self._values(accs)
        accs = tuple(c.add(acc, values, sign) for c, acc in zip(self._calls, accs))
        rows += sign
        make, kinds = self._make, self._kinds
        if rows == 0:
            self.state.clear()
            return None if before is None else (make(values, before, self._delete),)
        self.state.update((rows, accs))
        after = self._values(accs)
        if before is None:
            return (make(values, after, kinds[0]),)
        if after == before:
            return None
        return (make(values, before, kinds[1]), make(values, after, kinds[2]))

    def _values(self, accs) -> tuple:
        return tuple(c.result(acc) for c, acc in zip(self._calls, accs))


def retracting_aggregate(function: GroupAggregate) -> RetractingGroupAggregate:
    """The keyed function of a grouping query (group_aggregates.group_aggregate's) taking
    its input's retractions; a Python aggregate function (udaf) is refused by name."""
    if type(function) is not GroupAggregate:
        raise NotImplementedError(
            "a Python aggregate function (udaf) over a from_changelog_stream table is not "
            "supported by pyflink_on_spark yet (its retract method is not called here)")
    return RetractingGroupAggregate(function.names, function.items, function.plain)
