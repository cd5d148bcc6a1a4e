"""Deterministic, reversible byte encodings for state keys, namespaces and user map keys.

RocksDB state is addressed by bytes, so equal keys must always encode to identical bytes, in
every process and on every machine. Python's hash() is never involved, and plain pickle is not
enough for containers (its memo makes ``("a", "a")`` encode differently depending on object
identity) nor for sets (iteration order follows the salted string hash). So:

* None, bool, int, float, str, bytes, bytearray, tuple, list and frozenset get a compact
  tagged encoding (tuples/lists element-wise, frozensets with their elements' encodings
  sorted);
* anything else (Row, windows, dataclasses, ...) is pickled with the memo disabled
  (``Pickler.fast``), which makes the bytes a function of the value's structure.

Values of different Python types never encode alike even when they compare equal (1, 1.0 and
True are three different keys here, as they would be for Flink's typed serializers).

Values (as opposed to keys) are just pickled, see ``dumps_value`` / ``loads_value``.
"""
from __future__ import annotations

import io
import pickle
import struct
from typing import Any, Tuple

KEY_PICKLE_PROTOCOL = 4
VALUE_PICKLE_PROTOCOL = 5

_T_NONE = 0x4E      # N
_T_TRUE = 0x54      # T
_T_FALSE = 0x46     # F
_T_INT = 0x69       # i
_T_FLOAT = 0x66     # f
_T_STR = 0x73       # s
_T_BYTES = 0x62     # b
_T_BYTEARRAY = 0x42  # B
_T_TUPLE = 0x74     # t
_T_LIST = 0x6C      # l
_T_FROZENSET = 0x7A  # z
_T_PICKLE = 0x70    # p

_VARINT1 = [bytes((i,)) for i in range(128)]
_pack_double = struct.Struct(">d").pack
_unpack_double = struct.Struct(">d").unpack_from
_CANONICAL_NAN = _pack_double(float("nan"))


def varint(n: int) -> bytes:
    """Unsigned LEB128."""
    if n < 0x80:
        return _VARINT1[n]
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def read_varint(buf, pos: int) -> Tuple[int, int]:
    """(value, position after it)."""
    b = buf[pos]
    if b < 0x80:
        return b, pos + 1
    result = 0
    shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7


def _pickle_structural(obj) -> bytes:
    f = io.BytesIO()
    p = pickle.Pickler(f, protocol=KEY_PICKLE_PROTOCOL)
    p.fast = True  # no memo: bytes depend on the structure only, not on object identity
    p.dump(obj)
    return f.getvalue()


def _encode_elements(tag: int, items) -> bytes:
    parts = [bytes((tag,)), varint(len(items))]
    for item in items:
        e = encode_key(item)
        parts.append(varint(len(e)))
        parts.append(e)
    return b"".join(parts)


def encode_key(obj: Any) -> bytes:
    """Deterministic bytes of a key (see module doc)."""
    t = type(obj)
    if t is str:
        return b"s" + obj.encode("utf-8", "surrogatepass")
    if t is int:
        return b"i" + str(obj).encode("ascii")
    if obj is None:
        return b"N"
    if t is bool:
        return b"T" if obj else b"F"
    if t is float:
        if obj != obj:
            return b"f" + _CANONICAL_NAN
        return b"f" + _pack_double(obj + 0.0)  # -0.0 + 0.0 == 0.0
    if t is bytes:
        return b"b" + obj
    if t is tuple:
        return _encode_elements(_T_TUPLE, obj)
    if t is bytearray:
        return b"B" + bytes(obj)
    if t is list:
        return _encode_elements(_T_LIST, obj)
    if t is frozenset:
        encoded = sorted(encode_key(x) for x in obj)
        parts = [b"z", varint(len(encoded))]
        for e in encoded:
            parts.append(varint(len(e)))
            parts.append(e)
        return b"".join(parts)
    return b"p" + _pickle_structural(obj)


def decode_key(data: bytes) -> Any:
    """Inverse of encode_key."""
    tag = data[0]
    if tag == _T_STR:
        return data[1:].decode("utf-8", "surrogatepass")
    if tag == _T_INT:
        return int(data[1:])
    if tag == _T_NONE:
        return None
    if tag == _T_TRUE:
        return True
    if tag == _T_FALSE:
        return False
    if tag == _T_FLOAT:
        return _unpack_double(data, 1)[0]
    if tag == _T_BYTES:
        return bytes(data[1:])
    if tag == _T_BYTEARRAY:
        return bytearray(data[1:])
    if tag in (_T_TUPLE, _T_LIST, _T_FROZENSET):
        n, pos = read_varint(data, 1)
        items = []
        for _ in range(n):
            ln, pos = read_varint(data, pos)
            items.append(decode_key(data[pos:pos + ln]))
            pos += ln
        if tag == _T_TUPLE:
            return tuple(items)
        if tag == _T_LIST:
            return items
        return frozenset(items)
    if tag == _T_PICKLE:
        return pickle.loads(data[1:])
    raise ValueError("not an encoded key: %r" % (data[:16],))


def dumps_value(value: Any) -> bytes:
    """Pickle of a state value; falls back to cloudpickle for what pickle cannot handle
    (lambdas, classes defined in __main__ of another process, ...)."""
    try:
        return pickle.dumps(value, VALUE_PICKLE_PROTOCOL)
    except Exception:
        import cloudpickle
        return cloudpickle.dumps(value, VALUE_PICKLE_PROTOCOL)


loads_value = pickle.loads
