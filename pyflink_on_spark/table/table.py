"""Table: a frozen description of a table (specs/tables.py: its inputs and its query) and the
environment it belongs to. Relational methods return new Tables; nothing runs until a result
is asked for (execute(), to_pandas(), a job reading it through to_data_stream)."""
from __future__ import annotations

import itertools
from typing import Optional, Tuple

from pyflink_on_spark.specs.tables import RenamedTable, TableColumn
from pyflink_on_spark.table.columns import column_names, renamed, schema_text

__all__ = ['Table', 'GroupedTable']

_names = itertools.count(1)


def _unsupported(method: str):
    def refuse(self, *args, **kwargs):
        raise NotImplementedError(
            "Table.%s is not supported by pyflink_on_spark yet: use sql_query over a "
            "temporary view (docs/table.md lists what runs)" % method)
    refuse.__name__ = method
    return refuse


def _select_item(field, position: int) -> str:
    from pyflink_on_spark.table.expression import Expression
    if isinstance(field, str):
        from pyflink_on_spark.table.expressions import col
        field = col(field)
    if not isinstance(field, Expression):
        raise TypeError("select() takes Expressions (col('a'), lit(1)...), got %r" % (field,))
    if field.name is not None:
        return field.sql
    return "%s AS `_c%d`" % (field.sql, position)


def _predicate(predicate) -> str:
    from pyflink_on_spark.table.expression import Expression
    if isinstance(predicate, Expression):
        return predicate.sql
    raise TypeError("where() / filter() take an Expression (col('a') > 1...), got %r"
                    % (predicate,))


class Table(object):
    """Made by a TableEnvironment (from_data_stream, from_pandas, sql_query, from_path)."""

    def __init__(self, description, t_env,
                 columns: Optional[Tuple[TableColumn, ...]] = None) -> None:
        self._description = description
        self._t_env = t_env
        self._columns = columns
        self._name = "_pyflink_table_%d" % next(_names)   # its name in queries over it

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

    def _query(self, sql: str, *others: 'Table') -> 'Table':
        """A Flink SQL query over this table (and `others`), by their names in queries."""
        return self._t_env._translated(sql, (self,) + others)

    def select(self, *fields) -> 'Table':
        items = ", ".join(_select_item(f, i) for i, f in enumerate(fields))
        return self._query("SELECT %s FROM `%s`" % (items, self._name))

    def where(self, predicate) -> 'Table':
        return self._query("SELECT * FROM `%s` WHERE %s" % (self._name, _predicate(predicate)))

    def filter(self, predicate) -> 'Table':
        return self.where(predicate)

    def alias(self, field: str, *fields: str) -> 'Table':
        columns = renamed(self._resolved_columns(), (field,) + fields)
        return Table(RenamedTable(self._description, columns), self._t_env, columns)

    def distinct(self) -> 'Table':
        return self._query("SELECT DISTINCT * FROM `%s`" % self._name)

    def union_all(self, right: 'Table') -> 'Table':
        return self._query("SELECT * FROM `%s` UNION ALL SELECT * FROM `%s`"
                           % (self._name, right._name), right)

    # -- results --------------------------------------------------------------------------------

    def execute(self):
        from pyflink_on_spark.table.table_result import TableResult
        return TableResult(self)

    def _rows(self):
        from pyflink_on_spark.table.table_result import rows_of
        return rows_of(self._t_env._executor().table_rows(self._description))

    def _updates(self) -> bool:
        """Whether its rows are a changelog of updates (a grouping query in STREAMING
        mode)."""
        return self._t_env._executor().table_updates(self._description)

    def to_pandas(self):
        return self._t_env._executor().table_pandas(self._description,
                                                    self._resolved_columns())

    def get_field_names(self):
        return column_names(self._resolved_columns())

    group_by = _unsupported("group_by")
    join = _unsupported("join")
    left_outer_join = _unsupported("left_outer_join")
    right_outer_join = _unsupported("right_outer_join")
    full_outer_join = _unsupported("full_outer_join")
    join_lateral = _unsupported("join_lateral")
    left_outer_join_lateral = _unsupported("left_outer_join_lateral")
    minus = _unsupported("minus")
    minus_all = _unsupported("minus_all")
    union = _unsupported("union")
    intersect = _unsupported("intersect")
    intersect_all = _unsupported("intersect_all")
    order_by = _unsupported("order_by")
    offset = _unsupported("offset")
    fetch = _unsupported("fetch")
    limit = _unsupported("limit")
    window = _unsupported("window")
    over_window = _unsupported("over_window")
    add_columns = _unsupported("add_columns")
    add_or_replace_columns = _unsupported("add_or_replace_columns")
    rename_columns = _unsupported("rename_columns")
    drop_columns = _unsupported("drop_columns")
    map = _unsupported("map")
    flat_map = _unsupported("flat_map")
    aggregate = _unsupported("aggregate")
    flat_aggregate = _unsupported("flat_aggregate")

    def execute_insert(self, table_path_or_descriptor, overwrite: bool = False):
        from pyflink_on_spark.table.table_sinks import run_inserts, table_insert
        if not isinstance(table_path_or_descriptor, str):
            raise NotImplementedError("execute_insert(TableDescriptor) is not supported by "
                                      "pyflink_on_spark yet: create_temporary_table first")
        return run_inserts(self._t_env, [table_insert(self._t_env, table_path_or_descriptor,
                                                      self, overwrite)])

    explain = _unsupported("explain")


class GroupedTable(object):
    """Table.group_by is not supported yet: this class exists for imports."""

    def __init__(self, *args, **kwargs) -> None:
        raise NotImplementedError("Table.group_by / GroupedTable is not supported by "
                                  "pyflink_on_spark yet: use sql_query with GROUP BY")
