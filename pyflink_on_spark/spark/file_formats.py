"""How Spark reads each file format (codecs.formats decoders): the data source, its options,
the schema given to the reader, the columns handed to the decoder, the package a data source
needs, and which files Spark's reader cannot decode as Flink does (those are read as bytes
and decoded whole by the format)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional, Tuple

from pyflink_on_spark.codecs.formats.avro import AvroFileFormat
from pyflink_on_spark.codecs.formats.csv import CsvFileFormat
from pyflink_on_spark.codecs.formats.parquet import ParquetFileFormat
from pyflink_on_spark.codecs.formats.text import FLINK_COMPRESSED, TextInputFormat, TextLineFormat

# extensions Spark's text reader (Hadoop's codecs) decompresses itself
SPARK_DECOMPRESSES = (".deflate", ".bz2", ".gz")


@dataclass(frozen=True)
class SparkFileRead:
    source: str                                # spark.read.format(...)
    options: Mapping[str, str]
    columns: Tuple[str, ...]                   # selected, in the order the decoder takes them
    schema: Optional[str] = None               # DDL schema given to the reader (None: its own)
    package: Optional[str] = None              # Maven artifact (without version) it needs


def spark_read(fmt) -> SparkFileRead:
    """Spark's reader settings for a FileSource format."""
    if isinstance(fmt, TextInputFormat):       # env.read_text_file: lines end at "\n" only
        return SparkFileRead("text", {"lineSep": "\n"}, ("value",))
    if isinstance(fmt, TextLineFormat):
        return SparkFileRead("text", {}, ("value",))
    if isinstance(fmt, AvroFileFormat):
        return SparkFileRead("avro", {"avroSchema": fmt.schema_json}, tuple(fmt.names),
                             package="spark-avro")
    if isinstance(fmt, ParquetFileFormat):
        return SparkFileRead("parquet", {}, tuple(fmt.row.names))
    raise NotImplementedError("FileSource format %r cannot be read on Spark" % (fmt,))


# how a source's task reads a file itself (task_read)
WHOLE = "whole"     # all of it, in order (streamed where the format can)
BLOCKS = "blocks"   # read_text_file: by blocks, as Spark splits the file


def task_read(fmt, uri: str, split_files: bool = False) -> Optional[str]:
    """How the source's task reads this file itself (codecs.formats read_file, read_block),
    or None for a file Spark's readers read: text lines and whole-file formats of this
    machine's file system are the task's. Spark's readers hand a task's Python worker every
    line as an Arrow row built from a JVM row, with the file's path and block beside it: a
    job reading and dropping 1M lines of 13 MB took 2.8 s, 0.4 s when its tasks read the
    files (benchmarks/RESULTS.md, seventh session). Other
    file systems (HDFS, S3...) keep Spark's readers and their Hadoop settings, and so do
    read_text_file's files that Spark decompresses itself (it may split a .bz2)."""
    from pyflink_on_spark.codecs.files.fs import is_local
    if not is_local(uri) or not (isinstance(fmt, TextLineFormat) or
                                 reads_whole_file(fmt, uri)):
        return None
    if not split_files or reads_whole_file(fmt, uri):
        return WHOLE
    return None if uri.endswith(SPARK_DECOMPRESSES) else BLOCKS


# A text file Spark reads (another file system's) whose lines are not split over blocks is
# read whole through Spark's binaryFile source, its lines cut in the task (the format's
# read_content, 1 MB of text at a time), up to this size: 4x faster than Spark's text
# reader, whose lines reach Python one Arrow row each (a job reading and dropping 1M lines
# of 13 MB: 0.7-0.9 against 2.6-3.4 s). A bigger file keeps the text reader: the JVM holds a
# file read whole, twice.
WHOLE_TEXT_BYTES = 64 << 20


def reads_whole_when_small(fmt, split_files: bool) -> bool:
    """Whether Spark reads the format's files of up to WHOLE_TEXT_BYTES whole."""
    return isinstance(fmt, TextLineFormat) and not split_files


def reads_whole_file(fmt, path: str) -> bool:
    """True for files Spark's reader cannot decode as PyFlink does: they are read as bytes
    (Spark's binaryFile source) and decoded by fmt.decode_file."""
    if isinstance(fmt, CsvFileFormat):
        return True   # Jackson's quoting and its errors (codecs.formats.csv), not Spark's
    if isinstance(fmt, TextLineFormat):
        if fmt.codec != "utf-8":
            return True  # Spark's text reader only decodes UTF-8
        # Hadoop's codecs match the extension case-sensitively
        return path.lower().endswith(FLINK_COMPRESSED) and not path.endswith(SPARK_DECOMPRESSES)
    return False
