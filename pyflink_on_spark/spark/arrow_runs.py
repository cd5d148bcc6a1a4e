"""Runs of equal adjacent values in Arrow columns, found in Arrow rather than row by row: a
task's input batch holds the records of one Kafka partition or one file block after another,
and each run is read as one split's records."""
from __future__ import annotations

from typing import List

import pyarrow as pa


def run_bounds(*columns: pa.Array) -> List[int]:
    """The start of each run of rows whose values in ``columns`` are all equal, then the
    batch's length: [0, start 2, ..., n] (one run: [0, n])."""
    import pyarrow.compute as pc
    n = len(columns[0])
    cuts: List[int] = []
    if n > 1:
        changed = None
        for column in columns:
            differs = pc.not_equal(column.slice(1), column.slice(0, n - 1))
            changed = differs if changed is None else pc.or_(changed, differs)
        cuts = [i + 1 for i in pc.indices_nonzero(changed).to_pylist()]
    return [0] + cuts + [n]
