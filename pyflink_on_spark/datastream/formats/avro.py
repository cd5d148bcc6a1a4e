"""Avro (mirror of pyflink.datastream.formats.avro).

AvroSchema, GenericRecordAvroTypeInfo (records are dicts, as PyFlink's Python side sees
GenericRecords), AvroInputFormat for env.create_input (read with Spark's avro source: needs
the spark-avro package), AvroBulkWriters (container files written in pure Python) and the
row (de)serialization schemas (plain Avro binary, pure Python)."""
from __future__ import annotations

import json

from pyflink_on_spark.common.io import InputFormat
from pyflink_on_spark.common.serialization import (BulkWriterFactory, DeserializationSchema,
                                                   SerializationSchema)
from pyflink_on_spark.common.typeinfo import TypeInformation
from pyflink_on_spark.datastream.utils import ResultTypeQueryable
from pyflink_on_spark.codecs.formats import avro as codec

__all__ = [
    'AvroSchema',
    'GenericRecordAvroTypeInfo',
    'AvroInputFormat',
    'AvroBulkWriters',
    'AvroRowDeserializationSchema',
    'AvroRowSerializationSchema'
]


def _no_record_class(api: str):
    raise NotImplementedError(
        "%s(record_class=...) is not supported by pyflink_on_spark: it needs a generated "
        "Java SpecificRecord class. Pass avro_schema_string= instead." % api)


class AvroSchema(object):
    """An Avro schema (parsed JSON; str() prints it as compact JSON, as Java does)."""

    def __init__(self, j_schema):
        self._j_schema = j_schema            # the schema's JSON text
        self._schema_string = None
        self._parsed = codec.parse_schema(j_schema)

    def __str__(self):
        if self._schema_string is None:
            self._schema_string = codec.canonical_json(self._j_schema)
        return self._schema_string

    @staticmethod
    def parse_string(json_schema: str) -> 'AvroSchema':
        return AvroSchema(json_schema)

    @staticmethod
    def parse_file(file_path: str) -> 'AvroSchema':
        with open(file_path, "r", encoding="utf-8") as f:
            return AvroSchema(f.read())


class GenericRecordAvroTypeInfo(TypeInformation):
    """The type of Avro GenericRecords with a schema (dicts on the Python side)."""

    def __init__(self, schema: 'AvroSchema'):
        super(GenericRecordAvroTypeInfo, self).__init__()
        self._schema = schema

    def __eq__(self, other):
        return isinstance(other, GenericRecordAvroTypeInfo) and \
            str(self._schema) == str(other._schema)

    def __hash__(self):
        return hash(("GenericRecordAvroTypeInfo", str(self._schema)))

    def __repr__(self):
        return "GenericRecordAvroTypeInfo(%s)" % self._schema

    def _java_str(self, value) -> str:
        # GenericData.Record.toString: JSON of the record
        return json.dumps(value, separators=(", ", ": "), default=str)


class AvroInputFormat(InputFormat, ResultTypeQueryable):
    """Reads Avro container files as GenericRecords (dicts): env.create_input(...)."""

    def __init__(self, path: str, schema: 'AvroSchema'):
        from pyflink_on_spark.datastream.connectors.file_system import _absolute
        super(AvroInputFormat, self).__init__((_absolute(path), codec.AvroFileFormat(
            str(schema), GenericRecordAvroTypeInfo(schema))))
        self._type_info = GenericRecordAvroTypeInfo(schema)

    def get_produced_type(self) -> GenericRecordAvroTypeInfo:
        return self._type_info

    def _source_definition(self):
        from pyflink_on_spark.datastream.connectors.file_system import _local_size
        from pyflink_on_spark.specs.sources import FileSourceSpec
        path, fmt = self.get_java_object()
        return FileSourceSpec((path,), fmt, estimated_bytes=_local_size([path]),
                              name="Avro File Source")


class AvroBulkWriters(object):
    """BulkWriterFactory for Avro container files of GenericRecords (dicts)."""

    @staticmethod
    def for_generic_record(schema: 'AvroSchema') -> 'BulkWriterFactory':
        from pyflink_on_spark.codecs.files.writers import AvroBulkFormat
        return BulkWriterFactory(AvroBulkFormat(str(schema)))


class AvroRowDeserializationSchema(DeserializationSchema):
    """Avro binary (no container, no schema header) -> Row with the record's field names."""

    def __init__(self, record_class: str = None, avro_schema_string: str = None):
        if avro_schema_string is None and record_class is None:
            raise TypeError("record_class or avro_schema_string should be specified.")
        if record_class is not None:
            _no_record_class("AvroRowDeserializationSchema")
        super(AvroRowDeserializationSchema, self).__init__(avro_schema_string)
        self._schema = codec.parse_schema(avro_schema_string)

    def _deserialize(self, message: bytes):
        from pyflink_on_spark.common.types import _create_row
        return codec.deserialize(message, self._schema,
                                 lambda names, values: _create_row(names, values))


class AvroRowSerializationSchema(SerializationSchema):
    """Row -> Avro binary (fields by position, as Flink's AvroRowSerializationSchema)."""

    def __init__(self, record_class: str = None, avro_schema_string: str = None):
        if avro_schema_string is None and record_class is None:
            raise TypeError("record_class or avro_schema_string should be specified.")
        if record_class is not None:
            _no_record_class("AvroRowSerializationSchema")
        super(AvroRowSerializationSchema, self).__init__(avro_schema_string)
        self._schema = codec.parse_schema(avro_schema_string)

    def _serialize(self, value) -> bytes:
        return codec.serialize(value, self._schema)
