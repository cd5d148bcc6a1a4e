"""Flink's key -> operator index assignment for many keys at once (numpy).

key_groups.py hashes one key at a time in Python: for a pickled key, Arrays.hashCode over its
pickle bytes is a Python loop per byte and Flink's murmur hash a dozen big-int operations,
8-10 us a key on the development machine. That is paid once per distinct key, which is
nothing for a thousand keys and most of a job's time for a million (map_keyby_reduce with
all keys distinct ran at 51x the floor's time). Here the same arithmetic runs on uint32
arrays, whose products wrap modulo 2**32 as Java's int arithmetic does: ~0.5 us a key
for the hashing itself (KeyToSubtask.many, with its memo, 1-3 us).

Pickled keys are given by their pickles (common/_key_hash.pickle_key); LONG, INT and STRING
declared keys by their values. The results are exactly key_groups.KeyToSubtask's for the
same keys (tests/test_key_groups_bulk.py compares them, and with real PyFlink's).
"""
from __future__ import annotations

from typing import List, Sequence

import numpy as np

_U32 = np.uint32


def _powers_of_31(count: int) -> np.ndarray:
    """31**n mod 2**32 for n < count: Arrays.hashCode's weights."""
    powers = np.full(count, 31, dtype=np.uint32)
    powers[0] = 1
    with np.errstate(over="ignore"):
        return np.cumprod(powers, dtype=np.uint32)


# grown when a longer key comes (_row_hashes)
_POWERS = [_powers_of_31(1025)]


def _murmur(codes: np.ndarray) -> np.ndarray:
    """MathUtils.murmurHash(int) of each uint32 code, as non-negative int64s."""
    with np.errstate(over="ignore"):
        c = codes * _U32(0xCC9E2D51)
        c = (c << _U32(15)) | (c >> _U32(17))
        c = c * _U32(0x1B873593)
        c = (c << _U32(13)) | (c >> _U32(19))
        c = c * _U32(5) + _U32(0xE6546B64)
        c ^= _U32(4)
        c ^= c >> _U32(16)
        c = c * _U32(0x85EBCA6B)
        c ^= c >> _U32(13)
        c = c * _U32(0xC2B2AE35)
        c ^= c >> _U32(16)
    signed = c.view(np.int32).astype(np.int64)
    # Java: a negative hash is negated, except Integer.MIN_VALUE, which becomes 0
    return np.where(signed >= 0, signed, np.where(signed == -0x80000000, 0, -signed))


def _polynomial_hashes(encoded: Sequence[bytes], dtype: str, first: int) -> np.ndarray:
    """Java's h = 31 * h + unit over each encoding's units (of `dtype`: signed bytes for
    Arrays.hashCode(byte[]), UTF-16 code units for String.hashCode), h starting at `first`,
    as uint32s. Encodings are hashed in groups of one length: a matrix of their units times
    the weights 31**k."""
    width = np.dtype(dtype).itemsize
    by_size: dict = {}
    for index, data in enumerate(encoded):
        group = by_size.get(len(data))
        if group is None:
            by_size[len(data)] = [index]
        else:
            group.append(index)
    hashes = np.empty(len(encoded), dtype=np.uint32)
    powers = _POWERS[0]
    longest = max(by_size) // width
    if longest >= len(powers):
        powers = _POWERS[0] = _powers_of_31(2 * longest)
    for size, indexes in by_size.items():
        length = size // width
        units = np.frombuffer(b"".join([encoded[i] for i in indexes]), dtype=dtype)
        weights = powers[length - 1::-1] if length else powers[:0]
        with np.errstate(over="ignore"):
            # a negative signed byte -> uint32 wraps modulo 2**32, as Java's int arithmetic
            sums = (units.reshape(len(indexes), length).astype(np.uint32) * weights).sum(
                axis=1, dtype=np.uint32)
            hashes[indexes] = sums + _U32(first) * powers[length]
    return hashes


def _row_hashes(pickles: Sequence[bytes]) -> np.ndarray:
    """The Java hash KeyGroupStreamPartitioner takes of each pickled key: 62 +
    Arrays.hashCode(bytes) (key_groups.py's module docstring), as uint32s."""
    with np.errstate(over="ignore"):
        return _polynomial_hashes(pickles, "i1", 1) + _U32(62)


def _subtasks(row_hashes: np.ndarray, max_parallelism: int, parallelism: int) -> List[int]:
    groups = _murmur(row_hashes) % max_parallelism
    return (groups * parallelism // max_parallelism).tolist()


def pickled_key_subtasks(pickles: Sequence[bytes], max_parallelism: int,
                         parallelism: int) -> List[int]:
    """The operator index of each key given by its pickle bytes, for a keyed operator of
    `parallelism` subtasks and `max_parallelism` key groups. (Not for None, which PyFlink
    sends as null, not pickled.)"""
    if not pickles:
        return []
    return _subtasks(_row_hashes(pickles), max_parallelism, parallelism)


# Keys of a declared type (key_by(..., key_type)): the Row's hash is 62 + the Java object's
# hashCode (key_groups.py's module docstring)

def long_key_subtasks(values: Sequence[int], max_parallelism: int,
                      parallelism: int) -> List[int]:
    """Types.LONG() keys (ints in the long range): Long.hashCode = (int)(v ^ (v >>> 32))."""
    if not values:
        return []
    bits = np.array(values, dtype=np.int64).view(np.uint64)
    with np.errstate(over="ignore"):
        hashes = ((bits ^ (bits >> np.uint64(32))) & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        return _subtasks(hashes + _U32(62), max_parallelism, parallelism)


def int_key_subtasks(values: Sequence[int], max_parallelism: int,
                     parallelism: int) -> List[int]:
    """Types.INT() keys (ints in the int range): Integer.hashCode is the value."""
    if not values:
        return []
    hashes = np.array(values, dtype=np.int64).astype(np.uint32)
    with np.errstate(over="ignore"):
        return _subtasks(hashes + _U32(62), max_parallelism, parallelism)


def string_key_subtasks(values: Sequence[str], max_parallelism: int,
                        parallelism: int) -> List[int]:
    """Types.STRING() keys: String.hashCode over the UTF-16 code units (lone surrogates
    too)."""
    if not values:
        return []
    units = [v.encode("utf-16-be", "surrogatepass") for v in values]
    with np.errstate(over="ignore"):
        hashes = _polynomial_hashes(units, ">u2", 0) + _U32(62)
    return _subtasks(hashes, max_parallelism, parallelism)
