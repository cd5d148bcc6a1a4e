"""One small description of a field's type, built from either a TypeInformation (the
(de)serialization schemas) or a table DataType (CsvSchema, Parquet/ORC row types), so the
CSV/JSON/Avro/Parquet codecs handle both the same way."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

# kinds: string boolean byte short int long float double decimal biginteger
#        date time timestamp local_date local_time local_datetime instant bytes
#        array row map pickled


@dataclass(frozen=True)
class Field:
    kind: str
    element: Optional["Field"] = None             # array element / map value
    key: Optional["Field"] = None                 # map key
    names: Tuple[str, ...] = ()                   # row field names
    fields: Tuple["Field", ...] = ()              # row field types
    precision: int = 0                            # decimal precision / time precision
    scale: int = 0                                # decimal scale
    separator: Optional[str] = None               # CSV array column separator


_BASIC = {"String": "string", "Boolean": "boolean", "Byte": "byte", "Short": "short",
          "Integer": "int", "Long": "long", "Float": "float", "Double": "double",
          "Char": "string", "BigInteger": "biginteger", "BigDecimal": "decimal",
          "Instant": "instant"}


def from_type_info(type_info) -> Field:
    from pyflink_on_spark.common import typeinfo as t
    if isinstance(type_info, t.ExternalTypeInfo):
        return from_type_info(type_info._type_info)
    if isinstance(type_info, t.BasicTypeInfo):
        return Field(_BASIC[type_info._basic_type.value])
    if isinstance(type_info, t.DateTypeInfo):
        return Field("date")
    if isinstance(type_info, t.TimeTypeInfo):
        return Field("time")
    if isinstance(type_info, t.TimestampTypeInfo):
        return Field("timestamp")
    if isinstance(type_info, t.LocalTimeTypeInfo):
        return Field({"LOCAL_DATE": "local_date", "LOCAL_TIME": "local_time",
                      "LOCAL_DATE_TIME": "local_datetime"}[type_info._time_type.name])
    if isinstance(type_info, t.PrimitiveArrayTypeInfo) and \
            type_info._element_type == t.Types.BYTE():
        return Field("bytes")
    if isinstance(type_info, t._ArrayTypeInfo):
        return Field("array", element=from_type_info(type_info._element_type))
    if isinstance(type_info, t.ListTypeInfo):
        return Field("array", element=from_type_info(type_info.elem_type))
    if isinstance(type_info, t.MapTypeInfo):
        return Field("map", key=from_type_info(type_info._key_type_info),
                     element=from_type_info(type_info._value_type_info))
    if isinstance(type_info, t.RowTypeInfo):
        return Field("row", names=tuple(type_info._names()),
                     fields=tuple(from_type_info(f) for f in type_info.get_field_types()))
    if isinstance(type_info, t.TupleTypeInfo):
        types = type_info.get_field_types()
        return Field("row", names=tuple("f%d" % i for i in range(len(types))),
                     fields=tuple(from_type_info(f) for f in types))
    if isinstance(type_info, t.PickledBytesTypeInfo):
        return Field("pickled")
    raise TypeError("the type %r is not supported by this format" % (type_info,))


def _plain_data_types():
    """Table DataType classes that map to a kind without parameters (checked in order)."""
    from pyflink_on_spark.table import types as d
    return ((d.VarCharType, "string"), (d.CharType, "string"), (d.BooleanType, "boolean"),
            (d.TinyIntType, "byte"), (d.SmallIntType, "short"), (d.IntType, "int"),
            (d.BigIntType, "long"), (d.FloatType, "float"), (d.DoubleType, "double"),
            (d.DateType, "local_date"), (d.BinaryType, "bytes"), (d.VarBinaryType, "bytes"))


def from_data_type(data_type, separator: Optional[str] = None) -> Field:
    from pyflink_on_spark.table import types as d
    for data_type_class, kind in _plain_data_types():
        if isinstance(data_type, data_type_class):
            return Field(kind)
    if isinstance(data_type, d.DecimalType):
        return Field("decimal", precision=data_type.precision, scale=data_type.scale)
    if isinstance(data_type, d.TimeType):
        return Field("local_time", precision=data_type.precision)
    if isinstance(data_type, d.LocalZonedTimestampType):
        return Field("instant", precision=data_type.precision)
    if isinstance(data_type, d.TimestampType):
        return Field("local_datetime", precision=data_type.precision)
    if isinstance(data_type, d.ArrayType):
        return Field("array", element=from_data_type(data_type.element_type),
                     separator=separator)
    if isinstance(data_type, d.MapType):
        return Field("map", key=from_data_type(data_type.key_type),
                     element=from_data_type(data_type.value_type))
    if isinstance(data_type, d.RowType):
        return Field("row", names=tuple(data_type.names),
                     fields=tuple(from_data_type(f.data_type) for f in data_type.fields))
    raise TypeError("the data type %r is not supported by this format" % (data_type,))


INTEGRAL = ("byte", "short", "int", "long", "biginteger")
FRACTIONAL = ("float", "double")
