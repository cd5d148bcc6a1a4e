"""JSON rows as Flink's JsonRowSerializationSchema / JsonRowDeserializationSchema write and
read them; expected strings printed by PyFlink 1.20 (through the Java gateway)."""
import datetime

import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.common.types import Row
from pyflink_on_spark.codecs.formats.fields import from_type_info
from pyflink_on_spark.codecs.formats.json_rows import deserialize_row, serialize_row

TYPE = Types.ROW_NAMED(["id", "name", "score", "ok", "tags", "nested"], [
    Types.INT(), Types.STRING(), Types.DOUBLE(), Types.BOOLEAN(),
    Types.BASIC_ARRAY(Types.STRING()), Types.ROW_NAMED(["a"], [Types.INT()])])
FIELD = from_type_info(TYPE)


def test_rows_observed_on_pyflink():
    assert serialize_row(Row(1, 'al"ice', 3.5, True, ["x", "y"], Row(7)), FIELD) == \
        b'{"id":1,"name":"al\\"ice","score":3.5,"ok":true,"tags":["x","y"],"nested":{"a":7}}'
    assert serialize_row(Row(None, None, 1e-07, False, [], None), FIELD) == \
        b'{"id":null,"name":null,"score":1.0E-7,"ok":false,"tags":[],"nested":null}'
    assert serialize_row(Row(2, "a,b\nc", 1e20, True, ["p;q"], Row(None)), FIELD) == \
        b'{"id":2,"name":"a,b\\nc","score":1.0E20,"ok":true,"tags":["p;q"],"nested":{"a":null}}'


@pytest.mark.parametrize("text, written", [
    ("a\tb", '"a\\tb"'), ("é", '"é"'), ("a\rb", '"a\\rb"'), ("a\x01b", '"a\\u0001b"'),
    ("a'b", '"a\'b"'), ("a\\b", '"a\\\\b"'), ("a/b", '"a/b"'), ("\u2028", '"\u2028"'),
])
def test_string_escapes_observed_on_pyflink(text, written):
    field = from_type_info(Types.ROW([Types.STRING()]))
    assert serialize_row(Row(text), field).decode("utf-8") == '{"f0":%s}' % written


def test_sql_times_and_bytes_observed_on_pyflink():
    field = from_type_info(Types.ROW([Types.SQL_DATE(), Types.SQL_TIME(), Types.SQL_TIMESTAMP(),
                                      Types.PRIMITIVE_ARRAY(Types.BYTE())]))
    row = Row(datetime.date(2024, 1, 2), datetime.time(3, 4, 5),
              datetime.datetime(2024, 1, 2, 3, 4, 5, 123000), b"\x01\x02")
    assert serialize_row(row, field) == \
        b'{"f0":"2024-01-02","f1":"03:04:05Z","f2":"2024-01-02T03:04:05.123Z","f3":"AQI="}'


def test_deserialization_observed_on_pyflink():
    row = deserialize_row(b'{"id": 5, "name": "n", "score": 2, "ok": true, "tags": ["a"], '
                          b'"nested": {"a": 9}}', FIELD)
    assert row == Row(id=5, name="n", score=2.0, ok=True, tags=["a"], nested=Row(a=9))
    assert isinstance(row.score, float)
    # "6" coerces to an INT, unknown fields are ignored, missing ones are null
    assert deserialize_row(b'{"id": "6", "extra": 1}', FIELD) == \
        Row(id=6, name=None, score=None, ok=None, tags=None, nested=None)
    assert deserialize_row(b'{"score": "1.5e3", "ok": "true"}', FIELD) == \
        Row(id=None, name=None, score=1500.0, ok=True, tags=None, nested=None)


def test_missing_field_and_parse_error_options():
    with pytest.raises(ValueError, match="Could not find field with name 'name'"):
        deserialize_row(b'{"id": 1}', FIELD, fail_on_missing=True)
    with pytest.raises(ValueError, match="Failed to deserialize JSON"):
        deserialize_row(b'{not json', FIELD)
    assert deserialize_row(b'{not json', FIELD, ignore_parse_errors=True) is None
