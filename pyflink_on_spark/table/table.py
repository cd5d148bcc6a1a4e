"""Table: a frozen description of a table (specs/tables.py: its inputs and its query) and the
environment it belongs to. Relational methods return new Tables; nothing runs until a result
is asked for (execute(), to_pandas(), a job reading it through to_data_stream)."""
from __future__ import annotations

import itertools
from typing import Optional, Tuple

from pyflink_on_spark.specs.tables import RenamedTable, TableColumn
from pyflink_on_spark.table.columns import column_names, renamed, schema_text
from pyflink_on_spark.table import table_queries as queries

__all__ = ['Table', 'GroupedTable', 'AggregatedTable', 'FlatAggregateTable']

_names = itertools.count(1)


class Table(object):
    """Made by a TableEnvironment (from_data_stream, from_pandas, sql_query, from_path)."""

    def __init__(self, description, t_env,
                 columns: Optional[Tuple[TableColumn, ...]] = None) -> None:
        self._description = description
        self._t_env = t_env
        self._columns = columns
        self._name = "_pyflink_table_%d" % next(_names)   # its name in queries over it
        self._unnamed_view: Optional[str] = None

    def __str__(self) -> str:
        """As PyFlink's (Java's TableImpl.toString, seen on PyFlink 1.20.5): the table is
        registered once as a view of its environment under a unique name, UnnamedTable$0,
        $1..., listed by list_temporary_views and list_tables, and str gives the name, so
        that "SELECT ... FROM %s" % table queries it."""
        if self._unnamed_view is None:
            self._unnamed_view = self._t_env._register_unnamed(self)
        return self._unnamed_view

    # -- what it is ---------------------------------------------------------------------------

    def _resolved_columns(self) -> Tuple[TableColumn, ...]:
        if self._columns is None:
            self._columns = self._t_env._executor().table_columns(self._description)
        return self._columns

    def get_schema(self):
        from pyflink_on_spark.table.schema import TableSchema
        return TableSchema(columns=self._resolved_columns())

    def print_schema(self) -> None:
        print(schema_text(self._resolved_columns()))

    # -- relational methods ---------------------------------------------------------------------

    # Flink's words for a query PyFlink accepts but refuses to run (TableException then)
    _failure: Optional[str] = None

    def _query(self, sql: str, *others: 'Table') -> 'Table':
        """A Flink SQL query over this table (and `others`), by their names in queries."""
        table = self._t_env._translated(sql, (self,) + others)
        table._failure = next((t._failure for t in (self,) + others if t._failure),
                              table._failure)
        return table

    def _check_runs(self) -> None:
        if self._failure is not None:
            from pyflink_on_spark.util.exceptions import TableException
            if self._failure.startswith("org.apache.flink.table.api.ValidationException"):
                # PyFlink: a Py4JJavaError caused by it (a ValueError here, as Flink's
                # ValidationExceptions of the translator are)
                from pyflink_on_spark.table.sql.errors import SqlValidationError
                raise SqlValidationError(self._failure)
            if self._failure.startswith("org.apache.flink."):
                raise TableException(self._failure)
            raise TableException("org.apache.flink.table.api.TableException: %s"
                                 % self._failure)

    def _names(self):
        return column_names(self._resolved_columns())

    def _streaming(self) -> bool:
        return self._t_env._is_streaming()

    def select(self, *fields) -> 'Table':
        fields = [queries.as_expression(f, "select") for f in fields]
        return self._query(queries.select_query(self._name, self._names(), fields))

    def where(self, predicate) -> 'Table':
        from pyflink_on_spark.table.expression import Expression
        if not isinstance(predicate, Expression):
            raise TypeError("where() / filter() take an Expression (col('a') > 1...), got %r"
                            % (predicate,))
        queries.check_reads(predicate, self._names())
        return self._query("SELECT * FROM %s WHERE %s" % (queries.q(self._name),
                                                          predicate.sql))

    def filter(self, predicate) -> 'Table':
        return self.where(predicate)

    def group_by(self, *fields) -> 'GroupedTable':
        return GroupedTable(self, [queries.as_expression(f, "group_by") for f in fields])

    def __getattr__(self, name: str):
        """`table.a`: the column a (PyFlink's Table.__getattr__)."""
        if name.startswith("_"):
            raise AttributeError(name)
        names = self._names()
        if name not in names:
            raise AttributeError("The current table has no column named '%s', available "
                                 "columns: [%s]" % (name, ", ".join(names)))
        from pyflink_on_spark.table.expressions import col
        return col(name)

    def alias(self, field: str, *fields: str) -> 'Table':
        columns = renamed(self._resolved_columns(), (field,) + fields)
        return Table(RenamedTable(self._description, columns), self._t_env, columns)

    def distinct(self) -> 'Table':
        # the columns named: a STREAMING changelog's rewrite (spark/table_changelog.py) keys
        # its groups by the select's items, which a star is not (Spark refused the star)
        return self._query("SELECT DISTINCT %s FROM %s" % (
            ", ".join(queries.q(n) for n in self._names()), queries.q(self._name)))

    def _set_operation(self, right: 'Table', operation: str) -> 'Table':
        left_names, right_names = self._names(), right._names()
        if len(left_names) != len(right_names):
            word = operation.split()[0].lower()
            word = {"except": "minus"}.get(word, word)
            raise queries.SqlValidationError(
                "The %s operation on two tables of different column sizes: %d and %d is not "
                "supported" % (word, len(left_names), len(right_names)))
        if operation != "UNION ALL" and self._streaming():
            raise NotImplementedError(
                "Table.%s in STREAMING mode is not supported by pyflink_on_spark: Flink "
                "plans it as an updating aggregate whose changelog depends on the inputs' "
                "arrival; use BATCH mode (EnvironmentSettings.in_batch_mode())"
                % _SET_METHODS[operation])
        return self._query(queries.set_query(self._name, right._name, operation), right)

    def union_all(self, right: 'Table') -> 'Table':
        return self._set_operation(right, "UNION ALL")

    def union(self, right: 'Table') -> 'Table':
        return self._set_operation(right, "UNION")

    def minus(self, right: 'Table') -> 'Table':
        return self._set_operation(right, "EXCEPT")

    def minus_all(self, right: 'Table') -> 'Table':
        return self._set_operation(right, "EXCEPT ALL")

    def intersect(self, right: 'Table') -> 'Table':
        return self._set_operation(right, "INTERSECT")

    def intersect_all(self, right: 'Table') -> 'Table':
        return self._set_operation(right, "INTERSECT ALL")

    def _join(self, right: 'Table', kind: str, predicate, method: str) -> 'Table':
        if not isinstance(right, Table):
            raise NotImplementedError("Table.%s of %r: pyflink_on_spark joins Tables only "
                                      "(a table function: join_lateral)" % (method, right))
        if kind != "INNER" and self._streaming():
            raise NotImplementedError(
                "Table.%s in STREAMING mode is not supported by pyflink_on_spark: Flink "
                "emits rows padded with NULLs and retracts them (-D) when a match arrives, "
                "in an order that depends on the inputs' arrival; use BATCH mode "
                "(EnvironmentSettings.in_batch_mode()), or join (inner)" % method)
        if predicate is not None:
            predicate = queries.as_expression(predicate, method)
        return self._query(queries.join_query(self._name, self._names(), right._name,
                                              right._names(), kind, predicate), right)

    def join(self, right: 'Table', join_predicate=None) -> 'Table':
        return self._join(right, "INNER", join_predicate, "join")

    def left_outer_join(self, right: 'Table', join_predicate=None) -> 'Table':
        return self._join(right, "LEFT", join_predicate, "left_outer_join")

    def right_outer_join(self, right: 'Table', join_predicate) -> 'Table':
        return self._join(right, "RIGHT", join_predicate, "right_outer_join")

    def full_outer_join(self, right: 'Table', join_predicate) -> 'Table':
        return self._join(right, "FULL", join_predicate, "full_outer_join")

    # sorting: order_by, offset and fetch make one query over the table they sort
    _sort_input: Optional['Table'] = None
    _order = None
    _offset = 0
    _fetch: Optional[int] = None

    def _sorted(self, order, offset: int, fetch: Optional[int]) -> 'Table':
        base = self._sort_input if self._sort_input is not None else self
        if self._streaming() and order and fetch is not None:
            raise NotImplementedError(
                "Table.order_by(...).fetch(n) / limit(n) in STREAMING mode (a Top-N: Flink "
                "emits an updating changelog of the top rows) is not supported by "
                "pyflink_on_spark yet; use BATCH mode (EnvironmentSettings.in_batch_mode())")
        table = base._query(queries.sort_query(base._name, order, offset, fetch))
        table._sort_input, table._order, table._offset, table._fetch = \
            base, order, offset, fetch
        # what PyFlink 1.20.5 refuses only when the query runs (seen), refused then here
        if fetch is None and offset:
            table._failure = "FETCH is missed, which on streaming table is not supported " \
                "currently." if self._streaming() else "Not support limitEnd is max value now!"
        elif self._streaming() and order and fetch is None:
            table._failure = "Sort on a non-time-attribute field is not supported."
        return table

    def order_by(self, *fields) -> 'Table':
        fields = [queries.as_expression(f, "order_by") for f in fields]
        return self._sorted(queries.order_items(self._names(), fields), 0, None)

    def offset(self, offset: int) -> 'Table':
        if offset < 0:
            raise queries.SqlValidationError("Offset should be greater or equal 0.")
        if self._fetch is not None:
            raise queries.SqlValidationError("OFFSET must be applied before FETCH.")
        return self._sorted(self._order, self._offset + offset, None)

    def fetch(self, fetch: int) -> 'Table':
        if fetch < 0:
            raise queries.SqlValidationError("Fetch should be greater or equal 0.")
        if self._fetch is not None:
            raise queries.SqlValidationError("FETCH is already defined.")
        return self._sorted(self._order, self._offset, fetch)

    def limit(self, fetch: int, offset: int = 0) -> 'Table':
        return self.offset(offset).fetch(fetch)

    def add_columns(self, *fields) -> 'Table':
        fields = [queries.as_expression(f, "add_columns") for f in fields]
        return self._query(queries.added_columns_query(self._name, self._names(), fields,
                                                       replace=False))

    def add_or_replace_columns(self, *fields) -> 'Table':
        fields = [queries.as_expression(f, "add_or_replace_columns") for f in fields]
        return self._query(queries.added_columns_query(self._name, self._names(), fields,
                                                       replace=True))

    def rename_columns(self, *fields) -> 'Table':
        fields = [queries.as_expression(f, "rename_columns") for f in fields]
        return self._query(queries.renamed_columns_query(self._name, self._names(), fields))

    def drop_columns(self, *fields) -> 'Table':
        fields = [queries.as_expression(f, "drop_columns") for f in fields]
        return self._query(queries.dropped_columns_query(self._name, self._names(), fields))

    # -- results --------------------------------------------------------------------------------

    def execute(self):
        from pyflink_on_spark.table.table_result import TableResult
        self._check_runs()
        return TableResult(self)

    def _rows(self):
        from pyflink_on_spark.table.table_result import rows_of
        return rows_of(self._t_env._executor().table_rows(self._description))

    def _updates(self) -> bool:
        """Whether its rows are a changelog of updates (a grouping query in STREAMING
        mode)."""
        return self._t_env._executor().table_updates(self._description)

    def to_pandas(self):
        self._check_runs()
        columns = self._resolved_columns()
        frame = self._t_env._executor().table_pandas(self._description, columns)
        from pyflink_on_spark.codecs.nested_values import is_nested, pandas_converter
        for c in columns:
            if is_nested(c.sql_type) and c.name in frame.columns:
                frame[c.name] = frame[c.name].map(pandas_converter(c.sql_type))
        return frame

    def get_field_names(self):
        return column_names(self._resolved_columns())

    def join_lateral(self, table_function_call, join_predicate=None) -> 'Table':
        """Each row joined with the rows a table function (pyflink.table.udf.udtf) gives for
        it: LATERAL TABLE in SQL (table/sql/udf_calls.py)."""
        return self._lateral(table_function_call, join_predicate, "join_lateral")

    def left_outer_join_lateral(self, table_function_call, join_predicate=None) -> 'Table':
        """join_lateral keeping a row the function gives no rows for (NULL columns)."""
        return self._lateral(table_function_call, join_predicate, "left_outer_join_lateral")

    def _lateral(self, call, predicate, method: str) -> 'Table':
        from pyflink_on_spark.table.expression import Expression
        aliases = call.udtf_aliases if isinstance(call, Expression) else None
        if aliases is None and getattr(call, "kind", None) == "table" and \
                hasattr(call, "takes_rows_of"):
            # a table function not called (join_lateral(split.alias('a')), PyFlink's
            # basic_operations example): each row goes to it as one Row, as in flat_map
            from pyflink_on_spark.table.expressions import col
            names = self._names()
            call = call.takes_rows_of(names)(*[col(n) for n in names])
            aliases = call.udtf_aliases
        if aliases is None:
            raise TypeError("Table.%s takes a table function's call (a udtf called on "
                            "expressions), got %r" % (method, call))
        queries.check_reads(call, self._names())
        alias = " AS lateral_table(%s)" % ", ".join(queries.q(a) for a in aliases) \
            if aliases else ""
        if method == "join_lateral":
            sql = "SELECT * FROM %s, LATERAL TABLE(%s)%s" % (queries.q(self._name), call.sql,
                                                              alias)
            if predicate is not None:
                predicate = queries.as_expression(predicate, method)
                sql = "SELECT * FROM (%s) WHERE %s" % (sql, predicate.sql)
            return self._query(sql)
        if predicate is not None:
            raise NotImplementedError("Table.left_outer_join_lateral with a join predicate is "
                                      "not supported by pyflink_on_spark yet")
        return self._query("SELECT * FROM %s LEFT JOIN LATERAL TABLE(%s)%s ON TRUE"
                           % (queries.q(self._name), call.sql, alias))
    def window(self, window):
        """A group window (pyflink.table.window Tumble / Slide / Session): run as Flink
        SQL's group window query (table/window_tables.py)."""
        from pyflink_on_spark.table.window_tables import GroupWindowedTable
        return GroupWindowedTable(self, window)

    def over_window(self, *over_windows):
        """Over windows (pyflink.table.window Over ... .alias('w')) for a select of aggregates
        `.over(col('w'))`: run as Flink SQL's OVER windows (table/over_window_tables.py)."""
        from pyflink_on_spark.table.over_window_tables import OverWindowedTable
        return OverWindowedTable(self, over_windows)

    def map(self, func) -> 'Table':
        """Each row to one row by a scalar function (pyflink.table.udf.udf), called on
        expressions or taking each row as one Row: a ROW result's fields are the columns,
        another result the column f0 (table/map_tables.py)."""
        from pyflink_on_spark.table.map_tables import is_builtin, map_call
        if is_builtin(func):
            queries.check_reads(func, self._names())
            # (the shim's tables have no ROW columns, whose fields PyFlink would give)
            return self._query("SELECT %s AS f0 FROM %s" % (func.sql, queries.q(self._name)))
        return self._lateral_columns(*map_call(func, self._names()))

    def flat_map(self, func) -> 'Table':
        """The rows a table function (pyflink.table.udf.udtf) gives for each row, called on
        expressions or taking each row as one Row; the function's columns only (f0, f1...
        unless aliased)."""
        from pyflink_on_spark.table.expression import Expression
        from pyflink_on_spark.table.expressions import col
        if isinstance(func, Expression):
            if func.udf_call is None or func.udf_call[0].kind != "table":
                # seen on PyFlink 1.20.5, for a table function's call renamed by alias too
                from pyflink_on_spark.table.sql.errors import SqlValidationError
                raise SqlValidationError(
                    "org.apache.flink.table.api.ValidationException: Only a table function "
                    "can be used in the flatMap operator.")
            call = func
            outputs = call.udtf_aliases or tuple(
                "f%d" % i for i in range(len(call.udf_call[0].result_types())))
        elif getattr(func, "kind", None) == "table":
            names = self._names()
            call = func.takes_rows_of(names)(*[col(n) for n in names])
            outputs = call.udtf_aliases or tuple(
                "f%d" % i for i in range(len(func.result_types())))
        else:
            raise NotImplementedError("Table.flat_map of %r: pyflink_on_spark takes a table "
                                      "function (udtf) here" % (func,))
        return self._lateral_columns(call, outputs)

    def _lateral_columns(self, call, outputs) -> 'Table':
        """The columns `outputs` of a table function's call on each row, only."""
        queries.check_reads(call, self._names())
        return self._query("SELECT %s FROM %s, LATERAL TABLE(%s) AS lateral_table(%s)" % (
            ", ".join("lateral_table.%s" % queries.q(n) for n in outputs),
            queries.q(self._name), call.sql, ", ".join(queries.q(n) for n in outputs)))

    def aggregate(self, func) -> 'AggregatedTable':
        """One group of all rows, aggregated by `func` (a udaf's call: its ROW result's
        fields are the columns); close it with select() (table/aggregated_tables.py)."""
        return AggregatedTable(self, [], func)

    def flat_aggregate(self, func) -> 'FlatAggregateTable':
        """One group of all rows, its rows those a table aggregate function (a udtaf's
        call) emits; close it with select() (table/aggregated_tables.py)."""
        return FlatAggregateTable(self, [], func)

    def execute_insert(self, table_path_or_descriptor, overwrite: bool = False):
        self._check_runs()
        from pyflink_on_spark.table.table_sinks import any_insert, run_inserts
        return run_inserts(self._t_env, [any_insert(self._t_env, table_path_or_descriptor,
                                                    self, overwrite)])

    def explain(self, *extra_details) -> str:
        """The shim's plan of this table as text (table/explain.py): the Flink SQL, the
        Spark SQL and Spark's plan; Flink's own plans are not reproduced."""
        from pyflink_on_spark.table.explain import explain_tables
        return explain_tables(self._t_env, [("", self._description)], extra_details)


_SET_METHODS = {"UNION": "union", "UNION ALL": "union_all", "EXCEPT": "minus",
                "EXCEPT ALL": "minus_all", "INTERSECT": "intersect",
                "INTERSECT ALL": "intersect_all"}


class GroupedTable(object):
    """A table grouped by keys (Table.group_by): select() with aggregate calls gives one row
    per group (in STREAMING mode, Flink's changelog of updates, as the SQL GROUP BY)."""

    def __init__(self, table: Table, keys) -> None:
        self._table = table
        self._keys = keys

    def select(self, *fields) -> Table:
        fields = [queries.as_expression(f, "select") for f in fields]
        return self._table._query(queries.select_query(
            self._table._name, self._table._names(), fields, self._keys))

    def aggregate(self, func) -> 'AggregatedTable':
        """Each group aggregated by `func` (a udaf's call: its ROW result's fields are the
        columns, after the keys); close it with select() (table/aggregated_tables.py)."""
        return AggregatedTable(self._table, self._keys, func)

    def flat_aggregate(self, func) -> 'FlatAggregateTable':
        """Each group's rows those a table aggregate function (a udtaf's call) emits,
        after the keys; close it with select() (table/aggregated_tables.py)."""
        return FlatAggregateTable(self._table, self._keys, func)


class AggregatedTable(object):
    """Table.aggregate / GroupedTable.aggregate: a grouping query whose select() names its
    columns (as PyFlink's, its checks run at select())."""

    def __init__(self, table: Table, keys, func) -> None:
        self._table = table
        self._keys = keys
        self._func = func

    _method = "aggregate"

    def select(self, *fields) -> Table:
        from pyflink_on_spark.table.aggregated_tables import aggregate_query
        return self._table._query(aggregate_query(
            self._table._name, self._table._names(), self._keys, self._func, fields,
            self._method))


class FlatAggregateTable(AggregatedTable):
    """Table.flat_aggregate / GroupedTable.flat_aggregate, closed by select()."""

    _method = "flat_aggregate"

    def select(self, *fields) -> Table:
        table = super().select(*fields)
        if not table._streaming():
            # seen on PyFlink 1.20.5: accepted, and running it fails so (its plan, a
            # LogicalTableAggregate, left out here)
            table._failure = (
                "org.apache.flink.table.api.TableException: Cannot generate a valid "
                "execution plan for the given query: \n\nThis exception indicates that the "
                "query uses an unsupported SQL feature.\nPlease check the documentation for "
                "the set of currently supported SQL features.")
        return table
