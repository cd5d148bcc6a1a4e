"""How the compiler splits a source (specs.sources) and how its tasks read a split.

Collection and number-sequence sources are split here, at compile time; sources an executor
reads with its own readers (files, Kafka) have no splits: their records arrive at the source
operator already read, in chunks, which the reader passes through.
"""
from __future__ import annotations

import pickle
from typing import Any, List, Optional, Sequence, Tuple

from pyflink_on_spark.specs.sources import (
    CollectionSourceSpec, EventScriptReaderSpec, EventScriptSourceSpec, FileSourceSpec,
    FileToRead, HybridSourceSpec, NumberSequenceSourceSpec, RecordChunks, SourceReaderSpec)

COLLECTION_CHUNK = 4096


def _read_values(split):
    return split


def _read_number_range(split):
    start, end = split
    return range(start, end + 1)


def collection_source(values: Sequence[Any],
                      python_input_error: Optional[str] = None) -> CollectionSourceSpec:
    values = tuple(values)
    try:
        size = len(pickle.dumps(values, protocol=4))
    except Exception:  # values of classes that only cloudpickle handles: a rough count
        size = 64 * len(values)
    return CollectionSourceSpec(values, size, python_input_error)


def number_sequence_source(start: int, end: int) -> NumberSequenceSourceSpec:
    return NumberSequenceSourceSpec(start, end)


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


def is_split_here(source) -> bool:
    """True for sources the compiler splits; False for those an executor reads itself."""
    return isinstance(source, (CollectionSourceSpec, NumberSequenceSourceSpec,
                               EventScriptSourceSpec))


def source_splits(source, parallelism: int) -> List[Tuple[int, Any]]:
    """[(subtask, split), ...] in read order."""
    if isinstance(source, CollectionSourceSpec):
        # from_collection is a non-parallel source: every chunk goes to subtask 0, in order.
        values = list(source.values)
        return [(0, values[i:i + COLLECTION_CHUNK])
                for i in range(0, len(values), COLLECTION_CHUNK)]
    if isinstance(source, NumberSequenceSourceSpec):
        return list(enumerate(split_number_range(source.start, source.end, parallelism)))
    if isinstance(source, EventScriptSourceSpec):
        return [(0, list(source.events))]          # one subtask, the script's order
    return []


class FileSplitReader:
    """A FileSource subtask's reader: a chunk of records an executor read passes through; a
    FileToRead is read here, in chunks of the format's choosing (bounded memory whatever
    the file's size, for formats that stream: codecs/formats)."""

    def __init__(self, file_format) -> None:
        self.format = file_format

    def __call__(self, split):
        if isinstance(split, FileToRead):
            return RecordChunks(self._chunks(split))
        return split

    def _chunks(self, split: FileToRead):
        try:
            if split.block is not None:
                yield from self.format.read_block(split.path, *split.block)
            else:
                yield from self.format.read_file(split.path)
        except FileNotFoundError:
            raise FileNotFoundError(
                "FileSource: %s was listed when the job started and is gone now (deleted "
                "or moved while the job ran)" % split.path) from None


def split_reader(source):
    """The function a source subtask applies to each split (it runs inside tasks)."""
    if isinstance(source, NumberSequenceSourceSpec):
        return _read_number_range
    if isinstance(source, FileSourceSpec):
        return FileSplitReader(source.format)
    if isinstance(source, HybridSourceSpec):
        from pyflink_on_spark.graph.hybrid_reader import HybridSplitReader
        return HybridSplitReader(source)
    return _read_values


def source_reader_spec(source, watermark_strategy):
    """What a subtask of the source node runs (specs.sources)."""
    if isinstance(source, EventScriptSourceSpec):
        return EventScriptReaderSpec()
    return SourceReaderSpec(split_reader(source), watermark_strategy)


def estimated_bytes(source) -> int:
    return getattr(source, "estimated_bytes", 0)
