"""Feeding a two-input operator: one record from each input in turn.

Flink's two-input tasks pick the next input round-robin among those with data available, so
when both inputs have data their records alternate one by one (what PyFlink prints for a small
`a.connect(b).map(...)`: a0, b0, a1, b1, ...). The shim reproduces that interleaving
deterministically: input 1 first, then strictly alternating while both have records left;
when one input is exhausted, the rest of the other follows. Within one input, records come in
the task's usual order (upstream subtask 0's, then 1's, ...); watermarks keep their place in
their input's sequence.

A task receives its rows sorted by (edge, upstream subtask, sequence), so the input whose edges
sort first arrives completely before the other begins. Its rows are kept (as the serialized
chunks they arrived in, spilled to the task's work directory beyond a threshold) until the
other input's rows arrive and can be interleaved with them; the second input then streams
through without being held.
"""
from __future__ import annotations

import os
import pickle
import tempfile
from collections import deque
from itertools import repeat
from typing import Callable, Deque, Dict, Iterable, List, Optional, Tuple

from pyflink_on_spark.runtime.boundary import KIND_RECORDS, KIND_WATERMARK, loads_records

_loads = pickle.loads

SPILL_THRESHOLD_BYTES = 64 * 1024 * 1024


class _RowQueue:
    """FIFO of (edge, src, kind, payload) rows; payload bytes beyond a threshold go to a file."""

    def __init__(self, work_dir: Optional[str]) -> None:
        self._rows: Deque[tuple] = deque()
        self._bytes = 0
        self._work_dir = work_dir
        self._file = None            # spill file, written then read sequentially
        self._spilled: Deque[tuple] = deque()   # (edge, src, kind, offset, length)
        self._read_pos = 0

    def __len__(self) -> int:
        return len(self._rows) + len(self._spilled)

    def append(self, edge: int, src: int, kind: int, payload: bytes) -> None:
        if self._file is None and self._bytes + len(payload) <= SPILL_THRESHOLD_BYTES:
            self._rows.append((edge, src, kind, payload))
            self._bytes += len(payload)
            return
        if self._file is None:
            self._file = tempfile.TemporaryFile(dir=self._work_dir)
        self._file.seek(0, os.SEEK_END)
        offset = self._file.tell()
        self._file.write(payload)
        self._spilled.append((edge, src, kind, offset, len(payload)))

    def popleft(self) -> tuple:
        if self._rows:
            row = self._rows.popleft()
            self._bytes -= len(row[3])
            return row
        edge, src, kind, offset, length = self._spilled.popleft()
        self._file.seek(offset)
        payload = self._file.read(length)
        if not self._spilled:
            self._file.close()
            self._file = None
        return edge, src, kind, payload

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


class _InputCursor:
    """One input's pending rows and the chunk currently being read."""

    __slots__ = ("queue", "values", "stamps", "keys", "pos", "complete", "process",
                 "process_keyed")

    def __init__(self, work_dir: Optional[str], process: Callable,
                 process_keyed: Optional[Callable]) -> None:
        self.queue = _RowQueue(work_dir)
        self.values: List = []
        self.stamps = None
        # the chunk's keys when its exchange carried them and the input is keyed
        self.keys: Optional[List] = None
        self.pos = 0
        self.complete = False
        self.process = process
        self.process_keyed = process_keyed

    def record(self, pos: int) -> None:
        """Process the chunk's record at `pos`."""
        stamps = self.stamps
        stamp = None if stamps is None else stamps[pos]
        if self.keys is None:
            self.process(self.values[pos], stamp)
        else:
            self.process_keyed(self.keys[pos], self.values[pos], stamp)


class AlternatingInputs:
    """Drives a two-input head operator from the task's sorted rows (see the module doc)."""

    def __init__(self, input_of_edge: Dict[int, int], process1: Callable, process2: Callable,
                 valve, on_watermark: Callable[[int], None], work_dir: Optional[str],
                 process_keyed: Tuple[Optional[Callable], Optional[Callable]] = (None, None)
                 ) -> None:
        """process_keyed: each input's method for a record with the key its keyed exchange
        carried (runtime/task.py), None for an input that is not keyed."""
        self._input_of_edge = input_of_edge
        self._inputs = {1: _InputCursor(work_dir, process1, process_keyed[0]),
                        2: _InputCursor(work_dir, process2, process_keyed[1])}
        self._first = input_of_edge[min(input_of_edge)]   # the input whose rows arrive first
        self._valve = valve
        self._on_watermark = on_watermark
        self._channel: Optional[Tuple[int, int]] = None
        self._turn = 1

    def add_rows(self, edges: Iterable[int], srcs: Iterable[int], kinds: Iterable[int],
                 payloads: Iterable[bytes]) -> None:
        inputs = self._inputs
        input_of_edge = self._input_of_edge
        first = self._first
        for edge, src, kind, payload in zip(edges, srcs, kinds, payloads):
            side = input_of_edge[edge]
            if side != first:
                inputs[first].complete = True   # rows are sorted: the first input has ended
            inputs[side].queue.append(edge, src, kind, payload)
        self._pump()

    def finish(self) -> None:
        """No more rows: both inputs are complete; process everything left."""
        for cursor in self._inputs.values():
            cursor.complete = True
        self._pump()
        for cursor in self._inputs.values():
            cursor.queue.close()

    def _exhausted(self, side: int) -> bool:
        cursor = self._inputs[side]
        return cursor.complete and cursor.pos >= len(cursor.values) and not len(cursor.queue)

    def _pump(self) -> None:
        first, second = self._inputs[1], self._inputs[2]
        while True:
            side = self._turn
            other = 3 - side
            if side == 1 and first.pos < len(first.values) and second.pos < len(second.values):
                self._pairs(first, second)   # hot path: both chunks loaded, input 1's turn
                continue
            if self._exhausted(other):
                self._drain(side)           # only this input is left: no alternation
                return
            if self._step(side):
                if not self._exhausted(other):
                    self._turn = other
                continue
            if not self._inputs[side].complete:
                return                      # wait for more of this input
            if self._exhausted(other):
                return                      # both done
            self._turn = other
            if not self._step(other):
                return                      # wait for more of the other input

    def _step(self, side: int) -> bool:
        """Process the next record of `side` (and any watermarks before it). False if the
        input has no record available now."""
        cursor = self._inputs[side]
        while cursor.pos >= len(cursor.values):
            if not len(cursor.queue):
                return False
            edge, src, kind, payload = cursor.queue.popleft()
            channel = (edge, src)
            if channel != self._channel:
                self._channel = channel
                advanced = self._valve.on_channel(edge, src)
                if advanced is not None:
                    self._on_watermark(advanced)
            if kind == KIND_RECORDS:
                group = loads_records(payload)
                cursor.values, cursor.stamps = group[0], group[1]
                cursor.keys = group[2] if len(group) > 2 and \
                    cursor.process_keyed is not None else None
                cursor.pos = 0
            elif kind == KIND_WATERMARK:
                advanced = self._valve.on_watermark(edge, src, _loads(payload))
                if advanced is not None:
                    self._on_watermark(advanced)
        pos = cursor.pos
        cursor.pos = pos + 1
        cursor.record(pos)
        return True

    @staticmethod
    def _pairs(first: _InputCursor, second: _InputCursor) -> None:
        """Alternate over what both current chunks hold: one record of input 1, one of
        input 2, ... (the turn stays with input 1 after each pair)."""
        count = min(len(first.values) - first.pos, len(second.values) - second.pos)
        a, b = first.pos, second.pos
        first.pos, second.pos = a + count, b + count
        keys1, keys2 = first.keys, second.keys
        if (keys1 is None) != (keys2 is None):   # one input keyed: a record at a time
            for i in range(count):
                first.record(a + i)
                second.record(b + i)
            return
        values1, values2 = first.values[a:a + count], second.values[b:b + count]
        stamps1 = first.stamps[a:a + count] if first.stamps is not None else repeat(None)
        stamps2 = second.stamps[b:b + count] if second.stamps is not None else repeat(None)
        if keys1 is not None:   # both keyed (a keyed co-process): their keys go along
            process1, process2 = first.process_keyed, second.process_keyed
            for key1, value1, stamp1, key2, value2, stamp2 in zip(
                    keys1[a:a + count], values1, stamps1, keys2[b:b + count], values2, stamps2):
                process1(key1, value1, stamp1)
                process2(key2, value2, stamp2)
            return
        process1, process2 = first.process, second.process
        for value1, stamp1, value2, stamp2 in zip(values1, stamps1, values2, stamps2):
            process1(value1, stamp1)
            process2(value2, stamp2)

    def _drain(self, side: int) -> None:
        """Process every record of `side` available now, a chunk at a time."""
        cursor = self._inputs[side]
        process = cursor.process
        while self._step(side):
            values, stamps, pos = cursor.values, cursor.stamps, cursor.pos
            cursor.pos = len(values)
            if cursor.keys is not None:
                for i in range(pos, len(values)):
                    cursor.record(i)
            elif stamps is None:
                for value in values[pos:]:
                    process(value, None)
            else:
                for value, stamp in zip(values[pos:], stamps[pos:]):
                    process(value, stamp)
