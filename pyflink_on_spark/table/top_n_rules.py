"""The per-key rules of Flink's ROW_NUMBER() operators in STREAMING mode (issue 44), pure
Python: a partition key's state in, the changes its next row makes out, as Flink 1.20.5's
runtime makes them (flink-table-runtime operators/rank and deduplicate), each seen on
PyFlink 1.20.5 (compat_tests/cases/table/top_n_streaming.py, deduplicate_streaming.py):

- TOP_N, AppendOnlyTopNFunction over an insert-only input: a buffer of the rows in the
  window's order (rows of one sort key in arrival order), a row that ranks within the end
  taken in. With the rank number (selected and not constant) or a start above 1, each row
  that moves down a rank is a -U / +U at that rank (UPDATE_BEFORE the row that was there,
  UPDATE_AFTER the one that is now), a row growing the ranks a +I; without, the row that
  falls out is a -D, the new one a +I.
- TOP_1, FastTop1Function (ranks 1 to 1): a key's first row +I; a row ranking strictly
  above the kept one -U (the kept) / +U (the new); a tie keeps the first.
- FIRST_ROW / LAST_ROW, the row-time deduplication (ranks 1 to 1 ordered by the rowtime
  attribute alone, ASC / DESC: DeduplicateFunctionHelper.deduplicateOnRowTime): a row
  replaces the kept one when its rowtime is smaller (first row) or not smaller (last row:
  a tie replaces), -U / +U; rows behind the watermark are not dropped (seen).

Sort keys compare as Flink's generated comparator: NULL the smallest value unless NULLS
FIRST / LAST says otherwise (seen: ASC puts NULLs first, DESC last)."""
from __future__ import annotations

from typing import Callable, List, Optional, Sequence, Tuple

from pyflink_on_spark.common.time import Instant

__all__ = ['SortedRules', 'TopNRules', 'TOP_N', 'TOP_1', 'FIRST_ROW', 'LAST_ROW', 'INSERT',
           'DELETE', 'UPDATE_BEFORE', 'UPDATE_AFTER', 'sort_comparator']

TOP_N, TOP_1, FIRST_ROW, LAST_ROW = "top_n", "top_1", "first_row", "last_row"
INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE = "+I", "-U", "+U", "-D"

# a change: (kind, the input row, its rank or None when no rank number goes with it)
Change = Tuple[str, tuple, Optional[int]]


def sort_comparator(order: Sequence[Tuple[int, bool, bool]]) -> Callable[[tuple, tuple], int]:
    """cmp of two rows by `order`: (index of the value, DESC?, NULLS FIRST?) per sort column."""
    def compare(a: tuple, b: tuple) -> int:
        for index, desc, nulls_first in order:
            x, y = a[index], b[index]
            if x is None or y is None:
                if x is None and y is None:
                    continue
                return (-1 if x is None else 1) * (1 if nulls_first else -1)
            if x == y:
                continue
            if isinstance(x, Instant):      # a TIMESTAMP_LTZ's value has no order of its own
                x, y = (x.seconds, x.nanos), (y.seconds, y.nanos)
            c = -1 if x < y else 1
            return -c if desc else c
        return 0
    return compare


class SortedRules:
    """Rules keeping rows in `order` (sort_comparator): the comparator is rebuilt, not
    pickled, when the rules travel with a job (a closure does not pickle)."""

    order: list

    def __getstate__(self):
        state = dict(self.__dict__)
        del state["_cmp"]
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._cmp = sort_comparator(self.order)


class TopNRules(SortedRules):
    """One partition key's rows -> its changes. `order`: the sort columns (sort_comparator);
    ranks `start` to `end` (1-based, both kept); `rank_number`: the rank goes with each
    change; `strategy`: TOP_N, TOP_1, FIRST_ROW or LAST_ROW; `rowtime`: a row's rowtime in
    milliseconds (the deduplications)."""

    def __init__(self, order: Sequence[Tuple[int, bool, bool]], start: int, end: int,
                 rank_number: bool, strategy: str = TOP_N,
                 rowtime: Optional[Callable[[tuple], int]] = None) -> None:
        self.order = list(order)
        self.start, self.end = start, end
        self.rank_number = rank_number
        self.strategy = strategy
        self.rowtime = rowtime
        self._cmp = sort_comparator(self.order)

    def new_state(self) -> list:
        """TOP_N: the buffer, [[a row of the sort key, [its rows in arrival order]], ...] in
        the window's order; else [the kept row] or []."""
        return []

    def on_row(self, state: list, row: tuple) -> List[Change]:
        if self.strategy == TOP_N:
            return self._top_n(state, row)
        if not state:
            state.append(row)
            return [(INSERT, row, 1 if self.rank_number else None)]
        kept = state[0]
        if self.strategy == TOP_1:
            replaces = self._cmp(row, kept) < 0
        elif self.strategy == FIRST_ROW:
            replaces = self.rowtime(row) < self.rowtime(kept)
        else:
            replaces = self.rowtime(kept) <= self.rowtime(row)
        if not replaces:
            return []
        state[0] = row
        rank = 1 if self.rank_number else None
        return [(UPDATE_BEFORE, kept, rank), (UPDATE_AFTER, row, rank)]

    # AppendOnlyTopNFunction
    def _top_n(self, buffer: list, row: tuple) -> List[Change]:
        cmp = self._cmp
        if buffer and cmp(row, buffer[-1][0]) >= 0 and \
                sum(len(rows) for _, rows in buffer) >= self.end:
            return []       # ranks after the end, the buffer full: not taken in
        at = next((i for i, (key, _) in enumerate(buffer) if cmp(key, row) >= 0), len(buffer))
        if at < len(buffer) and cmp(buffer[at][0], row) == 0:
            buffer[at][1].append(row)
        else:
            buffer.insert(at, [row, [row]])
        if self.rank_number or self.start > 1:
            return self._with_rank_number(buffer, at, row)
        return self._without_rank_number(buffer, row)

    def _with_rank_number(self, buffer: list, at: int, row: tuple) -> List[Change]:
        out: List[Change] = []
        rank, current, i = 0, row, 0
        while i < len(buffer) and rank <= self.end:
            rows = buffer[i][1]
            i += 1
            if i - 1 < at:
                rank += len(rows)
            elif i - 1 == at:
                rank += len(rows)     # the new row is its sort key's last
            else:
                j = 0
                while j < len(rows) and rank <= self.end:
                    previous = rows[j]
                    j += 1
                    self._collect(out, UPDATE_BEFORE, previous, rank)
                    self._collect(out, UPDATE_AFTER, current, rank)
                    current, rank = previous, rank + 1
        if rank <= self.end:
            self._collect(out, INSERT, current, rank)
        del buffer[i:]      # the sort keys after the one the walk stopped in are out
        return out

    def _collect(self, out: list, kind: str, row: tuple, rank: int) -> None:
        if self.start <= rank <= self.end:
            out.append((kind, row, rank if self.rank_number else None))

    def _without_rank_number(self, buffer: list, row: tuple) -> List[Change]:
        out: List[Change] = []
        if sum(len(rows) for _, rows in buffer) > self.end:
            rows = buffer[-1][1]
            last = rows.pop()
            if not rows:
                buffer.pop()
            if last is row:
                return out      # the new row itself is the one out
            out.append((DELETE, last, None))
        out.append((INSERT, row, None))
        return out

