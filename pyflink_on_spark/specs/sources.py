"""What a source reads (declarative: the API builds these, executors read them), and what a
source node runs inside its tasks (SourceReaderSpec).

Two families: sources split by the graph compiler and read by the source operator in the
task (collection, number sequence: graph/sources.py), and sources an executor reads with
its own readers (files, Kafka: the Spark layer's spark/frame_sources.py), whose records reach
the source operator already read, in chunks.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Optional, Tuple


@dataclass(frozen=True)
class SourceReaderSpec:
    """A source subtask: `reader(split)` yields the records of each split given to it (or
    returns RecordChunks); the watermark strategy (None: records carry no timestamp) is
    applied as from_source does."""
    reader: Callable[[Any], Iterable[Any]]
    watermark_strategy: Any = None


class RecordChunks:
    """What a reader returns for a split it reads in parts (a file): lists of the split's
    records, in order, each read when the one before has gone on."""

    __slots__ = ("chunks",)

    def __init__(self, chunks: Iterator[list]) -> None:
        self.chunks = chunks


# -- split by the compiler -------------------------------------------------------------------
@dataclass(frozen=True)
class TimedValue:
    """An event of an EventScriptSourceSpec: a record with its event timestamp."""
    value: Any
    timestamp: int


@dataclass(frozen=True)
class WatermarkMark:
    """An event of an EventScriptSourceSpec: the source emits this watermark here."""
    timestamp: int


@dataclass(frozen=True)
class EventScriptSourceSpec:
    """A test source (pyflink_on_spark.testing): TimedValue records and WatermarkMark
    watermarks, emitted by one subtask exactly in the given order."""
    events: Tuple[Any, ...]
    estimated_bytes: int = 0
    name = "Event Script"


@dataclass(frozen=True)
class EventScriptReaderSpec:
    """The subtask of an EventScriptSourceSpec (its split holds the events)."""


@dataclass(frozen=True)
class CollectionSourceSpec:
    """from_collection: a non-parallel source of the given values, in order."""
    values: Tuple[Any, ...]
    estimated_bytes: int = 0          # serialized volume, for BATCH's adaptive parallelism
    # why the job fails if these values reach a Python operator (a null tuple field only
    # Java operators take: common/_collection_values.py python_input_error), or None
    python_input_error: Optional[str] = None
    name = "Collection Source"


@dataclass(frozen=True)
class NumberSequenceSourceSpec:
    """NumberSequenceSource: the longs in [start, end], one contiguous range per subtask."""
    start: int
    end: int
    name = "Sequence Source"

    @property
    def estimated_bytes(self) -> int:
        return 8 * max(self.end - self.start + 1, 0)


# -- read by the executor ------------------------------------------------------------------
@dataclass(frozen=True)
class SplitStarted:
    """A split an executor-read source gives the subtask (a Kafka partition), announced before
    any of its records: from then on its watermark counts in the source's (Flink registers
    every assigned split's watermark output when the split is assigned). `ends`: a split of
    a bounded read, which a SplitFinished ends; it is read until then, so it is never idle."""
    split: Tuple[Any, ...]                    # ("topic", partition)
    ends: bool = False


@dataclass(frozen=True)
class SplitFinished:
    """Every record of a bounded read's split was read: its watermark no longer counts
    (Flink releases a finished split's watermark output)."""
    split: Tuple[Any, ...]


@dataclass(frozen=True)
class SplitRecords:
    """A chunk of one split's records (a Kafka partition's, in offset order), each with the
    timestamp the source attaches to it (Kafka's record timestamp, epoch ms), as Flink's
    KafkaRecordEmitter does. The source generates watermarks per split."""
    split: Tuple[Any, ...]
    values: list
    timestamps: list


@dataclass(frozen=True)
class FileSourceSpec:
    """Files (or directories, read recursively; hidden files skipped as Flink does) decoded by
    `format`. Every file's records go to one subtask, in file order; with split_files
    (read_text_file, like Flink's FileInputFormat splits) every block of a file read by a
    different reader goes to one subtask, in order."""
    paths: Tuple[str, ...]
    format: Any                       # a codecs.formats decoder (text, CSV, Avro, Parquet)
    split_files: bool = False
    estimated_bytes: int = 0          # bytes under local paths (0: unknown)
    name: str = "File Source"
    monitor_interval_ms: int = 0      # > 0: monitor_continuously, an unbounded source of the
                                      # files appearing under the paths


@dataclass(frozen=True)
class FileToRead:
    """A FileSource split the subtask reads itself: the file at `path` (a path of this
    machine's file system), its records in file order, or only the lines of its byte range
    `block` (start, end) as Hadoop's line reader assigns lines to blocks (read_text_file's
    files, split as Spark splits them). spark/file_source.py hands out such splits for the
    files a task can read and decode without Spark's readers."""
    path: str
    block: Optional[Tuple[int, int]] = None


@dataclass(frozen=True)
class EarliestOffsets:
    """Each partition's earliest offset."""


@dataclass(frozen=True)
class LatestOffsets:
    """Each partition's latest offset (at the start of the job)."""


@dataclass(frozen=True)
class TimestampOffsets:
    """The first offset whose record timestamp is >= timestamp (ms)."""
    timestamp: int


@dataclass(frozen=True)
class HybridSourceSpec:
    """HybridSource whose last source is unbounded: `sources` (FileSourceSpec /
    KafkaSourceSpec) read one after the other, every one but the last bounded, each read
    whole before the next starts; which source is active and where it is are recorded in
    the checkpoint (spark/streaming/hybrid_index.py)."""
    sources: Tuple[Any, ...]
    name: str = "Hybrid Source"


@dataclass(frozen=True)
class CommittedOffsets:
    """The consumer group's committed offsets; `reset` ("earliest" / "latest" / "none")
    where the group has none (spark/kafka_offsets.py)."""
    reset: str = "earliest"


@dataclass(frozen=True)
class SpecificOffsets:
    """Given offsets, as (topic, partition, offset), sorted; a partition not given: the
    group's committed offset, else `reset` ("earliest" / "latest" / "none"), as Flink's
    SpecifiedOffsetsInitializer (spark/kafka_offsets.py)."""
    offsets: Tuple[Tuple[str, int, int], ...]
    reset: str = "earliest"


@dataclass(frozen=True)
class KafkaSourceSpec:
    """KafkaSource: records of the subscribed topics between starting and stopping offsets,
    decoded by `value_decoder` (bytes -> record, or None to skip), each partition's records
    in offset order on one subtask (Flink's KafkaSourceEnumerator assignment)."""
    bootstrap_servers: str
    value_decoder: Callable[[bytes], Any]
    starting: Any                              # EarliestOffsets | TimestampOffsets | ...
    stopping: Any = None                       # where a read stops (bounded, or unbounded
                                               # with set_unbounded(stopping))
    topics: Tuple[str, ...] = ()               # exactly one of topics, topic_pattern,
    topic_pattern: Optional[str] = None        # partitions is set
    partitions: Tuple[Tuple[str, int], ...] = ()
    group_id: Optional[str] = None
    client_id_prefix: Optional[str] = None
    properties: Tuple[Tuple[str, str], ...] = ()   # other consumer properties
    bounded: bool = True
    name: str = "Kafka Source"


@dataclass(frozen=True)
class RabbitMQSourceSpec:
    """RMQSource: an unbounded, non-parallel source of a queue's messages, decoded by
    `value_decoder` (bytes -> record, or None to skip). Consumed by the driver, each
    micro-batch's messages recorded in the checkpoint, processed in the tasks and
    acknowledged once the batch completed (spark/streaming/rabbitmq_queue.py)."""
    connection: Tuple[Tuple[str, Any], ...]   # RMQConnectionConfig's settings
    queue_name: str
    use_correlation_id: bool
    value_decoder: Callable[[bytes], Any]
    name: str = "RabbitMQ Source"


@dataclass(frozen=True)
class TableSourceSpec:
    """to_data_stream / to_append_stream / to_changelog_stream: the rows of a table (a
    specs.tables description), computed by Spark SQL and read into the stream as records:
    Rows named `names`, or tuples with `as_tuples` (spark/table_frames.py); with
    `changelog`, Rows of the row kind of each change of an updating table; `rowtime`, the
    index of the table's rowtime column, whose value becomes each record's timestamp (as
    PyFlink 1.20.5's to_data_stream sets it)."""
    table: Any
    names: Tuple[str, ...]
    as_tuples: bool = False
    changelog: bool = False
    rowtime: Optional[int] = None
    name: str = "Table Source"
    # the bytes the table reads (table/table_volume.py): BATCH mode's adaptive parallelism
    # of the operators behind it (graph/compile.py _parallelism)
    estimated_bytes: int = 0
