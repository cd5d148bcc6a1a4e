"""The Python values behind PyFlink's keys, as Java sees them: the bytes of a pickled key,
Rows (of any module with pyflink.common.Row's layout) and the Java object a value without a
declared type most naturally becomes. TypeInformation._java_key_hash (common/typeinfo.py)
builds on these; runtime/key_groups.py turns the hash into a key group."""
from __future__ import annotations

import io
import pickle
import zlib
from typing import Any

import cloudpickle

from pyflink_on_spark.common._java_text import (
    java_bytes_hash, java_double_hash, java_long_hash, java_string_hash)

# PyFlink's pickled-key coder calls cloudpickle.dumps(key), i.e. protocol
# pickle.HIGHEST_PROTOCOL, which is 5 for the Pythons PyFlink 1.20 supports. Pinned here so the
# shim's hash cannot drift with the local Python.
PICKLE_PROTOCOL = 5

_MASK = 0xFFFFFFFF


def _to_int32(x: int) -> int:
    x &= _MASK
    return x - 0x100000000 if x & 0x80000000 else x


def java_inferred_hash(value: Any) -> int:
    """hashCode() of the Java object that most naturally holds this Python value; used where no
    declared type says better (a value its declared type does not model)."""
    if isinstance(value, str):
        return java_string_hash(value)
    if isinstance(value, bool):
        return 1231 if value else 1237
    if isinstance(value, int):
        if -0x80000000 <= value <= 0x7FFFFFFF:
            return value
        return java_long_hash(value)
    if isinstance(value, float):
        return java_double_hash(value)
    if value is None:
        return 0
    if isinstance(value, (bytes, bytearray)):
        return java_bytes_hash(value)
    if isinstance(value, (tuple, list)) or is_row(value):
        h = 1
        for item in value:
            h = (31 * h + java_inferred_hash(item)) & _MASK
        return _to_int32(h)
    return _to_int32(zlib.crc32(pickle.dumps(value, protocol=4)))


# --------------------------------------------------------------------------- Rows

def is_row(value: Any) -> bool:
    return type(value).__name__ == "Row" and hasattr(value, "__iter__")


def row_kind_value(row: Any) -> int:
    getter = getattr(row, "get_row_kind", None)
    kind = getter() if getter is not None else getattr(row, "_row_kind", 0)
    return int(getattr(kind, "value", kind) or 0)


def _row_names(row: Any):
    names = getattr(row, "_fields", None)
    return names if isinstance(names, (list, tuple)) else None


def row_values(row: Any, type_names) -> list:
    """The field values in the order PyFlink's Row coder writes them (by the type's field names
    when both the type and the Row are named)."""
    values = list(getattr(row, "_values", None) or row) if is_row(row) else list(row)
    names = _row_names(row) if is_row(row) else None
    if type_names and names and list(names) != list(type_names) and set(type_names) <= set(names):
        index = {n: i for i, n in enumerate(names)}
        return [values[index[n]] for n in type_names]
    return values


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
    if is_row(value):
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
        if is_row(obj) and type(obj).__module__ != "pyflink.common.types":
            kind = self._kinds.get(row_kind_value(obj))
            if kind is None:
                kind = self._kinds[row_kind_value(obj)] = _RowKindRef(row_kind_value(obj))
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
