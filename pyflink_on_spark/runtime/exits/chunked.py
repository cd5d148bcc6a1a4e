"""The exit of a stage's edge that chunks records per destination (ExitCollector).

A chunk (up to CHUNK_RECORDS records for one destination subtask) becomes one row of the
stage-boundary schema, so the shuffle moves few large rows instead of one row per record.
Records reach the chunks through the exit's compiled loop (templates.CHUNKED_LOOP).
"""
from __future__ import annotations

import random
from typing import Callable, List, Optional

import cloudpickle

from pyflink_on_spark.datastream.functions import per_record_callable
from pyflink_on_spark.runtime.boundary import (
    KIND_DRIVER, KIND_RECORDS, KIND_WATERMARK, dumps_records)
from pyflink_on_spark.runtime.exits.bulk_keys import MEMO_CLASSES, make_router
from pyflink_on_spark.runtime.exits.loops import compile_loop, exact_test, fill
from pyflink_on_spark.runtime.exits.selectors import (
    blame_selector, legacy_position, positioned_selector)
from pyflink_on_spark.runtime.exits.templates import (
    BEGIN_STAMPS, BULK_LOOP, BULK_SWITCH, CHUNKED_LOOP, FUSED_STAMPED_LOOP, FUSED_STAMPS,
    KEYED_ROUTE, MARK_UNSURE, ONE_TIMESTAMP, OWN_TIMESTAMPS, SELECTED_ROUTE, STAMP,
    STAMP_SOURCE, TO_STAMPED)
from pyflink_on_spark.runtime.key_groups import KeyToSubtask
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK
from pyflink_on_spark.specs.partitioning import BroadcastPartitioning, KeyedPartitioning
from pyflink_on_spark.specs.stage import ExitSpec

CHUNK_RECORDS = 2048

# str and int keys a keyed exit remembers the subtask of (then it forgets them all): a key
# it forgot costs 8-10 us to hash again, so with more keys than this coming round in turn
# every record paid that (keyed_value_state with 100k keys: 4.2x the floor's time). An
# entry is a key and a small int: ~30 MB at most for short str keys.
DEST_MEMO_LIMIT = 1 << 18
# new keys a keyed exit meets before it takes calls of records in two steps (bulk_keys.py)
BULK_AFTER_MISSES = 64



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
        # the records that left (Flink's numRecordsOut), counted per chunk, not per record
        self.records_out = 0
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
        # destinations whose chunk holds a key of another class than str and int (the loops
        # mark them): only their keys are checked before marshal (the others' check was
        # ~200 instructions a record of window_aggregate's ~17.5k, callgrind)
        self._keys_unsure = [False] * width
        self._convert = spec.converter
        self._kind = KIND_DRIVER if spec.to_driver else KIND_RECORDS
        self._select, self._position = ((lambda value: 0), None) if self._broadcast \
            else positioned_selector(spec, subtask, parallelism)
        # whether a map function runs in the exit's loops (fused_with_map)
        self._runs_map = False
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
            state = legacy_position(state)
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
        self._runs_map = True
        self._bind(self._records_path(self.spec, user_map, map_error))
        return self.process_element, self.process_many

    def runs_user_code(self) -> bool:
        """Whether process_many and process_stamped call user functions: a keyed exit's
        key selector, a map fused into the loops (output.py takes_stamped_in_bulk)."""
        return self._keys is not None or self._runs_map

    def fused_with_stamps(self, extract: Callable, stamp_error: Callable, stamp_event: Callable,
                          seen: list, user_map: Optional[Callable] = None,
                          map_error: Optional[Callable] = None) -> Callable:
        """process_fused(records, record_timestamp): assign_timestamps_and_watermarks (and
        a map before it, `user_map`) run inside this exit's loop, one record at a time,
        when this exit is the operator's only target (operators/timestamps.py). Each
        record: the map, `extract(value, record_timestamp)` (its errors through
        stamp_error), the watermark generator's check (templates.STAMP_SOURCE: the
        largest timestamp is left in seen[0] however the loop ends, the others through
        stamp_event), then the exit's own steps, keeping the timestamp. The exit's other
        methods stay as they are."""
        names = dict(self._loop_names, extract=extract, stamp_error=stamp_error,
                     stamp_event=stamp_event, seen=seen, user_map=user_map,
                     map_error=map_error)
        has_map, convert = user_map is not None, self._convert
        hooks = dict(self._loop_hooks, **FUSED_STAMPS, prologue=BEGIN_STAMPS)
        if self._keys is not None and names["to_subtask"].hashes_together:
            names["bulk_fused"] = compile_loop(BULK_LOOP, names, convert, has_map,
                                               FUSED_STAMPS, STAMP_SOURCE)
            hooks["bulk"] = fill(BULK_SWITCH, FUSED_STAMPS)
        else:
            hooks["bulk"] = "pass"
        return compile_loop(FUSED_STAMPED_LOOP, names, convert, has_map, hooks, STAMP_SOURCE)

    def _records_path(self, spec: ExitSpec, user_map: Optional[Callable] = None,
                      map_error: Optional[Callable] = None) -> Callable:
        """process_many(values, timestamp), compiled once per exit (loops.py): a keyed
        exit calls the key function and the key -> subtask map inline (no selector frame),
        the converter's test is inline and the converter called only when it fails. It
        sets process_stamped too."""
        convert, has_map = self._convert, user_map is not None
        tested = self._tested = exact_test(convert) is not None
        # destinations whose chunk holds a value not known to be exact (all of them when the
        # loop cannot tell): their chunk's records are checked before marshal (boundary.py)
        self._unsure = [not tested] * len(self._values)
        namespace = dict(
            values_by=self._values, stamps_by=self._stamps, keys_by=self._keys,
            keys_unsure=self._keys_unsure, flush=self._flush, unsure=self._unsure,
            user_error=self._user_error,
            partitioning=spec.partitioning, select=self._select, user_map=user_map,
            map_error=map_error, blame_selector=blame_selector, CHUNK_RECORDS=CHUNK_RECORDS)
        hooks = {"route": SELECTED_ROUTE, "mark": MARK_UNSURE if tested else "pass"}
        switch = False
        if self._keys is not None:
            namespace.update(self._keyed_names(spec))
            hooks["route"] = KEYED_ROUTE
            # where the key type has no bulk hash, the loops never look at the switch
            self._bulk_keys(namespace, convert, has_map, tested)
            switch = namespace["to_subtask"].hashes_together

        # what fused_with_stamps builds its loop from
        self._loop_names, self._loop_hooks = namespace, hooks

        def loop(name: str, calls: dict, prologue: str, stamp: str) -> Callable:
            """CHUNKED_LOOP as `name`, over `calls` (ONE_TIMESTAMP, OWN_TIMESTAMPS)."""
            return compile_loop(CHUNKED_LOOP, namespace, convert, has_map, dict(
                hooks, **calls, name=name, prologue=prologue, stamp=stamp,
                bulk=fill(BULK_SWITCH, calls) if switch else "pass"))
        # Two loops: the exit keeps no timestamps while its records have none (an append
        # per record less: keyed_value_state's source stage, engine alone, 0.28-0.31 ->
        # 0.27-0.29 us/record); the first record with one gives the records held their
        # None ones and switches the exit to the loop that keeps one per record, for good.
        # The loop without is the entry point (no dispatching frame per call).
        namespace.update(self._stamps_switch(
            loop("process_many", ONE_TIMESTAMP, "pass", STAMP)))
        self.process_stamped = loop("process_stamped", OWN_TIMESTAMPS, BEGIN_STAMPS, STAMP)
        return loop("process_many", ONE_TIMESTAMP, TO_STAMPED, "pass")

    @staticmethod
    def _keyed_names(spec: ExitSpec) -> dict:
        """The names a keyed exit's loops use: the key function, the key -> subtask map and
        the exit's memos of it."""
        partitioning = spec.partitioning
        to_subtask = KeyToSubtask(spec.target_max_parallelism, spec.target_parallelism,
                                  partitioning.key_type)
        tuple_dest_of: dict = {}
        return dict(
            get_key=per_record_callable(partitioning.key_selector, "get_key"),
            to_subtask=to_subtask,
            # str and int keys' subtasks, looked up here without a call into to_subtask
            # (which memoises every key type its own way): equal strs, or equal ints,
            # are the same key (bool, float... keys go through to_subtask)
            dest_of={}, memo_limit=DEST_MEMO_LIMIT, tuple_dest_of=tuple_dest_of,
            tuple_dest=_tuple_dest(to_subtask, tuple_dest_of, DEST_MEMO_LIMIT))

    def _stamps_switch(self, stamped: Callable) -> dict:
        """The names of the switch to keeping timestamps (TO_STAMPED, BEGIN_STAMPS), with
        `stamped`, the loop that keeps one per record."""
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
        return dict(to_stamped=to_stamped, stamped_state=state, begin_stamps=begin_stamps)

    def _bulk_keys(self, namespace: dict, convert: Optional[Callable], has_map: bool,
                   tested: bool) -> None:
        """A keyed exit's loops for calls of many new keys (bulk_keys.py), into
        `namespace`, with the switch (`bulk`) and the count of new keys met (`misses`)."""
        bulk = [False]
        route = make_router(
            namespace["to_subtask"], namespace["dest_of"], namespace["tuple_dest_of"],
            namespace["memo_limit"], bulk,
            self._values, self._keys, self._stamps, self._stamped, self._unsure, tested,
            self._keys_unsure,
            self._flush, CHUNK_RECORDS,
            lambda e: blame_selector(self._user_error(e), self.spec.partitioning, e))
        namespace.update(bulk=bulk, misses=[0], BULK_AFTER_MISSES=BULK_AFTER_MISSES,
                         route=route)
        namespace.update(
            bulk_many=compile_loop(BULK_LOOP, namespace, convert, has_map, ONE_TIMESTAMP),
            bulk_stamped=compile_loop(BULK_LOOP, namespace, convert, has_map,
                                      OWN_TIMESTAMPS))

    def process_watermark(self, watermark: int) -> None:
        # The end of input is implied by the end of the channel; only real progress is sent.
        if watermark == MAX_WATERMARK or self._kind == KIND_DRIVER:
            return
        self._send_watermark(watermark)

    def end_event_time(self) -> None:
        """A drain (an unbounded job's last micro-batch, runtime/task.py end_batch): a
        stream's channels never end, so the end of event time goes to every downstream
        subtask as a watermark row (which also makes each of them run in that batch)."""
        if self._kind != KIND_DRIVER:
            self._send_watermark(MAX_WATERMARK)

    def _send_watermark(self, watermark: int) -> None:
        self.flush()
        payload = cloudpickle.dumps(watermark)
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
            payload = dumps_records((values, stamps, self._keys[dest]), values_exact=exact,
                                    keys_exact=not self._keys_unsure[dest])
            self._keys[dest] = []
            self._keys_unsure[dest] = False
        self._unsure[dest] = not self._tested
        self.records_out += len(values)
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
