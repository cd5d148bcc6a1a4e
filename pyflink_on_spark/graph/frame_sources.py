"""Declarative descriptions of sources that the Spark layer reads with Spark's own readers
("frame sources"). The graph and the engine only carry them: spark/frame_sources.py turns one
into a DataFrame of split rows, each split a chunk of records for one source subtask."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Tuple


@dataclass(frozen=True)
class FileScan:
    """Files (or directories, read recursively; hidden files skipped as Flink does) read in
    the given format. Every file's records go to one subtask, in file order; with
    split_files (read_text_file, like Flink's FileInputFormat splits) every block Spark
    reads of a file goes to one subtask, in order."""
    paths: Tuple[str, ...]
    format: Any                      # a codecs.formats.base.FileRecordFormat
    split_files: bool = False


@dataclass(frozen=True)
class KafkaScan:
    """A bounded read of Kafka topics with Spark's Kafka source."""
    options: Mapping[str, str]       # Spark's Kafka source options
    value_decoder: Any               # bytes -> record (the DeserializationSchema), in tasks
