"""JSON row (de)serialization schemas (mirror of pyflink.datastream.formats.json); the JSON
itself is written and read as Flink's Jackson-based schemas do (codecs/formats/json_rows.py)."""
from __future__ import annotations

import json as _json

from pyflink_on_spark.common.serialization import DeserializationSchema, SerializationSchema
from pyflink_on_spark.common.typeinfo import TypeInformation, Types
from pyflink_on_spark.codecs.formats.fields import from_type_info
from pyflink_on_spark.codecs.formats.json_rows import deserialize_row, serialize_row

__all__ = [
    'JsonRowDeserializationSchema',
    'JsonRowSerializationSchema'
]


def _row_field(type_info):
    field = from_type_info(type_info)
    if field.kind != "row":
        raise ValueError("The JSON row schemas need a ROW type information, got %r"
                         % (type_info,))
    return field


class JsonRowDeserializationSchema(DeserializationSchema):
    """JSON object bytes -> Row of the type information (fields by name)."""

    def __init__(self, j_deserialization_schema):
        super(JsonRowDeserializationSchema, self).__init__(j_deserialization_schema)

    @staticmethod
    def builder():
        return JsonRowDeserializationSchema.Builder()

    def _deserialize(self, message: bytes):
        type_info, fail_on_missing, ignore_errors = self._j_deserialization_schema
        return deserialize_row(message, _row_field(type_info), fail_on_missing, ignore_errors)

    def _produced_type(self):
        return self._j_deserialization_schema[0]

    class Builder(object):
        def __init__(self):
            self._type_info = None
            self._fail_on_missing_field = False
            self._ignore_parse_errors = False

        def type_info(self, type_info: TypeInformation):
            self._type_info = type_info
            return self

        def json_schema(self, json_schema: str):
            if json_schema is None:
                raise TypeError("The json_schema must not be None.")
            self._type_info = json_schema_to_type_info(_json.loads(json_schema))
            return self

        def fail_on_missing_field(self):
            self._fail_on_missing_field = True
            return self

        def ignore_parse_errors(self):
            self._ignore_parse_errors = True
            return self

        def build(self):
            if self._type_info is None:
                raise TypeError("Typeinfo should be set.")
            _row_field(self._type_info)
            return JsonRowDeserializationSchema(
                j_deserialization_schema=(self._type_info, self._fail_on_missing_field,
                                          self._ignore_parse_errors))


class JsonRowSerializationSchema(SerializationSchema):
    """Row -> compact JSON object bytes (fields in the type's order)."""

    def __init__(self, j_serialization_schema):
        super(JsonRowSerializationSchema, self).__init__(j_serialization_schema)

    @staticmethod
    def builder():
        return JsonRowSerializationSchema.Builder()

    def _serialize(self, value) -> bytes:
        type_info = self._j_serialization_schema
        convert = type_info._python_converter()
        if convert is not None:
            value = convert(value)
        return serialize_row(value, _row_field(type_info))

    class Builder(object):
        def __init__(self):
            self._type_info = None

        def with_type_info(self, type_info: TypeInformation):
            self._type_info = type_info
            return self

        def build(self):
            if self._type_info is None:
                raise TypeError("Typeinfo should be set.")
            _row_field(self._type_info)
            return JsonRowSerializationSchema(j_serialization_schema=self._type_info)


def json_schema_to_type_info(schema) -> TypeInformation:
    """A JSON schema -> TypeInformation, as Flink's JsonRowSchemaConverter maps it: object ->
    ROW_NAMED, string -> STRING (date / time / date-time formats -> SQL types), integer ->
    BIG_INT, number -> BIG_DEC, boolean -> BOOLEAN, array -> OBJECT_ARRAY."""
    kind = schema.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        kind = kinds[0] if len(kinds) == 1 else kind
    if kind == "object":
        properties = schema.get("properties", {})
        return Types.ROW_NAMED(list(properties),
                               [json_schema_to_type_info(p) for p in properties.values()])
    if kind == "string":
        return {"date": Types.SQL_DATE, "time": Types.SQL_TIME,
                "date-time": Types.SQL_TIMESTAMP}.get(schema.get("format"), Types.STRING)()
    if kind == "integer":
        return Types.BIG_INT()
    if kind == "number":
        return Types.BIG_DEC()
    if kind == "boolean":
        return Types.BOOLEAN()
    if kind == "array":
        return Types.OBJECT_ARRAY(json_schema_to_type_info(schema.get("items", {})))
    raise ValueError("Unsupported JSON schema type %r" % (kind,))
