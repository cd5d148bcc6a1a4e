"""Values of a table's ARRAY, MAP and ROW columns (Flink SQL type text such as
`ARRAY<INT NOT NULL>`, `MAP<STRING, INT>`, `ROW<`p` INT, `q` STRING>`) on their way between
a stream's records, Arrow batches and Spark rows.

As PyFlink 1.20.5 gives them (seen, compat_tests/cases/table/nested_columns.py):
* to_data_stream: an ARRAY is a list, a MAP a dict, a ROW a Row named by its fields;
* to_pandas(): an ARRAY a numpy array, a ROW a dict, a MAP a list of (key, value) pairs
  (Arrow's to_pandas of a map), where Spark's toPandas gives a dict;
* execute().collect(): an ARRAY a list, a MAP a dict, and a ROW `Row([values])`, one field
  holding the list of its values (PyFlink's pickled_bytes_to_python_converter builds
  `Row(fields)`), a FLOAT inside any of them read back from Java's Float.toString, as a FLOAT
  column is (table_result.collected_float)."""
from __future__ import annotations

from typing import Any, Callable, List, Optional

import pyarrow as pa

_NESTED = ("ARRAY<", "MAP<", "ROW<")
_ARROW = {"BOOLEAN": pa.bool_(), "TINYINT": pa.int8(), "SMALLINT": pa.int16(),
          "INT": pa.int32(), "BIGINT": pa.int64(), "FLOAT": pa.float32(),
          "DOUBLE": pa.float64(), "DATE": pa.date32()}


def is_nested(sql_type: str) -> bool:
    return sql_type.startswith(_NESTED)


def _data_type(sql_type: str):
    from pyflink_on_spark.table.sql.flink_types import parse_type
    return parse_type(sql_type)


def arrow_type(sql_type: str) -> pa.DataType:
    """The Arrow type of an ARRAY / MAP / ROW column, its inner NOT NULLs kept (Spark reads
    them as containsNull / valueContainsNull / a field's nullable)."""
    return _arrow(_data_type(sql_type))


def _arrow(data_type) -> pa.DataType:
    from pyflink_on_spark.table import types as dt
    if isinstance(data_type, dt.ArrayType):
        element = data_type.element_type
        return pa.list_(pa.field("element", _arrow(element), element._nullable))
    if isinstance(data_type, dt.MapType):
        value = data_type.value_type
        return pa.map_(_arrow(data_type.key_type),
                       pa.field("value", _arrow(value), value._nullable))
    if isinstance(data_type, dt.RowType):
        return pa.struct([pa.field(f.name, _arrow(f.data_type), f.data_type._nullable)
                          for f in data_type.fields])
    if isinstance(data_type, (dt.VarCharType, dt.CharType)):
        return pa.string()
    if isinstance(data_type, (dt.VarBinaryType, dt.BinaryType)):
        return pa.binary()
    if isinstance(data_type, dt.DecimalType):
        return pa.decimal128(data_type.precision, data_type.scale)
    if isinstance(data_type, dt.LocalZonedTimestampType):
        return pa.timestamp("us", tz="UTC")
    if isinstance(data_type, dt.TimestampType):
        return pa.timestamp("us")
    from pyflink_on_spark.table.sql.flink_types import flink_type_string
    simple = _ARROW.get(flink_type_string(data_type.nullable()))
    if simple is None:
        raise NotImplementedError("a column of type %s inside an ARRAY, MAP or ROW is not "
                                  "supported by pyflink_on_spark's tables yet"
                                  % flink_type_string(data_type))
    return simple


def arrow_values(values: list, sql_type: str) -> list:
    """A column's values from a stream's records as pyarrow.array takes them: a Row as the
    tuple of its values, inside lists and maps too."""
    convert = _to_arrow(_data_type(sql_type))
    return [None if v is None else convert(v) for v in values]


def _to_arrow(data_type) -> Callable[[Any], Any]:
    from pyflink_on_spark.table import types as dt
    if isinstance(data_type, dt.ArrayType):
        inner = _to_arrow(data_type.element_type)
        return lambda v: [None if e is None else inner(e) for e in v]
    if isinstance(data_type, dt.MapType):
        key, value = _to_arrow(data_type.key_type), _to_arrow(data_type.value_type)
        return lambda v: [(key(k), None if x is None else value(x)) for k, x in v.items()]
    if isinstance(data_type, dt.RowType):
        fields = [_to_arrow(f.data_type) for f in data_type.fields]
        return lambda v: tuple(None if x is None else f(x) for f, x in zip(fields, v))
    if isinstance(data_type, dt.LocalZonedTimestampType):
        return _instant_micros
    return _same


def _same(value):
    return value


def _instant_micros(value):
    from pyflink_on_spark.common.time import Instant
    return value.seconds * 1_000_000 + value.nanos // 1000 if isinstance(value, Instant) \
        else value


def stream_values(column: pa.Array) -> list:
    """An Arrow column of ARRAY / MAP / ROW values as to_data_stream gives them: lists, dicts,
    Rows named by their fields (a TIMESTAMP_LTZ inside as an Instant)."""
    convert = _from_arrow(column.type)
    return [None if v is None else convert(v) for v in column.to_pylist()]


def _from_arrow(arrow: pa.DataType) -> Callable[[Any], Any]:
    if pa.types.is_map(arrow):
        key, value = _from_arrow(arrow.key_type), _from_arrow(arrow.item_type)
        return lambda v: {key(k): None if x is None else value(x) for k, x in v}
    if pa.types.is_list(arrow):
        inner = _from_arrow(arrow.value_type)
        return lambda v: [None if e is None else inner(e) for e in v]
    if pa.types.is_struct(arrow):
        names = [arrow.field(i).name for i in range(arrow.num_fields)]
        fields = [_from_arrow(arrow.field(i).type) for i in range(arrow.num_fields)]

        def row(v):
            from pyflink_on_spark.common.types import Row
            return Row(**{n: None if v[n] is None else f(v[n])
                          for n, f in zip(names, fields)})
        return row
    if pa.types.is_timestamp(arrow) and arrow.tz is not None:
        return _instant
    return _same


def _instant(value):
    import datetime
    from pyflink_on_spark.common.time import Instant
    micros = (value - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)) \
        // datetime.timedelta(microseconds=1)
    return Instant(micros // 1_000_000, micros % 1_000_000 * 1000)


def collected_converter(sql_type: str,
                        collected_float: Callable[[Optional[float]], Optional[float]]
                        ) -> Callable[[Any], Any]:
    """A Spark row's value of an ARRAY / MAP / ROW column (list, dict, pyspark Row) as
    PyFlink's collect() gives it (module doc)."""
    return _collected(_data_type(sql_type), collected_float)


def _collected(data_type, collected_float) -> Callable[[Any], Any]:
    from pyflink_on_spark.table import types as dt
    if isinstance(data_type, dt.ArrayType):
        inner = _collected(data_type.element_type, collected_float)
        return lambda v: None if v is None else [inner(e) for e in v]
    if isinstance(data_type, dt.MapType):
        key = _collected(data_type.key_type, collected_float)
        value = _collected(data_type.value_type, collected_float)
        return lambda v: None if v is None else {key(k): value(x) for k, x in v.items()}
    if isinstance(data_type, dt.RowType):
        fields = [_collected(f.data_type, collected_float) for f in data_type.fields]

        def row(v):
            if v is None:
                return None
            from pyflink_on_spark.common.types import Row
            values: List[Any] = [f(x) for f, x in zip(fields, v)]
            return Row(values)
        return row
    if isinstance(data_type, dt.FloatType):
        return collected_float
    return _same


def pandas_converter(sql_type: str) -> Callable[[Any], Any]:
    """A value of Spark's toPandas of an ARRAY / MAP / ROW column as PyFlink's to_pandas gives
    it (module doc): its MAPs, at any depth, as lists of (key, value) pairs."""
    return _pandas(_data_type(sql_type))


def _pandas(data_type) -> Callable[[Any], Any]:
    from pyflink_on_spark.table import types as dt
    if isinstance(data_type, dt.MapType):
        value = _pandas(data_type.value_type)
        return lambda v: None if v is None else [(k, value(x)) for k, x in v.items()]
    if isinstance(data_type, dt.RowType):
        fields = [(f.name, _pandas(f.data_type)) for f in data_type.fields]
        return lambda v: None if v is None else {n: f(v[n]) for n, f in fields}
    if isinstance(data_type, dt.ArrayType) and _has_map(data_type.element_type):
        inner = _pandas(data_type.element_type)
        return lambda v: None if v is None else [inner(e) for e in v]
    return _same


def _has_map(data_type) -> bool:
    from pyflink_on_spark.table import types as dt
    if isinstance(data_type, dt.MapType):
        return True
    if isinstance(data_type, dt.ArrayType):
        return _has_map(data_type.element_type)
    if isinstance(data_type, dt.RowType):
        return any(_has_map(f.data_type) for f in data_type.fields)
    return False
