"""Edges leaving a stage: Flink's channel selection, then records chunked per destination.

A chunk (up to CHUNK_RECORDS records for one destination subtask) becomes one row of the
stage-boundary schema, so the shuffle moves few large rows instead of one row per record.
"""
from __future__ import annotations

import marshal
import random
from pickle import dumps as plain_pickle
from itertools import chain
from operator import itemgetter
from typing import Callable, List, Optional

import cloudpickle

from pyflink_on_spark.common._key_hash import PICKLE_PROTOCOL
from pyflink_on_spark.datastream.functions import per_record_callable
from pyflink_on_spark.runtime.exit_bulk_keys import (
    BULK_LOOP, BULK_STAMPED_LOOP, MEMO_CLASSES, make_router)
from pyflink_on_spark.runtime.exit_loops import compile_loop, exact_test
from pyflink_on_spark.runtime.batch_order import (
    ORDER_AFTER_RECORDS, ORDER_BEFORE_RECORDS, batch_key_order, pickle_order,
    pickled_key_order, sorted_record_order)
from pyflink_on_spark.runtime.key_groups import KeyToSubtask
from pyflink_on_spark.runtime.key_groups_bulk import pickled_key_subtasks
from pyflink_on_spark.runtime.key_runs import append_key_runs
from pyflink_on_spark.runtime.operators.base import user_function_error
from pyflink_on_spark.runtime.boundary import (
    KIND_DRIVER, KIND_RECORD_COUNT, KIND_RECORDS, KIND_WATERMARK, MARSHAL_RECORD_VERSION,
    dumps_records, marshalled_records, marshalled_values)
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK
from pyflink_on_spark.specs.partitioning import (
    BroadcastPartitioning, CustomPartitioning, ForwardPartitioning, GlobalPartitioning,
    KeyedPartitioning, RebalancePartitioning, RescalePartitioning, ShufflePartitioning)
from pyflink_on_spark.specs.stage import ExitSpec

CHUNK_RECORDS = 2048

# Flink's batch sort puts a record without timestamp with those of Long.MIN_VALUE
LONG_MIN = -(1 << 63)

_dumps = cloudpickle.dumps


def channel_selector(spec: ExitSpec, subtask: int, parallelism: int) -> Callable:
    """value -> destination subtask, following Flink's partitioners. Where Flink is random
    (rebalance's start, shuffle), the shim is seeded by the subtask index: deterministic."""
    return positioned_selector(spec, subtask, parallelism)[0]


def positioned_selector(spec: ExitSpec, subtask: int, parallelism: int) -> tuple:
    """(channel_selector, its position): the mutable object the selector advances, a
    one-element list holding a round-robin counter (rebalance, rescale) or a Random
    (shuffle); None for a selector without one. The exit keeps the position: it is part
    of the stream's position in a checkpoint (a re-run batch routes records as the first
    run did)."""
    select = _SELECTORS.get(type(spec.partitioning))
    if select is None:
        raise ValueError("unknown partitioning %r" % (spec.partitioning,))
    return select(spec.partitioning, subtask, parallelism, spec)


def _forward(partitioning, subtask: int, parallelism: int, spec: ExitSpec) -> tuple:
    return (lambda value: subtask), None


def _global(partitioning, subtask: int, parallelism: int, spec: ExitSpec) -> tuple:
    return (lambda value: 0), None


def _rebalance(partitioning, subtask: int, parallelism: int, spec: ExitSpec) -> tuple:
    n = spec.target_parallelism
    state = [subtask % n]

    def rebalance(value):
        dest = state[0]
        state[0] = dest + 1 if dest + 1 < n else 0
        return dest
    return rebalance, state


def _rescale(partitioning, subtask: int, parallelism: int, spec: ExitSpec) -> tuple:
    targets = rescale_targets(subtask, parallelism, spec.target_parallelism)
    if len(targets) == 1:
        target = targets[0]
        return (lambda value: target), None
    width = len(targets)
    state = [-1]

    def rescale(value):
        # Flink's RescalePartitioner: round-robin over the subpartitions from the first
        channel = state[0] + 1 if state[0] + 1 < width else 0
        state[0] = channel
        return targets[channel]
    return rescale, state


def _shuffle(partitioning, subtask: int, parallelism: int, spec: ExitSpec) -> tuple:
    n = spec.target_parallelism
    rng = random.Random(subtask)
    return (lambda value: rng.randrange(n)), rng


def _keyed(partitioning: KeyedPartitioning, subtask: int, parallelism: int,
           spec: ExitSpec) -> tuple:
    get_key = per_record_callable(partitioning.key_selector, "get_key")
    to_subtask = KeyToSubtask(spec.target_max_parallelism, spec.target_parallelism,
                              partitioning.key_type)
    return (lambda value: to_subtask(get_key(value))), None


def _custom(partitioning: CustomPartitioning, subtask: int, parallelism: int,
            spec: ExitSpec) -> tuple:
    n = spec.target_parallelism
    get_key = per_record_callable(partitioning.key_selector, "get_key")
    partition = per_record_callable(partitioning.partitioner, "partition")

    def custom(value):
        dest = partition(get_key(value), n)
        if not isinstance(dest, int) or not 0 <= dest < n:
            raise ValueError("Partitioner returned %r; it must be an int in [0, %d)"
                             % (dest, n))
        return dest
    return custom, None


# Broadcast exits do not select: every chunk goes to every destination (ExitCollector).
_SELECTORS = {
    ForwardPartitioning: _forward,
    GlobalPartitioning: _global,
    RebalancePartitioning: _rebalance,
    RescalePartitioning: _rescale,
    ShufflePartitioning: _shuffle,
    KeyedPartitioning: _keyed,
    CustomPartitioning: _custom,
}


def rescale_targets(subtask: int, parallelism: int, n: int) -> List[int]:
    """The downstream subtasks upstream `subtask` (of `parallelism`) feeds on a rescale edge,
    in subpartition order, as Flink 1.20 wires POINTWISE edges (EdgeManagerBuildUtil):
    with at least as many upstream subtasks, downstream t reads upstream
    [t*S//T, (t+1)*S//T); with fewer, upstream s feeds downstream [ceil(s*T/S),
    ceil((s+1)*T/S)) and subpartition c goes to the one of those with index % width == c
    (observed on PyFlink: 2 -> 5 sends upstream 1's records to 4, 3, 4, 3, ...)."""
    if parallelism >= n:
        return [max(t for t in range(n) if t * parallelism // n <= subtask)]
    first = (subtask * n + parallelism - 1) // parallelism
    last = ((subtask + 1) * n + parallelism - 1) // parallelism
    return sorted(range(first, last), key=lambda t: t % (last - first))


# The loop of an exit that chunks records per destination (exit_loops.py compiles it).
_CHUNKED_LOOP = """
def process_many(records, timestamp):
    {prologue}
    {bulk}
    for value in records:
        {prepare}
        try:
            {route}
        except Exception as e:
            raise blame_selector(user_error(e), partitioning, e) from None
        values = values_by[dest]
        values.append(value)
        {stamp}
        {mark}
        if len(values) >= CHUNK_RECORDS:
            flush(dest)
"""

# The same loop over records that each have their own timestamp (process_stamped: what
# assign_timestamps_and_watermarks stamped, a slice at a time)
_STAMPED_LOOP = _CHUNKED_LOOP.replace(
    "def process_many(records, timestamp):", "def process_stamped(records, stamps):").replace(
    "for value in records:", "for value, timestamp in zip(records, stamps):")

_KEYED_ROUTE = """key = get_key(value)
kind = key.__class__
if kind is str or kind is int:
    dest = dest_of.get(key)
    if dest is None:
        if len(dest_of) >= memo_limit:
            dest_of.clear()
        dest = dest_of[key] = to_subtask(key)
        misses[0] += 1
        if misses[0] >= BULK_AFTER_MISSES:
            misses[0] = 0
            bulk[0] = True
elif kind is tuple:
    try:
        found = tuple_dest_of.get(key)
    except TypeError:   # something unhashable inside: to_subtask hashes it by its pickle
        found = None
    if found is not None and found[1] == tuple(map(type, key)):
        dest = found[0]
    else:
        dest = tuple_dest(key)
        misses[0] += 1
        if misses[0] >= BULK_AFTER_MISSES:
            misses[0] = 0
            bulk[0] = True
else:
    dest = to_subtask(key)
keys_by[dest].append(key)"""


def _tuple_dest(to_subtask, memo: dict, memo_limit: int) -> Callable:
    """key -> subtask for a tuple key the exit has not remembered; it remembers the subtask
    with the elements' classes when they are all MEMO_CLASSES: (1, "a") and
    (True, "a") are equal but pickle (and hash in Java) apart, so a hit must have the
    remembered classes too. Elements of other classes (a float zero, a nested tuple) are
    not remembered: equal values of one class there can still hash apart."""
    def tuple_dest(key: tuple) -> int:
        dest = to_subtask(key)
        classes = tuple(map(type, key))
        if MEMO_CLASSES.issuperset(classes):
            if len(memo) >= memo_limit:
                memo.clear()
            memo[key] = (dest, classes)
        return dest
    return tuple_dest



class ExitCollector:
    """Collects one exit's records into per-destination chunks and writes boundary rows."""

    def __init__(self, spec: ExitSpec, subtask: int, parallelism: int, rows: List[tuple],
                 user_error: Callable[[BaseException], BaseException]) -> None:
        self.spec = spec
        self._edge = spec.edge_id
        self._src = subtask
        self._rows = rows
        self._seq = 0
        self._user_error = user_error
        self._broadcast = isinstance(spec.partitioning, BroadcastPartitioning)
        width = 1 if self._broadcast else spec.target_parallelism
        self._values: List[list] = [[] for _ in range(width)]
        self._stamps: List[list] = [[] for _ in range(width)]
        # whether the exit keeps timestamps (_records_path)
        self._stamped = [False]
        # a keyed exchange carries each record's key to the keyed operator (boundary.py)
        self._keys: Optional[List[list]] = (
            [[] for _ in range(width)]
            if isinstance(spec.partitioning, KeyedPartitioning) else None)
        self._convert = spec.converter
        self._kind = KIND_DRIVER if spec.to_driver else KIND_RECORDS
        self._select, self._position = ((lambda value: 0), None) if self._broadcast \
            else positioned_selector(spec, subtask, parallelism)
        self._bind(self._records_path(spec))

    # -- checkpoints of unbounded jobs (runtime/checkpoint/micro_batch.py) ---------------------

    def export_position(self) -> dict:
        """The channel selector's position (positioned_selector): ``{"round_robin": n}``,
        ``{"random": state}``, or ``{}`` for a selector without one."""
        position = self._position
        if position is None:
            return {}
        if isinstance(position, random.Random):
            return {"random": position.getstate()}
        return {"round_robin": position[0]}

    def restore_position(self, state) -> None:
        """Puts back what export_position gave (or what checkpoints written before it kept:
        [(cell, value)] of the selector function's closure, a Random's state or the
        round-robin list first)."""
        if isinstance(state, list):
            state = _legacy_position(state)
        position = self._position
        if position is None:
            return
        if isinstance(position, random.Random):
            if "random" in state:
                position.setstate(state["random"])
        elif "round_robin" in state:
            position[0] = state["round_robin"]

    def _bind(self, process_many: Callable) -> None:
        """The exit's input methods: process_many(values, timestamp) takes the records of an
        iterable in one loop (output.py collect_many: what an operator emits for one input
        record, a slice of a source split); process_element(value, timestamp) one record."""
        self.process_many = process_many

        def process_element(value, timestamp) -> None:
            process_many((value,), timestamp)
        self.process_element = process_element

    def process_stamped(self, values, stamps) -> None:
        """Records with a timestamp each (`stamps`, in the same order), as process_element
        would take them one by one; an exit with a loop for them replaces this."""
        many = self.process_many
        for value, timestamp in zip(values, stamps):
            many((value,), timestamp)

    def fused_with_map(self, user_map: Callable,
                       map_error: Callable[[BaseException], BaseException]) -> tuple:
        """This exit's (process_element, process_many) with a map function applied to each
        record first (what the map's operator takes as its own when this exit is its only
        target: output.py fuse_map); map_error wraps what the map raises. They replace the
        unfused methods."""
        self._bind(self._records_path(self.spec, user_map, map_error))
        return self.process_element, self.process_many

    def _records_path(self, spec: ExitSpec, user_map: Optional[Callable] = None,
                      map_error: Optional[Callable] = None) -> Callable:
        """process_many(values, timestamp), compiled once per exit (exit_loops.py): a keyed
        exit calls the key function and the key -> subtask map inline (no selector frame),
        the converter's test is inline and the converter called only when it fails."""
        partitioning, convert = spec.partitioning, self._convert
        keyed = self._keys is not None
        tested = self._tested = exact_test(convert) is not None
        # destinations whose chunk holds a value not known to be exact (all of them when the
        # loop cannot tell): their chunk's records are checked before marshal (boundary.py)
        self._unsure = [not tested] * len(self._values)
        namespace = dict(
            values_by=self._values, stamps_by=self._stamps, keys_by=self._keys,
            flush=self._flush, unsure=self._unsure, user_error=self._user_error,
            partitioning=partitioning, select=self._select, user_map=user_map,
            map_error=map_error, blame_selector=_blame_selector, CHUNK_RECORDS=CHUNK_RECORDS)
        if keyed:
            namespace.update(
                get_key=per_record_callable(partitioning.key_selector, "get_key"),
                to_subtask=KeyToSubtask(spec.target_max_parallelism, spec.target_parallelism,
                                        partitioning.key_type),
                # str and int keys' subtasks, looked up here without a call into to_subtask
                # (which memoises every key type its own way): equal strs, or equal ints,
                # are the same key (bool, float... keys go through to_subtask)
                dest_of={}, memo_limit=DEST_MEMO_LIMIT, tuple_dest_of={})
            namespace["tuple_dest"] = _tuple_dest(namespace["to_subtask"],
                                                  namespace["tuple_dest_of"], DEST_MEMO_LIMIT)
        options = {"route": _KEYED_ROUTE if keyed else "dest = select(value)",
                   "mark": "if not exact_value:\n    unsure[dest] = True" if tested else "pass",
                   "bulk": "pass"}
        if keyed:
            # where the key type has no bulk hash, the loops never look at the switch
            self._bulk_keys(namespace, convert, user_map is not None, tested)
            if namespace["to_subtask"].hashes_together:
                options["bulk"] = "if bulk[0]:\n    return bulk_many(records, timestamp)"
        # Two loops: the exit keeps no timestamps while its records have none (an append
        # per record less: keyed_value_state's source stage, engine alone, 0.28-0.31 ->
        # 0.27-0.29 us/record); the first record with one gives the records held their
        # None ones and switches the exit to the loop that keeps one per record, for good.
        # The loop without is the entry point (no dispatching frame per call).
        stamped = compile_loop(_CHUNKED_LOOP, namespace, convert, user_map is not None,
                               dict(options, prologue="pass",
                                    stamp="stamps_by[dest].append(timestamp)"))
        state, values_by, stamps_by = self._stamped, self._values, self._stamps

        def begin_stamps() -> None:
            """The records held get their None timestamps; the exit keeps one per record
            from now on."""
            state[0] = True
            for dest, values in enumerate(values_by):
                stamps_by[dest] = [None] * len(values)

        def to_stamped(records, timestamp) -> None:
            if not state[0]:
                begin_stamps()
            stamped(records, timestamp)
        namespace.update(to_stamped=to_stamped, stamped_state=state, begin_stamps=begin_stamps)
        self.process_stamped = compile_loop(
            _STAMPED_LOOP, namespace, convert, user_map is not None,
            dict(options, stamp="stamps_by[dest].append(timestamp)",
                 prologue="if not stamped_state[0]:\n    begin_stamps()",
                 bulk=options["bulk"].replace("bulk_many(records, timestamp)",
                                              "bulk_stamped(records, stamps)")))
        return compile_loop(_CHUNKED_LOOP, namespace, convert, user_map is not None,
                            dict(options, stamp="pass", prologue=(
                                "if timestamp is not None or stamped_state[0]:\n"
                                "    return to_stamped(records, timestamp)")))

    def _bulk_keys(self, namespace: dict, convert: Optional[Callable], has_map: bool,
                   tested: bool) -> None:
        """A keyed exit's loops for calls of many new keys (exit_bulk_keys.py), into
        `namespace`, with the switch (`bulk`) and the count of new keys met (`misses`)."""
        bulk = [False]
        route = make_router(
            namespace["to_subtask"], namespace["dest_of"], namespace["tuple_dest_of"],
            namespace["memo_limit"], bulk,
            self._values, self._keys, self._stamps, self._stamped, self._unsure, tested,
            self._flush, CHUNK_RECORDS,
            lambda e: _blame_selector(self._user_error(e), self.spec.partitioning, e))
        namespace.update(bulk=bulk, misses=[0], BULK_AFTER_MISSES=BULK_AFTER_MISSES,
                         route=route)
        namespace.update(
            bulk_many=compile_loop(BULK_LOOP, namespace, convert, has_map),
            bulk_stamped=compile_loop(BULK_STAMPED_LOOP, namespace, convert, has_map))

    def process_watermark(self, watermark: int) -> None:
        # The end of input is implied by the end of the channel; only real progress is sent.
        if watermark == MAX_WATERMARK or self._kind == KIND_DRIVER:
            return
        self.flush()
        payload = _dumps(watermark)
        for dest in range(self.spec.target_parallelism):
            self._emit_control(dest, KIND_WATERMARK, payload)

    def _emit_control(self, dest: int, kind: int, payload: bytes) -> None:
        self._emit(dest, kind, payload)

    def end_bundle(self) -> None:
        """A bundle ends (runtime/task.py StreamTask.end_bundle): the records held leave."""
        self.flush()

    def finish(self) -> None:
        """The end of the task's input: everything held leaves."""
        self.flush()

    def flush(self) -> None:
        for dest in range(len(self._values)):
            if self._values[dest]:
                self._flush(dest)

    def _flush(self, dest: int) -> None:
        values = self._values[dest]
        stamps = self._stamps[dest] if self._stamped[0] else None
        if stamps is not None and stamps.count(None) == len(stamps):
            stamps = None
        exact = not self._unsure[dest]
        if self._keys is None:
            payload = dumps_records((values, stamps), values_exact=exact)
        else:
            payload = dumps_records((values, stamps, self._keys[dest]), values_exact=exact)
            self._keys[dest] = []
        self._unsure[dest] = not self._tested
        self._values[dest] = []
        self._stamps[dest] = []
        if self._broadcast:
            for target in range(self.spec.target_parallelism):
                self._emit(target, self._kind, payload)
        else:
            self._emit(dest, self._kind, payload)

    def _emit(self, dest: int, kind: int, payload: bytes) -> None:
        self._rows.append((self._edge, dest, self._src, self._seq, kind, payload))
        self._seq += 1


# str and int keys a keyed exit remembers the subtask of (then it forgets them all): a key
# it forgot costs 8-10 us to hash again, so with more keys than this coming round in turn
# every record paid that (keyed_value_state with 100k keys: 4.2x the floor's time). An
# entry is a key and a small int: ~30 MB at most for short str keys.
DEST_MEMO_LIMIT = 1 << 18
# new keys a keyed exit meets before it takes calls of records in two steps (exit_bulk_keys)
BULK_AFTER_MISSES = 64


# key types whose equal values have equal serialized forms (memoised per exact type)
_MEMO_TYPES = MEMO_CLASSES


# The loop of a key-sorted exit (exit_loops.py compiles it); {str_int_key} is one of the
# two below.
_KEY_SORTED_LOOP = """
def process_many(records, timestamp):
    count = counted[0]
    try:
        for value in records:
            {prepare}
            try:
                key = get_key(value)
                if timestamp is None:
                    kind = key.__class__
                    if kind is str or kind is int:
                        {str_int_key}
                    elif kind in memo_types:
                        slot_key = (kind, key)
                        slot = slots.get(slot_key)
                        if slot is None:
                            slot = new_slot(key, slot_key)
                        slot.append(value)
                    elif kind is tuple and memo_types.issuperset(map(type, key)):
                        # a flat tuple: its elements' classes keep (1, "a") and (True, "a")
                        # apart; its slot is kept as a str or int key's is, under slot_key
                        slot_key = (tuple(map(type, key)), key)
                        {tuple_key}
                    else:
                        hold_other(key, value, None)
                else:
                    hold_other(key, value, timestamp)
            except Exception as e:
                raise blame_selector(user_error(e), partitioning, e) from None
            count += 1
            if count >= limit:
                count = flush(True)
    finally:
        counted[0] = count
"""

_OBJECT_SLOT = """slot = slots.get(key)
if slot is None:
    slot = new_slot(key, key)
{add}"""

# an exact record is marshalled at once, unless its key's records wait as objects
_MARSHALLED_SLOT = """if exact_value:
    slot = marshalled.get(key)
    if slot is None:
        slot = new_marshalled_slot(key)
    if slot is not None:
        slot.append(dumps(value, marshal_version))
    else:
        slots[key].append(value)
else:
    slot = slots.get(key)
    if slot is None:
        slot = new_slot(key, key)
    slot.append(value)"""


# upstream subtask 0 into a BATCH reduce (ExitSpec.leading_fold): a str or int key's records
# are folded as they come, while no fold has left before the end; {plain} is the usual path
_FOLDING_SLOT = """acc = folds.get(key)
if acc is not None:
    if acc[0] is None:
        acc[0] = value
    else:
        try:
            acc[0] = fold(acc[0], value)
        except Exception as e:
            raise fold_error(e, key) from None
    continue
if folding[0]:
    new_fold(key, value)
else:
{plain}"""


def _under_slot_key(snippet: str) -> str:
    """A str or int key's slot snippet for a key whose slots, folds and marshalled records
    are held under `slot_key` (a flat tuple's: its elements' classes and itself)."""
    for old, new in (("folds.get(key)", "folds.get(slot_key)"),
                     ("fold_error(e, key)", "fold_error(e, slot_key)"),
                     ("new_fold(key, value)", "new_fold(key, value, slot_key)"),
                     ("marshalled.get(key)", "marshalled.get(slot_key)"),
                     ("new_marshalled_slot(key)", "new_marshalled_slot(key, slot_key)"),
                     ("slots[key]", "slots[slot_key]"), ("slots.get(key)", "slots.get(slot_key)"),
                     ("new_slot(key, key)", "new_slot(key, slot_key)")):
        snippet = snippet.replace(old, new)
    return snippet


class KeySortedExitCollector(ExitCollector):
    """The exit of a key-sorted exchange (BATCH mode into a keyed operator, ExitSpec.
    sort_by_key): records are grouped by (key, timestamp), each group one row whose `order`
    is the key's bytes in Flink's batch order and the timestamp, so that the runner's sort
    hands the consumer its input key by key (direct/exchange.py, 4.). At most
    SORTED_RECORDS_HELD records are held, all destinations together.

    The rows, not the records, are what the runner pays for (each is serialized, moved,
    sorted and decoded), so the exit makes few: records without a timestamp whose key is a
    str (or another _MEMO_TYPES type) wait in their key's slot, and when the exit is full
    only the largest slots leave (half the records held, at least): a rare key's records
    wait for more of its records instead of leaving one by one. A key's rows leave in the
    order of its records, so the sort (order, edge, src, seq) keeps that order. Other records
    (with a timestamp, or of other key types) are grouped by their order bytes and leave at
    every flush.

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

    A record the loop knows to be exact (exit_loops.py) under a str or int key waits
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
        # order -> [destination, timestamp, value, value, ...]: the other records held
        self._held: dict = {}
        super().__init__(spec, subtask, parallelism, rows, user_error)

    def _records_path(self, spec: ExitSpec, user_map: Optional[Callable] = None,
                      map_error: Optional[Callable] = None) -> Callable:
        slots, marshalled, places, held, folds = \
            self._slots, self._marshalled, self._slot_places, self._held, self._folds
        partitioning, convert = spec.partitioning, self._convert
        to_subtask = KeyToSubtask(spec.target_max_parallelism, spec.target_parallelism,
                                  partitioning.key_type)
        key_order = batch_key_order(partitioning.key_type)
        memo_types, memo_limit = _MEMO_TYPES, self._MEMO_LIMIT
        aggregation, at, every_subtask = spec.partial_aggregation or (None, None, False)
        if self._src != 0 and not every_subtask:
            aggregation = None   # a float sum: only subtask 0's is the aggregation's own
        summing = aggregation == "SUM"
        fold = _PARTIAL_FOLDS.get(aggregation)
        partial_kind = _PartialHolder if aggregation in ("MIN_BY", "MAX_BY") else _Partial
        leading = spec.leading_fold if aggregation is None and spec.leading_fold is not None \
            and (self._src == 0 or spec.leading_fold.every_subtask) else None
        # True while no fold has left before the end: only then may a key's fold start
        folding = [leading is not None]
        # records held; the loop keeps it in a local and stores it back when it returns
        counted = [0]
        # memoisable key (as slots) -> (destination, key bytes): worked out once per key
        located: dict = {}

        def locate(key, memo_key) -> tuple:
            found = located.get(memo_key)
            if found is None:
                if len(located) >= memo_limit:
                    located.clear()
                found = located[memo_key] = (to_subtask(key), key_order(key))
            return found

        # (slot key, key) of the slots and folds with no place yet: placed together when
        # they are about to leave (place_new), where their keys' subtasks are hashed in bulk
        # (KeyToSubtask.many) rather than one key at a time, as the keys come
        unplaced: list = []
        # keys without a declared type: the key's pickle also gives its order (a declared
        # type that orders by the pickle, BIG_INT, a tuple..., hashes its own way)
        one_pickle = key_order is pickled_key_order and to_subtask.pickled

        def place_new() -> None:
            """The places (destination, order, key) of the slot keys in `unplaced`."""
            pending = [entry for entry in unplaced if entry[0] not in places]
            unplaced.clear()
            new = []
            for slot_key, key in pending:
                found = located.get(slot_key)
                if found is None:
                    new.append((slot_key, key))
                else:
                    places[slot_key] = (found[0], sorted_record_order(found[1], None), key)
            if not new:
                return
            keys = [key for _, key in new]
            if one_pickle:
                # slot keys are builtins (_MEMO_TYPES, flat tuples of them): one plain
                # pickle gives a key's order and its hash, but for None, which PyFlink
                # sends as null
                pickles = [plain_pickle(key, PICKLE_PROTOCOL) for key in keys]
                dests = pickled_key_subtasks(pickles, spec.target_max_parallelism,
                                             spec.target_parallelism)
                if None in keys:
                    dests = [to_subtask(None) if key is None else dest
                             for key, dest in zip(keys, dests)]
                orders = map(pickle_order, pickles)
            else:
                dests = to_subtask.many(keys)
                orders = map(key_order, keys)
            if len(located) + len(new) > memo_limit:
                located.clear()
            for (slot_key, key), dest, key_bytes in zip(new, dests, orders):
                located[slot_key] = (dest, key_bytes)
                places[slot_key] = (dest, sorted_record_order(key_bytes, None), key)

        def new_slot(key, slot_key) -> list:
            """The slot of a key's records as objects: its marshalled records, if any, turned
            back into objects first, so the key's records stay in their order."""
            records = marshalled.pop(slot_key, None)
            if records is not None:
                slot = slots[slot_key] = marshalled_values(records)
                return slot
            unplaced.append((slot_key, key))
            slot = slots[slot_key] = []
            return slot

        def new_marshalled_slot(key, slot_key=None) -> Optional[list]:
            """A str or int key's slot of marshalled records; None when its records wait
            as objects already."""
            if slot_key is None:
                slot_key = key
            if slot_key in slots:
                return None
            unplaced.append((slot_key, key))
            slot = marshalled[slot_key] = []
            return slot

        def add_to_partial(slot: list, value) -> bool:
            """Into a BATCH rolling aggregation (ExitSpec.partial_aggregation): a plain tuple
            whose field is an int or a float (not NaN, for a comparison) joins its key's
            partial result, which leaves as one record (as the aggregation leaves it: the
            key's first record with the field summed, or its minimum or maximum; min_by /
            max_by: the record holding the first extreme). True when it was added to a
            partial result already held. Other records, and every record after one, wait
            as they are: the aggregation folds them as before."""
            if value.__class__ is tuple and len(value) > at:
                field = value[at]
                kind = field.__class__
                if kind is int or kind is float and (summing or field == field):
                    if not slot:
                        slot.append(partial_kind(value, field))
                        return False
                    if len(slot) == 1 and slot[0].__class__ is partial_kind:
                        if summing:
                            slot[0].total += field
                        else:
                            fold(slot[0], value, field)
                        return True
            slot.append(value)
            return False

        def new_fold(key, value, slot_key=None) -> None:
            if slot_key is None:
                slot_key = key
            unplaced.append((slot_key, key))
            folds[slot_key] = [value]

        def fold_error(error: Exception, key) -> Exception:
            place_new()
            return user_function_error(error, leading.operator_name, places[key][0])

        def fold_groups(keys) -> list:
            """The groups (as flush's) of these keys' folds, which leave the exit: none for
            a fold that is None."""
            groups = []
            for slot_key in keys:
                value = folds.pop(slot_key)[0]
                dest, order, key = places.pop(slot_key)
                if value is not None:
                    groups.append((order, dest, 1, None, [value], None, key))
            return groups

        def hold_other(key, value, timestamp) -> None:
            """A record with a timestamp, or of a key that is not memoised."""
            kind = type(key)
            fold_key = (tuple(map(type, key)), key) if kind is tuple and \
                memo_types.issuperset(map(type, key)) else key
            if timestamp is not None and folds and timestamp == LONG_MIN and fold_key in folds:
                # its row sorts with the fold's: the fold leaves first, the key's last
                folding[0] = False
                place_new()
                self._seq = leave_groups(fold_groups([fold_key]), self._seq)
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

        sent = self._sent
        in_runs = not spec.counts_records   # a two-input operator reads rows of one key

        def leave_groups(groups: list, seq: int) -> int:
            """Rows for the groups leaving (flush); returns the next sequence number. Into a
            one-input operator, each destination's groups go in key order, and runs of small
            groups leave as key runs (few rows for many keys: Spark's cost is per row)."""
            rows, edge, src = self._rows, self._edge, self._src
            if in_runs and len(groups) > 1:
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
                    else marshalled_records(records, key)
                rows.append((edge, dest, src, seq, KIND_RECORDS, payload, order))
                seq += 1
            return seq

        def flush(partly: bool = False) -> int:
            """Rows for the held records (partly: the largest slots, half the records at
            least); returns how many records are still held."""
            if unplaced:
                place_new()
            seq = self._seq
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
                if smallest < FEW_RECORDS and marshalled and marshalled_fit():
                    return SORTED_RECORDS_HELD // 2   # look again after as many more
            # (order, destination, records, marshalled records or None, values, timestamps,
            # key) of each group leaving: rows of their own, or key runs (leave_groups)
            groups = []
            if folds and smallest <= 1:
                if partly:
                    folding[0] = False
                waiting -= len(folds)
                groups = fold_groups(list(folds))
            for slot_key in [k for k, slot in marshalled.items() if len(slot) >= smallest]:
                records = marshalled.pop(slot_key)
                dest, order, key = places.pop(slot_key)
                waiting -= len(records)
                groups.append((order, dest, len(records), records, None, None, key))
            for slot_key in [k for k, slot in slots.items() if len(slot) >= smallest]:
                values = slots.pop(slot_key)
                if values[0].__class__ is partial_kind:
                    values[0] = values[0].record(at)
                dest, order, key = places.pop(slot_key)
                waiting -= len(values)
                groups.append((order, dest, len(values), None, values, None, key))
            for order, entry in held.items():
                dest, timestamp, key = entry[0], entry[1], entry[2]
                values = entry[3:]
                stamps = None if timestamp is None else [timestamp] * len(values)
                groups.append((order, dest, len(values), None, values, stamps, key))
            seq = leave_groups(groups, seq)
            held.clear()
            self._seq = seq
            return waiting

        def marshalled_fit() -> bool:
            """Whether the records held are mostly marshalled ones and take less than
            MARSHALLED_BYTES_HELD (their bytes, the objects holding them, their slots): when
            the slots that would leave are small, their keys' records then wait for the
            rest of them instead of leaving in pieces (with 100k keys of 5 records each, the
            partial flushes made rows of 1-2 records). Larger slots leave as before: their
            rows are few, and they leave while the task runs, not all at its end."""
            objects = sum(map(len, slots.values())) + sum(len(entry) - 3
                                                          for entry in held.values())
            if objects * 2 >= SORTED_RECORDS_HELD:
                return False
            records = sum(map(len, marshalled.values()))
            size = sum(map(len, chain.from_iterable(marshalled.values())))
            return size + records * _HELD_RECORD_BYTES + len(marshalled) * _SLOT_BYTES \
                < MARSHALLED_BYTES_HELD

        def flush_all() -> None:
            counted[0] = flush()

        self._flush_all = flush_all
        if aggregation is None:
            add = "slot.append(value)"
        else:
            add = "if add_to_partial(slot, value):\n    continue"
        str_int_key = _OBJECT_SLOT.format(add=add)
        if aggregation is None and exact_test(convert) is not None:
            str_int_key = _MARSHALLED_SLOT
        if leading is not None:
            str_int_key = _FOLDING_SLOT.format(plain="\n".join(
                "    " + line for line in str_int_key.splitlines()))
        namespace = dict(
            folds=folds, folding=folding, new_fold=new_fold, fold_error=fold_error,
            fold=None if leading is None else per_record_callable(leading.function, "reduce"),
            counted=counted, slots=slots, marshalled=marshalled, new_slot=new_slot,
            new_marshalled_slot=new_marshalled_slot, add_to_partial=add_to_partial,
            hold_other=hold_other, flush=flush, memo_types=memo_types,
            limit=SORTED_RECORDS_HELD, dumps=marshal.dumps,
            marshal_version=MARSHAL_RECORD_VERSION, user_error=self._user_error,
            partitioning=partitioning, user_map=user_map, map_error=map_error,
            blame_selector=_blame_selector,
            get_key=per_record_callable(partitioning.key_selector, "get_key"))
        return compile_loop(_KEY_SORTED_LOOP, namespace, convert, user_map is not None,
                            {"str_int_key": str_int_key,
                             "tuple_key": _under_slot_key(str_int_key)})

    def flush(self) -> None:
        self._flush_all()

    def finish(self) -> None:
        """Everything held leaves; into a two-input operator, each destination then gets
        the count of records it was sent, in a row its sort puts before every record
        (the operator needs both inputs' counts before its first key: co_process.py)."""
        self.flush()
        if self.spec.counts_records:
            for dest, count in enumerate(self._sent):
                self._rows.append((self._edge, dest, self._src, self._seq, KIND_RECORD_COUNT,
                                   _dumps(count), ORDER_BEFORE_RECORDS))
                self._seq += 1

    def end_bundle(self) -> None:
        """Nothing leaves at a bundle's end: the next stage cannot read a key-sorted input
        before all of it is there (the sort needs it all), so rows leaving early would
        only be smaller and more."""

    def _emit_control(self, dest: int, kind: int, payload: bytes) -> None:
        # after every record row of the destination (BATCH: only the end of input counts)
        self._rows.append((self._edge, dest, self._src, self._seq, kind, payload,
                           ORDER_AFTER_RECORDS))
        self._seq += 1


class _Partial:
    """A key's records folded in a key-sorted exit into a BATCH sum / min / max: the key's
    first record and the field's running result."""

    __slots__ = ("first", "total")

    def __init__(self, first: tuple, total) -> None:
        self.first = first
        self.total = total

    def record(self, position: int) -> tuple:
        first, total = self.first, self.total
        if total is first[position]:
            return first
        return first[:position] + (total,) + first[position + 1:]


class _PartialHolder(_Partial):
    """min_by / max_by: `first` is the record holding the extreme so far (the first one on
    ties), and it leaves whole."""

    __slots__ = ()

    def record(self, position: int) -> tuple:
        return self.first


def _fold_min(partial: _Partial, value: tuple, field) -> None:
    if field < partial.total:
        partial.total = field


def _fold_max(partial: _Partial, value: tuple, field) -> None:
    if field > partial.total:
        partial.total = field


def _fold_min_by(partial: _Partial, value: tuple, field) -> None:
    if field < partial.total:
        partial.total, partial.first = field, value


def _fold_max_by(partial: _Partial, value: tuple, field) -> None:
    if field > partial.total:
        partial.total, partial.first = field, value


# the comparisons of runtime/adapters.py AggregationAdapter (strict: a tie keeps the first)
_PARTIAL_FOLDS = {"MIN": _fold_min, "MAX": _fold_max, "MIN_BY": _fold_min_by,
                  "MAX_BY": _fold_max_by}


# a group leaving a key-sorted exit (flush): its order
_GROUP_ORDER = itemgetter(0)

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


def _legacy_position(cells: list) -> dict:
    """A selector position as checkpoints before ExitCollector.export_position kept it:
    [(closure cell, value)] of the selector function's mutable cells (a Random's state, a
    tuple; the round-robin counter in a one-element list, before rescale's target list)."""
    for _, value in sorted(cells, key=lambda cell: cell[0]):
        if isinstance(value, tuple):
            return {"random": value}
        if isinstance(value, list) and value:
            return {"round_robin": value[0]}
    return {}


def exit_collector(spec: ExitSpec, subtask: int, parallelism: int, rows: List[tuple],
                   user_error: Callable[[BaseException], BaseException]) -> ExitCollector:
    """The collector of one exit of a subtask."""
    kind = KeySortedExitCollector if spec.sort_by_key else ExitCollector
    return kind(spec, subtask, parallelism, rows, user_error)


def _blame_selector(error: BaseException, partitioning, exc: BaseException) -> BaseException:
    """An error of the key selector (key_by, partition_custom) runs in the upstream task but
    is the key_by's: name it, not the operator before it."""
    from pyflink_on_spark.runtime.errors import UserFunctionError
    selector = getattr(partitioning, "key_selector", None)
    if selector is None or not isinstance(error, UserFunctionError) \
            or isinstance(exc, UserFunctionError):   # wrapped already: another's (a fold's)
        return error
    function = getattr(selector, "_func", selector)
    name = getattr(function, "__name__", type(function).__name__)
    return UserFunctionError("key_by(%s)" % name, error.subtask_index, exc)
