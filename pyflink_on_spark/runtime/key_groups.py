"""Flink's key -> key group -> operator index assignment, reproducing PyFlink 1.20 exactly.

How PyFlink routes a keyed record (established from pyflink/datastream/data_stream.py key_by and
the flink-python / flink-core bytecode; verified against real PyFlink, see
tests/data/gen_key_groups_fixture.py):

1. ``key_by(selector, key_type)`` inserts a Python map that emits ``Row(key, value)`` typed
   ``Types.ROW([key_type, value_type])``; ``key_type`` defaults to
   ``Types.PICKLED_BYTE_ARRAY()``. The key field is encoded by the coder of ``key_type``: for a
   pickled key that is ``cloudpickle.dumps(key)`` (protocol 5), which Java receives as a
   ``byte[]``; for a declared type, the matching Java object (String, Integer, Long, Tuple2,
   Row, ...).
2. The Java ``KeySelector`` (``KeyByKeySelector``) wraps that field in a new one-field ``Row``
   (RowKind INSERT), and ``KeyGroupStreamPartitioner`` hashes that Row:
   ``Row.hashCode() = 31 * kind + deepHashCode(fields)`` (``RowUtils.deepHashCodeRow``), where
   a field's deep hash is 0 for null, the deep list / map hash for a java.util.List / Map, and
   ``Arrays.deepHashCode(new Object[]{field}) = 31 + field.hashCode()`` otherwise (a ``byte[]``
   hashed by content there). So a scalar key's Java hash is ``62 + hashCode(key)``; a pickled
   key's is ``62 + Arrays.hashCode(pickled bytes)``.
3. ``key group = MathUtils.murmurHash(hash) % max_parallelism`` and
   ``operator index = key_group * parallelism // max_parallelism``.

Python's own hash() is never used (salted per process for str): everything here is a pure
function of the key's value (and, for pickled keys, of its pickle bytes).
"""
from __future__ import annotations

import decimal
import io
import pickle
import struct
import sys
import zlib
from array import array
from typing import Any, Optional, Tuple

import cloudpickle

DEFAULT_MAX_PARALLELISM = 128
# PyFlink's pickled-key coder calls cloudpickle.dumps(key), i.e. protocol
# pickle.HIGHEST_PROTOCOL, which is 5 for the Pythons PyFlink 1.20 supports. Pinned here so the
# shim's hash cannot drift with the local Python.
PICKLE_PROTOCOL = 5

_MASK = 0xFFFFFFFF
_UTF16 = "utf-16-le" if sys.byteorder == "little" else "utf-16-be"


def _to_int32(x: int) -> int:
    x &= _MASK
    return x - 0x100000000 if x & 0x80000000 else x


def _rotl(x: int, r: int) -> int:
    x &= _MASK
    return ((x << r) | (x >> (32 - r))) & _MASK


def murmur_hash(code: int) -> int:
    """Flink's MathUtils.murmurHash(int): a non-negative int."""
    code = (code * 0xCC9E2D51) & _MASK
    code = _rotl(code, 15)
    code = (code * 0x1B873593) & _MASK
    code = _rotl(code, 13)
    code = (code * 5 + 0xE6546B64) & _MASK
    code ^= 4
    code ^= code >> 16
    code = (code * 0x85EBCA6B) & _MASK
    code ^= code >> 13
    code = (code * 0xC2B2AE35) & _MASK
    code ^= code >> 16
    signed = _to_int32(code)
    if signed >= 0:
        return signed
    return -signed if signed != -0x80000000 else 0


# --------------------------------------------------------------------------- Java hashCode()s

def _string_hash(s: str) -> int:
    """java.lang.String.hashCode(): over UTF-16 code units."""
    h = 0
    for unit in array("H", s.encode(_UTF16, "surrogatepass")):
        h = (31 * h + unit) & _MASK
    return _to_int32(h)


def _bytes_hash(data) -> int:
    """java.util.Arrays.hashCode(byte[]) (Java bytes are signed)."""
    h = 1
    for b in memoryview(data).cast("b"):
        h = (31 * h + b) & _MASK
    return _to_int32(h)


def _long_hash(v: int) -> int:
    v &= 0xFFFFFFFFFFFFFFFF
    return _to_int32(v ^ (v >> 32))


def _double_hash(x: float) -> int:
    if x != x:  # Double.doubleToLongBits canonicalises NaN
        return _long_hash(0x7FF8000000000000)
    return _long_hash(struct.unpack(">q", struct.pack(">d", x))[0])


def _float_hash(x: float) -> int:
    if x != x:  # Float.floatToIntBits canonicalises NaN
        return 0x7FC00000
    return struct.unpack(">i", struct.pack(">f", x))[0]


def _big_integer_hash(v: int) -> int:
    """java.math.BigInteger.hashCode(): over the 32-bit words of |v|, times the signum."""
    mag = -v if v < 0 else v
    words = []
    while mag:
        words.append(mag & _MASK)
        mag >>= 32
    h = 0
    for w in reversed(words):
        h = (31 * h + w) & _MASK
    return _to_int32(h * (-1 if v < 0 else 1))


def _big_decimal_hash(value: Any) -> int:
    """java.math.BigDecimal.hashCode() of new BigDecimal(str(value)) (PyFlink's BIG_DEC coder
    sends str(value))."""
    sign, digits, exponent = decimal.Decimal(str(value)).as_tuple()
    unscaled = int("".join(map(str, digits)) or "0")
    if sign:
        unscaled = -unscaled
    scale = -exponent
    if -(1 << 63) < unscaled < (1 << 63):  # kept compact (intCompact)
        val2 = -unscaled if unscaled < 0 else unscaled
        temp = _to_int32((val2 >> 32) * 31 + (val2 & _MASK))
        return _to_int32(31 * (-temp if unscaled < 0 else temp) + scale)
    return _to_int32(31 * _big_integer_hash(unscaled) + scale)


def java_hash_code(value: Any) -> int:
    """hashCode() of the Java object that most naturally holds this Python value; used where no
    declared type says better (a key type this module does not know)."""
    if isinstance(value, str):
        return _string_hash(value)
    if isinstance(value, bool):
        return 1231 if value else 1237
    if isinstance(value, int):
        if -0x80000000 <= value <= 0x7FFFFFFF:
            return value
        return _long_hash(value)
    if isinstance(value, float):
        return _double_hash(value)
    if value is None:
        return 0
    if isinstance(value, (bytes, bytearray)):
        return _bytes_hash(value)
    if isinstance(value, (tuple, list)) or _is_row(value):
        h = 1
        for item in value:
            h = (31 * h + java_hash_code(item)) & _MASK
        return _to_int32(h)
    return _to_int32(zlib.crc32(pickle.dumps(value, protocol=4)))


# --------------------------------------------------------------------------- Rows

def _is_row(value: Any) -> bool:
    return type(value).__name__ == "Row" and hasattr(value, "__iter__")


def _row_kind_value(row: Any) -> int:
    getter = getattr(row, "get_row_kind", None)
    kind = getter() if getter is not None else getattr(row, "_row_kind", 0)
    return int(getattr(kind, "value", kind) or 0)


def _row_names(row: Any):
    names = getattr(row, "_fields", None)
    return names if isinstance(names, (list, tuple)) else None


def _row_values(row: Any, type_names) -> list:
    """The field values in the order PyFlink's Row coder writes them (by the type's field names
    when both the type and the Row are named)."""
    values = list(getattr(row, "_values", None) or row) if _is_row(row) else list(row)
    names = _row_names(row) if _is_row(row) else None
    if type_names and names and list(names) != list(type_names) and set(type_names) <= set(names):
        index = {n: i for i, n in enumerate(names)}
        return [values[index[n]] for n in type_names]
    return values


# --------------------------------------------------------------------------- key types

# A key type is normalised into a small descriptor tuple:
#   ("pickled",) ("string",) ("int",) ("long",) ("bool",) ("float",) ("double",) ("char",)
#   ("bigint",) ("bigdec",) ("instant",) ("row", names_or_None, (fields...))
#   ("tuple", (fields...)) ("list", elem) ("map", key, value) ("objarray", elem)
#   ("primarray", elem) ("infer",)
PICKLED = ("pickled",)
_INFER = ("infer",)
_BASIC = {
    "String": ("string",), "Byte": ("int",), "Short": ("int",), "Integer": ("int",),
    "Long": ("long",), "Boolean": ("bool",), "Float": ("float",), "Double": ("double",),
    "Char": ("char",), "BigInteger": ("bigint",), "BigDecimal": ("bigdec",),
    "Instant": ("instant",),
}


def describe_key_type(key_type: Any) -> Tuple:
    """Normalises a TypeInformation (pyflink_on_spark.common.typeinfo, or pyflink.common.typeinfo:
    recognised by class name and PyFlink's attribute names) into a descriptor tuple.
    None (no key_type) means pickled keys, as in PyFlink."""
    if key_type is None:
        return PICKLED
    if isinstance(key_type, tuple):  # already a descriptor
        return key_type
    classes = {c.__name__ for c in type(key_type).__mro__}
    if "PickledBytesTypeInfo" in classes:
        return PICKLED
    if "InstantTypeInfo" in classes:
        return ("instant",)
    if "BasicTypeInfo" in classes:
        basic = getattr(key_type, "_basic_type", None)
        name = getattr(basic, "value", basic) if basic is not None else repr(key_type)
        return _BASIC.get(str(name), _INFER)
    if "RowTypeInfo" in classes:
        names = getattr(key_type, "_field_names", None)
        return ("row", tuple(names) if names else None,
                tuple(describe_key_type(t) for t in _field_types(key_type)))
    if "TupleTypeInfo" in classes:
        return ("tuple", tuple(describe_key_type(t) for t in _field_types(key_type)))
    if "ListTypeInfo" in classes:
        return ("list", describe_key_type(_first_attr(key_type, "elem_type", "_element_type")))
    if "MapTypeInfo" in classes:
        return ("map", describe_key_type(_first_attr(key_type, "_key_type_info")),
                describe_key_type(_first_attr(key_type, "_value_type_info")))
    if "BasicArrayTypeInfo" in classes or "ObjectArrayTypeInfo" in classes:
        return ("objarray", describe_key_type(_first_attr(key_type, "_element_type")))
    if "PrimitiveArrayTypeInfo" in classes:
        return ("primarray", describe_key_type(_first_attr(key_type, "_element_type")))
    return _INFER


def _field_types(type_info: Any):
    getter = getattr(type_info, "get_field_types", None)
    types = getter() if getter is not None else getattr(type_info, "_field_types", None)
    return list(types or [])


def _first_attr(obj: Any, *names: str) -> Any:
    for name in names:
        if getattr(obj, name, None) is not None:
            return getattr(obj, name)
    return _INFER  # an unknown layout: infer the Java types from the values


def _java_hash(value: Any, t: Tuple) -> int:
    """value.hashCode() of the Java object PyFlink builds for `value` declared as type t."""
    if value is None:
        return 0
    kind = t[0]
    try:
        if kind == "string":
            if isinstance(value, str):
                return _string_hash(value)
        elif kind == "int":
            return _to_int32(int(value))
        elif kind == "long":
            return _long_hash(int(value))
        elif kind == "bool":
            return 1231 if value else 1237
        elif kind == "double":
            return _double_hash(float(value))
        elif kind == "float":
            return _float_hash(float(value))
        elif kind == "char":
            if isinstance(value, str) and len(value) == 1:
                return _string_hash(value)  # a BMP char: Character.hashCode() == its code unit
        elif kind == "bigint":
            return _big_integer_hash(int(value))
        elif kind == "bigdec":
            return _big_decimal_hash(value)
        elif kind == "instant":
            seconds, nanos = int(value.seconds), int(value.nanos)
            seconds += nanos // 1_000_000_000
            nanos %= 1_000_000_000
            return _to_int32(_long_hash(seconds) + 51 * nanos)
        elif kind == "row":
            return _row_hash(value, t)
        elif kind == "tuple":  # org.apache.flink.api.java.tuple.TupleN.hashCode()
            h = 0
            for item, ft in zip(value, t[1]):
                h = (31 * h + _java_hash(item, ft)) & _MASK
            return _to_int32(h)
        elif kind == "list":  # ArrayList.hashCode()
            h = 1
            for item in value:
                h = (31 * h + _java_hash(item, t[1])) & _MASK
            return _to_int32(h)
        elif kind == "map":  # HashMap.hashCode()
            h = 0
            for k, v in value.items():
                h += _java_hash(k, t[1]) ^ _java_hash(v, t[2])
            return _to_int32(h)
        elif kind in ("pickled", "primarray", "objarray"):
            # A Java array's own hashCode() is its identity hash: not reproducible. Content hash.
            return _array_content_hash(value, t)
    except (TypeError, ValueError, AttributeError, OverflowError, decimal.InvalidOperation):
        pass
    return java_hash_code(value)


def _array_content_hash(value: Any, t: Tuple) -> int:
    if t[0] == "pickled":
        return _bytes_hash(pickle_key(value))
    if isinstance(value, (bytes, bytearray)):
        return _bytes_hash(value)
    h = 1
    for item in value:  # Arrays.hashCode of a primitive / object array
        h = (31 * h + _java_hash(item, t[1])) & _MASK
    return _to_int32(h)


def _deep_hash(value: Any, t: Tuple) -> int:
    """RowUtils.deepHashCodeInternal: how a Row hashes each of its fields."""
    if value is None:  # null, for pickled keys too: PyFlink's Row coder writes None as null
        return 0
    kind = t[0]
    if kind == "pickled":  # byte[], hashed by content
        return _to_int32(31 + _bytes_hash(pickle_key(value)))
    if kind == "list" and not isinstance(value, (str, bytes)):
        h = 1
        for item in value:
            h = (31 * h + _deep_hash(item, t[1])) & _MASK
        return _to_int32(h)
    if kind == "map" and hasattr(value, "items"):
        h = 1
        for k, v in value.items():
            h += _deep_hash(k, t[1]) ^ _deep_hash(v, t[2])
        return _to_int32(h)
    if kind == "objarray" and not isinstance(value, (str, bytes)):
        h = 1
        for item in value:
            h = (31 * h + _deep_hash(item, t[1])) & _MASK
        return _to_int32(h)
    if kind == "primarray":
        return _to_int32(31 + _array_content_hash(value, t))
    return _to_int32(31 + _java_hash(value, t))


def _row_hash(row: Any, t: Tuple) -> int:
    """org.apache.flink.types.Row.hashCode() of a Row typed t (a "row" descriptor)."""
    names, field_types = t[1], t[2]
    values = _row_values(row, names)
    h = 1
    for item, ft in zip(values, field_types):
        h = (31 * h + _deep_hash(item, ft)) & _MASK
    kind = _row_kind_value(row) if _is_row(row) else 0
    return _to_int32(31 * kind + h)


def java_key_hash(key: Any, key_type: Any = None) -> int:
    """The int KeyGroupStreamPartitioner hashes for `key` under PyFlink's key_by(..., key_type):
    hashCode() of Row(INSERT, [the key's Java object])."""
    t = describe_key_type(key_type)
    return _to_int32(31 + _deep_hash(key, t))


# --------------------------------------------------------------------------- pickled keys

def pickle_key(key: Any) -> bytes:
    """The bytes PyFlink's pickled-key coder produces: cloudpickle.dumps(key) at protocol 5.

    A Row of another module than pyflink.common.types (the shim's own Row) is pickled as
    PyFlink's Row pickles (``pyflink.common.types._create_row(fields, values, RowKind)``), so that
    keys containing Rows hash as on PyFlink."""
    if _is_plain(key):  # builtins only: the C pickler writes what cloudpickle would, faster
        return pickle.dumps(key, protocol=PICKLE_PROTOCOL)
    if _contains_foreign_row(key):
        buf = io.BytesIO()
        _PyFlinkRowPickler(buf).dump(key)
        return buf.getvalue()
    return cloudpickle.dumps(key, protocol=PICKLE_PROTOCOL)


_SCALARS = (str, int, float, bytes, bool, type(None))
_PLAIN_SCALARS = frozenset(_SCALARS)


def _is_plain(value: Any) -> bool:
    """Exactly builtin scalars, in tuples at most: objects cloudpickle pickles as pickle does."""
    t = type(value)
    if t in _PLAIN_SCALARS:
        return True
    if t is tuple:
        return all(_is_plain(v) for v in value)
    return False


def _contains_foreign_row(value: Any) -> bool:
    if isinstance(value, _SCALARS):
        return False
    if _is_row(value):
        if type(value).__module__ != "pyflink.common.types":
            return True
        return any(_contains_foreign_row(v) for v in value)
    if isinstance(value, (tuple, list, set, frozenset)):
        return any(_contains_foreign_row(v) for v in value)
    if isinstance(value, dict):
        return any(_contains_foreign_row(k) or _contains_foreign_row(v) for k, v in value.items())
    return False


class _Global:
    """Stands for a global PyFlink pickles by reference (module, qualified name)."""

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def __call__(self, *args):  # pickle's save_reduce insists on a callable
        raise TypeError("a stand-in for %s.%s" % (self.module, self.name))


# One module-name object for both, as both PyFlink globals share their interned __module__
# string: the second reference pickles as a memo get, on PyFlink as here.
_PYFLINK_TYPES = "pyflink.common.types"
_CREATE_ROW = _Global(_PYFLINK_TYPES, "_create_row")
_ROW_KIND = _Global(_PYFLINK_TYPES, "RowKind")


class _RowKindRef:
    """Stands for a pyflink.common.types.RowKind member (one object per value and pickle, as
    the enum members are singletons: memoised alike)."""

    def __init__(self, value: int) -> None:
        self.value = value


class _PyFlinkRowPickler(pickle._Pickler):  # the pure-Python pickler: save_global overridable
    def __init__(self, file) -> None:
        super().__init__(file, protocol=PICKLE_PROTOCOL)
        self._kinds: dict = {}

    def reducer_override(self, obj):
        if _is_row(obj) and type(obj).__module__ != "pyflink.common.types":
            kind = self._kinds.get(_row_kind_value(obj))
            if kind is None:
                kind = self._kinds[_row_kind_value(obj)] = _RowKindRef(_row_kind_value(obj))
            values = getattr(obj, "_values", None)
            return _CREATE_ROW, (_row_names(obj), tuple(values if values is not None else obj),
                                 kind)
        if type(obj) is _RowKindRef:
            return _ROW_KIND, (obj.value,)
        return NotImplemented

    def _save_stand_in(self, obj: _Global) -> None:
        # what save_global writes for a global at protocol >= 4
        self.save(obj.module)
        self.save(obj.name)
        self.write(pickle.STACK_GLOBAL)
        self.memoize(obj)

    dispatch = dict(pickle._Pickler.dispatch)
    dispatch[_Global] = _save_stand_in


# --------------------------------------------------------------------------- the assignment

def assign_key_group(key: Any, max_parallelism: int, key_type: Any = None) -> int:
    """KeyGroupRangeAssignment.assignToKeyGroup for a key of PyFlink's key_by(..., key_type)
    (key_type None: pickled keys, PyFlink's default)."""
    return murmur_hash(java_key_hash(key, key_type)) % max_parallelism


def operator_index_for_key_group(max_parallelism: int, parallelism: int, key_group: int) -> int:
    return key_group * parallelism // max_parallelism


def default_max_parallelism(parallelism: int) -> int:
    """Flink's KeyGroupRangeAssignment.computeDefaultMaxParallelism: an operator's max
    parallelism when neither it nor the environment sets one (128 up to parallelism 85)."""
    wanted = parallelism + parallelism // 2
    power = 1 << max(wanted - 1, 0).bit_length()
    return min(max(power, DEFAULT_MAX_PARALLELISM), 1 << 15)


_FLAT = frozenset((str, int, bool, bytes, type(None)))


def _typed_memo_safe(value: Any) -> bool:
    """False if `value` holds something equal to a value that PyFlink hashes differently under
    a declared type: a float zero (0.0 == -0.0) or a Decimal (Decimal("1.5") == "1.50")."""
    t = type(value)
    if t in _FLAT:
        return True
    if t is float:
        return value != 0.0
    if t is tuple or t is list or _is_row(value):
        return all(_typed_memo_safe(v) for v in value)
    return not isinstance(value, (float, decimal.Decimal))


class KeyToSubtask:
    """Maps keys to operator indexes as PyFlink does, memoising per key (hot keys repeat,
    hashing costs; a hit is a dict lookup or two).

    key_type: the TypeInformation given to ``key_by(selector, key_type)`` (None when the user
    gave none: keys are then pickled, as in PyFlink).

    Keys Python deems equal but PyFlink hashes apart never share a memo entry: str / int / bool
    / bytes / None keys are memoised per exact type (for pickled keys, 1, 1.0 and True pickle
    differently), flat tuples of those with their element types, other pickled keys by their
    pickle bytes; keys holding a float zero or a Decimal under a declared type are not memoised
    (0.0 == -0.0 and Decimal("1.5") == Decimal("1.50") hash apart), and a Row's kind is part of
    its memo key.
    """

    __slots__ = ("_max_parallelism", "_parallelism", "_type", "_pickled", "_by_type",
                 "_tuples", "_other", "_signatures")

    _CACHE_LIMIT = 1 << 16

    def __init__(self, max_parallelism: int, parallelism: int,
                 key_type: Optional[Any] = None) -> None:
        self._max_parallelism = max_parallelism
        self._parallelism = parallelism
        self._type = describe_key_type(key_type)
        self._pickled = self._type == PICKLED
        # exact type -> {key: index}, for the types whose equal values hash alike
        self._by_type = {t: {} for t in _FLAT}
        self._tuples: dict = {}
        self._other: dict = {}
        self._signatures: dict = {}

    def __call__(self, key: Any) -> int:
        cache = self._by_type.get(type(key))
        if cache is not None:
            try:
                return cache[key]
            except KeyError:
                pass
            index = self._compute(key)
            if len(cache) >= self._CACHE_LIMIT:
                cache.clear()
            cache[key] = index
            return index
        if type(key) is tuple:
            return self._tuple(key)
        return self._slow(key)

    def _tuple(self, key: tuple) -> int:
        if self._pickled:
            # (1, "a") == (True, "a") but they pickle apart: element types join the memo key
            signature = tuple(map(type, key))
            memo_key: Any = (signature, key)
        else:
            memo_key = key
        try:
            return self._tuples[memo_key]
        except KeyError:
            pass
        except TypeError:  # unhashable inside
            return self._compute(key)
        if self._pickled and not self._flat(signature):
            return self._slow(key)  # nested: memoised by its pickle bytes
        index = self._compute(key)
        if self._pickled or _typed_memo_safe(key):
            if len(self._tuples) >= self._CACHE_LIMIT:
                self._tuples.clear()
            self._tuples[memo_key] = index
        return index

    def _flat(self, signature: tuple) -> bool:
        flat = self._signatures.get(signature)
        if flat is None:
            if len(self._signatures) >= 1024:
                self._signatures.clear()
            flat = self._signatures[signature] = all(t in _FLAT for t in signature)
        return flat

    def _slow(self, key: Any) -> int:
        if type(key) is float:
            if key == 0.0:  # 0.0 == -0.0, yet they hash apart
                return self._compute(key)
            memo_key: Any = (float, key)
        elif self._pickled:
            try:
                data = pickle_key(key)
            except Exception:
                return self._compute(key)
            index = self._other.get(data)
            if index is None:
                group = murmur_hash(_to_int32(62 + _bytes_hash(data))) % self._max_parallelism
                index = operator_index_for_key_group(self._max_parallelism, self._parallelism,
                                                     group)
                self._remember(data, index)
            return index
        elif not _typed_memo_safe(key):
            return self._compute(key)
        elif _is_row(key):
            memo_key = (type(key), _row_kind_value(key), key)
        else:
            memo_key = (type(key), key)
        try:
            return self._other[memo_key]
        except KeyError:
            pass
        except TypeError:  # unhashable (a list / dict key)
            return self._compute(key)
        index = self._compute(key)
        self._remember(memo_key, index)
        return index

    def _remember(self, memo_key: Any, index: int) -> None:
        if len(self._other) >= self._CACHE_LIMIT:
            self._other.clear()
        self._other[memo_key] = index

    def _compute(self, key: Any) -> int:
        group = assign_key_group(key, self._max_parallelism, self._type)
        return operator_index_for_key_group(self._max_parallelism, self._parallelism, group)
