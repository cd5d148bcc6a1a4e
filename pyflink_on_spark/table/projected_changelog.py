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
to_changelog_stream as any changelog frame (Rows with their RowKinds). A filter of the rows
(Table.where / filter, SQL WHERE over the grouping query, HAVING) is that query's WHERE: each
change dropped on its own when it fails it, as Flink's Calc does (seen on PyFlink 1.20.5)."""
from __future__ import annotations

from pyflink_on_spark.specs.tables import TableColumn

__all__ = ['projected_changes', 'projected_changelog_stream', 'inlined_grouping_input',
           'having_as_filter', 'updating_grouping_view', 'inputs_in_place_of']

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
    # Flink's Calc after the aggregate: each change projected, or dropped on its own when it
    # fails the filter (seen on PyFlink 1.20.5: WHERE c > 1 over a count's changes gives
    # `+U[a, 2]` with no `+I` before it, nor turns it into one)
    where = " WHERE %s" % grouping.condition if grouping.condition is not None else ""
    return t_env._translated("SELECT %s, %s AS %s FROM %s%s" % (
        _star_expanded(grouping.projection, [c.name for c in columns[:-1]]),
        q(_CHANGE_KIND), q(KIND), q(grouping.projected_from), where),
        [(grouping.projected_from, changes)])


def _star_expanded(projection: str, names) -> str:
    """A select list (Flink SQL) with a star as the grouping query's columns `names`: the
    changes' table has the change's kind beside them."""
    import sqlglot
    from sqlglot import exp
    from pyflink_on_spark.table.sql.translate import FLINK_DIALECT
    from pyflink_on_spark.table.table_queries import q
    tree = sqlglot.parse_one("SELECT %s FROM t" % projection, read=FLINK_DIALECT)
    if not any(isinstance(e, exp.Star) for e in tree.expressions):
        return projection
    return ", ".join(", ".join(q(n) for n in names) if isinstance(e, exp.Star)
                     else e.sql(dialect=FLINK_DIALECT) for e in tree.expressions)


def projected_changelog_stream(t_env, table, grouping, type_info):
    """to_changelog_stream of the projection: Rows named as the table's columns with their
    RowKinds (`type_info`: their ROW_NAMED type), from the changes' frame (KIND last)."""
    from pyflink_on_spark.table.columns import column_names
    from pyflink_on_spark.table.table import Table
    if t_env._executor().table_reads_unbounded(table._description):
        # the changes' table would be a table of a stream read by the job's table source,
        # which an unbounded job does not run (spark/streaming/table_feeds.py)
        raise NotImplementedError(
            "a select of expressions over a grouping query's columns or a filter of its "
            "rows (Table.aggregate(...).select(col('x') + 1), SELECT ... FROM (SELECT ... "
            "GROUP BY ...) WHERE ..., HAVING) over a table of an unbounded stream is not "
            "supported by pyflink_on_spark yet: it runs over bounded tables (docs/table.md)")
    changes = projected_changes(t_env, table, grouping)
    columns = table._resolved_columns()
    return t_env._stream_of(Table(changes._description, t_env, columns), as_tuples=False,
                            type_info=type_info, names=column_names(columns),
                            changelog=True)


def inlined_grouping_input(t_env, query: str, named, names=None):
    """A query of a table whose rows update, where that table is a grouping query
    (`t_env.sql_query("SELECT k, COUNT(*) AS c FROM v GROUP BY k")`, then `.select(col('k')
    .alias('a'), col('c'))`, `.rename_columns(...)`, `.where(col('c') > 1)`, or SQL over a
    view of it) or a projection / filter of one, as the same query over that query as a
    subquery: the projection and filter of its changes above, and the inputs it reads
    ((name, Table) pairs: the grouping query's in place of the table). A grouping query with
    HAVING is the same filter over its rows (`names`: the query's column names, which the
    rewrite keeps). None for any other query, and for one whose inlined form does not split
    as a projection (refused by name where it is read). Flink plans the query inline the
    same way (seen on PyFlink 1.20.5: the grouping query's -U / +U pairs, renamed, in the same
    order; each change row that fails a filter dropped on its own)."""
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
    user = t_env._user_aggregates()
    if isinstance(tree, exp.Select) and tree.args.get("having") is not None:
        filtered = having_as_filter(tree, names, user)
        return None if filtered is None else (filtered, list(named))
    source = source_of(tree) if isinstance(tree, exp.Select) else None
    if not isinstance(source, exp.Table) or source.args.get("db") or tree.args.get("joins"):
        return None
    view = updating_grouping_view(named, source.name)
    if view is not None:
        description, grouping = view._description, view._description.flink_query
    else:
        renamed = _renamed_grouping_view(t_env, named, source.name)
        if renamed is None:
            return None
        grouping, description = renamed
    try:
        if view is None or split_grouping(grouping, user).projection is not None:
            # a projection / filter of one: inlined whole, the two merged by the split
            grouped = sqlglot.parse_one(grouping, read=FLINK_DIALECT)
        else:
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


_HAVING_INPUT = "__having_input"


def having_as_filter(tree, names, user_aggregates=()):
    """`SELECT k, COUNT(*) AS c FROM t WHERE w GROUP BY k HAVING COUNT(*) > 1` (parsed) as
    `SELECT __g0 AS k, __a0 AS c FROM (SELECT k AS __g0, COUNT(*) AS __a0 FROM t WHERE w
    GROUP BY k) AS __having_input WHERE __a0 > 1` (Flink SQL): the grouping query of its
    keys and aggregate calls (each call once, those only the HAVING reads too), its select
    list and HAVING over those columns, as Flink plans it (GroupAggregate, then a Calc that
    filters each change: seen on PyFlink 1.20.5, `HAVING COUNT(*) > 1` gives `+U[a, 2]` with
    no `+I`, the same rows as a WHERE over the grouping query; a HAVING on an aggregate the
    select list does not read gives `-U` / `+U` pairs of equal rows when only it changed).
    `names`: the query's column names. None when it is not that shape (a join, a window
    aggregate, DISTINCT, a Python aggregate: refused as before)."""
    from sqlglot import exp
    from pyflink_on_spark.table.sql import UnsupportedSqlError
    from pyflink_on_spark.table.sql.functions import AGGREGATES
    from pyflink_on_spark.table.sql.grouping import split_grouping
    from pyflink_on_spark.table.sql.translate import FLINK_DIALECT
    from pyflink_on_spark.table.top_n_query import source_of
    source = source_of(tree)
    if not isinstance(source, exp.Table) or not isinstance(source.this, exp.Identifier) or \
            tree.args.get("joins") or tree.args.get("distinct") or names is None or \
            len(names) != len(tree.expressions) or any(
                isinstance(e, exp.Star) or isinstance(e, exp.Column) and
                isinstance(e.this, exp.Star) for e in tree.expressions):
        return None
    if any(isinstance(node, (exp.Subquery, exp.Window)) or
           isinstance(node, exp.Anonymous) and node.name.lower() in user_aggregates
           for node in tree.walk()):
        return None
    group = tree.args.get("group")
    keys = list(group.expressions) if group is not None else []
    if any(isinstance(node, exp.Anonymous) and node.name.upper() in (
            "TUMBLE", "HOP", "SESSION", "CUMULATE") for k in keys for node in k.walk()):
        return None     # a group window aggregate: its rows are final
    key_text = [_key_text(k) for k in keys]
    calls = []

    def lifted(e):
        def swap(node):
            if isinstance(node, exp.AggFunc) or isinstance(node, exp.Anonymous) and \
                    node.name.upper() in AGGREGATES:
                text = node.sql(dialect=FLINK_DIALECT)
                if text not in calls:
                    calls.append(text)
                return exp.column("__a%d" % calls.index(text), quoted=True)
            if _key_text(node) in key_text:
                return exp.column("__g%d" % key_text.index(_key_text(node)), quoted=True)
            return node
        return e.transform(swap)

    items = [exp.alias_(lifted(e.unalias() if isinstance(e, exp.Alias) else e),
                        exp.to_identifier(name, quoted=True))
             for e, name in zip(tree.expressions, names)]
    condition = lifted(tree.args["having"].this)
    if any(c.name not in ["__g%d" % i for i in range(len(keys))] +
           ["__a%d" % i for i in range(len(calls))]
           for e in items + [condition] for c in e.find_all(exp.Column)):
        return None     # a column neither a group key nor in an aggregate call
    inner = ["%s AS `__g%d`" % (k.sql(dialect=FLINK_DIALECT), i) for i, k in enumerate(keys)]
    inner += ["%s AS `__a%d`" % (c, i) for i, c in enumerate(calls)]
    if not calls and not keys:
        return None
    where = tree.args.get("where")
    grouped = "SELECT %s FROM %s%s%s" % (
        ", ".join(inner), source.sql(dialect=FLINK_DIALECT),
        " WHERE %s" % where.this.sql(dialect=FLINK_DIALECT) if where is not None else "",
        " GROUP BY %s" % ", ".join(k.sql(dialect=FLINK_DIALECT) for k in keys) if keys else "")
    try:
        split_grouping(grouped, user_aggregates)
    except UnsupportedSqlError:
        return None     # COUNT(DISTINCT x)...: HAVING refused by name as before
    return "SELECT %s FROM (%s) AS %s WHERE %s" % (
        ", ".join(i.sql(dialect=FLINK_DIALECT) for i in items), grouped, _HAVING_INPUT,
        condition.sql(dialect=FLINK_DIALECT))


def _key_text(node) -> str:
    """A group key's text to match the select list's: a column by its name alone."""
    from sqlglot import exp
    from pyflink_on_spark.table.sql.translate import FLINK_DIALECT
    if isinstance(node, exp.Column):
        return "column " + node.name
    return node.sql(dialect=FLINK_DIALECT)


def _renamed_grouping_view(t_env, named, name: str):
    """The input `name` of a query when it is an alias (Table.alias, maybe of an alias) of an
    updating grouping query or of a projection of one: (its query as a select of the
    renamed columns, the description of the query it renames); else None. Flink's alias is
    a projection (seen on PyFlink 1.20.5: a select over an alias is the same changelog)."""
    from pyflink_on_spark.specs.tables import RenamedTable
    from pyflink_on_spark.table.table import Table
    from pyflink_on_spark.table.table_queries import q
    view = next((t for n, t in named if n == name), None)
    description, renames = getattr(view, "_description", None), []
    while isinstance(description, RenamedTable):
        renames.append(description)
        description = description.input
    if not renames or updating_grouping_view(
            [(name, Table(description, t_env, getattr(description, "columns", None)))],
            name) is None:
        return None
    query = description.flink_query
    for i, rename in enumerate(reversed(renames)):
        old = Table(rename.input, t_env, getattr(rename.input, "columns", None))
        query = "SELECT %s FROM (%s) AS %s" % (", ".join(
            "%s AS %s" % (q(o.name), q(c.name))
            for o, c in zip(old._resolved_columns(), rename.columns)), query,
            q("__renamed%d" % i))
    return query, description


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
