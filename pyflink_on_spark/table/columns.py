"""A table's columns as Flink's planner derives them: from a DataStream's type information
(from_data_stream), from DataTypes (a Schema, from_pandas), from pandas dtypes. Every rule
here was seen on PyFlink 1.20.5 (docs/table.md)."""
from __future__ import annotations

from dataclasses import replace
from typing import List, Optional, Sequence, Tuple

from pyflink_on_spark.common.typeinfo import RowTypeInfo, TupleTypeInfo, Types
from pyflink_on_spark.specs.tables import RECORD_ATOMIC, RECORD_FIELDS, TableColumn
from pyflink_on_spark.table import types as dt

# basic type information -> (Flink SQL type, Java primitive: NOT NULL in a tuple or alone)
_BASIC = (
    (Types.STRING(), "STRING", False),
    (Types.BOOLEAN(), "BOOLEAN", True),
    (Types.BYTE(), "TINYINT", True),
    (Types.SHORT(), "SMALLINT", True),
    (Types.INT(), "INT", True),
    (Types.LONG(), "BIGINT", True),
    (Types.FLOAT(), "FLOAT", True),
    (Types.DOUBLE(), "DOUBLE", True),
    # objects in Java, so nullable wherever they are (seen: a tuple's Instant field)
    (Types.INSTANT(), "TIMESTAMP_LTZ(9)", False),
    (Types.SQL_TIMESTAMP(), "TIMESTAMP(9)", False),
    (Types.SQL_DATE(), "DATE", False),
    (Types.BIG_DEC(), "DECIMAL(38, 18)", False),
    (Types.PRIMITIVE_ARRAY(Types.BYTE()), "BYTES", False),
)


def _basic(type_info) -> Optional[Tuple[str, bool]]:
    for info, sql_type, primitive in _BASIC:
        if type_info == info:
            return sql_type, primitive
    return None


def _unsupported_type(type_info) -> NotImplementedError:
    return NotImplementedError(
        "from_data_stream: a column of type %s is not supported by pyflink_on_spark's Table "
        "API (supported: STRING, BOOLEAN, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, INSTANT, "
        "SQL_TIMESTAMP, SQL_DATE, BIG_DEC, PRIMITIVE_ARRAY(BYTE), and LIST, BASIC_ARRAY, "
        "PRIMITIVE_ARRAY, MAP and ROW of them, fields of a tuple or Row, or such a value "
        "alone; docs/table.md)" % (type_info,))


def _field_type(type_info) -> Optional[Tuple[str, bool]]:
    """(Flink SQL type, NOT NULL) of a field's type information, as Flink converts it (seen
    on PyFlink 1.20.5): a Java primitive NOT NULL, a String or time nullable; LIST(e)
    ARRAY<e as converted>, PRIMITIVE_ARRAY(e) ARRAY<e NOT NULL>, BASIC_ARRAY(e) ARRAY<e>
    (boxed: nullable), MAP(k, v) MAP<k as converted, v nullable>, ROW ROW<fields nullable>,
    each of these NOT NULL itself (so in a tuple, or alone; a Row's fields are nullable)."""
    from pyflink_on_spark.common.typeinfo import (
        BasicArrayTypeInfo, ListTypeInfo, MapTypeInfo, PrimitiveArrayTypeInfo)
    basic = _basic(type_info)
    if basic is not None:
        return basic
    if isinstance(type_info, (ListTypeInfo, PrimitiveArrayTypeInfo, BasicArrayTypeInfo)):
        element = _field_type(type_info.elem_type if isinstance(type_info, ListTypeInfo)
                              else type_info._element_type)
        if element is None:
            return None
        not_null = element[1] if isinstance(type_info, ListTypeInfo) else \
            isinstance(type_info, PrimitiveArrayTypeInfo)
        return "ARRAY<%s%s>" % (element[0], " NOT NULL" if not_null else ""), True
    if isinstance(type_info, MapTypeInfo):
        key, value = _field_type(type_info._key_type_info), \
            _field_type(type_info._value_type_info)
        if key is None or value is None:
            return None
        return "MAP<%s%s, %s>" % (key[0], " NOT NULL" if key[1] else "", value[0]), True
    if isinstance(type_info, RowTypeInfo):
        fields = [_field_type(f) for f in type_info.get_field_types()]
        if any(f is None for f in fields):
            return None
        return "ROW<%s>" % ", ".join("`%s` %s" % (n.replace("`", "``"), f[0]) for n, f in
                                     zip(type_info.get_field_names(), fields)), True
    return None


def stream_columns(type_info) -> Tuple[Tuple[TableColumn, ...], str]:
    """(columns, record shape) of a stream of `type_info`. Seen on PyFlink 1.20.5: a tuple's
    fields are f0, f1...; a Row's keep its names; a value alone is f0; fields of Java
    primitive types (INT, BIGINT, DOUBLE, BOOLEAN, FLOAT...) are NOT NULL in a tuple or
    alone, nullable in a Row; INSTANT is TIMESTAMP_LTZ(9), SQL_TIMESTAMP TIMESTAMP(9), BIG_DEC
    DECIMAL(38, 18), a byte array BYTES."""
    if type_info is None:
        raise NotImplementedError(
            "from_data_stream of a stream without type information (PyFlink makes it one "
            "RAW column of pickled bytes): declare the stream's type (output_type=Types.ROW"
            "_NAMED(...) / Types.TUPLE(...)) to use it as a table on pyflink_on_spark")
    if isinstance(type_info, (RowTypeInfo, TupleTypeInfo)):
        in_row = isinstance(type_info, RowTypeInfo)
        names = type_info.get_field_names() if in_row else \
            ["f%d" % i for i in range(len(type_info.get_field_types()))]
        columns = []
        for name, field in zip(names, type_info.get_field_types()):
            basic = _field_type(field)
            if basic is None:
                raise _unsupported_type(field)
            columns.append(TableColumn(name, basic[0], in_row or not basic[1]))
        return tuple(columns), RECORD_FIELDS
    basic = _field_type(type_info)
    if basic is None:
        raise _unsupported_type(type_info)
    return (TableColumn("f0", basic[0], not basic[1]),), RECORD_ATOMIC


# DataType class -> Flink's SQL type name (sized and precise types add their arguments)
_SIMPLE = {dt.BooleanType: "BOOLEAN", dt.TinyIntType: "TINYINT", dt.SmallIntType: "SMALLINT",
           dt.IntType: "INT", dt.BigIntType: "BIGINT", dt.FloatType: "FLOAT",
           dt.DoubleType: "DOUBLE", dt.DateType: "DATE"}
_STRING_LENGTH = 2147483647


def sql_type(data_type) -> str:
    """Flink's SQL text of a DataType, without nullability (VARCHAR(2147483647) is STRING,
    as Flink prints it). A SQL type string ('TIMESTAMP_LTZ(3)', as PyFlink's Schema takes
    one) is parsed first."""
    if isinstance(data_type, str):
        from pyflink_on_spark.table.sql.flink_types import parse_type
        data_type = parse_type(data_type)
    simple = _SIMPLE.get(type(data_type))
    if simple is not None:
        return simple
    if isinstance(data_type, dt.VarCharType):
        return "STRING" if data_type.length == _STRING_LENGTH \
            else "VARCHAR(%d)" % data_type.length
    if isinstance(data_type, dt.CharType):
        return "CHAR(%d)" % data_type.length
    if isinstance(data_type, dt.VarBinaryType):
        return "BYTES" if data_type.length == _STRING_LENGTH \
            else "VARBINARY(%d)" % data_type.length
    if isinstance(data_type, dt.BinaryType):
        return "BINARY(%d)" % data_type.length
    if isinstance(data_type, dt.DecimalType):
        return "DECIMAL(%d, %d)" % (data_type.precision, data_type.scale)
    if isinstance(data_type, dt.LocalZonedTimestampType):
        return "TIMESTAMP_LTZ(%d)" % data_type.precision
    if isinstance(data_type, dt.TimestampType):
        return "TIMESTAMP(%d)" % data_type.precision
    if isinstance(data_type, (dt.ArrayType, dt.MapType, dt.RowType)):
        from pyflink_on_spark.table.sql.flink_types import flink_type_string
        return flink_type_string(data_type.nullable())
    raise NotImplementedError(
        "a column of type %r is not supported by pyflink_on_spark's Table API (docs/table.md)"
        % (data_type,))


def data_type_column(name: str, data_type) -> TableColumn:
    if isinstance(data_type, str):
        from pyflink_on_spark.table.sql.flink_types import parse_type
        data_type = parse_type(data_type)
    return TableColumn(name, sql_type(data_type), data_type._nullable)


def row_type_columns(row_type) -> Tuple[TableColumn, ...]:
    """The columns of a DataTypes.ROW([...])."""
    return tuple(data_type_column(name, field_type) for name, field_type
                 in zip(row_type.field_names(), row_type.field_types()))


# pandas dtype kind -> Flink's column type (seen on PyFlink 1.20.5: from_pandas of int64,
# object (str), float64 columns gives BIGINT, STRING, DOUBLE, all nullable)
_PANDAS_KINDS = {"i": "BIGINT", "u": "BIGINT", "f": "DOUBLE", "b": "BOOLEAN", "O": "STRING",
                 "U": "STRING"}


def pandas_columns(pdf, names: Optional[Sequence[str]] = None) -> Tuple[TableColumn, ...]:
    columns = []
    for i, (name, dtype) in enumerate(pdf.dtypes.items()):
        sql = "INT" if dtype.kind == "i" and dtype.itemsize == 4 else \
            "FLOAT" if dtype.kind == "f" and dtype.itemsize == 4 else \
            _PANDAS_KINDS.get(dtype.kind)
        if sql is None:
            raise NotImplementedError(
                "from_pandas: column %r of dtype %s is not supported by pyflink_on_spark "
                "(pass a schema of DataTypes)" % (name, dtype))
        columns.append(TableColumn(names[i] if names else str(name), sql, True))
    return tuple(columns)


def renamed(columns: Sequence[TableColumn], names: Sequence[str]) -> Tuple[TableColumn, ...]:
    if len(names) != len(columns):
        raise ValueError(
            "Aliasing more fields than we actually have: %d names for %d columns"
            % (len(names), len(columns)))
    # seen on PyFlink 1.20.5: a renamed rowtime column stays one (*ROWTIME*); expressions and
    # the watermark are no longer printed
    return tuple(replace(c, name=n, expression=None, metadata=None, watermark_shown=False)
                 for n, c in zip(names, columns))


def schema_text(columns: Sequence[TableColumn]) -> str:
    """print_schema()'s text, as PyFlink 1.20.5 prints it (a watermark after the columns:
    WATERMARK FOR `ts`: TIMESTAMP_LTZ(3) AS <its expression as written>)."""
    lines = [c.text() for c in columns] + [
        "WATERMARK FOR `%s`: %s AS %s" % (c.name, c.sql_type, c.watermark)
        for c in columns if c.watermark is not None and c.watermark_shown]
    return "(\n" + ",\n".join("  " + line for line in lines) + "\n)"


def column_names(columns: Sequence[TableColumn]) -> List[str]:
    return [c.name for c in columns]
