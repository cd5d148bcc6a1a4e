"""What ``from_collection(values, type_info)`` makes of each Python value.

PyFlink does not send collection elements through the Python coder that operator outputs go
through (which rejects an out-of-range SHORT or a plain object declared ROW). It calls
``type_info.to_internal_type(element)``, pickles the result, unpickles it in the JVM (Pyrolite:
a Python int becomes an Integer, a Long or a BigInteger by size, a float a Double, a dict a
HashMap, any other object a ClassDict: a HashMap of its attributes plus ``__class__``) and then
converts each Java object to the declared type (flink-python's
``PythonTypeUtils.getCollectionInputFormat``):

* BYTE/SHORT/INT/LONG take an Integer or a Long and narrow it as Java's ``shortValue()`` does
  (SHORT 43878 -> -21658); anything else (a float, a bool, an int beyond 64 bits) becomes null;
* FLOAT and DOUBLE take a Double only (an int becomes null); BOOLEAN a Boolean only;
* STRING takes ``toString()`` of whatever arrived (5 -> "5");
* ROW reads fields by name from a dict, a named Row or any object's attributes, by position
  from a Row, tuple or list (the count must match); a null field stays null;
* TUPLE takes a tuple, list or Row of exactly its arity, no null field;
* MAP takes a dict, or any object as the dict of its attributes plus ``__class__``; no null
  value.

A null where Flink's serializer needs a value makes ``from_collection`` fail (as PyFlink's does).
Types whose conversion is not modelled here (dates and times, arrays, lists, CHAR, BIG_INT) are
left to the type's ordinary converter. All observed on PyFlink 1.20.5; see the compat case
basic/from_collection_values.
"""
import decimal
from typing import Any, Callable, Optional

from pyflink_on_spark.common._java_text import java_double_str, to_float32

_NULL = object()  # the Java converter returned null

_INT_BITS = {"Byte": 8, "Short": 16, "Integer": 32, "Long": 64}


def collection_element(type_info, value):
    """``value`` as the first operator after ``from_collection(..., type_info)`` sees it."""
    convert = _converter(type_info)
    converted = value if convert is None else convert(value)
    if converted is _NULL:
        raise TypeError(
            "from_collection: element %r cannot be a %r value: PyFlink's Java converter turns "
            "it into null and from_collection fails (NullPointerException)" % (value, type_info))
    if type(converted) is tuple and any(v is None for v in converted):
        # nulls only Java operators take (_JAVA_NULL_FIELDS): not what a Python operator's
        # output converter (_from_python) accepts, which fails on them as PyFlink's coder does
        return converted
    return type_info._from_python(converted)


def _converter(type_info) -> Optional[Callable[[Any], Any]]:
    from pyflink_on_spark.common.typeinfo import (
        BasicTypeInfo, InstantTypeInfo, MapTypeInfo, RowTypeInfo, TupleTypeInfo)
    if isinstance(type_info, RowTypeInfo):
        return _row_converter(type_info)
    if isinstance(type_info, TupleTypeInfo):
        return _tuple_converter(type_info)
    if isinstance(type_info, MapTypeInfo):
        return _map_converter(type_info)
    if isinstance(type_info, BasicTypeInfo) and not isinstance(type_info, InstantTypeInfo):
        name = type_info._basic_type.value
        if name in _INT_BITS:
            return _narrowing(_INT_BITS[name])
        return _BASIC.get(name)
    return None


def _is_java_integral(value) -> bool:
    # Pyrolite gives an Integer or a Long up to 64 bits, a BigInteger beyond
    return type(value) is int and -(1 << 63) <= value < (1 << 63)


def _narrowing(bits: int) -> Callable[[Any], Any]:
    mask, sign = (1 << bits) - 1, 1 << (bits - 1)

    def narrow(value):
        if not _is_java_integral(value):
            return _NULL
        low = value & mask
        return low - (1 << bits) if low & sign else low
    return narrow


def _to_java_string(value):
    if value is None or type(value) is str:
        return value
    if type(value) is bool:
        return "true" if value else "false"
    if type(value) is int:
        return str(value)
    if type(value) is float:
        return java_double_str(value)
    if isinstance(value, str):
        return str(value)
    raise TypeError(
        "from_collection: %s %r declared Types.STRING(): PyFlink stores Java's toString() of "
        "the unpickled object, which the shim does not reproduce for a %s; pass str(value)"
        % (type(value).__name__, value, type(value).__name__))


_BASIC = {
    "Boolean": lambda v: v if type(v) is bool else _NULL,
    "Float": lambda v: to_float32(v) if type(v) is float else _NULL,
    "Double": lambda v: v if type(v) is float else _NULL,
    "BigDecimal": lambda v: v if isinstance(v, decimal.Decimal) else _NULL,
    "String": _to_java_string,
}


def _field(convert, value):
    if value is None or convert is None:
        return value
    return convert(value)


def _row_converter(type_info) -> Callable[[Any], Any]:
    from pyflink_on_spark.common.types import Row, RowKind, _create_row
    names = type_info._names()
    converters = [_converter(t) for t in type_info.get_field_types()]
    arity = len(converters)

    def convert(value):
        kind = RowKind.INSERT
        if isinstance(value, dict):
            values = [value.get(n) for n in names]
        elif isinstance(value, Row) and hasattr(value, "_fields"):
            values = [value[n] for n in names]
            kind = value.get_row_kind()
        elif isinstance(value, (Row, list, tuple)):
            values = list(value)
            if isinstance(value, Row):
                kind = value.get_row_kind()
            if len(values) != arity:
                raise ValueError(
                    "Input row doesn't have expected number of values required by the schema."
                    " %d fields are required while %d values are provided." % (arity,
                                                                               len(values)))
        elif hasattr(value, "__dict__"):
            attributes = value.__dict__
            values = [attributes.get(n) for n in names]
        else:
            raise ValueError("Unexpected tuple %r with RowTypeInfo" % (value,))
        fields = []
        for c, v in zip(converters, values):
            v = _field(c, v)
            fields.append(None if v is _NULL else v)  # a Row field may be null
        return _create_row(list(names), fields, kind)
    return convert


# Tuple fields whose Java serializer writes null, with the error PyFlink's job fails with when
# such a record is handed to a Python operator (seen on PyFlink 1.20.5: from_collection of
# [(2, None)] declared TUPLE([INT, X]) runs for these X, a print sink prints (2,null), and a
# map, filter or key_by fails the job with this error; a null in a tuple field of any other
# type (INT, LONG, DOUBLE, BOOLEAN, CHAR, PICKLED_BYTE_ARRAY, ROW, LIST, MAP, arrays) fails
# from_collection itself). A null BigInteger reached Python as an arbitrary number there: the
# shim fails such a job instead of handing on a number no one wrote.
_JAVA_NULL_FIELDS = {
    "String": "java.lang.IllegalArgumentException: The String record must not be null.",
    "BigDecimal": 'java.lang.NullPointerException: Cannot invoke "java.math.BigDecimal.'
                  'toString()" because "record" is null',
    "BigInteger": "a null BigInteger field (PyFlink 1.20.5 hands a Python function an "
                  "arbitrary number for it; pyflink_on_spark fails the job instead)",
    "DateTypeInfo": "java.lang.IllegalArgumentException: The Date record must not be null.",
    "TimeTypeInfo": "java.lang.IllegalArgumentException: The Time record must not be null.",
    "TimestampTypeInfo": "java.lang.IllegalArgumentException: The Timestamp record must not "
                         "be null.",
}


def _java_null_error(type_info) -> Optional[str]:
    """The error of a null field of this type handed to a Python operator, or None when a
    null of it fails from_collection itself (_JAVA_NULL_FIELDS)."""
    basic = getattr(type_info, "_basic_type", None)
    return _JAVA_NULL_FIELDS.get(basic.value if basic is not None
                                 else type(type_info).__name__)


def python_input_error(type_info, values) -> Optional[str]:
    """Why the job fails when from_collection's converted ``values`` reach a Python operator
    (a null tuple field that only Java operators take: _JAVA_NULL_FIELDS), or None."""
    from pyflink_on_spark.common.typeinfo import TupleTypeInfo
    if not isinstance(type_info, TupleTypeInfo):
        return None
    errors = [_java_null_error(t) for t in type_info.get_field_types()]
    for value in values:
        for index, field in enumerate(value):
            if field is None and errors[index] is not None:
                return ("from_collection: element %r: field %d is null, which PyFlink hands "
                        "on to Java operators (print) but not to a Python function: %s"
                        % (value, index, errors[index]))
    return None


def _tuple_converter(type_info) -> Callable[[Any], Any]:
    from pyflink_on_spark.common.types import Row
    converters = [_converter(t) for t in type_info.get_field_types()]
    nullable = [_java_null_error(t) is not None for t in type_info.get_field_types()]
    arity = len(converters)

    def convert(value):
        if not isinstance(value, (list, tuple, Row)):
            raise ValueError("Unexpected tuple %r with TupleTypeInfo" % (value,))
        values = tuple(value)
        if len(values) != arity:
            raise ValueError(
                "Input tuple doesn't have expected number of values required by the schema. "
                "%d fields are required while %d values are provided." % (arity, len(values)))
        out = []
        for i, (c, v) in enumerate(zip(converters, values)):
            v = _field(c, v)
            if v is _NULL or v is None and not nullable[i]:
                raise TypeError("from_collection: element %r: Field %d is null, but expected "
                                "to hold a value (as in PyFlink)" % (value, i))
            out.append(v)
        return tuple(out)
    return convert


def _as_java_map(value):
    """The java.util.Map Pyrolite makes of the pickled value, or None."""
    if isinstance(value, dict):
        return value
    if hasattr(value, "__dict__") and not isinstance(value, type):
        cls = type(value)
        attributes = dict(value.__dict__)
        attributes["__class__"] = "%s.%s" % (cls.__module__, cls.__qualname__)
        return attributes
    return None


def _map_converter(type_info) -> Callable[[Any], Any]:
    convert_key = _converter(type_info._key_type_info)
    convert_value = _converter(type_info._value_type_info)

    def convert(value):
        items = _as_java_map(value)
        if items is None:
            return _NULL
        out = {}
        for k, v in items.items():
            k, v = _field(convert_key, k), _field(convert_value, v)
            if v is None or v is _NULL or k is _NULL:
                raise TypeError("from_collection: element %r: a map value is null after "
                                "conversion to %r (PyFlink fails with a NullPointerException)"
                                % (value, type_info))
            if k in out:
                raise ValueError("from_collection: element %r: Duplicate key %r after "
                                 "conversion to %r (as in PyFlink)" % (value, k, type_info))
            out[k] = v
        return out
    return convert
