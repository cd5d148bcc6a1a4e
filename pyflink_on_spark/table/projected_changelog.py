"""The changelog of a projection of a grouping query's rows in STREAMING mode
(`SELECT k, s + 1 FROM (SELECT k, SUM(v) AS s FROM t GROUP BY k) AS g`: Table.aggregate's
select of expressions over the aggregated columns, table/aggregated_tables.py).

As Flink plans it (seen on PyFlink 1.20.5: the aggregate, then a Calc), the grouping query's
changes are the keyed aggregate's (table/group_aggregates.py, which compares the aggregate
values: a change of them is a change of the projected row, -U / +U even when the projection's
values are equal), and each change goes through the projection row by row. Here the keyed
aggregate's changes (its plain tuples: the values, then the RowKind's value) are a table of a
stream whose last column is the kind, and the projection a stateless query of that table
(Spark SQL, bounded or per micro-batch of an unbounded job, as any query of a table of a
stream) that passes the kind on: its frame is the changelog (KIND last), read by
to_changelog_stream as any changelog frame (Rows with their RowKinds)."""
from __future__ import annotations

from pyflink_on_spark.specs.tables import TableColumn

__all__ = ['projected_changes', 'projected_changelog_stream', 'inlined_grouping_input',
           'updating_grouping_view', 'inputs_in_place_of']

# the keyed aggregate's changes: the column holding each change's RowKind value
_CHANGE_KIND = "__change_kind"
# a changelog frame's last column, its RowKind value: spark/table_changelog.py's KIND (the
# table layer does not import spark; a test checks they are one name)
KIND = "__pyflink_kind"


def projected_changes(t_env, table, grouping):
    """The Table of the projection's changes: its columns, then KIND (the RowKind's value):
    the rows of execute(), to_pandas() and INSERT (QueryTable.keyed_changelog)."""
    from pyflink_on_spark.table.table import Table
    from pyflink_on_spark.table.table_queries import q
    description = table._description
    inner = t_env._translated(grouping.inner, [
        (name, Table(view, t_env, getattr(view, "columns", None)))
        for name, view in description.inputs])
    columns = tuple(inner._resolved_columns()) + (TableColumn(_CHANGE_KIND, "INT", False),)
    changes = Table(t_env._keyed_changes(inner, columns, changelog=False), t_env, columns)
    return t_env._translated("SELECT %s, %s AS %s FROM %s" % (
        grouping.projection, q(_CHANGE_KIND), q(KIND), q(grouping.projected_from)),
        [(grouping.projected_from, changes)])


def projected_changelog_stream(t_env, table, grouping, type_info):
    """to_changelog_stream of the projection: Rows named as the table's columns with their
    RowKinds (`type_info`: their ROW_NAMED type), from the changes' frame (KIND last)."""
    from pyflink_on_spark.table.columns import column_names
    from pyflink_on_spark.table.table import Table
    if t_env._executor().table_reads_unbounded(table._description):
        # the changes' table would be a table of a stream read by the job's table source,
        # which an unbounded job does not run (spark/streaming/table_feeds.py)
        raise NotImplementedError(
            "a select of expressions over a grouping query's columns (Table.aggregate(...)"
            ".select(col('x') + 1), SELECT ... FROM (SELECT ... GROUP BY ...)) over a table "
            "of an unbounded stream is not supported by pyflink_on_spark yet: it runs over "
            "bounded tables (docs/table.md)")
    changes = projected_changes(t_env, table, grouping)
    columns = table._resolved_columns()
    return t_env._stream_of(Table(changes._description, t_env, columns), as_tuples=False,
                            type_info=type_info, names=column_names(columns),
                            changelog=True)


def inlined_grouping_input(t_env, query: str, named):
    """A query of a table whose rows update, where that table is a grouping query
    (`t_env.sql_query("SELECT k, COUNT(*) AS c FROM v GROUP BY k")`, then `.select(col('k')
    .alias('a'), col('c'))`, `.rename_columns(...)`, or SQL over a view of it) as the same
    query over the grouping query as a subquery: the projection of its changes above, and the
    inputs it reads ((name, Table) pairs: the grouping query's in place of the table). None
    for any other query, and for one whose inlined form does not split as a projection (a
    WHERE over the grouping query's result...: refused by name where it is read). Flink
    plans the query inline the same way (seen on PyFlink 1.20.5: the grouping query's -U /
    +U pairs, renamed, in the same order)."""
    import sqlglot
    from sqlglot import exp
    from pyflink_on_spark.table.sql import UnsupportedSqlError
    from pyflink_on_spark.table.sql.grouping import split_grouping
    from pyflink_on_spark.table.sql.translate import FLINK_DIALECT
    from pyflink_on_spark.table.top_n_query import source_of
    try:
        tree = sqlglot.parse_one(query, read=FLINK_DIALECT)
    except sqlglot.errors.ParseError:
        return None
    source = source_of(tree) if isinstance(tree, exp.Select) else None
    if not isinstance(source, exp.Table) or source.args.get("db") or tree.args.get("joins"):
        return None
    view = updating_grouping_view(named, source.name)
    if view is None:
        return None
    description, grouping = view._description, view._description.flink_query
    user = t_env._user_aggregates()
    try:
        if split_grouping(grouping, user).projection is not None:
            return None         # a projection of one: refused below as before
        grouped = _pruned(sqlglot.parse_one(grouping, read=FLINK_DIALECT), tree,
                          [c.name for c in view._resolved_columns()])
        if grouped is None:
            return None
        source.replace(exp.Subquery(
            this=grouped,
            alias=exp.TableAlias(this=exp.to_identifier(source.alias_or_name))))
        inlined = tree.sql(dialect=FLINK_DIALECT)
        if split_grouping(inlined, user).projection is None:
            return None
    except (UnsupportedSqlError, sqlglot.errors.ParseError):
        return None
    return inlined, inputs_in_place_of(t_env, named, source.name, description)


def updating_grouping_view(named, name: str):
    """The input `name` of a query ((name, Table) pairs) when it is a grouping query whose
    rows update in STREAMING mode (its query inlined by the callers), else None."""
    view = next((t for n, t in named if n == name), None)
    description = getattr(view, "_description", None)
    if getattr(description, "flink_query", None) is None or \
            not getattr(description, "streaming", False) or not view._updates():
        return None
    return view


def inputs_in_place_of(t_env, named, name: str, description):
    """A query's inputs ((name, Table) pairs) with the inputs of the query `description`
    (the view `name`, inlined as a subquery) in place of that view."""
    from pyflink_on_spark.table.table import Table
    inputs = [(n, t) for n, t in named if n != name]
    inputs += [(n, t_env._views[n] if n in t_env._views and t_env._views[n]._description is d
                else Table(d, t_env, getattr(d, "columns", None)))
               for n, d in description.inputs if n not in dict(inputs)]
    return inputs


def _pruned(grouped, outer, names):
    """The grouping query `grouped` (parsed; its result columns `names`) keeping only the
    columns the `outer` query reads, each named as it was: Flink prunes the aggregate calls a
    projection does not read, so its changes are those of the others (seen on PyFlink
    1.20.5: a select of `k` alone over `SELECT k, COUNT(*) ... GROUP BY k` is `+I` per key,
    nothing after; a select of `m, k` over `SELECT k, MAX(v) AS m, COUNT(*) AS c` emits
    nothing when only the count changed). SELECT DISTINCT and a star keep every column; None
    when the outer query reads none of them."""
    from sqlglot import exp
    if grouped.args.get("distinct") is not None or any(
            isinstance(node, exp.Star) for node in outer.walk()):
        return grouped
    read = {c.name for c in outer.find_all(exp.Column)}
    items = [exp.alias_(item.unalias() if isinstance(item, exp.Alias) else item,
                        exp.to_identifier(name, quoted=True))
             for item, name in zip(grouped.expressions, names) if name in read]
    if not items:
        return None
    grouped.set("expressions", items)
    return grouped
