"""The source of an unbounded `datagen` table (random fields, no number-of-rows: PyFlink's
DataGenTableSource never ends then): read by the streaming executor, which hands each
micro-batch the rows its subtasks are due at the table's rows-per-second
(spark/streaming/datagen_source.py)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Tuple


@dataclass(frozen=True)
class DatagenSourceSpec:
    """`rows(subtask, parallelism, start, count)` gives rows start .. start + count - 1 of a
    source subtask (tuples of the table's physical columns, `names`; a picklable function:
    it runs in the tasks). `rows_per_second`: the table's option, shared by the source's
    subtasks."""
    rows: Callable[[int, int, int, int], Any]
    names: Tuple[str, ...]
    rows_per_second: float
    name: str = "DataGenSource"
