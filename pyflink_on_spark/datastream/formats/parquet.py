"""Parquet (mirror of pyflink.datastream.formats.parquet): read with Spark's Parquet reader,
written by the file sink's subtasks with pyarrow."""
from __future__ import annotations

from typing import Optional, TYPE_CHECKING

from pyflink_on_spark.common.configuration import Configuration
from pyflink_on_spark.common.serialization import BulkWriterFactory, RowDataBulkWriterFactory
from pyflink_on_spark.datastream.connectors.file_system import BulkFormat, StreamFormat
from pyflink_on_spark.datastream.formats.avro import AvroSchema, GenericRecordAvroTypeInfo
from pyflink_on_spark.codecs.formats.fields import Field, from_data_type
from pyflink_on_spark.codecs.formats.parquet import ParquetFileFormat

if TYPE_CHECKING:
    from pyflink_on_spark.table.types import RowType

__all__ = [
    'AvroParquetReaders',
    'AvroParquetWriters',
    'ParquetColumnarRowInputFormat',
    'ParquetBulkWriters'
]


def _avro_row_field(schema: AvroSchema) -> Field:
    parsed = schema._parsed
    if parsed["type"] != "record":
        raise ValueError("a record schema is needed, got %s" % schema)
    return _avro_field(parsed)


def _avro_field(schema) -> Field:
    kind = schema["type"]
    if kind == "union":
        branches = [b for b in schema["branches"] if b["type"] != "null"]
        if len(branches) != 1:
            raise ValueError("only [null, T] unions map onto Parquet columns")
        return _avro_field(branches[0])
    logical = schema.get("logicalType")
    if logical == "date":
        return Field("local_date")
    if logical in ("timestamp-millis", "timestamp-micros"):
        return Field("instant")
    if logical == "decimal":
        return Field("decimal", precision=schema.get("precision", 10),
                     scale=schema.get("scale", 0))
    simple = {"string": "string", "boolean": "boolean", "int": "int", "long": "long",
              "float": "float", "double": "double", "bytes": "bytes", "enum": "string",
              "fixed": "bytes"}
    if kind in simple:
        return Field(simple[kind])
    if kind == "array":
        return Field("array", element=_avro_field(schema["items"]))
    if kind == "map":
        return Field("map", key=Field("string"), element=_avro_field(schema["values"]))
    if kind == "record":
        return Field("row", names=tuple(f["name"] for f in schema["fields"]),
                     fields=tuple(_avro_field(f["type"]) for f in schema["fields"]))
    raise ValueError("the Avro type %r has no Parquet mapping here" % kind)


class AvroParquetReaders(object):
    """Reads Parquet files into Avro GenericRecords (dicts)."""

    @staticmethod
    def for_generic_record(schema: 'AvroSchema') -> 'StreamFormat':
        return StreamFormat(ParquetFileFormat(_avro_row_field(schema),
                                              GenericRecordAvroTypeInfo(schema), as_dicts=True))


class AvroParquetWriters(object):
    """Writes Avro GenericRecords (dicts) into Parquet files."""

    @staticmethod
    def for_generic_record(schema: 'AvroSchema') -> 'BulkWriterFactory':
        from pyflink_on_spark.codecs.files.writers import ArrowBulkFormat
        return BulkWriterFactory(ArrowBulkFormat("parquet", _avro_row_field(schema)))


class ParquetColumnarRowInputFormat(BulkFormat):
    """Reads the row type's columns of Parquet files (primitive columns)."""

    def __init__(self,
                 row_type: 'RowType',
                 hadoop_config: Optional[Configuration] = None,
                 batch_size: int = 2048,
                 is_utc_timestamp: bool = False,
                 is_case_sensitive: bool = True):
        from pyflink_on_spark.datastream.formats._row_data import type_info_of
        super().__init__(ParquetFileFormat(from_data_type(row_type), type_info_of(row_type),
                                           case_sensitive=is_case_sensitive))


class ParquetBulkWriters(object):
    """BulkWriterFactory writing Rows of a row type into Parquet files."""

    @staticmethod
    def for_row_type(row_type: 'RowType',
                     hadoop_config: Optional[Configuration] = None,
                     utc_timestamp: bool = False) -> 'BulkWriterFactory':
        from pyflink_on_spark.codecs.files.writers import ArrowBulkFormat
        return RowDataBulkWriterFactory(ArrowBulkFormat("parquet", from_data_type(row_type)),
                                        row_type)
