"""Which JDBC type each field of the sink's row is set as, as Flink's JDBC connector decides it
(JdbcTypeUtil.typeInformationToSqlType, the mapping PyFlink's JdbcSink.sink applies to
`type_info.get_field_types()`): a type without a mapping is refused when the sink is built.

The record itself is first converted to the row type (the type's own converter: floats
rounded to float32, Decimals, dates and timestamps checked); each field then reaches the
driver as the Python value of that JDBC type (str, bool, int, float, Decimal, date, time,
datetime, bytes, a list for arrays), None as SQL NULL."""
from __future__ import annotations

from typing import Tuple

from pyflink_on_spark.common.typeinfo import (
    BasicArrayTypeInfo, BasicType, BasicTypeInfo, DateTypeInfo, LocalTimeTypeInfo,
    ObjectArrayTypeInfo, PrimitiveArrayTypeInfo, RowTypeInfo, TimeTypeInfo, TimestampTypeInfo,
    TypeInformation)

_BASIC = {
    BasicType.STRING: "VARCHAR",
    BasicType.BOOLEAN: "BOOLEAN",
    BasicType.BYTE: "TINYINT",
    BasicType.SHORT: "SMALLINT",
    BasicType.INT: "INTEGER",
    BasicType.LONG: "BIGINT",
    BasicType.FLOAT: "FLOAT",
    BasicType.DOUBLE: "DOUBLE",
    BasicType.BIG_DEC: "DECIMAL",
}
_LOCAL = {
    LocalTimeTypeInfo.TimeType.LOCAL_DATE: "DATE",
    LocalTimeTypeInfo.TimeType.LOCAL_TIME: "TIME",
    LocalTimeTypeInfo.TimeType.LOCAL_DATE_TIME: "TIMESTAMP",
}


def sql_type(type_info: TypeInformation) -> str:
    """The java.sql.Types name Flink sets a field of `type_info` as."""
    if type(type_info) is BasicTypeInfo and type_info._basic_type in _BASIC:
        return _BASIC[type_info._basic_type]
    if isinstance(type_info, DateTypeInfo):
        return "DATE"
    if isinstance(type_info, TimeTypeInfo):
        return "TIME"
    if isinstance(type_info, TimestampTypeInfo):
        return "TIMESTAMP"
    if isinstance(type_info, LocalTimeTypeInfo):
        return _LOCAL[type_info._time_type]
    if isinstance(type_info, PrimitiveArrayTypeInfo) \
            and type_info._element_type == BasicTypeInfo.BYTE_TYPE_INFO():
        return "BINARY"
    if isinstance(type_info, (PrimitiveArrayTypeInfo, BasicArrayTypeInfo, ObjectArrayTypeInfo)):
        return "ARRAY"     # Flink sets it with setObject (best effort, driver-dependent)
    raise ValueError("Unsupported type: %s (the JDBC sink sets fields of the types "
                     "STRING, BOOLEAN, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, BIG_DEC, "
                     "SQL_DATE, SQL_TIME, SQL_TIMESTAMP, LOCAL_DATE, LOCAL_TIME, "
                     "LOCAL_DATE_TIME, PRIMITIVE_ARRAY(BYTE) and arrays)" % _java_name(type_info))


def _java_name(type_info: TypeInformation) -> str:
    """Java's TypeInformation.toString(), which Flink's message shows (observed on PyFlink
    1.20.5: Types.CHAR() -> "Unsupported type: Character")."""
    if isinstance(type_info, BasicTypeInfo):
        return type_info._behaviour.java_class.rsplit(".", 1)[-1]
    return repr(type_info)


def row_sql_types(type_info: RowTypeInfo) -> Tuple[str, ...]:
    return tuple(sql_type(t) for t in type_info.get_field_types())
