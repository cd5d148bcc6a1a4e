"""A keyed exit's records routed a call at a time, for streams of many new keys.

A keyed exit (chunked.py) finds a str or int key's subtask in its memo; a key it has not
seen is hashed as Flink hashes it, 8-10 us one key at a time in Python (key_groups.py),
against ~0.2 us for the rest of a record's way through the exit. With every key new (a
stream of ids), that is most of the job. key_groups_bulk.py hashes many keys together in
~0.5 us a key, but a record's subtask is needed before the next record can be placed: the
records of one destination leave in their order.

So when new keys come often (chunked.BULK_AFTER_MISSES of them since the exit last took
this way, or since it started), the exit takes a call's records in two steps: a loop
(templates.BULK_LOOP) that runs the fused map, the converter and the key function per
record, as the usual loop does, keeping the keys and values; then route(): their
subtasks, the new keys' together, and each record into its destination's chunk in the
order the records came. Once fewer than one key in BULK_LEAVE_SHARE is new in a call, the
exit goes back to the usual loop. The records before one whose map or key function raised
are routed before the error goes on, as the usual loop has them.
"""
from __future__ import annotations

from typing import Callable, List, Optional

# a call with fewer new keys than 1 in this many records goes back to the usual loop
BULK_LEAVE_SHARE = 32
_STR_INT = frozenset((str, int))
# key classes whose equal values have equal serialized forms, so the exits remember a key's
# subtask by the key itself with its class, and a flat tuple's by the tuple with its
# elements' classes (chunked.py tuple_dest, key_sorted.py)
MEMO_CLASSES = frozenset((str, int, bool, bytes, type(None)))


def make_router(to_subtask, dest_of: dict, tuple_dest_of: dict, memo_limit: int, bulk: list,
                values_by: List[list], keys_by: List[list], stamps_by: List[list],
                stamped_state: list, unsure: list, tested: bool, keys_unsure: list,
                flush: Callable, chunk_records: int,
                blame: Callable[[BaseException], BaseException]) -> Callable:
    """route(keys, values, exacts, timestamp, stamps): the second step (see the module's
    docstring). `stamps` gives each record's timestamp, else all have `timestamp`; `blame`
    wraps an error of the key -> subtask map (a key its declared type cannot take).
    keys_unsure: the destinations whose chunk holds a key other than a str or an int, as
    the usual loop marks them (chunked.py)."""

    def subtasks(keys: list) -> tuple:
        """(the keys' subtasks, the error met at the first key that has none, or None);
        the subtasks stop before that key."""
        if _STR_INT.issuperset(map(type, keys)):
            dests = list(map(dest_of.get, keys))
            failure = None
        else:
            dests, failure = [], None
            for key in keys:
                kind = key.__class__
                if kind is str or kind is int:
                    dests.append(dest_of.get(key))
                    continue
                if kind is tuple and MEMO_CLASSES.issuperset(map(type, key)):
                    # remembered with its elements' classes, as the usual loop does
                    found = tuple_dest_of.get(key)
                    dests.append(found[0] if found is not None
                                 and found[1] == tuple(map(type, key)) else None)
                    continue
                try:
                    dests.append(to_subtask(key))
                except Exception as e:
                    failure = e
                    break
        new = [i for i, dest in enumerate(dests) if dest is None]
        if new:
            try:
                found = to_subtask.many([keys[i] for i in new])
            except Exception:   # a key its type cannot take: the ones before it go on
                found = []
                for i in new:
                    try:
                        found.append(to_subtask(keys[i]))
                    except Exception as e:
                        failure = e
                        del dests[i:]
                        new = new[:len(found)]
                        break
            if len(dest_of) + len(new) > memo_limit:
                dest_of.clear()
            if len(tuple_dest_of) + len(new) > memo_limit:
                tuple_dest_of.clear()
            for i, dest in zip(new, found):
                key = keys[i]
                dests[i] = dest
                if key.__class__ is tuple:
                    tuple_dest_of[key] = (dest, tuple(map(type, key)))
                else:
                    dest_of[key] = dest
        if len(new) * BULK_LEAVE_SHARE < len(keys):
            bulk[0] = False
        return dests, failure

    def route(keys: list, values: list, exacts: list, timestamp: Optional[int],
              stamps: Optional[list]) -> None:
        if not keys:
            return
        dests, failure = subtasks(keys)
        if not _STR_INT.issuperset(map(type, keys)):
            for dest in set(dests):   # before a chunk can leave
                keys_unsure[dest] = True
        stamped = stamped_state[0]
        for i, dest in enumerate(dests):
            chunk = values_by[dest]
            chunk.append(values[i])
            keys_by[dest].append(keys[i])
            if stamped:
                stamps_by[dest].append(timestamp if stamps is None else stamps[i])
            if tested and not exacts[i]:
                unsure[dest] = True
            if len(chunk) >= chunk_records:
                flush(dest)
        if failure is not None:
            raise blame(failure)
    return route
