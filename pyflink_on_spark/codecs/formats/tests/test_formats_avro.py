"""Avro binary encoding (pure Python), checked against the Avro specification's examples and
by round trips; container files written here are read back."""
import datetime
import io

import pytest

from pyflink_on_spark.common.types import Row
from pyflink_on_spark.codecs.formats import avro

SCHEMA = avro.parse_schema("""{"type": "record", "name": "User", "namespace": "t",
  "fields": [{"name": "id", "type": "long"}, {"name": "name", "type": ["null", "string"]},
             {"name": "tags", "type": {"type": "array", "items": "string"}},
             {"name": "attrs", "type": {"type": "map", "values": "int"}},
             {"name": "day", "type": {"type": "int", "logicalType": "date"}},
             {"name": "score", "type": "double"}]}""")


@pytest.mark.parametrize("value, encoded", [
    (0, b"\x00"), (-1, b"\x01"), (1, b"\x02"), (-2, b"\x03"), (2, b"\x04"), (-64, b"\x7f"),
    (64, b"\x80\x01"),
])
def test_zigzag_varints_of_the_specification(value, encoded):
    assert avro.serialize(value, {"type": "long"}) == encoded


def test_string_of_the_specification():
    assert avro.serialize("foo", {"type": "string"}) == b"\x06foo"


def test_record_round_trip_and_layout():
    record = {"id": 3, "name": "ann", "tags": ["a"], "attrs": {"k": 1},
              "day": datetime.date(1970, 1, 3), "score": 0.5}
    data = avro.serialize(record, SCHEMA)
    # id=3 -> 06; union branch 1 -> 02, "ann"; array block of 1, "a", end; map block, "k", 1, end
    assert data.startswith(b"\x06\x02\x06ann\x02\x02a\x00\x02\x02k\x02\x00\x04")
    assert avro.deserialize(data, SCHEMA) == record


def test_rows_encode_by_position_and_decode_to_rows():
    row = Row(7, None, [], {}, datetime.date(2000, 1, 1), 1.5)
    data = avro.serialize(row, SCHEMA)
    back = avro.deserialize(data, SCHEMA, lambda names, values: Row(**dict(zip(names, values))))
    assert back == Row(id=7, name=None, tags=[], attrs={}, day=datetime.date(2000, 1, 1),
                       score=1.5)


def test_null_outside_a_union_fails():
    with pytest.raises(avro.AvroSchemaError):
        avro.serialize({"id": None}, avro.parse_schema(
            {"type": "record", "name": "R", "fields": [{"name": "id", "type": "long"}]}))


def test_container_file_round_trip():
    out = io.BytesIO()
    out.close = lambda: None
    writer = avro.ContainerWriter(out, '{"type": "record", "name": "R", "fields": '
                                       '[{"name": "a", "type": "int"}]}', block_records=2)
    for i in range(5):
        writer.append({"a": i})
    writer.close()
    data = out.getvalue()
    assert data.startswith(b"Obj\x01")
    assert avro.read_container(data) == [{"a": i} for i in range(5)]
