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


def task_reads(fmt, uri: str) -> bool:
    """True for files the source's task reads and decodes itself (codecs.formats read_file),
    not through a Spark reader: text lines and whole-file formats of this machine's file
    system. Spark's readers hand a task's Python worker every line as an Arrow row built
    from a JVM row, with the file's path and block beside it: 2.8 s for 1M lines of 13 MB,
    where reading the files in the task takes 0.1 s. Other file systems (HDFS, S3...) keep
    Spark's readers and their Hadoop settings."""
    from pyflink_on_spark.codecs.files.fs import is_local
    if not is_local(uri):
        return False
    return isinstance(fmt, TextLineFormat) or reads_whole_file(fmt, uri)


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
