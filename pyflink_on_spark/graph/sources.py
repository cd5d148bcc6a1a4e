"""Source definitions: how a bounded source splits and how a split is read in a task."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, List, Sequence, Tuple

COLLECTION_CHUNK = 4096


def _read_values(split):
    return split


def _read_number_range(split):
    start, end = split
    return range(start, end + 1)


@dataclass(frozen=True)
class SourceDefinition:
    """splits(parallelism) -> [(subtask, split), ...] in read order; reader(split) -> records.
    The reader runs inside Spark tasks, so it must be picklable."""
    name: str
    splits: Callable[[int], List[Tuple[int, Any]]]
    reader: Callable[[Any], Any]
    bounded: bool = True
    estimated_bytes: int = 0      # serialized volume, for BATCH mode's adaptive parallelism
    # A "frame source" (files, Kafka): a declarative description the Spark layer reads with
    # Spark's own reader into split rows whose split is a chunk of records (see
    # graph/frame_sources.py); `splits` is then unused and `reader` passes the chunk through.
    frame: Any = None


def collection_source(values: Sequence[Any]) -> SourceDefinition:
    values = list(values)

    def splits(parallelism: int):
        # from_collection is a non-parallel source: every chunk goes to subtask 0, in order.
        chunks = [values[i:i + COLLECTION_CHUNK] for i in range(0, len(values), COLLECTION_CHUNK)]
        return [(0, chunk) for chunk in chunks]
    import pickle
    try:
        size = len(pickle.dumps(values, protocol=4))
    except Exception:  # values of classes that only cloudpickle handles: a rough count
        size = 64 * len(values)
    return SourceDefinition("Collection Source", splits, _read_values, True, size)


def split_number_range(start: int, end: int, num_splits: int) -> List[Tuple[int, int]]:
    """Contiguous ranges, the first (size % num_splits) one longer, as Flink splits them."""
    size = end - start + 1
    if size <= 0:
        return []
    num_splits = max(1, min(num_splits, size))
    per_split, remainder = divmod(size, num_splits)
    ranges = []
    current = start
    for i in range(num_splits):
        count = per_split + (1 if i < remainder else 0)
        ranges.append((current, current + count - 1))
        current += count
    return ranges


def number_sequence_source(start: int, end: int) -> SourceDefinition:
    def splits(parallelism: int):
        return [(i, r) for i, r in enumerate(split_number_range(start, end, parallelism))]
    return SourceDefinition("Sequence Source", splits, _read_number_range, True,
                            8 * max(end - start + 1, 0))


def frame_source(name: str, frame: Any, estimated_bytes: int = 0,
                 bounded: bool = True) -> SourceDefinition:
    """A source read by the Spark layer from `frame` (a graph.frame_sources description)."""
    return SourceDefinition(name, _no_splits, _read_values, bounded, estimated_bytes, frame)


def _no_splits(parallelism: int):
    return []
