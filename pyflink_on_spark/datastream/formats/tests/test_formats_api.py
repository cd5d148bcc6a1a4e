"""The schemas of pyflink.datastream.formats: what they write and read (the codecs' exact
formats are checked against PyFlink's output in codecs/formats/tests)."""
import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.common.types import Row
from pyflink_on_spark.datastream.formats.avro import (AvroRowDeserializationSchema,
                                                      AvroRowSerializationSchema, AvroSchema)
from pyflink_on_spark.datastream.formats.csv import (CsvRowDeserializationSchema,
                                                     CsvRowSerializationSchema)
from pyflink_on_spark.datastream.formats.json import (JsonRowDeserializationSchema,
                                                      JsonRowSerializationSchema)

ROW = Types.ROW_NAMED(["id", "name"], [Types.INT(), Types.STRING()])


def test_json_row_schemas_round_trip():
    ser = JsonRowSerializationSchema.builder().with_type_info(ROW).build()
    de = JsonRowDeserializationSchema.builder().type_info(ROW).build()
    data = ser._serialize(Row(id=1, name="a b"))
    assert data == b'{"id":1,"name":"a b"}'
    assert de._deserialize(data) == Row(id=1, name="a b")
    with pytest.raises(TypeError, match="Typeinfo should be set"):
        JsonRowSerializationSchema.builder().build()


def test_json_schema_string_gives_the_type():
    de = JsonRowDeserializationSchema.builder().json_schema(
        '{"type": "object", "properties": {"a": {"type": "integer"}, '
        '"b": {"type": "string"}, "c": {"type": "array", "items": {"type": "boolean"}}}}') \
        .build()
    assert de._produced_type() == Types.ROW_NAMED(
        ["a", "b", "c"], [Types.BIG_INT(), Types.STRING(), Types.OBJECT_ARRAY(Types.BOOLEAN())])
    assert de._deserialize(b'{"a": 3, "b": "x", "c": [true]}') == Row(a=3, b="x", c=[True])


def test_csv_row_schemas_round_trip_with_settings():
    ser = CsvRowSerializationSchema.Builder(ROW).set_field_delimiter(";") \
        .set_null_literal("NULL").build()
    de = CsvRowDeserializationSchema.Builder(ROW).set_field_delimiter(";") \
        .set_null_literal("NULL").build()
    assert ser._serialize(Row(1, None)) == b"1;NULL\n"
    assert ser._serialize(Row(2, "x;y")) == b'2;"x;y"\n'
    assert de._deserialize(b'2;"x;y"\n') == Row(id=2, name="x;y")
    assert de._deserialize(b"1;NULL") == Row(id=1, name=None)


def test_csv_row_deserialization_errors():
    de = CsvRowDeserializationSchema.Builder(ROW).build()
    with pytest.raises(IOError, match="Failed to deserialize CSV row ',x'"):
        de._deserialize(b",x")
    lenient = CsvRowDeserializationSchema.Builder(ROW).set_ignore_parse_errors(True).build()
    # a field that does not convert is None, the record is kept (PyFlink 1.20.5)
    assert lenient._deserialize(b",x") == Row(id=None, name="x")


def test_avro_row_schemas_round_trip():
    schema = ('{"type": "record", "name": "R", "fields": [{"name": "id", "type": "int"}, '
              '{"name": "name", "type": ["null", "string"]}]}')
    data = AvroRowSerializationSchema(avro_schema_string=schema)._serialize(Row(3, "x"))
    assert data == b"\x06\x02\x02x"
    assert AvroRowDeserializationSchema(avro_schema_string=schema)._deserialize(data) == \
        Row(id=3, name="x")
    with pytest.raises(NotImplementedError, match="avro_schema_string"):
        AvroRowSerializationSchema(record_class="com.example.User")
    assert str(AvroSchema.parse_string(schema)).startswith('{"type":"record","name":"R"')
