"""CSV formats (mirror of pyflink.datastream.formats.csv): a FileSource reader format (files
decoded as Flink's Jackson-based reader does: codecs/formats/csv.py), a FileSink bulk writer,
and row (de)serialization schemas. The quoting and number formats follow Flink's
Jackson-based writers."""
from __future__ import annotations

from typing import List, Optional, TYPE_CHECKING

from pyflink_on_spark.common.serialization import (BulkWriterFactory, DeserializationSchema,
                                                   RowDataBulkWriterFactory,
                                                   SerializationSchema)
from pyflink_on_spark.common.typeinfo import TypeInformation
from pyflink_on_spark.datastream.connectors.file_system import StreamFormat
from pyflink_on_spark.codecs.formats.csv import (CsvDialect, CsvFileFormat, CsvRowWriter,
                                                parse_value, split_line)
from pyflink_on_spark.codecs.formats.fields import from_data_type, from_type_info

if TYPE_CHECKING:
    from pyflink_on_spark.table.types import DataType, RowType, NumericType

__all__ = [
    'CsvSchema',
    'CsvSchemaBuilder',
    'CsvReaderFormat',
    'CsvBulkWriters',
    'CsvRowDeserializationSchema',
    'CsvRowSerializationSchema'
]


class CsvSchema(object):
    """The columns and settings of a CSV file (Jackson's CsvSchema)."""

    def __init__(self, j_schema, row_type: 'RowType'):
        # j_schema: (CsvDialect, [(name, jackson column type, array separator)], any-property)
        self._j_schema = j_schema
        self._row_type = row_type
        self._type_info = None

    @staticmethod
    def builder() -> 'CsvSchemaBuilder':
        return CsvSchemaBuilder()

    def size(self):
        return len(self._j_schema[1])

    def __len__(self):
        return self.size()

    def __str__(self):
        dialect, columns, any_property = self._j_schema
        return ('[CsvSchema: columns=[%s], header? %s, skipFirst? %s, comments? %s, '
                'any-properties? %s]' % (
                    ",".join('"%s"/%s' % (name, kind) for name, kind, _ in columns),
                    str(dialect.use_header).lower(), str(dialect.skip_first_data_row).lower(),
                    str(dialect.allow_comments).lower(),
                    "N/A" if any_property is None else '"%s"' % any_property))

    def __repr__(self):
        return str(self)

    def _fields(self):
        separators = [sep for _, _, sep in self._j_schema[1]]
        return [from_data_type(f.data_type, sep) for f, sep in zip(self._row_type, separators)]


class CsvSchemaBuilder(object):
    """Builds a CsvSchema (Jackson's CsvSchema.Builder)."""

    def __init__(self):
        self._dialect = CsvDialect()
        self._columns = []          # (name, jackson column type, array separator or None)
        self._fields = []
        self._any_property = None

    def build(self) -> 'CsvSchema':
        from pyflink_on_spark.table.types import DataTypes
        import copy
        return CsvSchema((copy.copy(self._dialect), list(self._columns), self._any_property),
                         DataTypes.ROW(list(self._fields)))

    def _add(self, name: str, kind: str, data_type, separator=None) -> 'CsvSchemaBuilder':
        from pyflink_on_spark.table.types import DataTypes
        self._columns.append((name, kind, separator))
        self._fields.append(DataTypes.FIELD(name, data_type))
        return self

    def add_array_column(self, name: str, separator: str = ';',
                         element_type: Optional['DataType'] = None) -> 'CsvSchemaBuilder':
        from pyflink_on_spark.table.types import DataTypes
        if element_type is None:
            element_type = DataTypes.STRING()
        return self._add(name, "ARRAY", DataTypes.ARRAY(element_type), separator)

    def add_boolean_column(self, name: str) -> 'CsvSchemaBuilder':
        from pyflink_on_spark.table.types import DataTypes
        return self._add(name, "BOOLEAN", DataTypes.BOOLEAN())

    def add_number_column(self, name: str,
                          number_type: Optional['NumericType'] = None) -> 'CsvSchemaBuilder':
        from pyflink_on_spark.table.types import DataTypes
        if number_type is None:
            number_type = DataTypes.BIGINT()
        return self._add(name, "NUMBER", number_type)

    def add_string_column(self, name: str) -> 'CsvSchemaBuilder':
        from pyflink_on_spark.table.types import DataTypes
        return self._add(name, "STRING", DataTypes.STRING())

    def add_columns_from(self, schema: 'CsvSchema') -> 'CsvSchemaBuilder':
        self._columns.extend(schema._j_schema[1])
        for field in schema._row_type:
            self._fields.append(field)
        return self

    def clear_columns(self):
        self._columns.clear()
        self._fields.clear()
        return self

    def set_allow_comments(self, allow: bool = True):
        self._dialect.allow_comments = allow
        return self

    def set_any_property_name(self, name: str):
        self._any_property = name
        return self

    def disable_array_element_separator(self):
        self._dialect.array_separator = ""
        return self

    def remove_array_element_separator(self, index: int):
        name, kind, _ = self._columns[index]
        self._columns[index] = (name, kind, "")
        return self

    def set_array_element_separator(self, separator: str):
        self._dialect.array_separator = separator
        return self

    def set_column_separator(self, char: str):
        if len(char) != 1:
            raise ValueError('Column separator must be a single char, got {}'.format(char))
        self._dialect.column_separator = char
        return self

    def disable_escape_char(self):
        self._dialect.escape_char = None
        return self

    def set_escape_char(self, char: str):
        if len(char) != 1:
            raise ValueError('Escape char must be a single char, got {}'.format(char))
        self._dialect.escape_char = char
        return self

    def set_line_separator(self, separator: str):
        self._dialect.line_separator = separator
        return self

    def set_null_value(self, null_value: str):
        self._dialect.null_value = null_value
        return self

    def disable_quote_char(self):
        self._dialect.quote_char = None
        return self

    def set_quote_char(self, char: str):
        if len(char) != 1:
            raise ValueError('Quote char must be a single char, got {}'.format(char))
        self._dialect.quote_char = char
        return self

    def set_skip_first_data_row(self, skip: bool = True):
        self._dialect.skip_first_data_row = skip
        return self

    def set_strict_headers(self, strict: bool = True):
        self._strict_headers = strict   # accepted: Spark's reader does not check header names
        return self

    def set_use_header(self, use: bool = True):
        self._dialect.use_header = use
        return self

    def size(self):
        return len(self._fields)

    def __len__(self):
        return self.size()


class CsvReaderFormat(StreamFormat):
    """Reads CSV files into rows of the schema's columns (a Python function receives a Row
    with the column names)."""

    def __init__(self, j_csv_format):
        super().__init__(j_csv_format)

    @staticmethod
    def for_schema(schema: 'CsvSchema') -> 'CsvReaderFormat':
        from pyflink_on_spark.datastream.formats._row_data import type_info_of
        return CsvReaderFormat(CsvFileFormat(
            schema._j_schema[0], [name for name, _, _ in schema._j_schema[1]], schema._fields(),
            type_info_of(schema._row_type)))


class CsvBulkWriters(object):
    """BulkWriterFactory writing Rows as CSV lines with the schema's settings."""

    @staticmethod
    def for_schema(schema: 'CsvSchema') -> 'BulkWriterFactory':
        from pyflink_on_spark.codecs.files.writers import CsvBulkFormat
        return RowDataBulkWriterFactory(CsvBulkFormat(schema._fields(), schema._j_schema[0]),
                                        schema._row_type)


def _row_fields(type_info: TypeInformation):
    field = from_type_info(type_info)
    if field.kind != "row":
        raise ValueError("The CSV row schemas need a ROW type information, got %r"
                         % (type_info,))
    return field


class CsvRowDeserializationSchema(DeserializationSchema):
    """CSV bytes (one record) -> Row of the type information."""

    def __init__(self, j_deserialization_schema):
        super(CsvRowDeserializationSchema, self).__init__(
            j_deserialization_schema=j_deserialization_schema)

    def _deserialize(self, message: bytes):
        """As Flink's CsvRowDeserializationSchema (PyFlink 1.20.5): a record that does not
        parse fails the job, with ignore_parse_errors it is skipped (no content, more
        columns than fields) or read as far as it goes: a field that does not convert, or a
        missing column, is None."""
        type_info, dialect, ignore_errors = self._j_deserialization_schema
        from pyflink_on_spark.common.types import _create_row
        field = _row_fields(type_info)
        width = len(field.fields)
        try:
            text = message.decode("utf-8").rstrip("\r\n")
            if not text:
                raise ValueError("No content to map due to end-of-input")
            values = split_line(text, dialect)
            if len(values) > width or (len(values) < width and not ignore_errors):
                raise ValueError("Row length mismatch. %d fields expected but was %d."
                                 % (width, len(values)))
            parsed = []
            for n, (f, name) in enumerate(zip(field.fields, field.names)):
                if n >= len(values):
                    parsed.append(None)
                    continue
                try:
                    parsed.append(parse_value(values[n], f, dialect, name))
                except ValueError:
                    if not ignore_errors:
                        raise
                    parsed.append(None)
            return _create_row(list(field.names), parsed)
        except ValueError as e:
            if ignore_errors:
                return None
            raise IOError("Failed to deserialize CSV row '%s'. %s"
                          % (message.decode("utf-8", "replace"), e)) from None

    class Builder(object):
        """A builder for creating a CsvRowDeserializationSchema."""

        def __init__(self, type_info: TypeInformation):
            if type_info is None:
                raise TypeError("Type information must not be None")
            _row_fields(type_info)
            self._type_info = type_info
            self._dialect = CsvDialect()
            self._ignore_parse_errors = False

        def set_field_delimiter(self, delimiter: str):
            self._dialect.column_separator = delimiter
            return self

        def set_allow_comments(self, allow_comments: bool):
            self._dialect.allow_comments = allow_comments
            return self

        def set_array_element_delimiter(self, delimiter: str):
            self._dialect.array_separator = delimiter
            return self

        def set_quote_character(self, c: str):
            self._dialect.quote_char = c
            return self

        def set_escape_character(self, c: str):
            self._dialect.escape_char = c
            return self

        def set_null_literal(self, null_literal: str):
            self._dialect.null_value = null_literal
            return self

        def set_ignore_parse_errors(self, ignore_parse_errors: bool):
            self._ignore_parse_errors = ignore_parse_errors
            return self

        def build(self):
            import copy
            return CsvRowDeserializationSchema(
                j_deserialization_schema=(self._type_info, copy.copy(self._dialect),
                                          self._ignore_parse_errors))


class CsvRowSerializationSchema(SerializationSchema):
    """Row -> CSV bytes (one line, ending with the line delimiter)."""

    def __init__(self, j_csv_row_serialization_schema):
        super(CsvRowSerializationSchema, self).__init__(j_csv_row_serialization_schema)

    def _serialize(self, value) -> bytes:
        type_info, dialect = self._j_serialization_schema
        convert = type_info._python_converter()
        if convert is not None:
            value = convert(value)
        return CsvRowWriter(_row_fields(type_info).fields, dialect).line(value).encode("utf-8")

    class Builder(object):
        """A builder for creating a CsvRowSerializationSchema."""

        def __init__(self, type_info: TypeInformation):
            if type_info is None:
                raise TypeError("Type information must not be None")
            _row_fields(type_info)
            self._type_info = type_info
            self._dialect = CsvDialect()

        def set_field_delimiter(self, c: str):
            self._dialect.column_separator = c
            return self

        def set_line_delimiter(self, delimiter: str):
            self._dialect.line_separator = delimiter
            return self

        def set_array_element_delimiter(self, delimiter: str):
            self._dialect.array_separator = delimiter
            return self

        def disable_quote_character(self):
            self._dialect.quote_char = None
            return self

        def set_quote_character(self, c: str):
            self._dialect.quote_char = c
            return self

        def set_escape_character(self, c: str):
            self._dialect.escape_char = c
            return self

        def set_null_literal(self, s: str):
            self._dialect.null_value = s
            return self

        def build(self):
            import copy
            return CsvRowSerializationSchema(
                j_csv_row_serialization_schema=(self._type_info, copy.copy(self._dialect)))
