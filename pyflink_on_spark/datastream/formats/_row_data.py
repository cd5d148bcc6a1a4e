"""Types of the records file formats produce.

PyFlink's CSV and Parquet readers produce Flink's internal RowData: a Python function sees a
Row with the schema's field names, and print() shows GenericRowData.toString, e.g.
"+I(1,alice,3.5,true)" (no spaces, Java's toString of each field)."""
from __future__ import annotations

from pyflink_on_spark.common._java_text import java_identity_str
from pyflink_on_spark.common.typeinfo import RowTypeInfo, Types


class RowDataTypeInfo(RowTypeInfo):
    """A RowTypeInfo whose records print like Flink's GenericRowData."""

    def _to_java_string(self, value) -> str:
        convert = self._python_converter()
        return self._java_str(value if convert is None else convert(value))

    def _java_str(self, value) -> str:
        out = []
        for t, v in zip(self.get_field_types(), value._values):
            if v is None:
                out.append("null")
            elif isinstance(v, (list, tuple)) and not isinstance(t, RowTypeInfo):
                # GenericArrayData has no toString: Object's "<class>@<hash>"
                out.append(java_identity_str("org.apache.flink.table.data.GenericArrayData",
                                             v))
            else:
                out.append(t._java_str(v))
        return "%s(%s)" % (value._row_kind, ",".join(out))


def type_info_of(data_type):
    """The TypeInformation of a table DataType (what a Python function receives)."""
    from pyflink_on_spark.table import types as d
    simple = [(d.VarCharType, Types.STRING), (d.CharType, Types.STRING),
              (d.BooleanType, Types.BOOLEAN), (d.TinyIntType, Types.BYTE),
              (d.SmallIntType, Types.SHORT), (d.IntType, Types.INT), (d.BigIntType, Types.LONG),
              (d.FloatType, Types.FLOAT), (d.DoubleType, Types.DOUBLE),
              (d.DecimalType, Types.BIG_DEC), (d.DateType, Types.LOCAL_DATE),
              (d.TimeType, Types.LOCAL_TIME), (d.LocalZonedTimestampType, Types.INSTANT),
              (d.TimestampType, Types.LOCAL_DATE_TIME)]
    for cls, factory in simple:
        if isinstance(data_type, cls):
            return factory()
    if isinstance(data_type, (d.BinaryType, d.VarBinaryType)):
        return Types.PRIMITIVE_ARRAY(Types.BYTE())
    if isinstance(data_type, d.ArrayType):
        return Types.LIST(type_info_of(data_type.element_type))
    if isinstance(data_type, d.MapType):
        return Types.MAP(type_info_of(data_type.key_type), type_info_of(data_type.value_type))
    if isinstance(data_type, d.RowType):
        return RowDataTypeInfo([type_info_of(f.data_type) for f in data_type.fields],
                               list(data_type.names))
    raise TypeError("no TypeInformation for %r" % (data_type,))
