"""The per-key rules of Flink's ROW_NUMBER() Top-N over an UPDATING input (issue 44): a
grouping query's changelog ranked by a keyed function, pure Python, as Flink 1.20.5's
runtime ranks it (flink-table-runtime operators/rank), each seen on PyFlink 1.20.5
(tests/test_retract_top_n_rules.py, compat_tests/cases/table/top_n_updating.py):

- UPDATABLE, UpdatableTopNFunction (Flink's UpdateFastStrategy: the input's upsert key, the
  grouping query's keys, holds the partition keys and each sort column only moves the way
  the order ranks it higher, COUNT DESC...): the input's +I / +U rows by their upsert key; a
  row already in the buffer moves up (its rank and the ranks it passes -U / +U), a new row
  is taken in when it ranks strictly before the buffer's last sort key or the buffer is not
  full. With the rank number the rows that move past the end stay in the buffer as Flink's
  do (the sort key the walk stopped in is kept), so a row there that updates again is an
  update, not a new row (seen: no change printed, later its move counted from the stale
  rank).
- FAST_TOP_1, FastTop1Function (UpdateFastStrategy, ranks 1 to 1): the input's +I / +U rows;
  a key's first row +I, a row ranking strictly above the kept one -U (the kept) / +U (the
  new), whichever group it is (seen: `rn = 1` gives -U / +U, not the -D / +I of a Top-N).
- RETRACTABLE, RetractableTopNFunction (RetractStrategy, the other updating inputs: SUM,
  AVG, COUNT ASC...): every input row kept per sort key in arrival order with a count per
  sort key; +I / +U rows accumulate, -U / -D rows retract the first equal row.

A change is (kind, the input row, its rank or None), as table/top_n_rules.py's."""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from pyflink_on_spark.table.top_n_rules import (DELETE, INSERT, UPDATE_AFTER, UPDATE_BEFORE,
                                                SortedRules, sort_comparator)

__all__ = ['UPDATABLE', 'FAST_TOP_1', 'RETRACTABLE', 'UpdatingTopNRules', 'monotonic_order']

UPDATABLE, FAST_TOP_1, RETRACTABLE = "updatable", "fast_top_1", "retractable"
Change = Tuple[str, tuple, Optional[int]]

# Flink's modified monotonicity of a grouping query's output column (FlinkRelMdModified-
# Monotonicity): a group key is constant, COUNT and MAX only grow, MIN only falls; SUM, AVG
# and the others are not monotonic (seen in PyFlink 1.20.5's plans: the Rank's strategy)
CONSTANT, INCREASING, DECREASING, NOT_MONOTONIC = "constant", "increasing", "decreasing", None


def monotonic_order(columns: Sequence[Optional[str]], order: Sequence[bool]) -> bool:
    """Whether each sort column's monotonicity (`columns`) fits its direction (`order`: DESC?):
    Flink's condition for UpdateFastStrategy beside the upsert key (RankProcessStrategy)."""
    if not columns:
        return False
    return all(m == CONSTANT or (m == INCREASING and desc) or (m == DECREASING and not desc)
               for m, desc in zip(columns, order))


class UpdatingTopNRules(SortedRules):
    """One partition key's input changes -> its changes. `order`: (index, DESC?, NULLS
    FIRST?) per sort column; ranks `start` to `end`; `rank_number`: the rank goes with each
    change; `strategy`: UPDATABLE (`row_key`: the upsert key's indexes) or RETRACTABLE."""

    def __init__(self, order: Sequence[Tuple[int, bool, bool]], start: int, end: int,
                 rank_number: bool, strategy: str,
                 row_key: Sequence[int] = ()) -> None:
        self.order = list(order)
        self.start, self.end = start, end
        self.rank_number = rank_number
        self.strategy = strategy
        self.row_key = tuple(row_key)
        self._cmp = sort_comparator(self.order)

    def new_state(self) -> dict:
        """UPDATABLE: `buffer` [[a row of the sort key, [row keys in arrival order]], ...] in
        the window's order, `rows` {row key: its row}; RETRACTABLE: `buffer` [[a row of the
        sort key, its count, [its rows in arrival order]], ...]."""
        return {"buffer": [], "rows": {}}

    def on_change(self, state: dict, kind: str, row: tuple) -> List[Change]:
        numbered = self.rank_number or self.start > 1
        if self.strategy in (UPDATABLE, FAST_TOP_1):
            if kind in (UPDATE_BEFORE, DELETE):
                return []       # Flink's planner asks the input for no retractions here
            if self.strategy == FAST_TOP_1:
                return self._fast_top_1(state, row)
            return self._updatable_numbered(state, row) if numbered else \
                self._updatable_plain(state, row)
        if kind in (INSERT, UPDATE_AFTER):
            return self._accumulate(state["buffer"], row, numbered)
        return self._retract(state["buffer"], row, numbered)

    # -- shared --------------------------------------------------------------------------

    def _in_range(self, rank: int) -> bool:
        return self.start <= rank <= self.end

    def _out(self, out: list, kind: str, row: tuple, rank: Optional[int]) -> None:
        """collect* with a rank (only within the range) or without (rank None)."""
        if rank is None:
            out.append((kind, row, None))
        elif self._in_range(rank):
            out.append((kind, row, rank if self.rank_number else None))

    def _entry(self, buffer: list, row: tuple) -> Tuple[int, bool]:
        """(where the row's sort key is or goes, whether it is there)."""
        cmp = self._cmp
        for i, entry in enumerate(buffer):
            c = cmp(entry[0], row)
            if c >= 0:
                return i, c == 0
        return len(buffer), False

    # -- FastTop1Function --------------------------------------------------------------------

    def _fast_top_1(self, state: dict, row: tuple) -> List[Change]:
        kept = state.get("kept")
        rank = 1 if self.rank_number else None
        state["kept"] = row if kept is None or self._cmp(row, kept) < 0 else kept
        if kept is None:
            return [(INSERT, row, rank)]
        if state["kept"] is kept:
            return []
        return [(UPDATE_BEFORE, kept, rank), (UPDATE_AFTER, row, rank)]

    # -- UpdatableTopNFunction -------------------------------------------------------------

    def _key(self, row: tuple) -> tuple:
        return tuple(row[i] for i in self.row_key)

    def _taken_in(self, buffer: list, row: tuple) -> bool:
        """TopNBuffer.checkSortKeyInBufferRange."""
        if not buffer:
            return True
        return self._cmp(row, buffer[-1][0]) < 0 or \
            sum(len(keys) for _, keys in buffer) < self.end

    def _put(self, buffer: list, row: tuple, key: tuple) -> None:
        at, there = self._entry(buffer, row)
        if there:
            buffer[at][1].append(key)
        else:
            buffer.insert(at, [row, [key]])

    def _remove(self, buffer: list, row: tuple, key: tuple) -> None:
        at, there = self._entry(buffer, row)
        if there and key in buffer[at][1]:
            buffer[at][1].remove(key)
            if not buffer[at][1]:
                del buffer[at]

    def _rank_of(self, buffer: list, row: tuple, key: tuple) -> int:
        rank = 1
        for sort_row, keys in buffer:
            if self._cmp(sort_row, row) == 0 and key in keys:
                return rank + keys.index(key)
            rank += len(keys)
        raise RuntimeError("the row key %r is not in its Top-N buffer" % (key,))

    def _updatable_plain(self, state: dict, row: tuple) -> List[Change]:
        buffer, rows = state["buffer"], state["rows"]
        key, out = self._key(row), []
        if key in rows:
            old = rows[key]
            if self._cmp(old, row) != 0:
                self._remove(buffer, old, key)
                self._put(buffer, row, key)
            rows[key] = row
            self._out(out, UPDATE_BEFORE, old, None)
            self._out(out, UPDATE_AFTER, row, None)
        elif self._taken_in(buffer, row):
            self._put(buffer, row, key)
            rows[key] = row
            if sum(len(keys) for _, keys in buffer) > self.end:
                keys = buffer[-1][1]
                last = keys.pop()
                if not keys:
                    buffer.pop()
                self._out(out, DELETE, rows.pop(last), None)
            self._out(out, INSERT, row, None)
        return out

    def _updatable_numbered(self, state: dict, row: tuple) -> List[Change]:
        buffer, rows = state["buffer"], state["rows"]
        key = self._key(row)
        if key in rows:
            old = rows[key]
            compare = self._cmp(row, old)
            if compare == 0:
                rank = self._rank_of(buffer, row, key)
                rows[key] = row
                out: List[Change] = []
                self._out(out, UPDATE_BEFORE, old, rank)
                self._out(out, UPDATE_AFTER, row, rank)
                return out
            old_rank = self._rank_of(buffer, old, key)
            self._remove(buffer, old, key)
            self._put(buffer, row, key)
            rows[key] = row
            if compare < 0:
                return self._emit_numbered(state, row, old, old_rank)
            return self._emit_lower(state, row, old, old_rank)
        if self._taken_in(buffer, row):
            self._put(buffer, row, key)
            rows[key] = row
            return self._emit_numbered(state, row, None, -1)
        return []

    def _emit_numbered(self, state: dict, row: tuple, old: Optional[tuple],
                       old_rank: int) -> List[Change]:
        """UpdatableTopNFunction.emitRecordsWithRowNumber."""
        buffer, rows, cmp = state["buffer"], state["rows"], self._cmp
        out: List[Change] = []
        rank, current, found, old_retracted = 0, None, False, False
        i = 0
        while i < len(buffer) and rank <= self.end:
            sort_row, keys = buffer[i]
            i += 1
            if not found and cmp(sort_row, row) == 0:
                rank += len(keys)
                current, found = row, True
            elif found:
                if old is not None and cmp(sort_row, old) > 0:
                    break       # after the old sort key: those ranks do not change
                for k in keys:
                    if (rank >= old_rank if old is not None else rank > self.end):
                        break
                    previous = rows[k]
                    self._out(out, UPDATE_BEFORE, previous, rank)
                    if current is row and old is not None and not old_retracted:
                        self._out(out, UPDATE_BEFORE, old, old_rank)
                        old_retracted = True
                    self._out(out, UPDATE_AFTER, current, rank)
                    current, rank = previous, rank + 1
            else:
                rank += len(keys)
        if rank <= self.end:
            if old is None:
                self._out(out, INSERT, current, rank)
            else:
                if not old_retracted:
                    self._out(out, UPDATE_BEFORE, old, old_rank)
                self._out(out, UPDATE_AFTER, current, rank)
            return out
        for sort_row, keys in buffer[i:]:       # the sort keys after the walk are out
            for k in keys:
                rows.pop(k, None)
        del buffer[i:]
        return out

    def _emit_lower(self, state: dict, row: tuple, old: tuple, old_rank: int) -> List[Change]:
        """emitRecordsWithRowNumberIgnoreStateError: a row whose sort key went the wrong way
        (Flink logs it and goes on leniently)."""
        buffer, rows = state["buffer"], state["rows"]
        new_rank = self._rank_of(buffer, row, self._key(row))
        out: List[Change] = []
        rank, previous = 0, None
        for _, keys in buffer:
            if rank > new_rank:
                break
            for k in keys:
                rank += 1
                current = rows[k]
                if old_rank <= rank:
                    if rank == old_rank:
                        self._out(out, UPDATE_BEFORE, old, old_rank)
                    else:
                        self._out(out, UPDATE_BEFORE, previous, rank)
                        self._out(out, UPDATE_AFTER, previous, rank - 1)
                        if rank == new_rank:
                            self._out(out, UPDATE_AFTER, row, rank)
                previous = current
        return out

    # -- RetractableTopNFunction -----------------------------------------------------------

    def _accumulate(self, buffer: list, row: tuple, numbered: bool) -> List[Change]:
        at, there = self._entry(buffer, row)
        if there:
            buffer[at][1] += 1
        else:
            buffer.insert(at, [row, 1, []])
        out = self._accumulate_numbered(buffer, row) if numbered else \
            self._accumulate_plain(buffer, row)
        buffer[self._entry(buffer, row)[0]][2].append(row)
        return out

    def _accumulate_numbered(self, buffer: list, row: tuple) -> List[Change]:
        out: List[Change] = []
        rank, current, found = 0, None, False
        for sort_row, count, rows in buffer:
            if rank > self.end:
                break
            if not found and self._cmp(sort_row, row) == 0:
                rank += count
                current, found = row, True
            elif found:
                j = 0
                while j < len(rows) and rank <= self.end:
                    previous = rows[j]
                    self._out(out, UPDATE_BEFORE, previous, rank)
                    self._out(out, UPDATE_AFTER, current, rank)
                    current, rank, j = previous, rank + 1, j + 1
            else:
                rank += count
        if rank <= self.end:
            self._out(out, INSERT, current, rank)
        return out

    def _accumulate_plain(self, buffer: list, row: tuple) -> List[Change]:
        rank, found, collect, delete = 0, False, False, None
        for sort_row, count, rows in buffer:
            if rank > self.end:
                break
            if not found and self._cmp(sort_row, row) == 0:
                rank += count
                collect = self._in_range(rank)
                found = True
            elif found:
                if rank + count <= self.end:
                    rank += count
                else:
                    delete = rows[self.end - rank]
                    break
            else:
                rank += count
        out: List[Change] = []
        if delete is not None:
            out.append((DELETE, delete, None))
        if collect:
            out.append((INSERT, row, None))
        return out

    def _retract(self, buffer: list, row: tuple, numbered: bool) -> List[Change]:
        out, removed = self._retract_numbered(buffer, row) if numbered else \
            self._retract_plain(buffer, row)
        at, there = self._entry(buffer, row)
        if there:
            entry = buffer[at]
            entry[1] -= 1
            if not removed and row in entry[2]:
                entry[2].remove(row)
            if entry[1] == 0:
                del buffer[at]
        return out

    def _retract_numbered(self, buffer: list, row: tuple) -> Tuple[List[Change], bool]:
        out: List[Change] = []
        rank, previous, found = 0, None, False
        for sort_row, count, rows in buffer:
            if rank > self.end:
                break
            if not found and self._cmp(sort_row, row) == 0:
                j = 0
                while j < len(rows) and rank <= self.end:
                    current = rows[j]
                    if not found and current == row:
                        previous, found = current, True
                        del rows[j]
                    else:
                        if found:
                            self._out(out, UPDATE_BEFORE, previous, rank)
                            self._out(out, UPDATE_AFTER, current, rank)
                            previous = current
                        j += 1
                    rank += 1
            elif found:
                j = 0
                while j < len(rows) and rank <= self.end:
                    current = rows[j]
                    self._out(out, UPDATE_BEFORE, previous, rank)
                    self._out(out, UPDATE_AFTER, current, rank)
                    previous, rank, j = current, rank + 1, j + 1
            else:
                rank += count
        if rank <= self.end and previous is not None:
            self._out(out, DELETE, previous, rank)
        return out, found

    def _retract_plain(self, buffer: list, row: tuple) -> Tuple[List[Change], bool]:
        out: List[Change] = []
        next_rank, found = 1, False
        for sort_row, count, rows in buffer:
            if next_rank > self.end:
                break
            if not found and self._cmp(sort_row, row) == 0:
                j = 0
                while j < len(rows) and next_rank <= self.end:
                    previous = rows[j]
                    if not found and previous == row:
                        self._out(out, DELETE, previous, next_rank)
                        next_rank -= 1
                        found = True
                        del rows[j]
                    else:
                        if found and next_rank == self.end:
                            self._out(out, INSERT, previous, next_rank)
                        j += 1
                    next_rank += 1
            elif found:
                last = next_rank + count - 1
                if last < self.end:
                    next_rank = last + 1
                else:
                    out.append((INSERT, rows[self.end - next_rank], None))
                    break
            else:
                next_rank += count
        return out, found
