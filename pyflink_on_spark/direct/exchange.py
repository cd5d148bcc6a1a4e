"""The exchange contract: what a runner of a CompiledJob does between stages.

A stage's tasks (runtime.task.StreamTask, one per subtask) read and write boundary rows
``(edge, dest, src, seq, kind, payload)`` (runtime/boundary.py). The tasks do everything
Flink's runtime does inside a chain (operators, state, timers, channel selection, chunking,
watermark alignment); a runner only moves rows, and must move them exactly so:

1. **Source input.** A source stage's input is one KIND_SPLIT row per split,
   ``(-1, subtask, 0, seq, KIND_SPLIT, cloudpickle.dumps(split))``, ``seq`` the split's
   position in the stage's read order (``source_split_rows``).
2. **Wiring.** Any other stage's input is the union of the rows of each upstream exit feeding
   it (``CompiledStage.upstream``: rows of stage ``stage_id`` whose ``edge`` is ``edge_id``).
3. **Routing by destination.** Subtask ``d`` of a stage receives exactly the input rows with
   ``dest == d`` (the task chose ``dest``; broadcast exits already wrote one row per
   destination).
4. **Order.** A subtask reads its rows sorted by ``(order, edge, src, seq)``
   (``EXCHANGE_ORDER``). ``order`` is b"" except on key-sorted exchanges, so normally this
   is: per channel (edge, src) in the order the upstream task wrote them, channels one after
   another. This is what makes a run deterministic: Flink's arrival order between channels is
   open, the shim's is this one (its watermark valve and two-input reader rely on it).
   A key-sorted exchange (BATCH mode into a keyed operator: ``ExitSpec.sort_by_key``) is
   Flink's sort-based batch input: its record rows carry the key's bytes and the timestamp
   (runtime/batch_order.py), so the subtask reads them key by key, each key's records by
   timestamp, and the runner sorts with spilling as it would any shuffle (Spark does); the
   task then holds one key at a time, whatever the input's size. A row there may also be a
   key run (KIND_KEY_RUN: small keys' groups in order, the row's ``order`` its first
   group's): the runner sorts it as any row, and the task merges its groups with the rows
   that come after it (runtime/key_runs.py), which needs each row's ``seq``.
5. **Watermarks** travel in the same rows (KIND_WATERMARK, per channel, in order): the runner
   does not interpret them; the task aligns them across channels.
6. **End of input.** After its last row, a task is finished (``StreamTask.finish``: the final
   watermark, end_input of every operator, buffered rows flushed), then closed. A subtask
   without any input row does not run at all (no open, no final watermark): its downstream
   channels simply never appear.
7. **Sinks.** Rows of a sink exit that reaches the driver (``SinkExit``) are read after the
   stages ran, stage by stage in job order, each stage's subtasks in order, each task's rows
   in the order written: print lines are written, collected values handed out, committables
   committed once everything succeeded (aborted on failure).

The Spark executor implements 1-4 with ``repartitionById(parallelism, dest)`` and
``sortWithinPartitions(*EXCHANGE_ORDER)`` over a union of the upstream frames; the direct
runner (direct/runner.py) with plain lists.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Sequence, Tuple

import cloudpickle

from pyflink_on_spark.runtime.boundary import KIND_SPLIT, row_order

# The boundary row's fields, by position (ORDER may be left out: b"").
EDGE, DEST, SRC, SEQ, KIND, PAYLOAD, ORDER = range(7)
ROUTE_BY = "dest"                       # 3. the column a runner routes by
EXCHANGE_ORDER = ("order", "edge", "src", "seq")  # 4. what a subtask's input is sorted by

Row = Tuple


def source_split_rows(splits: Iterable[Tuple[int, Any]]) -> List[Row]:
    """1. The input rows of a source stage: its (subtask, split) pairs in read order."""
    return [(-1, subtask, 0, seq, KIND_SPLIT, cloudpickle.dumps(split), b"")
            for seq, (subtask, split) in enumerate(splits)]


def upstream_rows(upstream: Sequence[Any], outputs: Dict[int, List[Row]]) -> List[Row]:
    """2. The input rows of a non-source stage: the rows of each upstream exit feeding it
    (``outputs``: stage id -> the rows its tasks wrote)."""
    rows: List[Row] = []
    for up in upstream:
        rows.extend(row for row in outputs[up.stage_id] if row[EDGE] == up.edge_id)
    return rows


def route(rows: Iterable[Row], parallelism: int) -> List[List[Row]]:
    """3 and 4. Each subtask's input rows (index = subtask), in reading order."""
    per_subtask: List[List[Row]] = [[] for _ in range(parallelism)]
    for row in rows:
        dest = row[DEST]
        if not 0 <= dest < parallelism:
            raise ValueError("a boundary row for subtask %d of a stage with parallelism %d "
                             "(edge %d)" % (dest, parallelism, row[EDGE]))
        per_subtask[dest].append(row)
    for mine in per_subtask:
        mine.sort(key=_exchange_order)
    return per_subtask


def _exchange_order(row: Row) -> Tuple[bytes, int, int, int]:
    return row_order(row), row[EDGE], row[SRC], row[SEQ]
