"""An unbounded datagen table's source (specs/datagen_source.py) as an unbounded source of
the streaming executor (sources.py).

Seen on PyFlink 1.20.5: `rows-per-second` is the table's rate, shared by the source's
subtasks (10 rows a second at parallelism 2: 5 each). Here, per micro-batch N:

1. plan(N), on the driver: each subtask is due the rows its share of the rate gave it since
   the job (or its restart) began, at most MAX_BATCH_ROWS a batch; the batch's ranges
   (subtask, first row position, count) are written to
   ``<checkpoint>/state/sources/<source>/<N>`` *before* the batch runs, and a re-run of batch
   N (after a crash) reads them back: same batch, same positions. A restarted job goes on
   from the positions its last recorded batch reached.
2. frame(): one split row per range, for its subtask; a Spark task generates the rows
   (table/sql/datagen.py datagen_rows_at: random values drawn afresh, a sequence field's
   value by position).
"""
from __future__ import annotations

import json
import pickle
import time
from typing import List, Optional, Tuple

from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.specs.datagen_source import DatagenSourceSpec

MAX_BATCH_ROWS = 100_000      # a subtask's rows in one micro-batch at most (memory)
Range = Tuple[int, int, int]  # subtask, first row position, count


class GeneratedRows:
    """The UnboundedSource (sources.py) of a DatagenSourceSpec: a batch's input is its
    ranges of row positions."""

    def __init__(self, spec: DatagenSourceSpec, store: SnapshotStore, source_id: str,
                 parallelism: int) -> None:
        self.spec = spec
        self.store = store
        self.dir = store.path("sources", source_id)
        self.parallelism = parallelism
        self._positions: Optional[List[int]] = None   # each subtask's next row position
        self._base: List[int] = []                    # the positions when pacing began
        self._started = 0.0

    def _log_path(self, batch_id: int) -> str:
        return "%s/%d" % (self.dir, batch_id)

    def _logs(self) -> List[int]:
        return sorted(int(n) for n in self.store.list_names(self.dir) if n.isdigit())

    def _read(self, batch_id: int) -> List[Range]:
        return [tuple(r) for r in json.loads(self.store.read_bytes(self._log_path(batch_id)))]

    def _restore(self, batch_id: int) -> None:
        """The positions the last batch recorded before `batch_id` reached (0 at first)."""
        positions = [0] * self.parallelism
        earlier = [b for b in self._logs() if b < batch_id]
        if earlier:
            for subtask, start, count in self._read(earlier[-1]):
                if subtask < self.parallelism:
                    positions[subtask] = start + count
        self._positions = positions
        self._base = list(positions)
        self._started = time.monotonic()

    def plan(self, batch_id: int) -> List[Range]:
        """The ranges batch `batch_id` generates: recorded, or due now."""
        if self.store.exists(self._log_path(batch_id)):
            ranges = self._read(batch_id)
            if self._positions is not None:
                for subtask, start, count in ranges:
                    self._positions[subtask] = max(self._positions[subtask], start + count)
            return ranges
        if self._positions is None:
            self._restore(batch_id)
        rate = self.spec.rows_per_second / self.parallelism
        elapsed = time.monotonic() - self._started
        ranges: List[Range] = []
        for subtask in range(self.parallelism):
            due = self._base[subtask] + int(elapsed * rate) - self._positions[subtask]
            count = min(max(due, 0), MAX_BATCH_ROWS)
            if count:
                ranges.append((subtask, self._positions[subtask], count))
                self._positions[subtask] += count
        if ranges:
            self.store.write_bytes(self._log_path(batch_id), json.dumps(ranges).encode())
        return ranges

    def frame(self, plan: List[Range], session):
        """Split rows of the batch's ranges, each for its subtask, generated in a Spark
        task."""
        from pyflink_on_spark.runtime.boundary import KIND_SPLIT
        from pyflink_on_spark.spark.batch_schema import SPARK_SCHEMA, rows_frame
        if not plan:
            return rows_frame(session, [])
        rows = []
        for subtask, start, count in plan:
            for k, first in enumerate(range(start, start + count, CHUNK_ROWS)):
                rows.append((-1, subtask, subtask, k, KIND_SPLIT,
                             pickle.dumps((first, min(CHUNK_ROWS, start + count - first)),
                                          protocol=5)))
        return rows_frame(session, rows).mapInArrow(
            _generator(self.spec, self.parallelism), SPARK_SCHEMA)

    def compact(self, before: int) -> None:
        """Drops the records no re-run needs: batches before `before`, except the last one
        (a restart goes on from its positions)."""
        logs = self._logs()
        for batch_id in logs[:-1]:
            if batch_id < before:
                self.store.delete_file(self._log_path(batch_id))

    def close(self) -> None:
        pass


CHUNK_ROWS = 4096


def _generator(spec: DatagenSourceSpec, parallelism: int):
    import functools
    return functools.partial(_generate_chunks, spec.rows, tuple(spec.names), parallelism)


def _generate_chunks(rows, names, parallelism: int, batches):
    """mapInArrow: each split row's range of positions -> its generated Rows."""
    import pyarrow as pa
    from pyflink_on_spark.common.types import Row
    from pyflink_on_spark.spark.batch_schema import ARROW_SCHEMA
    field_names = list(names)
    for batch in batches:
        if batch.num_rows == 0:
            continue
        subtasks = batch.column(1).to_pylist()
        payloads = batch.column(5).to_pylist()
        generated = []
        for subtask, payload in zip(subtasks, payloads):
            first, count = pickle.loads(payload)
            records = []
            for values in rows(subtask, parallelism, first, count):
                row = Row(*values)
                row.set_field_names(field_names)
                records.append(row)
            generated.append(pickle.dumps(records, protocol=5))
        columns = [batch.column(i) for i in range(5)] + \
            [pa.array(generated, pa.binary()), batch.column(6)]
        yield pa.RecordBatch.from_arrays(columns, schema=ARROW_SCHEMA)

