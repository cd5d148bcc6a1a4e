"""Key runs: many small keys' records in one row of a key-sorted exchange (BATCH mode).

A key-sorted exchange (direct/exchange.py, 4.) hands a keyed subtask its rows sorted by
`order` (a key's bytes and a timestamp), then (edge, src, seq). A row of one key's records
costs the runner about the same whether it holds one record or a thousand: with a million
keys of one record each, the rows were what the job paid for (the reduce's task of
map_keyby_reduce spent ~3.8 us of JVM CPU on each, to read it from the shuffle, sort it and
turn it into Arrow, and each source task made a row per record).

So an exit's flush (runtime/exits/key_sorted.py) sends its small groups, one key's records
with one timestamp each, as key runs: a run is a row of up to RUN_RECORDS records, its
groups (order, values, timestamps-or-None, key) in order, the row's `order` its first
group's. A group of RUN_ALONE records or more leaves in a row of its own, as before.

The runner sorts a run by its first group only, so the reading task merges (KeyRunMerge):
when a row comes, every group held that sorts before it, (order, edge, src, seq) against the
row's, is processed first, then the row's first group; the rest of a run is held. No row
that comes later can hold a group sorting before its own first one, so this is the order
the runner would have given one row per group. What is held is the runs overlapping the
key reached: about one run per flush of each upstream subtask, RUN_RECORDS records each.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from heapq import heappop, heappush
from itertools import chain
from operator import itemgetter
from typing import Iterator, List, Tuple

from pyflink_on_spark.runtime.boundary import (
    KIND_KEY_RUN, KIND_RECORDS, dumps_key_run, dumps_records, loads_records,
    marshalled_key_run, marshalled_records, marshalled_run_parts)

RUN_RECORDS = 1024   # at most this many records in a key run
RUN_ALONE = 128      # a group this large leaves in a row of its own

_ORDER = itemgetter(0)
_COUNT = itemgetter(2)
_RUN_PLACE = itemgetter(0, 1, 2)   # (edge, src, seq) of a released slice


def append_key_runs(rows: list, groups: list, edge: int, src: int, seq: int,
                    sent: list) -> int:
    """Appends to `rows` the rows of `groups`, all for one destination and sorted by order:
    tuples (order, destination, record count, marshalled records or None, values,
    timestamps, key), the records marshalled apart (runtime/exits/key_sorted.py) or as
    objects in values. Small groups of one form go in key runs. Counts the destination's
    records in `sent`; returns the next sequence number."""
    if not groups:
        return seq
    dest = groups[0][1]
    run: list = []
    run_records = 0
    run_marshalled = False
    for group in groups:
        count, marshalled = group[2], group[3] is not None
        if run and (marshalled is not run_marshalled or run_records + count > RUN_RECORDS
                    or count >= RUN_ALONE):
            seq = _leave(rows, run, dest, edge, src, seq, sent)
            run = []
        if count >= RUN_ALONE:
            seq = _leave(rows, [group], dest, edge, src, seq, sent)
            continue
        if not run:
            run_marshalled, run_records = marshalled, 0
        run.append(group)
        run_records += count
    if run:
        seq = _leave(rows, run, dest, edge, src, seq, sent)
    return seq


def _leave(rows: list, run: list, dest: int, edge: int, src: int, seq: int,
           sent: list) -> int:
    """One row for `run`: a group alone as a records row, several as a key run."""
    if len(run) == 1:
        order, _, count, records, values, stamps, key = run[0]
        payload = dumps_records((values, stamps, key)) if records is None \
            else marshalled_records(records, key)
        sent[dest] += count
        rows.append((edge, dest, src, seq, KIND_RECORDS, payload, order))
        return seq + 1
    if run[0][3] is not None:
        parts: list = []
        for order, _, _, records, _, _, key in run:
            marshalled_run_parts(parts, order, records, key)
        payload = marshalled_key_run(parts, len(run))
    else:
        payload = dumps_key_run([(order, values, stamps, key)
                                 for order, _, _, _, values, stamps, key in run])
    sent[dest] += sum(map(_COUNT, run))
    rows.append((edge, dest, src, seq, KIND_KEY_RUN, payload, run[0][0]))
    return seq + 1

# groups released by KeyRunMerge, in the order to process them: (edge, groups) pairs
Released = List[Tuple[int, list]]


class KeyRunMerge:
    """The groups of key runs a reading task holds until no row still to come can sort
    before them (module docstring)."""

    def __init__(self) -> None:
        # (order of the run's next group, edge, src, seq, its position, the run's groups):
        # a run's (edge, src, seq) is its row's, so no two entries compare past seq
        self._heap: list = []

    def __bool__(self) -> bool:
        return bool(self._heap)

    def hold(self, groups: list, start: int, edge: int, src: int, seq: int) -> None:
        """Holds the groups of a key run from `start` on (the row's edge, src and seq)."""
        if start < len(groups):
            heappush(self._heap, (groups[start][0], edge, src, seq, start, groups))

    def release(self, order: bytes, edge: int, src: int, seq: int) -> Released:
        """The groups held that sort before a row (order, edge, src, seq), in order."""
        heap = self._heap
        bound = (order, edge, src, seq)
        taken = []
        while heap and heap[0] < bound:
            _, e, s, q, start, groups = heappop(heap)
            # a group of the bound's order sorts before the row when its run's row does
            cut = (bisect_right if (e, s, q) < bound[1:] else bisect_left)(
                groups, order, start, key=_ORDER)
            taken.append((e, s, q, groups[start:cut]))
            if cut < len(groups):
                heappush(heap, (groups[cut][0], e, s, q, cut, groups))
        return _merged(taken)

    def release_all(self) -> Released:
        """Every group held, in order (the end of the input)."""
        taken = [(e, s, q, groups[start:]) for _, e, s, q, start, groups in self._heap]
        self._heap = []
        return _merged(taken)


def _merged(taken: list) -> Released:
    """Slices of runs, (edge, src, seq, groups) each, merged into one order: by the groups'
    order, then their runs' (edge, src, seq), which a stable sort of the slices joined in
    (edge, src, seq) order gives."""
    if len(taken) <= 1:
        return [(taken[0][0], taken[0][3])] if taken else []
    taken.sort(key=_RUN_PLACE)
    edge = taken[0][0]
    if all(t[0] == edge for t in taken):
        return [(edge, sorted(chain.from_iterable(t[3] for t in taken), key=_ORDER))]
    # runs of several edges (a union into the keyed operator): each group keeps its edge
    tagged = sorted(((group[0], i, group) for i, t in enumerate(taken) for group in t[3]),
                    key=itemgetter(0, 1))
    return [(taken[i][0], [group]) for _, i, group in tagged]



def row_groups(row: tuple) -> list:
    """The groups of a key-sorted exchange's records row or key run, (order, values,
    timestamps-or-None, key) each, in order."""
    kind, payload, order = row[4], row[5], row[6]
    if kind == KIND_KEY_RUN:
        return loads_records(payload)
    if kind == KIND_RECORDS:
        return [(order, *loads_records(payload))]
    raise ValueError("a row of kind %d holds no records" % kind)


def merged_groups(rows) -> Iterator[Tuple[int, tuple]]:
    """(edge, group) of every group in one subtask's record rows of a key-sorted exchange,
    given in the exchange's order (direct/exchange.py route), in the order a reading task
    processes them (runtime/task.py does the same, row by row)."""
    held = KeyRunMerge()
    for row in rows:
        if row[4] not in (KIND_RECORDS, KIND_KEY_RUN):
            continue
        edge, src, seq, order = row[0], row[2], row[3], row[6]
        for run_edge, groups in held.release(order, edge, src, seq) if held else ():
            for group in groups:
                yield run_edge, group
        groups = row_groups(row)
        yield edge, groups[0]
        held.hold(groups, 1, edge, src, seq)
    for run_edge, groups in held.release_all():
        for group in groups:
            yield run_edge, group
