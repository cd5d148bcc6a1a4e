"""Schema (a table's declared columns: from_data_stream's schema, a TableDescriptor's) and
TableSchema (what Table.get_schema() returns)."""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple, Union

from pyflink_on_spark.specs.tables import TableColumn

__all__ = ['Schema', 'TableSchema']


class Schema(object):
    """Schema.new_builder().column(...).column_by_expression(...).watermark(...)
    .primary_key(...).build(). Declarations only: what runs of them is in docs/table.md."""

    class Builder(object):

        def __init__(self) -> None:
            self._columns: List[tuple] = []           # ("physical", name, DataType) / ...
            self._watermarks: List[Tuple[str, str]] = []
            self._primary_key: Optional[Tuple[Optional[str], Tuple[str, ...]]] = None

        def from_schema(self, unresolved_schema: 'Schema') -> 'Schema.Builder':
            self._columns.extend(unresolved_schema._columns)
            self._watermarks.extend(unresolved_schema._watermarks)
            if unresolved_schema._primary_key is not None:
                self._primary_key = unresolved_schema._primary_key
            return self

        def from_row_data_type(self, data_type) -> 'Schema.Builder':
            for name, field_type in zip(data_type.field_names(), data_type.field_types()):
                self.column(name, field_type)
            return self

        def from_fields(self, field_names: List[str], field_data_types: List) \
                -> 'Schema.Builder':
            for name, data_type in zip(field_names, field_data_types):
                self.column(name, data_type)
            return self

        def column(self, column_name: str, data_type) -> 'Schema.Builder':
            if isinstance(data_type, str):
                self._columns.append(("sql", column_name, data_type))
            else:
                self._columns.append(("physical", column_name, data_type))
            return self

        def column_by_expression(self, column_name: str, expr) -> 'Schema.Builder':
            self._columns.append(("computed", column_name, str(expr)))
            return self

        def column_by_metadata(self, column_name: str, data_type, metadata_key: str = None,
                               is_virtual: bool = False) -> 'Schema.Builder':
            self._columns.append(("metadata", column_name, (data_type, metadata_key,
                                                            is_virtual)))
            return self

        def watermark(self, column_name: str, watermark_expr) -> 'Schema.Builder':
            self._watermarks.append((column_name, str(watermark_expr)))
            return self

        def primary_key(self, *column_names: str) -> 'Schema.Builder':
            self._primary_key = (None, tuple(column_names))
            return self

        def primary_key_named(self, constraint_name: str, *column_names: str) \
                -> 'Schema.Builder':
            self._primary_key = (constraint_name, tuple(column_names))
            return self

        def build(self) -> 'Schema':
            return Schema(tuple(self._columns), tuple(self._watermarks), self._primary_key)

    def __init__(self, columns=(), watermarks=(), primary_key=None) -> None:
        self._columns = tuple(columns)
        self._watermarks = tuple(watermarks)
        self._primary_key = primary_key

    @staticmethod
    def new_builder() -> 'Schema.Builder':
        return Schema.Builder()

    def _ddl_lines(self) -> List[str]:
        """The schema as the column lines of a CREATE TABLE statement."""
        from pyflink_on_spark.table.columns import data_type_column
        lines = []
        for kind, name, detail in self._columns:
            if kind == "physical":
                lines.append(data_type_column(name, detail).text())
            elif kind == "sql":
                lines.append("`%s` %s" % (name, detail))
            elif kind == "computed":
                lines.append("`%s` AS %s" % (name, detail))
            else:
                data_type, key, virtual = detail
                lines.append("`%s` %s METADATA%s%s" % (
                    name, data_type if isinstance(data_type, str)
                    else data_type_column(name, data_type).text().split(" ", 1)[1],
                    " FROM '%s'" % key if key else "", " VIRTUAL" if virtual else ""))
        for column, expr in self._watermarks:
            lines.append("WATERMARK FOR `%s` AS %s" % (column, expr))
        if self._primary_key is not None:
            constraint, columns = self._primary_key
            lines.append("%sPRIMARY KEY (%s) NOT ENFORCED" % (
                "CONSTRAINT `%s` " % constraint if constraint else "",
                ", ".join("`%s`" % c for c in columns)))
        return lines

    def __str__(self) -> str:
        lines = []
        for kind, name, detail in self._columns:
            if kind == "physical":
                from pyflink_on_spark.table.columns import data_type_column
                lines.append(data_type_column(name, detail).text())
            elif kind == "computed":
                lines.append("`%s` AS [%s]" % (name, detail))
            else:
                lines.append("`%s` %s" % (name, detail if kind == "sql" else detail[0]))
        for column, expr in self._watermarks:
            lines.append("WATERMARK FOR `%s` AS [%s]" % (column, expr))
        return "(\n" + ",\n".join("  " + line for line in lines) + "\n)"


class TableSchema(object):
    """A table's columns (Table.get_schema(), TableResult.get_table_schema())."""

    def __init__(self, field_names: Sequence[str] = None, data_types: Sequence = None,
                 columns: Sequence[TableColumn] = None) -> None:
        if columns is None:
            from pyflink_on_spark.table.columns import data_type_column
            columns = [data_type_column(n, t) for n, t in zip(field_names or (),
                                                              data_types or ())]
        self._columns = tuple(columns)

    def copy(self) -> 'TableSchema':
        return TableSchema(columns=self._columns)

    def get_field_data_types(self) -> List:
        return [_data_type(c) for c in self._columns]

    def get_field_data_type(self, field: Union[int, str]):
        """The field's DataType by index or name; None when there is no such field."""
        if not isinstance(field, (int, str)):
            raise TypeError("Expected field index or field name, got %s" % type(field))
        if isinstance(field, int):
            found = self._columns[field] if 0 <= field < len(self._columns) else None
        else:
            found = next((c for c in self._columns if c.name == field), None)
        return None if found is None else _data_type(found)

    def to_row_data_type(self):
        from pyflink_on_spark.table.types import DataTypes
        return DataTypes.ROW([DataTypes.FIELD(c.name, _data_type(c)) for c in self._columns],
                             False)

    @classmethod
    def builder(cls) -> 'TableSchema.Builder':
        return TableSchema.Builder()

    class Builder(object):
        """Fields in the order they are added (PyFlink's TableSchema.Builder)."""

        def __init__(self) -> None:
            self._field_names: List[str] = []
            self._field_data_types: List = []

        def field(self, name: str, data_type) -> 'TableSchema.Builder':
            assert name is not None
            assert data_type is not None
            self._field_names.append(name)
            self._field_data_types.append(data_type)
            return self

        def build(self) -> 'TableSchema':
            return TableSchema(self._field_names, self._field_data_types)

    def get_field_names(self) -> List[str]:
        return [c.name for c in self._columns]

    def get_field_count(self) -> int:
        return len(self._columns)

    def get_field_name(self, field_index: int) -> Optional[str]:
        if 0 <= field_index < len(self._columns):
            return self._columns[field_index].name
        return None

    def __str__(self) -> str:
        # as PyFlink 1.20.5 prints a TableSchema: expressions resolved, identifiers quoted
        from pyflink_on_spark.table.stream_schema import resolved_expression
        names = self.get_field_names()
        lines = []
        for c in self._columns:
            lines.append(" |-- %s: %s%s" % (
                c.name, c.type_text(),
                " AS " + resolved_expression(c.expression, names) if c.expression else ""))
        lines.extend(" |-- WATERMARK FOR %s: %s AS %s" % (
            c.name, c.sql_type, resolved_expression(c.watermark, names))
            for c in self._columns if c.watermark is not None and c.watermark_shown)
        return "root\n" + "".join(line + "\n" for line in lines)

    def __repr__(self) -> str:
        return str(self)

    def __eq__(self, other) -> bool:
        return isinstance(other, TableSchema) and self._columns == other._columns

    def __hash__(self) -> int:
        return hash(self._columns)


def _data_type(column: TableColumn):
    """A column's DataType, nullability included (what PyFlink converts Flink's to)."""
    from pyflink_on_spark.table.sql.flink_types import parse_type
    return parse_type(column.sql_type + ("" if column.nullable else " NOT NULL"))
