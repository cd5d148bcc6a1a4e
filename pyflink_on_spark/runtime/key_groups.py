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

The Java hashCode()s are the type classes' (TypeInformation._java_key_hash and
_java_deep_hash in common/typeinfo.py, on the primitives of common/_java_text.py); this module
adds the Row wrapping, Flink's murmur hash and the key-group arithmetic, and memoises.

Python's own hash() is never used (salted per process for str): everything here is a pure
function of the key's value (and, for pickled keys, of its pickle bytes).
"""
from __future__ import annotations

import decimal
from pickle import dumps as _plain_pickle
from typing import Any, List, Optional, Sequence

from pyflink_on_spark.common._java_text import java_bytes_hash
from pyflink_on_spark.common._key_hash import (
    PICKLE_PROTOCOL, is_row, pickle_key, row_kind_value)
from pyflink_on_spark.common.typeinfo import PickledBytesTypeInfo, TypeInformation
from pyflink_on_spark.runtime.key_groups_bulk import (
    int_key_subtasks, long_key_subtasks, pickled_key_subtasks, string_key_subtasks)

__all__ = ["murmur_hash", "java_key_hash", "pickle_key", "assign_key_group",
           "operator_index_for_key_group", "KeyToSubtask"]

_MASK = 0xFFFFFFFF
_PICKLED = PickledBytesTypeInfo()


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


def _key_type(key_type: Optional[TypeInformation]) -> TypeInformation:
    if key_type is None:
        return _PICKLED  # PyFlink's default: keys travel pickled
    if not isinstance(key_type, TypeInformation):
        raise TypeError("a key type must be a TypeInformation (Types.STRING(), ...), not %r"
                        % (key_type,))
    return key_type


def java_key_hash(key: Any, key_type: Optional[TypeInformation] = None) -> int:
    """The int KeyGroupStreamPartitioner hashes for `key` under PyFlink's key_by(..., key_type):
    hashCode() of Row(INSERT, [the key's Java object])."""
    return _to_int32(31 + _key_type(key_type)._java_deep_hash(key))


# --------------------------------------------------------------------------- the assignment

def assign_key_group(key: Any, max_parallelism: int, key_type: Any = None) -> int:
    """KeyGroupRangeAssignment.assignToKeyGroup for a key of PyFlink's key_by(..., key_type)
    (key_type None: pickled keys, PyFlink's default)."""
    return murmur_hash(java_key_hash(key, key_type)) % max_parallelism


def operator_index_for_key_group(max_parallelism: int, parallelism: int, key_group: int) -> int:
    return key_group * parallelism // max_parallelism


_FLAT = frozenset((str, int, bool, bytes, type(None)))


def _pickled_together(keys: list, max_parallelism: int, parallelism: int) -> List[int]:
    return pickled_key_subtasks([_plain_pickle(key, PICKLE_PROTOCOL) for key in keys],
                                max_parallelism, parallelism)


def _any(key: Any) -> bool:
    return True


_LONG_RANGE = range(-(1 << 63), 1 << 63)
_INT_RANGE = range(-(1 << 31), 1 << 31)
# declared key type -> (hash str / int keys together, which of them); others go one by one
_DECLARED_TOGETHER = {
    "LONG": (long_key_subtasks, lambda key: key.__class__ is int and key in _LONG_RANGE),
    "INT": (int_key_subtasks, lambda key: key.__class__ is int and key in _INT_RANGE),
    "STRING": (string_key_subtasks, lambda key: key.__class__ is str),
}
_BULK_FROM = 4
# a tuple key of these only is hashed together with the others when keys travel pickled
_PLAIN_FLAT = frozenset((str, int, bool, bytes, type(None)))


def _typed_memo_safe(value: Any) -> bool:
    """False if `value` holds something equal to a value that PyFlink hashes differently under
    a declared type: a float zero (0.0 == -0.0) or a Decimal (Decimal("1.5") == "1.50")."""
    t = type(value)
    if t in _FLAT:
        return True
    if t is float:
        return value != 0.0
    if t is tuple or t is list or is_row(value):
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
        self._type = _key_type(key_type)
        self._pickled = isinstance(self._type, PickledBytesTypeInfo)
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

    def many(self, keys: Sequence[Any]) -> List[int]:
        """[self(key) for key in keys], with the keys not memoised yet hashed together
        where key_groups_bulk.py can (str and int keys without a declared type, int keys of
        Types.LONG() or Types.INT(), str keys of Types.STRING()): 100k new keys cost
        0.9-2.7 us each here, 5-11 us each one at a time (measured while other work ran)."""
        bulk = self._bulk
        if bulk is None:
            return [self(key) for key in keys]
        hash_together, takes = bulk
        subtasks: List[Any] = [None] * len(keys)
        new: List[int] = []
        by_type, pickled, tuples = self._by_type, self._pickled, self._tuples
        for position, key in enumerate(keys):
            kind = key.__class__
            if kind is str or kind is int:
                index = by_type[kind].get(key)
                if index is None and takes(key):
                    new.append(position)
                    continue
                subtasks[position] = self(key) if index is None else index
            elif pickled and kind is tuple and _PLAIN_FLAT.issuperset(map(type, key)):
                # a flat tuple of builtins pickles as the C pickler writes it (pickle_key)
                index = tuples.get((tuple(map(type, key)), key))
                if index is None:
                    new.append(position)
                else:
                    subtasks[position] = index
            else:
                subtasks[position] = self(key)
        if len(new) < _BULK_FROM:   # numpy's fixed cost is that of a few keys one by one
            for position in new:
                subtasks[position] = self(keys[position])
        elif new:
            found = hash_together([keys[i] for i in new], self._max_parallelism,
                                  self._parallelism)
            for position, index in zip(new, found):
                key = keys[position]
                if key.__class__ is tuple:
                    cache, memo_key = tuples, (tuple(map(type, key)), key)
                else:
                    cache, memo_key = by_type[key.__class__], key
                if len(cache) >= self._CACHE_LIMIT:
                    cache.clear()
                cache[memo_key] = subtasks[position] = index
        return subtasks

    @property
    def pickled(self) -> bool:
        """Whether keys travel pickled (no declared key type): hashed by their pickle."""
        return self._pickled

    @property
    def hashes_together(self) -> bool:
        """Whether many() hashes new keys of this key type together."""
        return self._bulk is not None

    @property
    def _bulk(self) -> Optional[tuple]:
        """(hash the keys together, which str / int keys it takes) for this key type."""
        if self._pickled:
            return _pickled_together, _any
        name = getattr(getattr(self._type, "_basic_type", None), "name", None)
        return _DECLARED_TOGETHER.get(name)

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
                group = murmur_hash(_to_int32(62 + java_bytes_hash(data))) % self._max_parallelism
                index = operator_index_for_key_group(self._max_parallelism, self._parallelism,
                                                     group)
                self._remember(data, index)
            return index
        elif not _typed_memo_safe(key):
            return self._compute(key)
        elif is_row(key):
            memo_key = (type(key), row_kind_value(key), key)
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
