"""from_elements without a DataTypes.ROW: the row type PyFlink infers from the Python values.
Every rule and error text here was seen on PyFlink 1.20.5 (docs/table.md, "from_elements"):
- bool BOOLEAN, int BIGINT, float DOUBLE, str STRING, bytearray BYTES, Decimal
  DECIMAL(38, 18), date DATE, datetime TIMESTAMP_LTZ(6), time TIME(0); a list an ARRAY of
  its first element's type, a dict a MAP; `bytes` is refused;
- a tuple's columns are the names given, `_<n>` past them (names past the tuple's length are
  ignored); a dict's are its keys, sorted; a named Row's its field names;
- None is untyped: a column takes its type from the rows where it is not None, and one that
  is None in every row, or typed differently in two rows (BIGINT and DOUBLE), is refused."""
from __future__ import annotations

import datetime
import decimal
from typing import Any, List, Optional, Sequence, Tuple

from pyflink_on_spark.table import types as dt

_SCALARS = (
    (bool, dt.BooleanType), (int, dt.BigIntType), (float, dt.DoubleType),
    (str, lambda: dt.VarCharType(0x7fffffff)), (bytearray, lambda: dt.VarBinaryType(0x7fffffff)),
    (decimal.Decimal, lambda: dt.DecimalType(38, 18)),
    # datetime before date: a datetime is a date too
    (datetime.datetime, lambda: dt.LocalZonedTimestampType(6)),
    (datetime.date, dt.DateType), (datetime.time, lambda: dt.TimeType(0)),
)


def _type_of_value(value: Any) -> dt.DataType:
    if value is None:
        return dt.NullType()
    for python_type, make in _SCALARS:
        if type(value) is python_type:   # noqa: E721 -- subclasses (bool of int) differ
            return make()
    if isinstance(value, dict):
        for key, item in value.items():
            if key is not None and item is not None:
                return dt.MapType(_type_of_value(key).not_null(), _type_of_value(item))
        return dt.MapType(dt.NullType(), dt.NullType())
    if isinstance(value, list):
        present = [v for v in value if v is not None]
        return dt.ArrayType(_type_of_value(value[0]) if present else dt.NullType())
    try:
        return _row_type_of(value)
    except TypeError:
        raise TypeError("not supported type: %s" % type(value)) from None


def _named_values(row: Any, names: Optional[List[str]]) -> List[Tuple[str, Any]]:
    if isinstance(row, dict):
        return sorted(row.items())
    if isinstance(row, (tuple, list)) or _is_row(row):
        fields = getattr(row, "_fields", None)
        if fields:                       # a named Row, a namedtuple
            return list(zip(fields, tuple(row)))
        given = list(names or ())
        given += ["_%d" % i for i in range(len(given) + 1, len(row) + 1)]
        return list(zip(given, row))
    if hasattr(row, "__dict__"):
        return sorted(vars(row).items())
    raise TypeError("Can not infer schema for type: %s" % type(row))


def _is_row(value: Any) -> bool:
    from pyflink_on_spark.common.types import Row
    return isinstance(value, Row)


def _row_type_of(row: Any, names: Optional[List[str]] = None) -> dt.RowType:
    return dt.RowType([dt.RowField(name, _type_of_value(value))
                       for name, value in _named_values(row, names)])


def _class_text(data_type: dt.DataType) -> str:
    # PyFlink names its own module in this message
    return "<class 'pyflink.table.types.%s'>" % type(data_type).__name__


def _merged(a: dt.DataType, b: Optional[dt.DataType], name: Optional[str] = None) \
        -> dt.DataType:
    if isinstance(a, dt.NullType):
        return b
    if b is None or isinstance(b, dt.NullType):
        return a
    if type(a) is not type(b):
        text = "Can not merge type %s and %s" % (_class_text(a), _class_text(b))
        raise TypeError("%s: %s" % (name, text) if name else text)
    if isinstance(a, dt.RowType):
        def field_name(n):
            return "field %s in %s" % (n, name) if name else "field %s" % n
        others = dict(zip(b.field_names(), b.field_types()))
        fields = [dt.RowField(n, _merged(t, others.get(n), field_name(n)))
                  for n, t in zip(a.field_names(), a.field_types())]
        fields += [dt.RowField(n, t) for n, t in others.items() if n not in a.field_names()]
        return dt.RowType(fields)
    if isinstance(a, dt.MapType):
        return dt.MapType(_merged(a.key_type, b.key_type, "key of map %s" % name),
                          _merged(a.value_type, b.value_type, "value of map %s" % name))
    if isinstance(a, dt.ArrayType):
        return dt.ArrayType(_merged(a.element_type, b.element_type,
                                    "element in array %s" % name))
    return a


def _has_null_type(data_type: dt.DataType) -> bool:
    if isinstance(data_type, dt.RowType):
        return any(_has_null_type(t) for t in data_type.field_types())
    if isinstance(data_type, dt.MapType):
        return _has_null_type(data_type.key_type) or _has_null_type(data_type.value_type)
    if isinstance(data_type, dt.ArrayType):
        return _has_null_type(data_type.element_type)
    return isinstance(data_type, dt.NullType)


def inferred_row_type(elements: Sequence[Any], names: Optional[Sequence[str]] = None) \
        -> dt.RowType:
    """The row type PyFlink's from_elements(elements, names) infers."""
    if not elements:
        raise ValueError("can not infer schema from empty data set")
    for name in names or ():
        if not isinstance(name, str):
            raise AssertionError("field name %s should be string" % (name,))
    merged = None
    for row in elements:
        row_type = _row_type_of(row, list(names) if names is not None else None)
        merged = row_type if merged is None else _merged(merged, row_type)
    if _has_null_type(merged):
        raise ValueError("Some column types cannot be determined after inferring")
    return merged


def row_values(row: Any, width: int) -> tuple:
    """A from_elements element's values in column order (a dict's by sorted key)."""
    if isinstance(row, dict):
        return tuple(v for _, v in sorted(row.items()))
    if not isinstance(row, (tuple, list)) and not _is_row(row) and hasattr(row, "__dict__"):
        return tuple(v for _, v in sorted(vars(row).items()))
    return tuple(row)[:width]


# the Python types a value of each type may have (a subclass may not: bool is not an int here)
_ACCEPTED = {
    dt.BooleanType: (bool,), dt.TinyIntType: (int,), dt.SmallIntType: (int,),
    dt.IntType: (int,), dt.BigIntType: (int,), dt.FloatType: (float,),
    dt.DoubleType: (float,), dt.DecimalType: (decimal.Decimal,), dt.CharType: (str,),
    dt.VarCharType: (str,), dt.BinaryType: (bytearray,), dt.VarBinaryType: (bytearray,),
    dt.DateType: (datetime.date, datetime.datetime), dt.TimeType: (datetime.time,),
    dt.TimestampType: (datetime.datetime,), dt.LocalZonedTimestampType: (datetime.datetime,),
    dt.ArrayType: (list, tuple), dt.MapType: (dict,), dt.RowType: (tuple, list, dict),
}
_RANGES = {dt.TinyIntType: (-128, 127), dt.SmallIntType: (-32768, 32767),
           dt.IntType: (-2147483648, 2147483647)}


def verify_value(data_type: dt.DataType, value: Any, name: Optional[str] = None) -> None:
    """PyFlink's from_elements(..., verify_schema=True) check of one value against its type:
    TypeError for a value of another Python type, ValueError for one out of the type's range
    or length, or None in a NOT NULL field (texts as PyFlink 1.20.5 gives them)."""
    def message(text):
        return "%s: %s" % (name, text) if name else text
    if value is None:
        if not data_type._nullable:
            raise ValueError(message("This field is not nullable, but got None"))
        return
    kind = type(data_type)
    if kind is dt.RowType:
        _verify_row(data_type, value, name, message)
        return
    accepted = _ACCEPTED.get(kind)
    if accepted is not None and type(value) not in accepted:
        raise TypeError(message("%s can not accept object %r in type %s"
                                % (data_type, value, type(value))))
    bounds = _RANGES.get(kind)
    if bounds is not None and not bounds[0] <= value <= bounds[1]:
        raise ValueError(message("object of %s out of range, got: %s" % (kind.__name__, value)))
    if kind in (dt.VarCharType, dt.VarBinaryType) and len(value) > data_type.length:
        raise ValueError(message("length of object (%s) of %s exceeds: %d"
                                 % (value, kind.__name__, data_type.length)))
    if kind in (dt.CharType, dt.BinaryType) and len(value) != data_type.length:
        raise ValueError(message("length of object (%s) of %s is not: %d"
                                 % (value, kind.__name__, data_type.length)))
    if kind is dt.ArrayType:
        for item in value:
            verify_value(data_type.element_type, item, "element in array %s" % name)
    if kind is dt.MapType:
        for key, item in value.items():
            verify_value(data_type.key_type, key, "key of map %s" % name)
            verify_value(data_type.value_type, item, "value of map %s" % name)


def _verify_row(row_type: dt.RowType, value: Any, name: Optional[str], message) -> None:
    def field_name(n):
        return "field %s in %s" % (n, name) if name else "field %s" % n
    fields = list(zip(row_type.field_names(), row_type.field_types()))
    if isinstance(value, dict):
        for n, t in fields:
            verify_value(t, value.get(n), field_name(n))
    elif _is_row(value) and getattr(value, "_from_dict", False):
        for n, t in fields:
            verify_value(t, value[n], field_name(n))
    elif isinstance(value, (tuple, list)) or _is_row(value):
        if len(value) != len(fields):
            raise ValueError(message("Length of object (%d) does not match with length of "
                                     "fields (%d)" % (len(value), len(fields))))
        for item, (n, t) in zip(value, fields):
            verify_value(t, item, field_name(n))
    elif hasattr(value, "__dict__"):
        for n, t in fields:
            verify_value(t, vars(value).get(n), field_name(n))
    else:
        raise TypeError(message("RowType can not accept object %r in type %s"
                                % (value, type(value))))
