"""CSV writing and reading as Flink's Jackson-based formats do it. The expected strings were
printed by PyFlink 1.20 (CsvRowSerializationSchema.serialize through the Java gateway)."""
import datetime

import pytest

from pyflink_on_spark.common.types import Row
from pyflink_on_spark.codecs.formats.csv import (CsvDialect, CsvRowWriter, parse_value,
                                                  split_line)
from pyflink_on_spark.codecs.formats.fields import Field

STRING = Field("string")


@pytest.mark.parametrize("text, written", [
    ("a b", '"a b"'), ("a.b", "a.b"), ("a-b", "a-b"), ("", ""), (" ", '" "'),
    ("a\tb", '"a\tb"'), ("#x", '"#x"'), ("x#", '"x#"'), ("é", "é"), ("a\rb", '"a\rb"'),
    ("a\x01b", '"a\x01b"'), ("a'b", '"a\'b"'), ("a\\b", '"a\\b"'), ("+", '"+"'),
    ("*", '"*"'), ("!", '"!"'), (",", '","'), ("A", "A"), ("null", "null"), ("a/b", "a/b"),
    ("\u2028", "\u2028"), ("x ", '"x "'), ('al"ice', '"al""ice"'),
])
def test_string_quoting_observed_on_pyflink(text, written):
    assert CsvRowWriter([STRING], CsvDialect()).line(Row(text)) == written + "\n"


ROW_FIELDS = [Field("int"), STRING, Field("double"), Field("boolean"),
              Field("array", element=STRING)]


def test_rows_observed_on_pyflink():
    writer = CsvRowWriter(ROW_FIELDS, CsvDialect())
    assert writer.line(Row(1, 'al"ice', 3.5, True, ["x", "y"])) == '1,"al""ice",3.5,true,x;y\n'
    assert writer.line(Row(None, None, 1e-07, False, [])) == ",,1.0E-7,false,\n"
    assert writer.line(Row(2, "a,b\nc", 1e20, True, ["p;q"])) == '2,"a,b\nc",1.0E20,true,p;q\n'


def test_custom_separators_quote_and_null_literal_observed_on_pyflink():
    dialect = CsvDialect(column_separator=";", quote_char="'", array_separator="|",
                         null_value="NULL")
    writer = CsvRowWriter(ROW_FIELDS, dialect)
    assert writer.line(Row(1, 'al"ice', 3.5, True, ["x", "y"])) == "1;'al\"ice';3.5;true;x|y\n"
    assert writer.line(Row(None, None, 1e-07, False, [])) == "NULL;NULL;1.0E-7;false;\n"
    assert writer.line(Row(2, "a,b\nc", 1e20, True, ["p;q"])) == "2;'a,b\nc';1.0E20;true;'p;q'\n"


def test_dates_times_timestamps_and_bytes_observed_on_pyflink():
    fields = [Field("date"), Field("time"), Field("timestamp"), Field("bytes")]
    line = CsvRowWriter(fields, CsvDialect()).line(Row(
        datetime.date(2024, 1, 2), datetime.time(3, 4, 5),
        datetime.datetime(2024, 1, 2, 3, 4, 5, 123000), b"\x01\x02"))
    assert line == '2024-01-02,03:04:05,"2024-01-02 03:04:05.123",AQI=\n'


def test_disabled_quote_writes_text_as_is():
    assert CsvRowWriter([STRING], CsvDialect(quote_char=None)).line(Row("a b")) == "a b\n"


def test_parse_values_as_flink_csv_converters():
    d = CsvDialect()
    assert parse_value("1", Field("int"), d, "id") == 1
    assert parse_value(" 7 ", Field("long"), d, "id") == 7
    assert parse_value("1e3", Field("double"), d, "x") == 1000.0
    assert parse_value("TRUE", Field("boolean"), d, "b") is True
    assert parse_value("no", Field("boolean"), d, "b") is False
    assert parse_value("", STRING, d, "s") == ""
    assert parse_value("", Field("array", element=STRING), d, "a") == []
    assert parse_value("a;b", Field("array", element=STRING), d, "a") == ["a", "b"]
    assert parse_value("1|2", Field("array", element=Field("int"), separator="|"), d, "a") \
        == [1, 2]
    assert parse_value(None, Field("int"), d, "id") is None


def test_an_empty_number_fails_as_in_flink():
    with pytest.raises(ValueError, match="Fail to deserialize at field: score"):
        parse_value("", Field("double"), CsvDialect(), "score")
    with pytest.raises(ValueError, match="Fail to deserialize at field: id"):
        parse_value("1.5", Field("int"), CsvDialect(), "id")


def test_null_literal_reads_as_none():
    d = CsvDialect(null_value="NULL")
    assert parse_value("NULL", Field("int"), d, "id") is None
    assert parse_value("NULL", STRING, d, "s") is None


def test_split_line_undoes_quotes():
    assert split_line('3,"x,y",1e2,false,', CsvDialect()) == ["3", "x,y", "1e2", "false", ""]
    assert split_line('"q""uote",b', CsvDialect()) == ['q"uote', "b"]
    assert split_line("a|'b|c'", CsvDialect(column_separator="|", quote_char="'")) == \
        ["a", "b|c"]


def test_line_numbers_counted_on_match_counting_from_the_start():
    # line_at counts on from its last answer (counting from the start made reading
    # quadratic); every order of positions must give the plain count's line
    import random
    import re
    from pyflink_on_spark.codecs.formats.csv import CsvDialect, _JacksonCsvDecoder
    text = "a\r\nb\rc\n\r\nd\n\ne\r\n\rf"
    positions = list(range(len(text) + 1))
    for order in (positions, positions[::-1], random.Random(7).sample(positions, len(positions))):
        decoder = _JacksonCsvDecoder(text, CsvDialect())
        for pos in order:
            assert decoder.line_at(pos) == len(re.findall(r"\r\n|\r|\n", text[:pos])) + 1, pos


def test_a_csv_file_read_by_a_task_leaves_in_chunks_of_rows(tmp_path):
    from pyflink_on_spark.codecs.formats import csv as csv_format
    from pyflink_on_spark.codecs.formats.csv import CsvDialect, CsvFileFormat
    from pyflink_on_spark.codecs.formats.fields import Field
    fmt = CsvFileFormat(CsvDialect(), ["id", "name"], [Field("int"), Field("string")])
    n = 2 * csv_format.CSV_CHUNK_ROWS + 5
    # a quoted value over two lines in every row
    content = "".join('%d,"name\n%d"\n' % (i, i) for i in range(n)).encode()
    path = str(tmp_path / "a.csv")
    with open(path, "wb") as f:
        f.write(content)
    chunks = list(fmt.read_file(path))
    assert [len(c) for c in chunks] == [csv_format.CSV_CHUNK_ROWS] * 2 + [5]
    assert [tuple(r) for c in chunks for r in c] == \
        [tuple(r) for r in fmt.decode_file(path, content)]
    assert tuple(chunks[2][-1]) == (n - 1, "name\n%d" % (n - 1))
