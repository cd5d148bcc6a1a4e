"""The exit of a key-sorted exchange (BATCH mode into a keyed operator, ExitSpec.
sort_by_key): KeySortedExitCollector. Records reach it through its compiled loop
(templates.KEY_SORTED_LOOP); the rest of its work (placing keys, the rows leaving) is per
key or per flush, in the methods below.
"""
from __future__ import annotations

import marshal
from itertools import chain, islice
from operator import itemgetter, le
from pickle import dumps as plain_pickle
from typing import Callable, List, Optional

import cloudpickle

from pyflink_on_spark.common._key_hash import PICKLE_PROTOCOL
from pyflink_on_spark.datastream.functions import per_record_callable
from pyflink_on_spark.runtime.batch_order import (
    LONG_MIN, ORDER_AFTER_RECORDS, ORDER_BEFORE_RECORDS, batch_key_order, pickle_order,
    pickled_key_order, sorted_record_order)
from pyflink_on_spark.runtime.boundary import (
    KIND_RECORD_COUNT, KIND_RECORDS, MARSHAL_RECORD_VERSION, dumps_records,
    marshalled_records, marshalled_values)
from pyflink_on_spark.runtime.exits.bulk_keys import MEMO_CLASSES
from pyflink_on_spark.runtime.exits.chunked import CHUNK_RECORDS, ExitCollector
from pyflink_on_spark.runtime.exits.loops import compile_loop, exact_test, fill
from pyflink_on_spark.runtime.exits.partials import partial_adder
from pyflink_on_spark.runtime.exits.selectors import blame_selector
from pyflink_on_spark.runtime.exits.templates import (
    ADD_TO_PARTIAL, ADD_TO_SLOT, FOLDING_SLOT, KEY_SORTED_FUSED, KEY_SORTED_LOOP,
    KEY_SORTED_PLAIN, MARSHALLED_SLOT, OBJECT_SLOT, ONE_TIMESTAMP, OWN_TIMESTAMPS,
    STAMP_SOURCE, STAMPED_SLOT)
from pyflink_on_spark.runtime.key_groups import KeyToSubtask
from pyflink_on_spark.runtime.key_groups_bulk import pickled_key_subtasks
from pyflink_on_spark.runtime.key_runs import RUN_RECORDS, append_key_runs
from pyflink_on_spark.runtime.operators.base import user_function_error
from pyflink_on_spark.specs.stage import ExitSpec

# A key-sorted exit holds more records than a chunk (all destinations together): the more of
# a key's records share a row, the fewer rows Spark sorts and the tasks cross.
SORTED_RECORDS_HELD = 64 * CHUNK_RECORDS
# a key-sorted exit holds marshalled records past SORTED_RECORDS_HELD while they take less
# than this: a bytes object's header and a list's pointer each (_HELD_RECORD_BYTES), a slot's
# list and dict entry (_SLOT_BYTES), on top of the records' own bytes
MARSHALLED_BYTES_HELD = 48 << 20
FEW_RECORDS = 16    # a slot this small that would leave is worth holding longer
_HELD_RECORD_BYTES = 41
_SLOT_BYTES = 200

# a group leaving a key-sorted exit (flush): its order
_GROUP_ORDER = itemgetter(0)

# A key's records with timestamps leave sorted by timestamp in pieces of at most this many
# records and about this many bytes (the reading task merges a key's pieces of several
# upstream subtasks and flushes by timestamp, holding the pieces that overlap the timestamp
# it has reached: key_runs.py)
PIECE_RECORDS = RUN_RECORDS
PIECE_BYTES = 64 << 10
_SAMPLE = 8   # records whose size tells a large slot's piece size


class KeySortedExitCollector(ExitCollector):
    """The exit of a key-sorted exchange (BATCH mode into a keyed operator, ExitSpec.
    sort_by_key): records are grouped by key, a group's `order` the key's bytes in Flink's
    batch order and the timestamp of its first record, so that the runner's sort hands the
    consumer its input key by key (direct/exchange.py, 4.). A key's records with timestamps
    leave sorted by timestamp (stable: records of one timestamp as they came), in pieces of
    PIECE_RECORDS records or PIECE_BYTES at most; the reading task merges a key's pieces
    by (timestamp, edge, src, seq) (key_runs.py), which is the order one group per (key,
    timestamp) sorted by the runner gave. At most SORTED_RECORDS_HELD records are held,
    all destinations together.

    The rows, not the records, are what the runner pays for (each is serialized, moved,
    sorted and decoded), so the exit makes few: records without a timestamp whose key is a
    str (or another MEMO_CLASSES type) wait in their key's slot, and when the exit is full
    only the largest slots leave (half the records held, at least): a rare key's records
    wait for more of its records instead of leaving one by one. A key's rows leave in the
    order of its records, so the sort (order, edge, src, seq) keeps that order. Records with
    a timestamp wait in their key's stamped slot, and records without of other key types
    are grouped by their order bytes; both leave at every flush.

    Upstream subtask 0 into a BATCH reduce (ExitSpec.leading_fold, graph/compile.py
    _leading_fold) sends, for a str or int key, the left fold of the key's records it saw
    (the reduce reads its rows of a key first): one record instead of all. The fold is the
    reduce's own (user errors name the reduce), started at the key's first record, None
    after a reduce returned None (the reduce's state then starts again, as the reduce's own
    fold does), and leaves at the end. If a fold has to leave before (the exit is full, or
    a record of its key with timestamp Long.MIN_VALUE, which sorts with it, has come), no
    new fold starts: a key's second fold row would be reduced with its first. The other
    upstream subtasks send their folds too when the reduce is proved associative
    (LeadingFold.every_subtask, graph/associativity.py): the reduce then folds them onto
    what it read before, as it would have folded their records one by one.

    A record the loop knows to be exact (loops.py) under a str or int key waits
    marshalled, not as objects: marshalled when it was just made, in the caches, it costs
    a fifth of what marshalling it later does, when the slot leaves and its objects, among
    a hundred thousand held, have left the caches; and its objects are freed at once. A
    key's slot holds one form: the first record of the key that is not exact turns the
    key's marshalled records back into objects, and the slot holds objects from then on."""

    _MEMO_LIMIT = 1 << 16

    def __init__(self, spec: ExitSpec, subtask: int, parallelism: int, rows: List[tuple],
                 user_error: Callable[[BaseException], BaseException]) -> None:
        # memoisable key (a str or an int itself, else (type, key): 1 and True differ) -> the
        # values waiting without timestamp, and -> (destination, order, key) of their row
        self._slots: dict = {}
        # str or int key -> its records waiting marshalled (a key is here or in _slots)
        self._marshalled: dict = {}
        # destination -> records sent (ExitSpec.counts_records)
        self._sent = [0] * spec.target_parallelism
        self._slot_places: dict = {}
        # str or int key -> [the fold of its records] (ExitSpec.leading_fold, subtask 0)
        self._folds: dict = {}
        # order -> [destination, timestamp, value, value, ...]: records without timestamp
        # of keys not memoised
        self._held: dict = {}
        # memoisable key as slots (or the order bytes of another key) -> [values, their
        # timestamps, key, (destination, key bytes) or None until placed, whether the
        # values are held marshalled (MARSHAL_RECORD_VERSION: exact ones, loops.py)]
        self._stamped_slots: dict = {}
        super().__init__(spec, subtask, parallelism, rows, user_error)

    def _records_path(self, spec: ExitSpec, user_map: Optional[Callable] = None,
                      map_error: Optional[Callable] = None) -> Callable:
        """process_many(values, timestamp), compiled once per exit (loops.py), with the
        exit's state for it started anew."""
        partitioning, convert = spec.partitioning, self._convert
        aggregation, add_to_partial, leading = self._begin(spec)
        namespace = dict(
            folds=self._folds, folding=self._folding, new_fold=self._new_fold,
            fold_error=self._fold_error,
            fold=None if leading is None else per_record_callable(leading.function, "reduce"),
            counted=self._counted, slots=self._slots, marshalled=self._marshalled,
            stamped=self._stamped_slots, new_stamped=self._new_stamped,
            as_objects=_as_objects,
            hold_stamped=self._stamped_holder(),
            new_slot=self._new_slot, new_marshalled_slot=self._new_marshalled_slot,
            add_to_partial=add_to_partial, hold_other=self._other_holder(),
            flush=self._flush_held, memo_types=MEMO_CLASSES, limit=SORTED_RECORDS_HELD,
            dumps=marshal.dumps, marshal_version=MARSHAL_RECORD_VERSION,
            user_error=self._user_error, partitioning=partitioning, user_map=user_map,
            map_error=map_error, blame_selector=blame_selector,
            get_key=per_record_callable(partitioning.key_selector, "get_key"))
        # a str or int key's records wait marshalled when the loop knows a record exact
        marshalled = aggregation is None and exact_test(convert) is not None
        self._stamped_marshalled = exact_test(convert) is not None
        add = ADD_TO_SLOT if aggregation is None else ADD_TO_PARTIAL
        hooks = {
            "str_int_key": _slot_source("key", add, marshalled, leading is not None),
            "tuple_key": _slot_source("slot_key", add, marshalled, leading is not None),
            "stamped_key": STAMPED_SLOT}
        has_map = user_map is not None
        # what fused_with_stamps builds its loop from
        self._loop_names, self._loop_hooks = namespace, hooks
        # records with a timestamp each (an assigner's slices) in one loop too
        self.process_stamped = compile_loop(KEY_SORTED_LOOP, namespace, convert, has_map, dict(
            hooks, **OWN_TIMESTAMPS, **KEY_SORTED_PLAIN, name="process_stamped"))
        return compile_loop(KEY_SORTED_LOOP, namespace, convert, has_map, dict(
            hooks, **ONE_TIMESTAMP, **KEY_SORTED_PLAIN, name="process_many"))

    def fused_with_stamps(self, extract: Callable, stamp_error: Callable, stamp_event: Callable,
                          seen: list, user_map: Optional[Callable] = None,
                          map_error: Optional[Callable] = None) -> Callable:
        """process_fused(records, record_timestamp): assign_timestamps_and_watermarks (and a
        map before it) inside this exit's loop, as ExitCollector.fused_with_stamps does
        (chunked.py): each record's map, timestamp and the generator's check (templates.
        STAMP_SOURCE), then process_stamped's steps, with no list of timestamps between
        two loops (a BATCH event-time job's source stage: its stamps and exit had two)."""
        names = dict(self._loop_names, extract=extract, stamp_error=stamp_error,
                     stamp_event=stamp_event, seen=seen, user_map=user_map,
                     map_error=map_error)
        return compile_loop(KEY_SORTED_LOOP, names, self._convert, user_map is not None,
                            dict(self._loop_hooks, **KEY_SORTED_FUSED), STAMP_SOURCE)

    def _begin(self, spec: ExitSpec) -> tuple:
        """Starts the exit's state for a new loop; returns (the partial aggregation or None,
        its add_to_partial, the leading fold or None)."""
        key_type = spec.partitioning.key_type
        self._to_subtask = KeyToSubtask(spec.target_max_parallelism, spec.target_parallelism,
                                        key_type)
        self._key_order = batch_key_order(key_type)
        aggregation, self._at, every_subtask = spec.partial_aggregation or (None, None, False)
        if self._src != 0 and not every_subtask:
            aggregation = None   # a float sum: only subtask 0's is the aggregation's own
        add_to_partial, self._partial_kind = partial_adder(aggregation, self._at)
        leading = self._leading = spec.leading_fold if aggregation is None \
            and spec.leading_fold is not None \
            and (self._src == 0 or spec.leading_fold.every_subtask) else None
        # True while no fold has left before the end: only then may a key's fold start
        self._folding = [leading is not None]
        # records held; the loop keeps it in a local and stores it back when it returns
        self._counted = [0]
        # memoisable key (as slots) -> (destination, key bytes): worked out once per key
        self._located: dict = {}
        # (slot key, key) of the slots and folds with no place yet: placed together when
        # they are about to leave (_place_new), where their keys' subtasks are hashed in
        # bulk (KeyToSubtask.many) rather than one key at a time, as the keys come
        self._unplaced: list = []
        # the stamped slots with no place yet (placed together at the flush, as _unplaced)
        self._stamped_unplaced: list = []
        # keys without a declared type: the key's pickle also gives its order (a declared
        # type that orders by the pickle, BIG_INT, a tuple..., hashes its own way)
        self._one_pickle = self._key_order is pickled_key_order and self._to_subtask.pickled
        self._in_runs = not spec.counts_records   # a two-input operator reads rows of one key
        return aggregation, add_to_partial, leading

    # -- a key's slot, fold and place (the loop calls these once per new key) -----------------

    def _new_slot(self, key, slot_key) -> list:
        """The slot of a key's records as objects: its marshalled records, if any, turned
        back into objects first, so the key's records stay in their order."""
        records = self._marshalled.pop(slot_key, None)
        if records is not None:
            slot = self._slots[slot_key] = marshalled_values(records)
            return slot
        self._unplaced.append((slot_key, key))
        slot = self._slots[slot_key] = []
        return slot

    def _new_marshalled_slot(self, key, slot_key) -> Optional[list]:
        """A str or int key's (or flat tuple's) slot of marshalled records; None when its
        records wait as objects already."""
        if slot_key in self._slots:
            return None
        self._unplaced.append((slot_key, key))
        slot = self._marshalled[slot_key] = []
        return slot

    def _new_fold(self, key, value, slot_key) -> None:
        self._unplaced.append((slot_key, key))
        self._folds[slot_key] = [value]

    def _new_stamped(self, key, slot_key=None) -> list:
        """The stamped slot of a memoisable key (slot_key: as slots; a str or int key is
        its own), placed now if its place is known."""
        if slot_key is None:
            slot_key = key
        place = self._located.get(slot_key)
        slot = self._stamped_slots[slot_key] = [[], [], key, place, self._stamped_marshalled]
        if place is None:
            self._stamped_unplaced.append(slot)
        return slot

    def _fold_error(self, error: Exception, key) -> Exception:
        self._place_new()
        return user_function_error(error, self._leading.operator_name,
                                   self._slot_places[key][0])

    def _place_new(self) -> None:
        """The places (destination, order, key) of the slot keys in `_unplaced`."""
        places, located, unplaced = self._slot_places, self._located, self._unplaced
        pending = [entry for entry in unplaced if entry[0] not in places]
        unplaced.clear()
        new = []
        for slot_key, key in pending:
            found = located.get(slot_key)
            if found is None:
                new.append((slot_key, key))
            else:
                places[slot_key] = (found[0], sorted_record_order(found[1], None), key)
        for (slot_key, key), (dest, key_bytes) in zip(new, self._located_anew(new)):
            places[slot_key] = (dest, sorted_record_order(key_bytes, None), key)

    def _located_anew(self, new: list) -> list:
        """(destination, key bytes) of each (slot key, key) in `new`, remembered in
        `_located` (the keys' subtasks hashed together: _locate)."""
        if not new:
            return []
        found = self._locate([key for _, key in new])
        located = self._located
        if len(located) + len(new) > self._MEMO_LIMIT:
            located.clear()
        for (slot_key, _), place in zip(new, found):
            located[slot_key] = place
        return found

    def _locate(self, keys: list) -> list:
        """(destination, key bytes) of each key, their subtasks hashed together where the
        key type allows (KeyToSubtask.many)."""
        spec, to_subtask = self.spec, self._to_subtask
        if self._one_pickle:
            # slot keys are builtins (MEMO_CLASSES, flat tuples of them): one plain pickle
            # gives a key's order and its hash, but for None, which PyFlink sends as null
            pickles = [plain_pickle(key, PICKLE_PROTOCOL) for key in keys]
            dests = pickled_key_subtasks(pickles, spec.target_max_parallelism,
                                         spec.target_parallelism)
            if None in keys:
                dests = [to_subtask(None) if key is None else dest
                         for key, dest in zip(keys, dests)]
            orders = map(pickle_order, pickles)
        else:
            dests = to_subtask.many(keys)
            orders = map(self._key_order, keys)
        return list(zip(dests, orders))

    def _other_holder(self) -> Callable:
        """hold_other(key, value, timestamp), which the loop calls for a record without
        timestamp of a key that is not memoised (a record with one goes to its key's
        stamped slot: _stamped_holder): the record waits in `_held` under its order (a
        closure, as it runs per record)."""
        folds, folding, held, located = self._folds, self._folding, self._held, self._located
        to_subtask, key_order, memo_limit = self._to_subtask, self._key_order, self._MEMO_LIMIT
        memo_types = MEMO_CLASSES

        def locate(key, memo_key) -> tuple:
            found = located.get(memo_key)
            if found is None:
                if len(located) >= memo_limit:
                    located.clear()
                found = located[memo_key] = (to_subtask(key), key_order(key))
            return found

        def hold_other(key, value, timestamp) -> None:
            kind = type(key)
            fold_key = (tuple(map(type, key)), key) if kind is tuple and \
                memo_types.issuperset(map(type, key)) else key
            if timestamp is not None and folds and timestamp == LONG_MIN and fold_key in folds:
                # its row sorts with the fold's: the fold leaves first, the key's last
                folding[0] = False
                self._place_new()
                self._seq = self._leave_groups(self._fold_groups([fold_key]), self._seq)
            if kind in memo_types:
                dest, key_bytes = locate(key, key if kind is str or kind is int else (kind, key))
            else:
                dest, key_bytes = to_subtask(key), key_order(key)
            order = sorted_record_order(key_bytes, timestamp)
            entry = held.get(order)
            if entry is None:
                held[order] = [dest, timestamp, key, value]
            else:
                entry.append(value)
        return hold_other

    def _stamped_holder(self) -> Callable:
        """hold_stamped(key, value, timestamp), which the loop calls for a record with a
        timestamp whose key is not a str or int (or while folds are kept): the record
        waits in its key's stamped slot (a closure, as it runs per record)."""
        folds, folding, stamped = self._folds, self._folding, self._stamped_slots
        memo_types, new_stamped = MEMO_CLASSES, self._new_stamped

        def hold_stamped(key, value, timestamp) -> None:
            kind = type(key)
            if kind is str or kind is int:
                slot_key = key
            elif kind in memo_types:
                slot_key = (kind, key)
            elif kind is tuple and memo_types.issuperset(map(type, key)):
                slot_key = (tuple(map(type, key)), key)
            else:   # not memoised: its slot is under its order bytes, placed now
                key_bytes = self._key_order(key)
                slot = stamped.get(key_bytes)
                if slot is None:
                    slot = stamped[key_bytes] = [[], [], key,
                                                 (self._to_subtask(key), key_bytes), False]
                slot[0].append(value)
                slot[1].append(timestamp)
                return
            if folds and timestamp == LONG_MIN and slot_key in folds:
                # its row sorts with the fold's: the fold leaves first, the key's last
                folding[0] = False
                self._place_new()
                self._seq = self._leave_groups(self._fold_groups([slot_key]), self._seq)
            slot = stamped.get(slot_key)
            if slot is None:
                slot = new_stamped(key, slot_key)
            if slot[4]:
                _as_objects(slot)
            slot[0].append(value)
            slot[1].append(timestamp)
        return hold_stamped

    def _stamped_groups(self) -> list:
        """The groups (as _flush_held's) of the stamped slots, which all leave: each key's
        records sorted by timestamp (stable; no timestamp sorts as Long.MIN_VALUE, as
        Flink's batch sort puts it), in pieces (PIECE_RECORDS, PIECE_BYTES), each with the
        order of its first record."""
        stamped, unplaced = self._stamped_slots, self._stamped_unplaced
        if unplaced:
            new = [(slot_key, slot[2]) for slot_key, slot in stamped.items() if slot[3] is None]
            for (slot_key, _), place in zip(new, self._located_anew(new)):
                stamped[slot_key][3] = place
            unplaced.clear()
        groups = []
        size = 0   # records a piece: worked out from the first slot larger than a sample
        for values, stamps, key, (dest, key_bytes), marshalled in stamped.values():
            count = len(values)
            order_by = stamps if None not in stamps else \
                [LONG_MIN if stamp is None else stamp for stamp in stamps]
            if not all(map(le, order_by, islice(order_by, 1, None))):
                ranks = sorted(range(count), key=order_by.__getitem__)
                values = [values[i] for i in ranks]
                stamps = [stamps[i] for i in ranks]
                order_by = [order_by[i] for i in ranks]
            if count <= _SAMPLE:
                groups.append((sorted_record_order(key_bytes, order_by[0]), dest, count)
                              + ((values, None) if marshalled else (None, values))
                              + (stamps, key))
                continue
            if not size:
                size = _piece_records(values, marshalled)
            for start in range(0, count, size):
                end = start + size
                part = values[start:end]
                groups.append((sorted_record_order(key_bytes, order_by[start]), dest,
                               len(part)) + ((part, None) if marshalled else (None, part))
                              + (stamps[start:end], key))
        stamped.clear()
        return groups

    # -- rows leaving --------------------------------------------------------------------

    def _fold_groups(self, keys) -> list:
        """The groups (as _flush_held's) of these keys' folds, which leave the exit: none
        for a fold that is None."""
        groups = []
        for slot_key in keys:
            value = self._folds.pop(slot_key)[0]
            dest, order, key = self._slot_places.pop(slot_key)
            if value is not None:
                groups.append((order, dest, 1, None, [value], None, key))
        return groups

    def _leave_groups(self, groups: list, seq: int) -> int:
        """Rows for the groups leaving (_flush_held); returns the next sequence number. Into
        a one-input operator, each destination's groups go in key order, and runs of small
        groups leave as key runs (few rows for many keys: Spark's cost is per row)."""
        rows, edge, src, sent = self._rows, self._edge, self._src, self._sent
        if self._in_runs and len(groups) > 1:
            by_dest = [[] for _ in sent]
            for group in groups:
                by_dest[group[1]].append(group)
            for mine in by_dest:
                if mine:
                    mine.sort(key=_GROUP_ORDER)   # stable: equal orders stay as held
                    seq = append_key_runs(rows, mine, edge, src, seq, sent)
            return seq
        for order, dest, count, records, values, stamps, key in groups:
            sent[dest] += count
            payload = dumps_records((values, stamps, key)) if records is None \
                else marshalled_records(records, key, stamps)
            rows.append((edge, dest, src, seq, KIND_RECORDS, payload, order))
            seq += 1
        return seq

    def _flush_held(self, partly: bool = False) -> int:
        """Rows for the held records (partly: the largest slots, half the records at
        least); returns how many records are still held."""
        slots, marshalled, places, folds = \
            self._slots, self._marshalled, self._slot_places, self._folds
        if self._unplaced:
            self._place_new()
        sizes = sorted(chain(map(len, slots.values()), map(len, marshalled.values()),
                             [1] * len(folds)), reverse=True)
        waiting = sum(sizes)
        smallest = 0
        if partly:
            leaving = 0
            for size in sizes:
                leaving += size
                if leaving * 2 >= waiting:
                    smallest = size
                    break
            if smallest < FEW_RECORDS and marshalled and self._marshalled_fit():
                return SORTED_RECORDS_HELD // 2   # look again after as many more
        # (order, destination, records, marshalled records or None, values, timestamps,
        # key) of each group leaving: rows of their own, or key runs (_leave_groups)
        groups = []
        if folds and smallest <= 1:
            if partly:
                self._folding[0] = False
            waiting -= len(folds)
            groups = self._fold_groups(list(folds))
        for slot_key in [k for k, slot in marshalled.items() if len(slot) >= smallest]:
            records = marshalled.pop(slot_key)
            dest, order, key = places.pop(slot_key)
            waiting -= len(records)
            groups.append((order, dest, len(records), records, None, None, key))
        partial_kind, at = self._partial_kind, self._at
        for slot_key in [k for k, slot in slots.items() if len(slot) >= smallest]:
            values = slots.pop(slot_key)
            if values[0].__class__ is partial_kind:
                values[0] = values[0].record(at)
            dest, order, key = places.pop(slot_key)
            waiting -= len(values)
            groups.append((order, dest, len(values), None, values, None, key))
        held = self._held
        for order, entry in held.items():
            dest, timestamp, key = entry[0], entry[1], entry[2]
            values = entry[3:]
            stamps = None if timestamp is None else [timestamp] * len(values)
            groups.append((order, dest, len(values), None, values, stamps, key))
        held.clear()
        if self._stamped_slots:
            groups += self._stamped_groups()
        self._seq = self._leave_groups(groups, self._seq)
        return waiting

    def _marshalled_fit(self) -> bool:
        """Whether the records held are mostly marshalled ones and take less than
        MARSHALLED_BYTES_HELD (their bytes, the objects holding them, their slots): when
        the slots that would leave are small, their keys' records then wait for the
        rest of them instead of leaving in pieces (with 100k keys of 5 records each, the
        partial flushes made rows of 1-2 records). Larger slots leave as before: their
        rows are few, and they leave while the task runs, not all at its end."""
        marshalled = self._marshalled
        objects = sum(map(len, self._slots.values())) + sum(
            len(entry) - 3 for entry in self._held.values()) + sum(
            len(slot[0]) for slot in self._stamped_slots.values())
        if objects * 2 >= SORTED_RECORDS_HELD:
            return False
        records = sum(map(len, marshalled.values()))
        size = sum(map(len, chain.from_iterable(marshalled.values())))
        return size + records * _HELD_RECORD_BYTES + len(marshalled) * _SLOT_BYTES \
            < MARSHALLED_BYTES_HELD

    def flush(self) -> None:
        self._counted[0] = self._flush_held()

    def finish(self) -> None:
        """Everything held leaves; into a two-input operator, each destination then gets
        the count of records it was sent, in a row its sort puts before every record
        (the operator needs both inputs' counts before its first key: co_process.py)."""
        self.flush()
        if self.spec.counts_records:
            for dest, count in enumerate(self._sent):
                self._rows.append((self._edge, dest, self._src, self._seq, KIND_RECORD_COUNT,
                                   cloudpickle.dumps(count), ORDER_BEFORE_RECORDS))
                self._seq += 1

    def end_bundle(self) -> None:
        """Nothing leaves at a bundle's end: the next stage cannot read a key-sorted input
        before all of it is there (the sort needs it all), so rows leaving early would
        only be smaller and more."""

    def process_watermark(self, watermark: int) -> None:
        """Nothing leaves for a watermark either: the reading task drops a key-sorted
        input's watermarks (BATCH: only the end of input counts, runtime/task.py), and a
        flush at each of an assigner's periodic watermarks cut a key's records into
        pieces of a few each (window_aggregate in BATCH: ten records a piece)."""

    def _emit_control(self, dest: int, kind: int, payload: bytes) -> None:
        # after every record row of the destination (BATCH: only the end of input counts)
        self._rows.append((self._edge, dest, self._src, self._seq, kind, payload,
                           ORDER_AFTER_RECORDS))
        self._seq += 1


def _piece_records(values: list, marshalled: bool) -> int:
    """How many of a key's records (`values`, marshalled or objects) go in one piece:
    PIECE_RECORDS, fewer when the first records say that many would take over PIECE_BYTES
    (a flush's slots are sized by its first large one: a stream's records are mostly
    alike)."""
    sample = values[:_SAMPLE]
    try:
        size = sum(map(len, sample)) if marshalled else len(marshal.dumps(sample))
    except ValueError:   # not marshallable (the row pickles it): near enough
        size = len(cloudpickle.dumps(sample))
    return max(1, min(PIECE_RECORDS, PIECE_BYTES * len(sample) // max(size, 1)))


def _as_objects(slot: list) -> None:
    """A stamped slot's marshalled values as objects, from now on (a value not known
    exact came)."""
    slot[0] = marshalled_values(slot[0])
    slot[4] = False


def _slot_source(slot_key: str, add: str, marshalled: bool, folding: bool) -> str:
    """The loop's snippet holding a record of a memoised key without timestamp in its slot
    (templates.py OBJECT_SLOT / MARSHALLED_SLOT, within FOLDING_SLOT for a leading fold),
    the key's slot held under `slot_key`."""
    hooks = {"slot_key": slot_key, "add": add}
    source = fill(MARSHALLED_SLOT if marshalled else OBJECT_SLOT, hooks)
    if folding:
        source = fill(FOLDING_SLOT, dict(hooks, plain=source))
    return source
