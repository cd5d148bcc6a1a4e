"""Flink's key -> key group -> operator index assignment, with a process-stable key hash.

Flink hashes the key's Java hashCode() with murmur, takes it modulo max parallelism (the key
group) and maps key groups onto operator indexes in contiguous ranges. The Java hashCode is
reproduced for the Python values that have an obvious Java counterpart (str, int, float, bool,
bytes, tuples / Rows); anything else is hashed from its pickled bytes. Python's own hash() is
never used: it is salted per process for str.
"""
from __future__ import annotations

import pickle
import struct
import zlib
from typing import Any

DEFAULT_MAX_PARALLELISM = 128
_MASK = 0xFFFFFFFF


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


def _string_hash(s: str) -> int:
    h = 0
    data = s.encode("utf-16-be", "surrogatepass")
    for (unit,) in struct.iter_unpack(">H", data):
        h = (31 * h + unit) & _MASK
    return _to_int32(h)


def java_hash_code(value: Any) -> int:
    """The hashCode() of the Java object Flink would hold for this Python value."""
    if isinstance(value, str):
        return _string_hash(value)
    if isinstance(value, bool):
        return 1231 if value else 1237
    if isinstance(value, int):
        if -0x80000000 <= value <= 0x7FFFFFFF:
            return value
        v = value & 0xFFFFFFFFFFFFFFFF
        return _to_int32(v ^ (v >> 32))
    if isinstance(value, float):
        bits = struct.unpack(">q", struct.pack(">d", value if value == value else float("nan")))[0]
        v = bits & 0xFFFFFFFFFFFFFFFF
        return _to_int32(v ^ (v >> 32))
    if value is None:
        return 0
    if isinstance(value, (bytes, bytearray)):
        h = 1
        for b in value:
            h = (31 * h + (b - 256 if b > 127 else b)) & _MASK
        return _to_int32(h)
    if isinstance(value, (tuple, list)) or type(value).__name__ == "Row":
        h = 1
        for item in value:
            h = (31 * h + java_hash_code(item)) & _MASK
        return _to_int32(h)
    return _to_int32(zlib.crc32(pickle.dumps(value, protocol=4)))


def assign_key_group(key: Any, max_parallelism: int) -> int:
    return murmur_hash(java_hash_code(key)) % max_parallelism


def operator_index_for_key_group(max_parallelism: int, parallelism: int, key_group: int) -> int:
    return key_group * parallelism // max_parallelism


class KeyToSubtask:
    """Maps keys to operator indexes, memoising per key: hot keys repeat, hashing costs."""

    __slots__ = ("_max_parallelism", "_parallelism", "_cache")

    _CACHE_LIMIT = 1 << 16

    def __init__(self, max_parallelism: int, parallelism: int) -> None:
        self._max_parallelism = max_parallelism
        self._parallelism = parallelism
        self._cache: dict = {}

    def __call__(self, key: Any) -> int:
        try:
            return self._cache[key]
        except KeyError:
            pass
        except TypeError:  # unhashable key (a list): compute without memo
            return self._compute(key)
        index = self._compute(key)
        if len(self._cache) >= self._CACHE_LIMIT:
            self._cache.clear()
        self._cache[key] = index
        return index

    def _compute(self, key: Any) -> int:
        group = assign_key_group(key, self._max_parallelism)
        return operator_index_for_key_group(self._max_parallelism, self._parallelism, group)
