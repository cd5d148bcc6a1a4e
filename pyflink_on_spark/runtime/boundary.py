"""The rows that cross a stage boundary: (edge, dest, src, seq, kind, payload[, order]).

An executor moves them between the stages' tasks (spark/batch_schema.py is Spark's schema of
them); `kind` says what the payload holds. `order` (bytes; b"" when a row leaves it out)
is set only by the exits of a key-sorted exchange (BATCH mode into a keyed operator,
runtime/batch_order.py): a row there holds records of one key with one timestamp, or a key
run (KIND_KEY_RUN: several such groups in order), and the runner delivers a subtask's rows in
`order` first (direct/exchange.py).
"""
from __future__ import annotations

import marshal
import pickle
import struct
from itertools import chain
from typing import Optional

import cloudpickle

KIND_RECORDS = 0      # payload: dumps_records((values, timestamps-or-None[, keys]))
KIND_WATERMARK = 1    # payload: pickled int
KIND_SPLIT = 2        # payload: pickled source split
KIND_RECORD_COUNT = 4  # payload: pickled int, the records an upstream subtask sent on a
                       # key-sorted edge into a two-input operator (ExitSpec.counts_records)
KIND_DRIVER = 3       # payload: dumps_records((values, None)) for a sink exit (print, collect...)
KIND_PRESENCE = 5     # payload b"": a subtask's presence row, sent by upstream subtask 0 on
                      # the edge (spark/executor.py presence_carriers); not input
KIND_KEY_RUN = 6      # payload: a key run, [(order, values, timestamps-or-None, key), ...] in
                      # order, several keys' records in one row of a key-sorted exchange
                      # (runtime/key_runs.py); the row's `order` is its first group's
KIND_TICK = 9         # payload b"": only makes a source subtask run in a micro-batch of an
                      # unbounded job (spark/streaming/executor.py); not input


def row_order(row: tuple) -> bytes:
    """A boundary row's `order` (b"" for the rows that leave it out)."""
    return row[6] if len(row) > 6 else b""


_PICKLE_START = 0x80  # a pickle of protocol 2 or later starts with PROTO (0x80); marshal never

# The classes marshal writes as themselves. Another object it either refuses (ValueError)
# or, when the object exposes a buffer, writes as plain bytes without a word: a numpy int64
# or float64, a bytearray, a memoryview, an array.array would come back as bytes. So marshal
# is used only when every object of the records is of one of these exact classes.
MARSHAL_LEAVES = frozenset((int, float, complex, str, bytes, bool, type(None)))
_MARSHAL_SEQUENCES = frozenset((tuple, list, set, frozenset))
_MARSHAL_CONTAINERS = _MARSHAL_SEQUENCES | {dict}
_MARSHAL_DEPTH = 32  # deeper (or self-containing) records go to pickle, which handles them


def marshal_exact(items, depth: int = 0) -> bool:
    """True when every object in `items` (a list or tuple), and in the containers among
    them at any depth, is of a class in MARSHAL_LEAVES or _MARSHAL_CONTAINERS: what marshal
    writes and reads back as it was. One pass of type() over a level's objects, in C; the level
    below only when containers are among them."""
    classes = set(map(type, items))
    nested = classes - MARSHAL_LEAVES
    if not nested:
        return True
    if depth >= _MARSHAL_DEPTH or not nested <= _MARSHAL_CONTAINERS:
        return False
    if dict in nested:
        dicts = [x for x in items if type(x) is dict]
        children = list(chain(chain.from_iterable(dicts),
                              chain.from_iterable(map(dict.values, dicts)),
                              chain.from_iterable(x for x in items
                                                  if type(x) in _MARSHAL_SEQUENCES)))
    elif nested == classes:
        children = list(chain.from_iterable(items))
    else:
        children = list(chain.from_iterable(x for x in items if type(x) in nested))
    return marshal_exact(children, depth + 1)


def dumps_records(group: tuple, values_exact: bool = False, keys_exact: bool = False) -> bytes:
    """A records row's payload: `(values, timestamps-or-None)`, and on a keyed exchange the
    records' keys third, as the exit's key selector computed them (runtime/exits/): a
    list beside the values, or on a key-sorted exchange the one key of the row. The keyed
    operator takes them instead of calling the key selector again, as PyFlink's keyed
    operators take the key its key_by computed once (runtime/task.py).

    marshal when every object in the records, keys and timestamps is of an exact builtin
    class (marshal_exact): it writes a chunk of ints, strs and tuples in a third of the C
    pickler's time and reads it back in about half. Else the C pickler, unless the records
    need cloudpickle (classes or functions of the job script, `__main__`, which workers
    cannot import). values_exact: the caller knows the values (group[0]) to be exact
    (runtime/exits/loops.py), so only the rest is checked; keys_exact: the same for the
    keys (group[2], the str and int keys a keyed exit's loop saw)."""
    checked = group[1 if values_exact else 0:2 if keys_exact else None]
    return _dumps_checked(group, all(
        marshal_exact(part) if type(part) is list else marshal_exact((part,))
        for part in checked))


def dumps_key_run(groups: list) -> bytes:
    """A key run's payload (KIND_KEY_RUN) from its groups, (order, values, timestamps-or-None,
    key) each, as dumps_records would write them."""
    return _dumps_checked(groups, marshal_exact(groups))


def _dumps_checked(data, exact: bool) -> bytes:
    if exact:
        try:
            return marshal.dumps(data)
        except ValueError:  # too deep for marshal
            pass
    try:
        pickled = pickle.dumps(data, 5)
    except Exception:
        return cloudpickle.dumps(data)
    return cloudpickle.dumps(data) if b"__main__" in pickled else pickled


# A record marshalled alone (runtime/exits/key_sorted.py) is written in marshal's version 2,
# which has no back-references: the bytes of records marshalled apart can then be joined into
# one list.
MARSHAL_RECORD_VERSION = 2
_LIST_HEAD = b"["   # marshal's list: "[", the count (int32, little-endian), the items
_TUPLE3_HEAD = b"(" + struct.pack("<i", 3)
_TUPLE4_HEAD = b"(" + struct.pack("<i", 4)
_NONE = b"N"
_count = struct.Struct("<i").pack


def marshalled_records(records: list, key, stamps: Optional[list] = None) -> bytes:
    """The payload of a key-sorted row, (values, timestamps-or-None, key), from its records
    each marshalled apart (MARSHAL_RECORD_VERSION), their timestamps (ints or None) and its
    key (an exact str or int): the same bytes a marshal of the whole would be, less the
    back-references, read by loads_records."""
    return b"".join((_TUPLE3_HEAD, _LIST_HEAD, _count(len(records)), *records,
                     _NONE if stamps is None else marshal.dumps(stamps, MARSHAL_RECORD_VERSION),
                     marshal.dumps(key, MARSHAL_RECORD_VERSION)))


def marshalled_run_parts(parts: list, order: bytes, records: list, key,
                         stamps: Optional[list] = None) -> None:
    """Appends to `parts` the bytes of one group of a key run, (order, values, None, key),
    from its records each marshalled apart and its key (an exact str or int, or a flat tuple
    of exact values); marshalled_key_run joins the parts of its groups."""
    parts += (_TUPLE4_HEAD, marshal.dumps(order, MARSHAL_RECORD_VERSION), _LIST_HEAD,
              _count(len(records)), *records,
              _NONE if stamps is None else marshal.dumps(stamps, MARSHAL_RECORD_VERSION),
              marshal.dumps(key, MARSHAL_RECORD_VERSION))


def marshalled_key_run(parts: list, groups: int) -> bytes:
    """A key run's payload from marshalled_run_parts' bytes of its `groups` groups."""
    return b"".join((_LIST_HEAD, _count(groups), *parts))


def marshalled_values(records: list) -> list:
    """The values of records each marshalled apart, as objects again."""
    return marshal.loads(b"".join((_LIST_HEAD, _count(len(records)), *records)))


def loads_records(payload: bytes) -> tuple:
    """The `(values, timestamps-or-None[, keys])` of a payload from dumps_records."""
    if payload[0] == _PICKLE_START:
        return pickle.loads(payload)
    return marshal.loads(payload)
