"""Table.aggregate / GroupedTable.aggregate closed by select(): the Flink SQL of the grouping
query it is (pure text: no Spark, no environment), so that it runs as any grouping query does
(a Python aggregate function in STREAMING mode: the keyed aggregate of group_aggregates.py).

As PyFlink 1.20.5 plans it (seen: its plan Calc(select=[k, TMP_0.a AS m, TMP_0.b AS x]) over
Aggregate(TMP_0=[f($1)])), the aggregate function runs once per group and a ROW result's
fields are its columns, after the group keys: `SELECT k, f(v).a AS m, f(v).b AS x FROM t
GROUP BY k` (one call of f: table/sql/grouping.py). Columns are named by the call's alias
(one name per field), else `TMP_0$<field>` (a ROW) or `TMP_0` (another result). Also seen:
the checks run at select(), with Flink's ValidationException texts (a call that is no
aggregate, an alias list of the wrong length, a name twice, a column that is not there).

Table.flat_aggregate / GroupedTable.flat_aggregate are the same query with a table aggregate
function's call (udtaf), its columns named by its alias, else by its ROW's fields (f0 for
another result); the keyed aggregate emits its rows (group_aggregates.py
BundledTableAggregate)."""
from __future__ import annotations

from typing import List, Sequence, Tuple

from pyflink_on_spark.table.expression import Expression
from pyflink_on_spark.table.sql.errors import SqlValidationError
from pyflink_on_spark.table.table_queries import as_expression, check_reads, q, select_query

__all__ = ['aggregate_query']


def aggregate_query(table: str, names: Sequence[str], keys: Sequence[Expression], func,
                    fields: Sequence[Expression], method: str = "aggregate") -> str:
    """SELECT of `fields` over the aggregated table: `table` (columns `names`) grouped by
    `keys` (none: one group), `func` the aggregate call (`method` "aggregate"), or the table
    aggregate call (udtaf) of flat_aggregate (`method` "flat_aggregate")."""
    from pyflink_on_spark.table.udf import UserDefinedAggregateFunctionWrapper
    if isinstance(func, UserDefinedAggregateFunctionWrapper):
        # the function itself: it takes each row as one Row of all the columns (PyFlink's
        # _set_takes_row_as_input, then a call on with_columns(col('*')), its alias kept)
        from pyflink_on_spark.table.expressions import col
        call = func.takes_rows_of(names)(*[col(n) for n in names])
        func = call.alias(*func._alias_names) if func._alias_names else call
    if not isinstance(func, Expression):
        raise TypeError("%s() takes an aggregate function's call (f(col('a'))) or the "
                        "function, got %r" % (method, func))
    for key in keys:
        check_reads(key, names)
        if key.name is None or key.refs != (key.name,) or not key.is_column:
            raise NotImplementedError(
                "%s after group_by(%s): pyflink_on_spark groups an aggregate by columns "
                "only (col('a'))" % (method, key.sql))
    check_reads(func, names)
    columns = [(k.name, k.sql) for k in keys] + (
        _table_aggregate_columns(func) if method == "flat_aggregate"
        else _aggregate_columns(func))
    seen = set()
    for name, _ in columns:
        if name in seen:
            raise SqlValidationError("Ambiguous column name: %s" % name)
        seen.add(name)
    by_name = dict(columns)
    selected: List[Expression] = []
    for f in fields:
        f = as_expression(f, "select")
        if f.sql == "`*`" and f.refs == ("*",):
            from pyflink_on_spark.table.expressions import col
            selected.extend(col(name) for name, _ in columns)
            continue
        for ref in f.reads:
            if ref not in by_name:
                raise SqlValidationError(
                    "Cannot resolve field [%s], input field list:[%s]."
                    % (ref, ", ".join(name for name, _ in columns)))
        if f.aggregates:
            raise SqlValidationError("Aggregate functions are not supported in the select "
                                     "right after the aggregate or flatAggregate operation.")
        selected.append(f)
    if all(f.is_column or (len(f.refs) == 1 and f.sql == q(f.refs[0]) and f.name)
           for f in selected):
        items = ["%s AS %s" % (by_name[f.refs[0]], q(f.name)) for f in selected]
        return _grouping_sql(items, table, keys)
    if method == "flat_aggregate":
        raise NotImplementedError(
            "flat_aggregate(...).select(%s): pyflink_on_spark selects the table aggregate's "
            "columns (col('*'), col('a'), col('a').alias('b')) yet, not expressions of them"
            % ", ".join(f.sql for f in selected if not f.is_column))
    # expressions over the aggregated columns: a projection of the grouping query's rows, as
    # Flink plans it (seen on PyFlink 1.20.5: the aggregate, then a Calc; in STREAMING mode
    # every change of the aggregate values is a change of the projected row, -U / +U even
    # when the projection's values are equal); names as a select's (_c<position>, name-TYPE)
    inner = _grouping_sql(["%s AS %s" % (sql, q(name)) for name, sql in columns], table, keys)
    outer = select_query(_AGGREGATED, [name for name, _ in columns], selected)
    return outer.replace("FROM %s" % q(_AGGREGATED),
                         "FROM (%s) AS %s" % (inner, q(_AGGREGATED)), 1)


# the aggregated table's name in the projection over it (Flink's TMP_0 names the aggregate)
_AGGREGATED = "TMP_AGGREGATED"


def _grouping_sql(items: Sequence[str], table: str, keys: Sequence[Expression]) -> str:
    sql = "SELECT %s FROM %s" % (", ".join(items), q(table))
    if keys:
        sql += " GROUP BY %s" % ", ".join(k.sql for k in keys)
    return sql


def _aggregate_columns(func: Expression) -> List[Tuple[str, str]]:
    """The aggregate call's columns: (name, SQL) of each."""
    wrapper = func.udf_call[0] if func.udf_call is not None else None
    if wrapper is None or wrapper.kind != "aggregate" or wrapper._is_table_aggregate:
        if func.aggregate_call is None:
            raise SqlValidationError("Aggregate function expected. Got: %s" % _shown(func))
        return [(func.name or "TMP_0", func.sql)]
    aliases = func.aggregate_aliases or ()
    fields = _row_fields(wrapper.result_types()[0])
    if fields is None:
        if len(aliases) > 1:
            raise _degree(wrapper, func, 1, len(aliases))
        return [(aliases[0] if aliases else "TMP_0", func.sql)]
    if aliases and len(aliases) != len(fields):
        raise _degree(wrapper, func, len(fields), len(aliases))
    names = aliases or tuple("TMP_0$%s" % f for f in fields)
    return [(name, "%s.%s" % (func.sql, q(f))) for name, f in zip(names, fields)]


def _table_aggregate_columns(func: Expression) -> List[Tuple[str, str]]:
    """A table aggregate call's columns (seen: named by its alias, else by its ROW's
    fields, f0 for another result)."""
    wrapper = func.udf_call[0] if func.udf_call is not None else None
    if wrapper is None or wrapper.kind != "aggregate" or not wrapper._is_table_aggregate:
        raise SqlValidationError(
            "A flatAggregate only accepts an expression which defines a table aggregate "
            "function that might be followed by some alias.")
    aliases = func.aggregate_aliases or ()
    fields = _row_fields(wrapper.result_types()[0])
    if aliases and len(aliases) != len(fields or [0]):
        raise _degree(wrapper, func, len(fields or [0]), len(aliases))
    if fields is None:
        return [(aliases[0] if aliases else "f0", func.sql)]
    return [(name, "%s.%s" % (func.sql, q(f)))
            for name, f in zip(aliases or fields, fields)]


def _row_fields(result_type):
    """A ROW type's field names, else None (a DataType or a Flink type string)."""
    from pyflink_on_spark.table.types import RowType
    if isinstance(result_type, str):
        from pyflink_on_spark.table.sql.flink_types import parse_type
        result_type = parse_type(result_type)
    return list(result_type.names) if isinstance(result_type, RowType) else None


def _shown(func: Expression) -> str:
    """A call as Flink shows it in errors (seen: MeanMax(v), a built-in's as its SQL
    here: Flink's plus(v, 1))."""
    if func.udf_call is None:
        return func.sql
    wrapper, parts = func.udf_call
    return "%s(%s)" % (wrapper._name, ", ".join(p.name if p.is_column else p.sql
                                                 for p in parts))


def _degree(wrapper, func: Expression, columns: int, aliases: int) -> SqlValidationError:
    # seen: an aggregate function shown with its arguments (MeanMax(v)), a table aggregate
    # function by its name (Top2)
    shown = wrapper._name if wrapper._is_table_aggregate else _shown(func)
    return SqlValidationError(
        "List of column aliases must have same degree as table; the returned "
        "table of function '%s' has %d columns, whereas alias list has %d columns"
        % (shown, columns, aliases))
