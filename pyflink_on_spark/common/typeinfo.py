"""pyflink.common.typeinfo mirror: TypeInformation and the Types factory.

Besides PyFlink's public API, every TypeInformation has engine-internal methods:

* ``_from_python(value)``: the value as the next Python operator receives it after it crossed
  the JVM with this declared type (PyFlink encodes it with the type's coder, Java rebuilds a
  Java object, the next Python operator decodes it). A Row comes back with the type's field
  names, a FLOAT loses precision, a dict comes back in java.util.HashMap order; what PyFlink
  rejects (a tuple declared ROW, a list declared TUPLE, None for INT...) raises here too.
  PyFlink does *not* convert between chained Python operators (a Python operator whose only
  consumer is one Python operator, forward-connected): the object is passed as is. It
  converts at every other boundary: shuffles (key_by, rebalance...), fan-out to several
  consumers, and into Java operators and sinks.
* ``_python_converter()``: ``_from_python`` as a callable, or None when values cross
  unchanged, so the engine can skip the call per record (built once per type).
* ``_to_java_string(value)``: the line ``DataStream.print()`` writes for a record. PyFlink
  prints Row streams in Python with a formatter chained to the upstream operator, so a Row
  is printed as given (``+I[1,a]``: str() of each field); other types are printed by Java
  (``toString`` of the converted value: ``1.0E10``, ``true``, ``(1,a)``, ``{k=v}``); streams
  without a declared type print ``str(value)``.
* ``_java_str(value)``: Java's toString of an already converted value (what a file sink with
  ``Encoder.simple_string_encoder()`` writes; Rows render as Java's ``+I[1, a]``).

What was observed on real PyFlink 1.20 is asserted in tests/test_common_typeinfo_observed.py.
"""
import calendar
import datetime
import decimal
import time
from enum import Enum
from typing import Any, Callable, List, Optional

from pyflink_on_spark.common import _basic_values as bv
from pyflink_on_spark.common._java_text import (
    hashmap_order, java_bytes_hash, java_identity_str, java_sql_date_str, java_sql_time_str,
    java_sql_timestamp_str, epoch_days_millis)
from pyflink_on_spark.common._key_hash import (
    is_row, java_inferred_hash, pickle_key, row_kind_value, row_values)
from pyflink_on_spark.common.utils import no_jvm

__all__ = ['TypeInformation', 'Types']


# what hashing a value of another type than declared raises: it is then hashed as inferred
_NOT_OF_THIS_TYPE = (TypeError, ValueError, AttributeError, OverflowError,
                     decimal.InvalidOperation)
_MASK = 0xFFFFFFFF


def _int32(x: int) -> int:
    x &= _MASK
    return x - 0x100000000 if x & 0x80000000 else x


def _null_safe(fn: Callable[[Any], str]) -> Callable[[Any], str]:
    """Java's String.valueOf: null prints as "null"."""
    def render(v):
        return "null" if v is None else fn(v)
    return render


class TypeInformation(object):
    """Describes the type of the records of a stream (Flink's core type abstraction).

    It decides how records are serialized between operators; in PyFlink it also decides how
    records look after they crossed the JVM and how ``print()`` renders them.
    """

    def __init__(self):
        pass

    def get_java_type_info(self):
        no_jvm("%s.get_java_type_info()" % type(self).__name__,
               "it returns the Java TypeInformation")

    def need_conversion(self) -> bool:
        """Whether values need converting between Python objects and PyFlink's internal form."""
        return False

    def to_internal_type(self, obj):
        """Python object -> PyFlink's internal form."""
        return obj

    def from_internal_type(self, obj):
        """PyFlink's internal form -> Python object."""
        return obj

    # -- engine internals ----------------------------------------------------------------------

    def _build_converter(self) -> Optional[Callable[[Any], Any]]:
        """Build the converter of ``_python_converter`` (subclasses override)."""
        return None

    def _python_converter(self) -> Optional[Callable[[Any], Any]]:
        """``_from_python`` as a callable, or None when values cross unchanged."""
        # built once per type: Row/Tuple/Map converters are closures over their field types
        try:
            return self._converter_cache[0]
        except AttributeError:
            self._converter_cache = (self._build_converter(),)
            return self._converter_cache[0]

    def _from_python(self, value):
        convert = self._python_converter()
        return value if convert is None else convert(value)

    def _to_java_string(self, value) -> str:
        """The text PyFlink's print sink writes for a record of this type."""
        if value is None:
            raise TypeError("%r stream: a None record cannot be printed (Java's print sink "
                            "fails with a NullPointerException in PyFlink)" % (self,))
        convert = self._python_converter()
        return self._java_str(value if convert is None else convert(value))

    def __getstate__(self):
        # cached converters are closures: rebuild them after unpickling
        state = dict(self.__dict__)
        state.pop('_converter_cache', None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)

    def _java_str(self, value) -> str:
        """Java's toString of the JVM object that holds ``value`` (already converted)."""
        return str(value)

    def _java_deep_str(self, value) -> str:
        """StringUtils.arrayAwareToString (used by Tuple fields, and by Row fields beneath
        lists and maps): like _java_str except that arrays print their elements."""
        return self._java_str(value)

    def _java_row_str(self, value) -> str:
        """RowUtils.deepToString (Row.toString of its fields): arrays, lists and maps print
        their elements this way too, down to an object that is none of them (then
        arrayAwareToString). Seen on PyFlink 1.20.5: a Row's LIST(PICKLED_BYTE_ARRAY)
        field prints byte lists where a Tuple's prints [B@... (compat case
        rendering/pickled_fields_in_containers)."""
        return self._java_deep_str(value)

    def _java_tuple_field_str(self, value) -> str:
        """A Tuple field's text: "null" for None (Tuple.toString's arrayAwareToString)."""
        return "null" if value is None else self._java_deep_str(value)

    def _java_hash(self, value) -> Optional[int]:
        """Java hashCode of the JVM object, or None when unknown (for HashMap order)."""
        return None

    def _java_key_hash(self, value) -> int:
        """hashCode() of the Java object PyFlink builds for ``value`` declared as this type:
        what key_by's partitioner hashes (runtime/key_groups.py). Never None: a value this
        type does not model is hashed as the Java object that most naturally holds it. Unlike
        _java_hash, arrays and pickled values hash by content (Java's identity hash of an
        array cannot be reproduced)."""
        if value is None:
            return 0
        try:
            h = self._java_key_hash_of(value)
        except _NOT_OF_THIS_TYPE:
            h = None
        return java_inferred_hash(value) if h is None else h

    def _java_key_hash_of(self, value) -> Optional[int]:
        """_java_key_hash of a non-None value; None (or one of _NOT_OF_THIS_TYPE raised) for a
        value this type does not model."""
        return self._java_hash(value)

    def _java_deep_hash(self, value) -> int:
        """RowUtils.deepHashCodeInternal: how a Row hashes a field of this type (0 for null,
        31 + hashCode for a plain object; lists, maps and arrays element by element)."""
        if value is None:
            return 0
        return _int32(31 + self._java_key_hash(value))

    def _java_descriptor(self) -> str:
        """JVM descriptor of the Java class (``Ljava/lang/String;`` style, dotted)."""
        return "Ljava.lang.Object;"


# =============================================================================================
# basic types
# =============================================================================================

class BasicType(Enum):
    STRING = "String"
    BYTE = "Byte"
    BOOLEAN = "Boolean"
    SHORT = "Short"
    INT = "Integer"
    LONG = "Long"
    FLOAT = "Float"
    DOUBLE = "Double"
    CHAR = "Char"
    BIG_INT = "BigInteger"
    BIG_DEC = "BigDecimal"
    INSTANT = "Instant"


class BasicTypeInfo(TypeInformation):
    """Type information for primitive types (int, long, double, ...), String, BigInteger,
    BigDecimal and Instant."""

    def __init__(self, basic_type: BasicType):
        super(BasicTypeInfo, self).__init__()
        self._basic_type = basic_type
        self._behaviour = bv.BEHAVIOURS[basic_type.value]

    def __eq__(self, o) -> bool:
        if isinstance(o, BasicTypeInfo):
            return self._basic_type == o._basic_type
        return False

    def __hash__(self):
        return hash(("BasicTypeInfo", self._basic_type))

    def __repr__(self):
        return self._basic_type.value

    def __getstate__(self):
        # the behaviour table holds closures; it is looked up again after unpickling
        state = TypeInformation.__getstate__(self)
        state.pop('_behaviour', None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._behaviour = bv.BEHAVIOURS[self._basic_type.value]

    def _build_converter(self):
        return self._behaviour.convert

    def _java_str(self, value) -> str:
        return self._behaviour.java_str(value)

    def _java_hash(self, value):
        fn = self._behaviour.java_hash
        return None if fn is None else fn(value)

    def _java_descriptor(self) -> str:
        return "L%s;" % self._behaviour.java_class

    @staticmethod
    def STRING_TYPE_INFO():
        return BasicTypeInfo(BasicType.STRING)

    @staticmethod
    def BOOLEAN_TYPE_INFO():
        return BasicTypeInfo(BasicType.BOOLEAN)

    @staticmethod
    def BYTE_TYPE_INFO():
        return BasicTypeInfo(BasicType.BYTE)

    @staticmethod
    def SHORT_TYPE_INFO():
        return BasicTypeInfo(BasicType.SHORT)

    @staticmethod
    def INT_TYPE_INFO():
        return BasicTypeInfo(BasicType.INT)

    @staticmethod
    def LONG_TYPE_INFO():
        return BasicTypeInfo(BasicType.LONG)

    @staticmethod
    def FLOAT_TYPE_INFO():
        return BasicTypeInfo(BasicType.FLOAT)

    @staticmethod
    def DOUBLE_TYPE_INFO():
        return BasicTypeInfo(BasicType.DOUBLE)

    @staticmethod
    def CHAR_TYPE_INFO():
        return BasicTypeInfo(BasicType.CHAR)

    @staticmethod
    def BIG_INT_TYPE_INFO():
        return BasicTypeInfo(BasicType.BIG_INT)

    @staticmethod
    def BIG_DEC_TYPE_INFO():
        return BasicTypeInfo(BasicType.BIG_DEC)

    @staticmethod
    def INSTANT_TYPE_INFO():
        return InstantTypeInfo(BasicType.INSTANT)


class InstantTypeInfo(BasicTypeInfo):
    """Type information for Instant (internally microseconds since the epoch)."""

    def __init__(self, basic_type: BasicType):
        super(InstantTypeInfo, self).__init__(basic_type)

    def need_conversion(self):
        return True

    def to_internal_type(self, obj):
        return obj.to_epoch_milli() * 1000

    def from_internal_type(self, obj):
        from pyflink_on_spark.common.time import Instant
        return Instant.of_epoch_milli(obj // 1000)


# =============================================================================================
# java.sql time types
# =============================================================================================

class SqlTimeTypeInfo(TypeInformation):
    """Factory of the java.sql Date/Time/Timestamp type informations."""

    @staticmethod
    def DATE():
        return DateTypeInfo()

    @staticmethod
    def TIME():
        return TimeTypeInfo()

    @staticmethod
    def TIMESTAMP():
        return TimestampTypeInfo()


class _SingletonTypeInfo(TypeInformation):
    """A type without parameters: all instances are equal."""

    def __eq__(self, o) -> bool:
        return isinstance(o, type(self))

    def __hash__(self):
        return hash(type(self).__name__)

    def __repr__(self):
        return type(self).__name__


class DateTypeInfo(_SingletonTypeInfo):
    """Type information for java.sql.Date (Python datetime.date)."""

    EPOCH_ORDINAL = datetime.datetime(1970, 1, 1).toordinal()

    def __init__(self):
        super(DateTypeInfo, self).__init__()

    def need_conversion(self):
        return True

    def to_internal_type(self, d):
        if d is not None:
            return d.toordinal() - self.EPOCH_ORDINAL

    def from_internal_type(self, v):
        if v is not None:
            return datetime.date.fromordinal(v + self.EPOCH_ORDINAL)

    def _build_converter(self):
        return bv.convert_sql_date

    def _java_str(self, value) -> str:
        return java_sql_date_str(value)

    def _java_hash(self, value):
        return bv.epoch_millis_hash(epoch_days_millis(value))

    def _java_descriptor(self) -> str:
        return "Ljava.sql.Date;"


class TimeTypeInfo(_SingletonTypeInfo):
    """Type information for java.sql.Time (Python datetime.time)."""

    # offset of the local time zone at the epoch, in microseconds (0 under UTC)
    EPOCH_ORDINAL = calendar.timegm(time.localtime(0)) * 10 ** 6

    def need_conversion(self):
        return True

    def to_internal_type(self, t):
        if t is not None:
            if t.tzinfo is not None:
                offset = t.utcoffset() or datetime.timedelta()
                offset_micros = (offset.days * 86400 + offset.seconds) * 10 ** 6 \
                    + offset.microseconds
            else:
                offset_micros = self.EPOCH_ORDINAL
            seconds = (t.hour * 60 + t.minute) * 60 + t.second
            return seconds * 10 ** 6 + t.microsecond - offset_micros

    def from_internal_type(self, t):
        if t is not None:
            seconds, microseconds = divmod(t + self.EPOCH_ORDINAL, 10 ** 6)
            minutes, seconds = divmod(seconds, 60)
            hours, minutes = divmod(minutes, 60)
            return datetime.time(hours, minutes, seconds, microseconds)

    def _build_converter(self):
        return bv.convert_sql_time

    def _java_str(self, value) -> str:
        return java_sql_time_str(value)

    def _java_hash(self, value):
        millis = ((value.hour * 60 + value.minute) * 60 + value.second) * 1000 \
            + value.microsecond // 1000
        return bv.epoch_millis_hash(millis)

    def _java_descriptor(self) -> str:
        return "Ljava.sql.Time;"


class TimestampTypeInfo(_SingletonTypeInfo):
    """Type information for java.sql.Timestamp (Python datetime.datetime)."""

    def need_conversion(self):
        return True

    def to_internal_type(self, dt):
        if dt is not None:
            seconds = (calendar.timegm(dt.utctimetuple()) if dt.tzinfo
                       else time.mktime(dt.timetuple()))
            return int(seconds) * 10 ** 6 + dt.microsecond

    def from_internal_type(self, ts):
        if ts is not None:
            return datetime.datetime.fromtimestamp(ts // 10 ** 6).replace(
                microsecond=ts % 10 ** 6)

    def _build_converter(self):
        return bv.convert_sql_timestamp

    def _to_java_string(self, value) -> str:
        # the print sink is in the JVM: it prints the milliseconds PyFlink sent (no decoding
        # back into Python, so pre-1970 values that PyFlink cannot decode still print)
        if not isinstance(value, datetime.datetime):
            return TypeInformation._to_java_string(self, value)
        return java_sql_timestamp_str(bv.millis_to_datetime(bv.timestamp_to_millis(value)))

    def _java_str(self, value) -> str:
        return java_sql_timestamp_str(value)

    def _java_hash(self, value):
        delta = value - datetime.datetime(1970, 1, 1)
        return bv.epoch_millis_hash(delta // datetime.timedelta(milliseconds=1))

    def _java_descriptor(self) -> str:
        return "Ljava.sql.Timestamp;"


class LocalTimeTypeInfo(TypeInformation):
    """Type information for java.time LocalDate / LocalTime / LocalDateTime."""

    class TimeType(Enum):
        LOCAL_DATE = 0
        LOCAL_TIME = 1
        LOCAL_DATE_TIME = 2

    def __init__(self, time_type: 'LocalTimeTypeInfo.TimeType'):
        super(LocalTimeTypeInfo, self).__init__()
        self._time_type = time_type

    def __eq__(self, other):
        return self.__class__ == other.__class__ and self._time_type == other._time_type

    def __hash__(self):
        return hash(("LocalTimeTypeInfo", self._time_type))

    def __repr__(self):
        return 'LocalTimeTypeInfo<{}>'.format(self._time_type.name)

    def _build_converter(self):
        kind = self._time_type
        if kind == LocalTimeTypeInfo.TimeType.LOCAL_DATE:
            return bv.convert_local_date
        if kind == LocalTimeTypeInfo.TimeType.LOCAL_TIME:
            return bv.convert_local_time
        return bv.convert_local_date_time

    def _java_str(self, value) -> str:
        kind = self._time_type
        if kind == LocalTimeTypeInfo.TimeType.LOCAL_DATE:
            return java_sql_date_str(value)
        if kind == LocalTimeTypeInfo.TimeType.LOCAL_TIME:
            return bv.java_local_time_str(value)
        return java_sql_date_str(value) + "T" + bv.java_local_time_str(value.time())

    def _java_descriptor(self) -> str:
        return "Ljava.time.%s;" % {0: "LocalDate", 1: "LocalTime", 2: "LocalDateTime"}[
            self._time_type.value]


# =============================================================================================
# arrays, lists, maps
# =============================================================================================

def _elements_converter(element_type: TypeInformation, allow_none: bool, what: str):
    convert = element_type._python_converter()

    def convert_list(value):
        # PyFlink's coder wants a list: a tuple fails with "Expected list, got tuple"
        if not isinstance(value, list):
            raise TypeError("Expected list, got %s (a value declared %s must be a list; "
                            "PyFlink fails here too)" % (type(value).__name__, what))
        if convert is None and allow_none:
            return list(value)
        out = []
        for e in value:
            if e is None:
                if not allow_none:
                    # PyFlink's coder fails on it (for INT elements: "an integer is required")
                    raise TypeError("%s does not accept None elements (PyFlink fails here too)"
                                    % what)
                out.append(None)
            else:
                out.append(e if convert is None else convert(e))
        return out
    return convert_list


class _ArrayTypeInfo(TypeInformation):
    """Common behaviour of the Java array types: printed as ``[I@1b6d3586`` at the top
    level and in lists/maps, as ``[1, 2]`` inside rows and tuples."""

    _allow_none = True

    def __init__(self, element_type: TypeInformation):
        super(_ArrayTypeInfo, self).__init__()
        self._element_type = element_type

    def __eq__(self, o) -> bool:
        if isinstance(o, type(self)):
            return self._element_type == o._element_type
        return False

    def __hash__(self):
        return hash((type(self).__name__, self._element_type))

    def __repr__(self):
        return "%s<%s>" % (type(self).__name__, self._element_type)

    def _build_converter(self):
        return _elements_converter(self._element_type, self._allow_none, repr(self))

    def _java_str(self, value) -> str:
        # Java arrays do not override toString: class name @ identity hash
        return java_identity_str(self._java_class_name(), value)

    def _java_deep_str(self, value) -> str:
        render = _null_safe(self._element_type._java_deep_str)
        return "[" + ", ".join(render(e) for e in value) + "]"

    def _java_row_str(self, value) -> str:
        render = _null_safe(self._element_type._java_row_str)
        return "[" + ", ".join(render(e) for e in value) + "]"

    def _java_class_name(self) -> str:
        return "[" + self._element_type._java_descriptor()

    def _java_descriptor(self) -> str:
        return self._java_class_name()

    def _java_key_hash_of(self, value) -> int:
        return self._content_hash(value)

    def _content_hash(self, value) -> int:
        # Arrays.hashCode of the array's elements
        if isinstance(value, (bytes, bytearray)):
            return java_bytes_hash(value)
        element = self._element_type
        h = 1
        for item in value:
            h = (31 * h + element._java_key_hash(item)) & _MASK
        return _int32(h)

    def _java_deep_hash(self, value) -> int:
        if value is None or isinstance(value, (str, bytes)):
            return super(_ArrayTypeInfo, self)._java_deep_hash(value)
        element = self._element_type
        h = 1
        for item in value:
            h = (31 * h + element._java_deep_hash(item)) & _MASK
        return _int32(h)


class PrimitiveArrayTypeInfo(_ArrayTypeInfo):
    """Arrays of Java primitives (int[], double[], ...); bytes for PRIMITIVE_ARRAY(BYTE)."""

    _allow_none = False

    def _primitive_code(self) -> str:
        element = self._element_type
        code = element._behaviour.primitive_code if isinstance(element, BasicTypeInfo) else None
        if code is None:
            raise TypeError("Invalid element type for a primitive array.")
        return code

    def _build_converter(self):
        if self._element_type == BasicTypeInfo.BYTE_TYPE_INFO():
            return _convert_bytes
        return super(PrimitiveArrayTypeInfo, self)._build_converter()

    def _java_class_name(self) -> str:
        return "[" + self._primitive_code()

    def _java_deep_str(self, value) -> str:
        if isinstance(value, (bytes, bytearray)):
            # Arrays.toString(byte[]) prints signed bytes
            return "[" + ", ".join(str(b - 256 if b > 127 else b) for b in value) + "]"
        return super(PrimitiveArrayTypeInfo, self)._java_deep_str(value)

    def _java_deep_hash(self, value) -> int:
        if value is None:
            return 0
        return _int32(31 + self._content_hash(value))


def _convert_bytes(value):
    if isinstance(value, bytes):
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    raise TypeError("PRIMITIVE_ARRAY(BYTE) expects bytes, got %s %r" % (type(value).__name__,
                                                                       value))


class BasicArrayTypeInfo(_ArrayTypeInfo):
    """Arrays of boxed basic types (Integer[], String[], ...)."""

    def _java_class_name(self) -> str:
        if not isinstance(self._element_type, BasicTypeInfo) \
                or self._element_type._basic_type in (BasicType.BIG_INT, BasicType.BIG_DEC,
                                                      BasicType.INSTANT):
            raise TypeError("Invalid element type for a basic array.")
        return "[" + self._element_type._java_descriptor()


class ObjectArrayTypeInfo(_ArrayTypeInfo):
    """Arrays of non-primitive types (None elements allowed)."""


class ListTypeInfo(TypeInformation):
    """A list of elements of one type (java.util.List on the Java side)."""

    def __init__(self, element_type: TypeInformation):
        super(ListTypeInfo, self).__init__()
        self.elem_type = element_type

    def __eq__(self, other):
        if isinstance(other, ListTypeInfo):
            return self.elem_type == other.elem_type
        return False

    def __hash__(self):
        return hash(("ListTypeInfo", self.elem_type))

    def __repr__(self):
        return "ListTypeInfo<%s>" % self.elem_type

    def _build_converter(self):
        # observed: LIST(INT) with a None element fails in PyFlink
        return _elements_converter(self.elem_type, False, repr(self))

    def _java_str(self, value) -> str:
        # AbstractCollection.toString: String.valueOf of each element (arrays stay "[I@..")
        render = _null_safe(self.elem_type._java_str)
        return "[" + ", ".join(render(e) for e in value) + "]"

    def _java_row_str(self, value) -> str:
        render = _null_safe(self.elem_type._java_row_str)
        return "[" + ", ".join(render(e) for e in value) + "]"

    def _java_descriptor(self) -> str:
        return "Ljava.util.List;"

    def _java_key_hash_of(self, value) -> int:
        # ArrayList.hashCode()
        h = 1
        for item in value:
            h = (31 * h + self.elem_type._java_key_hash(item)) & _MASK
        return _int32(h)

    def _java_deep_hash(self, value) -> int:
        if value is None or isinstance(value, (str, bytes)):
            return super(ListTypeInfo, self)._java_deep_hash(value)
        h = 1
        for item in value:
            h = (31 * h + self.elem_type._java_deep_hash(item)) & _MASK
        return _int32(h)


class MapTypeInfo(TypeInformation):
    """A dict with keys of one type and values of another (java.util.HashMap in the JVM)."""

    def __init__(self, key_type_info: TypeInformation, value_type_info: TypeInformation):
        super(MapTypeInfo, self).__init__()
        self._key_type_info = key_type_info
        self._value_type_info = value_type_info

    def __eq__(self, other):
        if isinstance(other, MapTypeInfo):
            return self._key_type_info == other._key_type_info and \
                self._value_type_info == other._value_type_info
        return False

    def __hash__(self):
        return hash(("MapTypeInfo", self._key_type_info, self._value_type_info))

    def __repr__(self) -> str:
        return 'MapTypeInfo<{}, {}>'.format(self._key_type_info, self._value_type_info)

    def _java_ordered_items(self, items: List) -> List:
        """Items in the iteration order of the HashMap Flink's MapSerializer rebuilds."""
        key_type = self._key_type_info
        hashes = []
        for k, _ in items:
            h = key_type._java_hash(k)
            if h is None:
                return items  # unknown Java hash: keep the Python order
            hashes.append(h)
        return [items[i] for i in hashmap_order(hashes)]

    def _build_converter(self):
        convert_key = self._key_type_info._python_converter()
        convert_value = self._value_type_info._python_converter()

        def convert(value):
            if not isinstance(value, dict):
                raise TypeError("%r expects a dict, got %s %r" % (self, type(value).__name__,
                                                                  value))
            items = []
            for k, v in value.items():
                if k is None:
                    raise TypeError("%r does not accept None keys" % (self,))
                if convert_key is not None:
                    k = convert_key(k)
                if v is not None and convert_value is not None:
                    v = convert_value(v)
                items.append((k, v))
            return dict(self._java_ordered_items(items))
        return convert

    def _java_str(self, value) -> str:
        return self._rendered(value, self._key_type_info._java_str,
                              self._value_type_info._java_str)

    def _java_row_str(self, value) -> str:
        return self._rendered(value, self._key_type_info._java_row_str,
                              self._value_type_info._java_row_str)

    def _rendered(self, value, key_str, value_str) -> str:
        # AbstractMap.toString, in the HashMap's iteration order
        render_key, render_value = _null_safe(key_str), _null_safe(value_str)
        items = self._java_ordered_items(list(value.items()))
        return "{" + ", ".join(render_key(k) + "=" + render_value(v) for k, v in items) + "}"

    def _java_descriptor(self) -> str:
        return "Ljava.util.Map;"

    def _java_key_hash_of(self, value) -> int:
        # HashMap.hashCode(): the sum of key.hashCode() ^ value.hashCode()
        key_type, value_type = self._key_type_info, self._value_type_info
        h = 0
        for k, v in value.items():
            h += key_type._java_key_hash(k) ^ value_type._java_key_hash(v)
        return _int32(h)

    def _java_deep_hash(self, value) -> int:
        if value is None or not hasattr(value, "items"):
            return super(MapTypeInfo, self)._java_deep_hash(value)
        key_type, value_type = self._key_type_info, self._value_type_info
        h = 1
        for k, v in value.items():
            h += key_type._java_deep_hash(k) ^ value_type._java_deep_hash(v)
        return _int32(h)


# =============================================================================================
# pickled bytes, rows, tuples
# =============================================================================================

class PickledBytesTypeInfo(TypeInformation):
    """No declared type: records travel as pickled bytes and come back as the same object."""

    def __eq__(self, o: object) -> bool:
        return isinstance(o, PickledBytesTypeInfo)

    def __hash__(self):
        return hash("PickledBytesTypeInfo")

    def __repr__(self):
        return "PickledByteArrayTypeInfo"

    def _build_converter(self):
        return _convert_pickled

    def _to_java_string(self, value) -> str:
        # PyFlink maps the stream with str() before printing (str and bytes are kept as is;
        # bytes then fail in the STRING coder)
        if isinstance(value, str):
            return value
        if isinstance(value, bytes):
            raise TypeError("a bytes record of a stream without declared type cannot be "
                            "printed (PyFlink fails too: 'bytes' object has no attribute "
                            "'encode')")
        return str(value)

    def _java_str(self, value) -> str:
        # inside Java containers the record is a byte[] of the pickle: "[B@..."
        return java_identity_str("[B", value)

    def _java_deep_str(self, value) -> str:
        # Arrays.toString(byte[]) of the pickle PyFlink's coder writes: signed bytes
        return "[" + ", ".join(str(b - 256 if b > 127 else b) for b in pickle_key(value)) + "]"

    def _java_tuple_field_str(self, value) -> str:
        # PyFlink's Tuple coder pickles a None field like any other value (a Row's is null)
        return self._java_deep_str(value)

    def _java_key_hash_of(self, value) -> int:
        # the byte[] of cloudpickle.dumps(value), hashed by content
        return java_bytes_hash(pickle_key(value))

    def _java_deep_hash(self, value) -> int:
        # null for None (PyFlink's Row coder writes None as null), else the byte[] by content
        if value is None:
            return 0
        return _int32(31 + java_bytes_hash(pickle_key(value)))

    def _java_descriptor(self) -> str:
        return "[B"


def _convert_pickled(value):
    # the object is pickled and unpickled: the same value comes back. A None record fails
    # (observed: Java's byte[] serializer gets null when it crosses a shuffle).
    if value is None:
        raise TypeError("a None record cannot cross the JVM in a stream without declared type "
                        "(PyFlink fails too)")
    return value


def _row_class():
    from pyflink_on_spark.common.types import Row
    return Row


class RowTypeInfo(TypeInformation):
    """Type information for Row; fields are named f0, f1, ... unless names are given."""

    def __init__(self, field_types: List[TypeInformation], field_names: List[str] = None):
        super(RowTypeInfo, self).__init__()
        self._field_types = field_types
        self._field_names = field_names
        self._need_conversion = [f.need_conversion() if isinstance(f, TypeInformation) else None
                                 for f in self._field_types]
        self._need_serialize_any_field = any(self._need_conversion)

    def get_field_names(self) -> List[str]:
        if not self._field_names:
            # Flink's RowTypeInfo default names; like PyFlink, remember them (repr changes)
            self._field_names = ["f%d" % i for i in range(len(self._field_types))]
        return self._field_names

    def get_field_index(self, field_name: str) -> int:
        if self._field_names:
            return self._field_names.index(field_name)
        return -1

    def get_field_types(self) -> List[TypeInformation]:
        return self._field_types

    def __eq__(self, other) -> bool:
        if isinstance(other, RowTypeInfo):
            return self._field_types == other._field_types
        return False

    def __hash__(self):
        return hash(("RowTypeInfo", tuple(self._field_types)))

    def __repr__(self) -> str:
        if self._field_names:
            return "RowTypeInfo(%s)" % ', '.join(
                [name + ': ' + str(t) for name, t in zip(self._field_names, self._field_types)])
        return "RowTypeInfo(%s)" % ', '.join([str(t) for t in self._field_types])

    def need_conversion(self):
        return True

    def to_internal_type(self, obj):
        """Row/tuple/list/dict/object -> (row kind value, field values...)."""
        if obj is None:
            return None
        Row = _row_class()
        if isinstance(obj, dict):
            values = [obj.get(n) for n in self.get_field_names()]
            kind = 0
        elif isinstance(obj, Row) and hasattr(obj, "_fields"):
            values = [obj[n] for n in self.get_field_names()]
            kind = obj.get_row_kind().value
        elif isinstance(obj, Row):
            values = list(obj)
            kind = obj.get_row_kind().value
        elif isinstance(obj, (list, tuple)):
            values = list(obj)
            kind = 0
        elif hasattr(obj, "__dict__"):
            d = obj.__dict__
            values = [d.get(n) for n in self.get_field_names()]
            kind = 0
        else:
            raise ValueError("Unexpected tuple %r with RowTypeInfo" % obj)
        if self._need_serialize_any_field:
            values = [f.to_internal_type(v) if c else v
                      for f, v, c in zip(self._field_types, values, self._need_conversion)]
        return (kind,) + tuple(values)

    def from_internal_type(self, obj):
        if obj is None:
            return None
        if isinstance(obj, (tuple, list)):
            return obj
        if self._need_serialize_any_field:
            return tuple(f.from_internal_type(v) if c else v
                         for f, v, c in zip(self._field_types, obj, self._need_conversion))
        return tuple(obj)

    # -- engine internals ----------------------------------------------------------------------

    def _names(self) -> List[str]:
        # the names the coder uses, without PyFlink's side effect of remembering them
        if self._field_names:
            return self._field_names
        return ["f%d" % i for i in range(len(self._field_types))]

    def _build_converter(self):
        from pyflink_on_spark.common.types import Row, _create_row
        names = self._names()
        arity = len(self._field_types)
        converters = [t._python_converter() for t in self._field_types]
        identity = all(c is None for c in converters)

        def convert(value):
            if not isinstance(value, Row):
                raise TypeError(
                    "a record declared %r must be a Row, got %s %r (PyFlink fails here too: "
                    "'%s' object has no attribute 'get_fields_by_names')"
                    % (self, type(value).__name__, value, type(value).__name__))
            values = value.get_fields_by_names(names)
            if len(values) != arity:
                if len(values) < arity:
                    raise ValueError("%r expects %d fields, got %d: %r"
                                     % (self, arity, len(values), value))
                values = values[:arity]  # PyFlink's coder ignores extra fields (observed)
            if not identity:
                values = [v if (c is None or v is None) else c(v)
                          for c, v in zip(converters, values)]
            # like PyFlink's decoder, all rows of the stream share the field-name list
            return _create_row(names, values, value._row_kind)
        return convert

    def _to_java_string(self, value) -> str:
        # PyFlink prints Row streams in Python: kind + "[" + str(field),... + "]"
        from pyflink_on_spark.common.types import Row
        if not isinstance(value, Row):
            raise TypeError("a record of a %r stream must be a Row to be printed, got %s %r "
                            "(PyFlink fails too)" % (self, type(value).__name__, value))
        return '%s[%s]' % (value._row_kind, ','.join([str(item) for item in value._values]))

    def _java_str(self, value) -> str:
        # org.apache.flink.types.Row.toString (for rows nested in Java containers)
        renderers = [_null_safe(t._java_row_str) for t in self._field_types]
        return "%s[%s]" % (value._row_kind, ", ".join(
            r(v) for r, v in zip(renderers, value._values)))

    def _java_descriptor(self) -> str:
        return "Lorg.apache.flink.types.Row;"

    def _java_key_hash_of(self, value) -> int:
        # Row.hashCode() = 31 * kind + deepHashCode(fields), the fields in the order PyFlink's
        # Row coder writes them
        h = 1
        for item, field_type in zip(row_values(value, self._field_names or None),
                                    self._field_types):
            h = (31 * h + field_type._java_deep_hash(item)) & _MASK
        kind = row_kind_value(value) if is_row(value) else 0
        return _int32(31 * kind + h)


def _pair_converter(converters: list, general: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Pairs, the commonest tuples, converted without a comprehension; a tuple whose fields
    come back unchanged is passed on as it is."""
    first, second = converters

    def convert_pair(value):
        if value.__class__ is tuple and len(value) == 2:
            a, b = value
            if a is not None and b is not None:
                x = a if first is None else first(a)
                y = b if second is None else second(b)
                return value if x is a and y is b else (x, y)
        return general(value)
    return convert_pair


def _with_unchanged_test(arity: int, converters: list,
                         convert: Callable[[Any], Any]) -> Optional[Callable[[Any], Any]]:
    """`convert` behind a test, compiled for these field types, that passes a tuple whose
    fields all hold the exact types the fields convert to (in range, for ints) on as it is,
    without a call per field: the per-record case. None when a field's converter has no such
    test (nested tuples, rows, ...)."""
    if arity == 0:
        return None
    names = ["f%d" % i for i in range(arity)]
    fields = [None if field_convert is None else bv.unchanged_when(field_convert)
              for field_convert in converters]
    if any(test is None and field_convert is not None
           for test, field_convert in zip(fields, converters)):
        return None
    # a field without a converter passes unless it is None (the general path's case)
    tests = ["%s is not None" % name if test is None else test.format(v=name)
             for name, test in zip(names, fields)]
    # compiled (as namedtuple and dataclasses compile theirs) so that the test is a single
    # expression in one frame
    source = ("def convert_unchanged(value):\n"
              "    if value.__class__ is tuple and len(value) == %d:\n"
              "        %s, = value\n"
              "        if %s:\n"
              "            return value\n"
              "    return convert(value)\n" % (arity, ", ".join(names), " and ".join(tests)))
    # __name__ gives the function a module: cloudpickle searches every loaded module for one
    # without (13 ms of a job's plan, measured with py-spy on the driver)
    namespace = {"convert": convert, "__name__": __name__}
    exec(source, namespace)
    convert_unchanged = namespace["convert_unchanged"]
    # each field's test over {v} (None: the field has no converter), for an exit's loop to
    # write inline (runtime/exits/loops.py)
    convert_unchanged.unchanged_fields = fields
    return convert_unchanged


class TupleTypeInfo(TypeInformation):
    """Type information for Python tuples (Flink's Tuple1..Tuple25 on the Java side)."""

    def __init__(self, field_types: List[TypeInformation]):
        super(TupleTypeInfo, self).__init__()
        self._field_types = field_types
        self._need_conversion = [f.need_conversion() if isinstance(f, TypeInformation) else None
                                 for f in self._field_types]
        self._need_serialize_any_field = any(self._need_conversion)

    def get_field_types(self) -> List[TypeInformation]:
        return self._field_types

    def need_conversion(self):
        return True

    def to_internal_type(self, obj):
        if obj is None:
            return None
        if not isinstance(obj, (list, tuple, _row_class())):
            raise ValueError("Unexpected tuple %r with TupleTypeInfo" % obj)
        if self._need_serialize_any_field:
            return tuple(f.to_internal_type(v) if c else v
                         for f, v, c in zip(self._field_types, obj, self._need_conversion))
        return tuple(obj)

    def from_internal_type(self, obj):
        if obj is None or isinstance(obj, (tuple, list)):
            return obj
        if self._need_serialize_any_field:
            return tuple(f.from_internal_type(v) if c else v
                         for f, v, c in zip(self._field_types, obj, self._need_conversion))
        return tuple(obj)

    def __eq__(self, other) -> bool:
        if isinstance(other, TupleTypeInfo):
            return self._field_types == other._field_types
        return False

    def __hash__(self):
        return hash(("TupleTypeInfo", tuple(self._field_types)))

    def __repr__(self) -> str:
        return "TupleTypeInfo(%s)" % ', '.join([str(t) for t in self._field_types])

    def _build_converter(self):
        arity = len(self._field_types)
        converters = [t._python_converter() for t in self._field_types]
        convert = self._general_converter(arity, converters)
        if arity == 2:
            convert = _pair_converter(converters, convert)
        return _with_unchanged_test(arity, converters, convert) or convert

    def _general_converter(self, arity: int, converters: list):
        # PyFlink's Tuple coder pickles a PICKLED_BYTE_ARRAY field's None like any value;
        # a None in a field of any other type fails its coder (seen on PyFlink 1.20.5)
        accepts_none = [isinstance(t, PickledBytesTypeInfo) for t in self._field_types]

        def convert(value):
            if value.__class__ is tuple and len(value) == arity:
                # the per-record case in one comprehension; a None field falls through to
                # the loop below, which names it
                out = [v if c is None else c(v) for c, v in zip(converters, value)
                       if v is not None]
                if len(out) == arity:
                    return tuple(out)
            if not isinstance(value, tuple):
                raise TypeError("Expected tuple, got %s (a record declared %r must be a tuple;"
                                " PyFlink fails here too)" % (type(value).__name__, self))
            if len(value) != arity:
                if len(value) < arity:
                    # PyFlink reads past the end of the tuple (garbage values); fail instead
                    raise ValueError("%r expects %d fields, got %d: %r"
                                     % (self, arity, len(value), value))
                value = value[:arity]  # PyFlink's coder ignores extra fields (observed)
            out = []
            for c, v, none_ok in zip(converters, value, accepts_none):
                if v is None:
                    if none_ok:
                        out.append(None)
                        continue
                    raise TypeError("%r does not accept None fields (PyFlink fails here too: "
                                    "'NoneType' object has no attribute 'encode')" % (self,))
                out.append(v if c is None else c(v))
            return tuple(out)
        return convert

    def _java_str(self, value) -> str:
        # Tuple.toString: "(" + arrayAwareToString(f0) + "," + ... + ")"
        return "(" + ",".join(t._java_tuple_field_str(v)
                              for t, v in zip(self._field_types, value)) + ")"

    def _java_descriptor(self) -> str:
        return "Lorg.apache.flink.api.java.tuple.Tuple%d;" % len(self._field_types)

    def _java_key_hash_of(self, value) -> int:
        # org.apache.flink.api.java.tuple.TupleN.hashCode()
        h = 0
        for item, field_type in zip(value, self._field_types):
            h = (31 * h + field_type._java_key_hash(item)) & _MASK
        return _int32(h)


class ExternalTypeInfo(TypeInformation):
    """Wraps a type for the Table API bridge; behaves like the wrapped type."""

    def __init__(self, type_info: TypeInformation):
        super(ExternalTypeInfo, self).__init__()
        self._type_info = type_info

    def __eq__(self, other):
        return self.__class__ == other.__class__ and self._type_info == other._type_info

    def __hash__(self):
        return hash(("ExternalTypeInfo", self._type_info))

    def __repr__(self):
        return 'ExternalTypeInfo<{}>'.format(self._type_info)

    def _build_converter(self):
        return self._type_info._python_converter()

    def _to_java_string(self, value) -> str:
        return self._type_info._to_java_string(value)

    def _java_str(self, value) -> str:
        return self._type_info._java_str(value)

    def _java_deep_str(self, value) -> str:
        return self._type_info._java_deep_str(value)

    def _java_hash(self, value):
        return self._type_info._java_hash(value)

    def _java_descriptor(self) -> str:
        return self._type_info._java_descriptor()


# =============================================================================================
# Types
# =============================================================================================

class Types(object):
    """Factory of the TypeInformation of the types Flink supports out of the box."""

    @staticmethod
    def STRING() -> TypeInformation:
        """str; supports None."""
        return BasicTypeInfo.STRING_TYPE_INFO()

    @staticmethod
    def BYTE() -> TypeInformation:
        """int in -128..127 (Java byte); no None."""
        return BasicTypeInfo.BYTE_TYPE_INFO()

    @staticmethod
    def BOOLEAN() -> TypeInformation:
        """bool; no None."""
        return BasicTypeInfo.BOOLEAN_TYPE_INFO()

    @staticmethod
    def SHORT() -> TypeInformation:
        """int in -32768..32767 (Java short); no None."""
        return BasicTypeInfo.SHORT_TYPE_INFO()

    @staticmethod
    def INT() -> TypeInformation:
        """32-bit int; no None."""
        return BasicTypeInfo.INT_TYPE_INFO()

    @staticmethod
    def LONG() -> TypeInformation:
        """64-bit int; no None."""
        return BasicTypeInfo.LONG_TYPE_INFO()

    @staticmethod
    def FLOAT() -> TypeInformation:
        """float kept as a 32-bit Java float; no None."""
        return BasicTypeInfo.FLOAT_TYPE_INFO()

    @staticmethod
    def DOUBLE() -> TypeInformation:
        """float (Java double); no None."""
        return BasicTypeInfo.DOUBLE_TYPE_INFO()

    @staticmethod
    def CHAR() -> TypeInformation:
        """One-character str (Java char); no None."""
        return BasicTypeInfo.CHAR_TYPE_INFO()

    @staticmethod
    def BIG_INT() -> TypeInformation:
        """int of any size (Java BigInteger); supports None."""
        return BasicTypeInfo.BIG_INT_TYPE_INFO()

    @staticmethod
    def BIG_DEC() -> TypeInformation:
        """decimal.Decimal (Java BigDecimal); supports None."""
        return BasicTypeInfo.BIG_DEC_TYPE_INFO()

    @staticmethod
    def INSTANT() -> TypeInformation:
        """pyflink Instant (Java Instant); supports None."""
        return BasicTypeInfo.INSTANT_TYPE_INFO()

    @staticmethod
    def SQL_DATE() -> TypeInformation:
        """datetime.date (java.sql.Date); supports None."""
        return SqlTimeTypeInfo.DATE()

    @staticmethod
    def SQL_TIME() -> TypeInformation:
        """datetime.time (java.sql.Time, millisecond precision); supports None."""
        return SqlTimeTypeInfo.TIME()

    @staticmethod
    def SQL_TIMESTAMP() -> TypeInformation:
        """datetime.datetime (java.sql.Timestamp, millisecond precision); supports None."""
        return SqlTimeTypeInfo.TIMESTAMP()

    @staticmethod
    def LOCAL_DATE() -> TypeInformation:
        """datetime.date (java.time.LocalDate). Not in PyFlink 1.20's Types (its
        LocalTimeTypeInfo exists); provided for convenience."""
        return LocalTimeTypeInfo(LocalTimeTypeInfo.TimeType.LOCAL_DATE)

    @staticmethod
    def LOCAL_TIME() -> TypeInformation:
        """datetime.time (java.time.LocalTime). Not in PyFlink 1.20's Types."""
        return LocalTimeTypeInfo(LocalTimeTypeInfo.TimeType.LOCAL_TIME)

    @staticmethod
    def LOCAL_DATE_TIME() -> TypeInformation:
        """datetime.datetime (java.time.LocalDateTime). Not in PyFlink 1.20's Types."""
        return LocalTimeTypeInfo(LocalTimeTypeInfo.TimeType.LOCAL_DATE_TIME)

    @staticmethod
    def PICKLED_BYTE_ARRAY() -> TypeInformation:
        """Any picklable Python object (the default when no type is declared)."""
        return PickledBytesTypeInfo()

    @staticmethod
    def ROW(field_types: List[TypeInformation]):
        """Row with fields of the given types (named f0, f1, ...); the row itself not None."""
        return RowTypeInfo(field_types)

    @staticmethod
    def ROW_NAMED(field_names: List[str], field_types: List[TypeInformation]):
        """Row with the given field names and types; the row itself not None."""
        return RowTypeInfo(field_types, field_names)

    @staticmethod
    def TUPLE(field_types: List[TypeInformation]):
        """Python tuple with fields of the given types; the tuple itself not None."""
        return TupleTypeInfo(field_types)

    @staticmethod
    def PRIMITIVE_ARRAY(element_type: TypeInformation):
        """Array of a primitive type (int[], double[], ...; bytes for BYTE); not None."""
        return PrimitiveArrayTypeInfo(element_type)

    @staticmethod
    def BASIC_ARRAY(element_type: TypeInformation) -> TypeInformation:
        """Array of a boxed basic type (Integer[], String[], ...)."""
        return BasicArrayTypeInfo(element_type)

    @staticmethod
    def OBJECT_ARRAY(element_type: TypeInformation) -> TypeInformation:
        """Array of a non-primitive type; the array not None, its elements may be."""
        return ObjectArrayTypeInfo(element_type)

    @staticmethod
    def MAP(key_type_info: TypeInformation, value_type_info: TypeInformation) -> TypeInformation:
        """dict with keys and values of the given types."""
        return MapTypeInfo(key_type_info, value_type_info)

    @staticmethod
    def LIST(element_type_info: TypeInformation) -> TypeInformation:
        """list of elements of the given type."""
        return ListTypeInfo(element_type_info)
