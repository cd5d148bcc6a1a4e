"""Per-type behaviour of Flink's basic types at the Python/JVM boundary.

For each basic type: how PyFlink's coder changes a Python value when it crosses into the JVM
and back (``convert``), how Java prints it (``java_str``), its Java ``hashCode`` (for HashMap
order) and its Java class name (for array class names such as ``[Ljava.lang.Integer;``).

The behaviours were observed on real PyFlink 1.20 (see tests/test_common_typeinfo_observed.py);
error messages quote what PyFlink's coder raises so a failing job fails the same way.
"""
import datetime
import decimal
from typing import Any, Callable, NamedTuple, Optional

from pyflink_on_spark.common._java_text import (
    java_big_decimal_hash, java_big_integer_hash, java_bool_hash, java_bool_str,
    java_char_hash, java_double_hash, java_double_str, java_float_hash, java_float_str,
    java_instant_hash, java_instant_str, java_long_hash, java_string_hash, to_float32)


class BasicBehaviour(NamedTuple):
    convert: Optional[Callable[[Any], Any]]  # None: the value comes back unchanged
    java_str: Callable[[Any], str]
    java_hash: Optional[Callable[[Any], int]]
    java_class: str
    primitive_code: Optional[str]  # JVM descriptor of the primitive ("I" for int), if any


def _returns_unchanged(convert, test: str) -> None:
    """Mark `convert` as returning a value for which `test` holds as it is. `test` is a
    Python expression over a value named {v}, true only when the value is of exactly the
    builtin class the converter returns (and in its range, for ints). Tuple converters
    compile it into their per-record test (common/typeinfo.py), and an exit's loop writes it
    inline (runtime/exits/loops.py), sparing a call per record or field. An attribute of the
    function, not a table: a stage's converters reach its tasks pickled, closures by value."""
    convert.unchanged_when = test


def unchanged_when(convert) -> Optional[str]:
    """The expression of _returns_unchanged over {v}; None when `convert` has none."""
    return getattr(convert, "unchanged_when", None)


def _int_converter(type_name: str, bits: int) -> Callable[[Any], int]:
    low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    c_name = "int%d_t" % bits

    def convert(value):
        if type(value) is not int:
            if value is None or isinstance(value, str) or not hasattr(value, "__int__"):
                raise TypeError("Types.%s() expects an int, got %s %r (PyFlink fails here too:"
                                " an integer is required)" % (type_name, type(value).__name__,
                                                             value))
            # PyFlink's coder casts: True -> 1, 3.7 -> 3
            value = int(value)
        if value < low or value > high:
            raise OverflowError("value too large to convert to %s (Types.%s() holds %d..%d)"
                                % (c_name, type_name, low, high))
        return value
    _returns_unchanged(convert, "({v}.__class__ is int and %d <= {v} <= %d)" % (low, high))
    return convert


def _convert_string(value):
    if type(value) is str or value is None:
        # a None string crosses the boundary (it fails later, e.g. in a print sink)
        return value
    if isinstance(value, str):
        return str(value)
    raise TypeError("Types.STRING() expects a str, got %s %r (PyFlink fails here too: '%s' "
                    "object has no attribute 'encode')" % (type(value).__name__, value,
                                                          type(value).__name__))


def _convert_boolean(value):
    if type(value) is bool:
        return value
    if value is None:
        raise TypeError("Types.BOOLEAN() does not accept None at this position")
    return bool(value)


def _float_check(type_name: str, value):
    if value is None or isinstance(value, str):
        raise TypeError("Types.%s() expects a float, got %s %r (PyFlink fails here too: "
                        "must be real number)" % (type_name, type(value).__name__, value))


def _convert_double(value):
    if type(value) is float:
        return value
    _float_check("DOUBLE", value)
    return float(value)


def _convert_float(value):
    if type(value) is not float:
        _float_check("FLOAT", value)
    # a Java float keeps 24 bits of mantissa: 0.1 comes back as 0.10000000149011612
    return to_float32(value)


def _convert_big_dec(value):
    if type(value) is decimal.Decimal or value is None:
        # None crosses the boundary (observed; BIG_DEC is nullable)
        return value
    # PyFlink sends str(value) and Java parses it as a BigDecimal
    return decimal.Decimal(str(value))


def _convert_instant(value):
    from pyflink_on_spark.common.time import Instant
    if type(value) is Instant or value is None:
        # None crosses the boundary (observed; INSTANT is nullable)
        return value
    if not hasattr(value, "seconds") or not hasattr(value, "nanos"):
        raise TypeError("Types.INSTANT() expects an Instant, got %s %r"
                        % (type(value).__name__, value))
    return Instant(value.seconds, value.nanos)


def _java_big_dec_str(value) -> str:
    d = value if isinstance(value, decimal.Decimal) else decimal.Decimal(str(value))
    if d.is_zero() and d.is_signed():
        d = d.copy_abs()  # BigDecimal has no negative zero
    # Python's Decimal.__str__ and BigDecimal.toString share the same scientific-notation rule
    return str(d)


def _java_int_hash(value) -> int:
    return int(value)


def _java_long_hash(value) -> int:
    return java_long_hash(int(value))


def _char_str(value) -> str:
    return str(value)


def _int_str(value) -> str:
    return str(int(value))


def _instant_str(value) -> str:
    return java_instant_str(value.seconds, value.nanos)


_returns_unchanged(_convert_string, "{v}.__class__ is str")
_returns_unchanged(_convert_boolean, "{v}.__class__ is bool")
_returns_unchanged(_convert_double, "{v}.__class__ is float")


# keyed by BasicType.value ("String", "Integer", ...) to avoid an import cycle with typeinfo
BEHAVIOURS = {
    "String": BasicBehaviour(_convert_string, str, java_string_hash, "java.lang.String", None),
    "Byte": BasicBehaviour(_int_converter("BYTE", 8), _int_str, _java_int_hash,
                           "java.lang.Byte", "B"),
    "Boolean": BasicBehaviour(_convert_boolean, java_bool_str, java_bool_hash,
                              "java.lang.Boolean", "Z"),
    "Short": BasicBehaviour(_int_converter("SHORT", 16), _int_str, _java_int_hash,
                            "java.lang.Short", "S"),
    "Integer": BasicBehaviour(_int_converter("INT", 32), _int_str, _java_int_hash,
                              "java.lang.Integer", "I"),
    "Long": BasicBehaviour(_int_converter("LONG", 64), _int_str, _java_long_hash,
                           "java.lang.Long", "J"),
    "Float": BasicBehaviour(_convert_float, java_float_str, java_float_hash,
                            "java.lang.Float", "F"),
    "Double": BasicBehaviour(_convert_double, java_double_str, java_double_hash,
                             "java.lang.Double", "D"),
    # CHAR and BIG_INT do not survive a Python operator in PyFlink 1.20 (its coder sends a
    # UTF-8 string for CHAR and an int64 for BIG_INT; the JVM side reads something else), so
    # there is no observed behaviour to copy: the shim passes them through unchanged.
    "Char": BasicBehaviour(None, _char_str, java_char_hash, "java.lang.Character", "C"),
    "BigInteger": BasicBehaviour(None, _int_str, java_big_integer_hash, "java.math.BigInteger",
                                 None),
    "BigDecimal": BasicBehaviour(_convert_big_dec, _java_big_dec_str, java_big_decimal_hash,
                                 "java.math.BigDecimal", None),
    "Instant": BasicBehaviour(_convert_instant, _instant_str, java_instant_hash,
                              "java.time.Instant", None),
}


# ---------------------------------------------------------------------------------------------
# java.sql / java.time values (DateTypeInfo, TimeTypeInfo, TimestampTypeInfo, LocalTimeTypeInfo)
# ---------------------------------------------------------------------------------------------

_EPOCH = datetime.datetime(1970, 1, 1)
_UTC = datetime.timezone.utc


def convert_sql_date(value):
    # PyFlink sends the day number (date.toordinal()), so a datetime comes back as its date;
    # None crosses the boundary (observed)
    if type(value) is datetime.date or value is None:
        return value
    if isinstance(value, datetime.date):
        return datetime.date(value.year, value.month, value.day)
    raise TypeError("Types.SQL_DATE() expects a datetime.date, got %s %r"
                    % (type(value).__name__, value))


def convert_sql_time(value):
    # PyFlink sends milliseconds of the day: microseconds below a millisecond are dropped;
    # None crosses the boundary (observed)
    if value is None:
        return None
    if not isinstance(value, datetime.time):
        raise TypeError("Types.SQL_TIME() expects a datetime.time, got %s %r"
                        % (type(value).__name__, value))
    micro = value.microsecond // 1000 * 1000
    if micro == value.microsecond and value.tzinfo is None:
        return value
    return datetime.time(value.hour, value.minute, value.second, micro)


def _c_divmod(a: int, b: int):
    """Integer division truncating towards zero (C semantics, as PyFlink's fast coder)."""
    q = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        q = -q
    return q, a - q * b


def timestamp_to_millis(value: datetime.datetime) -> int:
    """What PyFlink's TimestampCoder (precision 3) sends: epoch milliseconds of the wall-clock
    read as UTC (any tzinfo is dropped, not applied), seconds truncated towards zero."""
    seconds = int(value.replace(tzinfo=_UTC).timestamp())
    return seconds * 1000 + value.microsecond // 1000


def convert_sql_timestamp(value):
    """PyFlink's TimestampCoder round trip: only milliseconds are kept.

    Before 1970 the truncation towards zero moves values with a fraction of a second: a
    sub-millisecond fraction rounds up to the next second, and a millisecond fraction makes
    PyFlink's decoder fail with "microsecond must be in 0..999999".
    """
    if not isinstance(value, datetime.datetime):
        # unlike SQL_DATE and SQL_TIME, a None timestamp fails in PyFlink (observed)
        raise TypeError("Types.SQL_TIMESTAMP() expects a datetime.datetime, got %s %r"
                        % (type(value).__name__, value))
    if value.tzinfo is None and value.year >= 1970 and value.microsecond % 1000 == 0:
        return value
    second, milli = _c_divmod(timestamp_to_millis(value), 1000)
    if milli < 0:
        raise ValueError("microsecond must be in 0..999999 (PyFlink cannot read back the "
                         "timestamp %r either)" % (value,))
    return _EPOCH + datetime.timedelta(seconds=second, microseconds=milli * 1000)


def millis_to_datetime(millis: int) -> datetime.datetime:
    """The wall-clock (UTC) of a java.sql.Timestamp holding epoch milliseconds."""
    return _EPOCH + datetime.timedelta(milliseconds=millis)


def convert_local_date(value):
    if not isinstance(value, datetime.date):
        raise TypeError("LOCAL_DATE expects a datetime.date, got %s" % type(value).__name__)
    return datetime.date(value.year, value.month, value.day)


def convert_local_time(value):
    if not isinstance(value, datetime.time):
        raise TypeError("LOCAL_TIME expects a datetime.time, got %s" % type(value).__name__)
    return datetime.time(value.hour, value.minute, value.second, value.microsecond)


def convert_local_date_time(value):
    if not isinstance(value, datetime.datetime):
        raise TypeError("LOCAL_DATE_TIME expects a datetime.datetime, got %s"
                        % type(value).__name__)
    return datetime.datetime(value.year, value.month, value.day, value.hour, value.minute,
                             value.second, value.microsecond)


def java_local_time_str(t: datetime.time) -> str:
    """LocalTime.toString(): HH:mm, then :ss and a 3/6/9-digit fraction when non-zero."""
    text = "%02d:%02d" % (t.hour, t.minute)
    if t.second or t.microsecond:
        text += ":%02d" % t.second
        if t.microsecond:
            text += (".%03d" % (t.microsecond // 1000)) if t.microsecond % 1000 == 0 \
                else ".%06d" % t.microsecond
    return text


def epoch_millis_hash(millis: int) -> int:
    """java.util.Date.hashCode() for a time in epoch milliseconds."""
    return java_long_hash(millis)
