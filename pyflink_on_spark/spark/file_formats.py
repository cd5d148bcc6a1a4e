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
