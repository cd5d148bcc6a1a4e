"""Key runs: many small keys' records in one row of a key-sorted exchange (BATCH mode).

A key-sorted exchange (direct/exchange.py, 4.) hands a keyed subtask its rows sorted by
`order` (a key's bytes and a timestamp), then (edge, src, seq). A row of one key's records
costs the runner about the same whether it holds one record or a thousand: with a million
keys of one record each, the rows were what the job paid for (the reduce's task of
map_keyby_reduce spent ~3.8 us of JVM CPU on each, to read it from the shuffle, sort it and
turn it into Arrow, and each source task made a row per record).

So an exit's flush (runtime/exits/key_sorted.py) sends its small groups, one key's records
(without timestamps, or sorted by timestamp: a piece of a key), as key runs: a run is a row
of up to RUN_RECORDS records, its groups (order, values, timestamps-or-None, key) in order,
a group's order its key and its first record's timestamp, the row's `order` its first
group's. A group of RUN_ALONE records or more leaves in a row of its own, as before.

The runner sorts a run by its first group only, so the reading task merges (KeyRunMerge):
when a row comes, every group held that sorts before it, (order, edge, src, seq) against the
row's, is processed first, then the row's first group; the rest of a run is held. No row
that comes later can hold a group sorting before its own first one, so this is the order
the runner would have given one row per group. What is held is the runs overlapping the
key reached: about one run per flush of each upstream subtask, RUN_RECORDS records each.

A group with several timestamps is merged record by record: every record still to come
sorts after the row just come, (key, timestamp, edge, src, seq), so a group held is due
up to that point (a bisect of its timestamps) and the rest waits; groups of one key due
together that overlap in time are merged by (timestamp, edge, src, seq, place). That is
the order one group per (key, timestamp) sorted by the runner gave, with a row per piece
of a key instead of one per record when every record has its own timestamp (an event-
time job in BATCH mode: 2.5x its STREAMING run's time before, benchmarks/RESULTS.md). A
row's first group is processed at once only when its records share one timestamp.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from heapq import heappop, heappush
from operator import itemgetter
from typing import Iterator, List, Tuple

from pyflink_on_spark.runtime.batch_order import (
    LONG_MIN, TIMESTAMP_BYTES, key_of_order, order_timestamp, sorted_record_order)
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
            else marshalled_records(records, key, stamps)
        sent[dest] += count
        rows.append((edge, dest, src, seq, KIND_RECORDS, payload, order))
        return seq + 1
    if run[0][3] is not None:
        parts: list = []
        for order, _, _, records, _, stamps, key in run:
            marshalled_run_parts(parts, order, records, key, stamps)
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
    before them (module docstring), and the records of a key's pieces with several
    timestamps until no row still to come can hold one of the key's records sorting
    before them: a row's order is its first record's, so a row (order, edge, src, seq)
    says that every record still to come sorts after it, by (key, timestamp, edge, src,
    seq) and its place in its row."""

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
            before = (e, s, q) < bound[1:]
            cut = (bisect_right if before else bisect_left)(groups, order, start, key=_ORDER)
            # a run's records are in (key, timestamp) order across its groups, so only its
            # last group due can hold records of the row's key past the row's first
            last = groups[cut - 1]
            stamps = last[2]
            if stamps is not None and len(stamps) > 1 and stamps[-1] != stamps[0] \
                    and last[0][:-TIMESTAMP_BYTES] == order[:-TIMESTAMP_BYTES]:
                sort_stamps = _sort_stamps(stamps)
                bound_stamp = order_timestamp(order)
                split = (bisect_right if before else bisect_left)(sort_stamps, bound_stamp)
                if split < len(stamps):
                    values, key = last[1], last[3]
                    groups[cut - 1] = (
                        sorted_record_order(key_of_order(last[0]), sort_stamps[split]),
                        values[split:], stamps[split:], key)
                    cut -= 1
                    taken.append((e, s, q, groups[start:cut] + [
                        (last[0], values[:split], stamps[:split], key)]))
                    heappush(heap, (groups[cut][0], e, s, q, cut, groups))
                    continue
            taken.append((e, s, q, groups[start:cut]))
            if cut < len(groups):
                heappush(heap, (groups[cut][0], e, s, q, cut, groups))
        return _merged(taken)

    def release_all(self) -> Released:
        """Every group held, in order (the end of the input)."""
        taken = [(e, s, q, groups[start:]) for _, e, s, q, start, groups in self._heap]
        self._heap = []
        return _merged(taken)


def _sort_stamps(stamps: list) -> list:
    """A group's timestamps as the exchange sorts them: none as Long.MIN_VALUE."""
    return stamps if None not in stamps else [LONG_MIN if t is None else t for t in stamps]


def one_timestamp(group: tuple) -> bool:
    """Whether every record of a group (order, values, timestamps-or-None, key) sorts at
    the group's order: no timestamps, or one for all."""
    stamps = group[2]
    return stamps is None or len(stamps) < 2 or stamps[0] == stamps[-1]


def _merged(taken: list) -> Released:
    """Slices of runs, (edge, src, seq, groups) each, merged into one order: by the groups'
    order, then their runs' (edge, src, seq), which a stable sort of the slices joined in
    (edge, src, seq) order gives; then a key's groups with several timestamps that
    overlap others of the key are merged record by record (_interleaved)."""
    if len(taken) <= 1:
        return [(taken[0][0], taken[0][3])] if taken else []
    taken.sort(key=_RUN_PLACE)
    # (group, edge) in (edge, src, seq, place) order; their ranks sorted by order (stable)
    flat = [(group, t[0]) for t in taken for group in t[3]]
    ranks = sorted(range(len(flat)), key=lambda rank: flat[rank][0][0])
    if all(map(one_timestamp, (group for group, _ in flat))):
        tagged = [flat[rank] for rank in ranks]
    else:
        tagged = _interleaved(flat, ranks)
    edge = tagged[0][1]
    if all(t[1] == edge for t in tagged):
        return [(edge, [group for group, _ in tagged])]
    # runs of several edges (a union into the keyed operator): each group keeps its edge
    return [(e, [group]) for group, e in tagged]


def _interleaved(flat: list, ranks: list) -> list:
    """The (group, edge) pairs of `flat` (in (edge, src, seq, place) order) in the order
    of `ranks` (theirs sorted by the groups' order), with a key's groups that overlap
    merged into the exchange's record order, (timestamp, edge, src, seq, place): a stable
    sort by timestamp of the key's records taken in `flat`'s order gives it."""
    out = []
    i, n = 0, len(ranks)
    while i < n:
        key = flat[ranks[i]][0][0][:-TIMESTAMP_BYTES]
        j = i + 1
        while j < n and flat[ranks[j]][0][0][:-TIMESTAMP_BYTES] == key:
            j += 1
        cluster = ranks[i:j]
        i = j
        if all(_before(flat, a, b) for a, b in zip(cluster, cluster[1:])):
            out += [flat[rank] for rank in cluster]
            continue
        values, stamps, sort_stamps, edges = [], [], [], []
        for rank in sorted(cluster):
            group, edge = flat[rank]
            count = len(group[1])
            values += group[1]
            group_stamps = group[2] if group[2] is not None else [None] * count
            stamps += group_stamps
            sort_stamps += _sort_stamps(group_stamps)
            edges += [edge] * count
        order = sorted(range(len(values)), key=sort_stamps.__getitem__)
        row_key, key_bytes = flat[cluster[0]][0][3], key_of_order(flat[cluster[0]][0][0])
        start = 0
        while start < len(order):   # a group per run of one edge's records
            edge = edges[order[start]]
            end = start + 1
            while end < len(order) and edges[order[end]] == edge:
                end += 1
            part = order[start:end]
            out.append(((sorted_record_order(key_bytes, sort_stamps[part[0]]),
                         [values[r] for r in part], [stamps[r] for r in part], row_key),
                        edge))
            start = end
    return out


def _before(flat: list, a: int, b: int) -> bool:
    """Whether every record of group `a` sorts before every one of group `b` (ranks in
    `flat`, `a` first by order)."""
    first, second = flat[a][0][2], flat[b][0][2]
    last_a = LONG_MIN if first is None or first[-1] is None else first[-1]
    first_b = LONG_MIN if second is None or second[0] is None else second[0]
    return last_a < first_b or last_a == first_b and a < b


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
        first = 0
        if one_timestamp(groups[0]):
            yield edge, groups[0]
            first = 1
        held.hold(groups, first, edge, src, seq)
    for run_edge, groups in held.release_all():
        for group in groups:
            yield run_edge, group
