"""The value formats of kafka tables (table/kafka_formats.py), as PyFlink 1.20.5 reads and
writes them (seen: compat cases kafka/table_sink, kafka/table_formats); without Spark or a
broker."""
import datetime
from decimal import Decimal

import pytest

from pyflink_on_spark.common.types import Row
from pyflink_on_spark.table.kafka_formats import RowDecoder, RowEncoder

NAMES = ["i", "s", "d", "f", "dm", "ts", "b", "n", "big", "dt"]
TYPES = ["INT", "STRING", "DOUBLE", "FLOAT", "DECIMAL(5, 2)", "TIMESTAMP(3)", "BOOLEAN",
         "STRING", "BIGINT", "DATE"]
ROWS = [Row(1, 'a,b "q"', 1e10, 0.1, Decimal("1.20"),
            datetime.datetime(2024, 1, 2, 3, 4, 5, 120000), True, None, 12345678901,
            datetime.date(2024, 3, 4)),
        Row(-2, "", 0.5, 3.0, Decimal("100.00"), datetime.datetime(2024, 1, 2, 3, 4), False,
            "x", 0, datetime.date(2024, 3, 5))]


@pytest.mark.parametrize("fmt, options, expected", [
    ("json", {}, [
        b'{"i":1,"s":"a,b \\"q\\"","d":1.0E10,"f":0.1,"dm":1.2,"ts":"2024-01-02 03:04:05.12",'
        b'"b":true,"n":null,"big":12345678901,"dt":"2024-03-04"}',
        b'{"i":-2,"s":"","d":0.5,"f":3.0,"dm":1E+2,"ts":"2024-01-02 03:04:00","b":false,'
        b'"n":"x","big":0,"dt":"2024-03-05"}']),
    ("csv", {}, [b'1,"a,b ""q""",1.0E10,0.1,1.2,"2024-01-02 03:04:05.12",true,,12345678901,'
                 b'2024-03-04',
                 b'-2,,0.5,3.0,100,"2024-01-02 03:04:00",false,x,0,2024-03-05']),
    ("csv", {"csv.field-delimiter": ";"}, [
        b'1;"a,b ""q""";1.0E10;0.1;"1.2";"2024-01-02 03:04:05.12";true;;12345678901;'
        b'"2024-03-04"',
        b'-2;;0.5;3.0;"100";"2024-01-02 03:04:00";false;x;0;"2024-03-05"']),
])
def test_rows_are_written_as_pyflink_writes_them(fmt, options, expected):
    encode = RowEncoder(fmt, NAMES, TYPES, options)
    assert [encode(r) for r in ROWS] == expected


def test_raw_writes_the_one_column_and_a_null_is_a_tombstone():
    encode = RowEncoder("raw", ["v"], ["STRING"], {})
    assert [encode(Row(v)) for v in ("hello, world", "", None)] == [b"hello, world", b"", None]


def test_json_values_become_rows_missing_fields_null_unknown_ones_ignored():
    decode = RowDecoder("json", ["id", "item", "qty"], ["INT", "STRING", "BIGINT"], {})
    row = decode('{"id": "3", "item": {"a": 1}, "extra": true}')
    assert tuple(row) == (3, '{"a":1}', None) and row.as_dict()["item"] == '{"a":1}'
    with pytest.raises(ValueError, match="^Failed to deserialize JSON 'nope'"):
        decode("nope")
    skipping = RowDecoder("json", ["id", "name"], ["INT", "STRING"],
                          {"json.ignore-parse-errors": "true"})
    assert skipping("nope") is None and tuple(skipping('{"id": 2}')) == (2, None)
    assert tuple(skipping('{"id": "3", "name": 4}')) == (3, "4")
    assert tuple(skipping('{"id": "x", "name": "a"}')) == (None, "a")   # a bad field NULL
    missing = RowDecoder("json", ["id", "name"], ["INT", "STRING"],
                         {"json.fail-on-missing-field": "true"})
    with pytest.raises(ValueError, match="""^Failed to deserialize JSON '{"id": 2}'.$"""):
        missing('{"id": 2}')



def test_csv_values_become_rows_bad_ones_fail_or_are_nulled_when_ignored():
    names, types = ["id", "name", "price"], ["INT", "STRING", "DOUBLE"]
    strict = RowDecoder("csv", names, types, {})
    assert tuple(strict('1,"pe,ar",2.5')) == (1, "pe,ar", 2.5)
    for bad in ('2,"pe,ar",', "x,bad,1", "3,fig", "4,kiwi,1.5,extra"):
        with pytest.raises(ValueError, match="^Failed to deserialize CSV row '%s'.$" % bad):
            strict(bad)
    lenient = RowDecoder("csv", names, types, {"csv.ignore-parse-errors": "true"})
    assert [lenient(v) and tuple(lenient(v)) for v in (
        '2,"pe,ar",', "x,bad,1", "3,fig", "4,kiwi,1.5,extra")] == [
        (2, "pe,ar", None), (None, "bad", 1.0), (3, "fig", None), None]
    semicolons = RowDecoder("csv", names, types, {"csv.field-delimiter": ";"})
    assert tuple(semicolons('1;"a;b";2.5')) == (1, "a;b", 2.5)


def test_json_timestamps_are_read_in_sql_format_beyond_the_columns_precision():
    # seen on PyFlink 1.20.5 (json.ignore-parse-errors, to_data_stream): SQL text reads, its
    # fraction kept to the microsecond for TIMESTAMP(3) and TIMESTAMP(0) alike; ISO's 'T', a
    # 'Z', single-digit fields and an epoch number are NULL
    decode = RowDecoder("json", ["t3", "t0"], ["TIMESTAMP(3)", "TIMESTAMP(0)"],
                        {"json.ignore-parse-errors": "true"})
    read = {text: decode('{"t3": %s, "t0": %s}' % (text, text)) for text in [
        '"2024-01-01 00:00:01"', '"2024-01-01 00:00:01.5"', '"2024-01-01 00:00:01.123456789"',
        '"2024-01-01T00:00:01"', '1704067201000', '"2024-01-01 00:00:01Z"',
        '"2024-1-1 0:0:1"', 'null']}
    second = datetime.datetime(2024, 1, 1, 0, 0, 1)
    assert [tuple(row) for row in read.values()] == [
        (second, second), (second.replace(microsecond=500000),) * 2,
        (second.replace(microsecond=123456),) * 2] + [(None, None)] * 5
    with pytest.raises(ValueError, match="Failed to deserialize JSON"):
        RowDecoder("json", ["t"], ["TIMESTAMP(3)"], {})('{"t": "2024-01-01T00:00:01"}')


def test_timestamps_of_csv_are_not_read_yet():
    with pytest.raises(NotImplementedError, match="TIMESTAMP\\(3\\)"):
        RowDecoder("csv", ["t"], ["TIMESTAMP(3)"], {})("2024-01-01 00:00:01")
