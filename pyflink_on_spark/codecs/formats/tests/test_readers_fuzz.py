"""Readers fed malformed input (hypothesis): each either returns records or fails with its
format's error, never another exception, and never invents or merges records."""
from hypothesis import given, settings
from hypothesis import strategies as st

from pyflink_on_spark.common.types import Row
from pyflink_on_spark.codecs.formats.csv import (CsvDialect, CsvReadError, CsvRowWriter,
                                                  decode_csv_rows, read_csv_records)
from pyflink_on_spark.codecs.formats.fields import Field
from pyflink_on_spark.codecs.formats.text import (split_java_lines,
                                                   split_text_input_format_lines)

STRING = Field("string")
CSV_ALPHABET = st.sampled_from(list('ab1 ,;"\\#|\r\n\t\x00é'))
csv_text = st.text(CSV_ALPHABET, max_size=60)
dialects = st.builds(CsvDialect, column_separator=st.sampled_from([",", "|", ";"]),
                     quote_char=st.sampled_from(['"', "'", None]),
                     escape_char=st.sampled_from([None, "\\"]),
                     allow_comments=st.booleans(), use_header=st.booleans(),
                     null_value=st.sampled_from(["", "NULL"]))


@settings(max_examples=400, deadline=None)
@given(csv_text, dialects, st.integers(1, 4))
def test_csv_reader_returns_rows_or_fails_with_its_error(text, dialect, width):
    fields = [Field("int")] + [STRING] * (width - 1)
    names = ["c%d" % i for i in range(width)]
    try:
        rows = decode_csv_rows(text, dialect, names, fields, "f.csv")
    except CsvReadError as e:
        assert "f.csv" in str(e) and "line " in str(e)
        return
    assert all(len(row) == width for row in rows)


@settings(max_examples=300, deadline=None)
@given(csv_text.filter(lambda t: '"' not in t and "\\" not in t))
def test_csv_records_without_quotes_or_escapes_are_exactly_the_lines(text):
    """No quote, no escape: one record per line, never two lines merged into one record."""
    records = list(read_csv_records(text, CsvDialect(), 1000))
    assert [values for _, values in records] == [line.split(",")
                                                for line in split_java_lines(text)]


values = st.text(st.sampled_from(list('ab ,"\n\r;#\\é')), max_size=8)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(-5, 5), values, values), min_size=0, max_size=6))
def test_csv_rows_written_by_flinks_writer_read_back_unchanged(rows):
    fields = [Field("int"), STRING, STRING]
    dialect = CsvDialect()
    text = "".join(CsvRowWriter(fields, dialect).line(Row(*row)) for row in rows)
    read = decode_csv_rows(text, dialect, ["i", "s", "t"], fields)
    assert [tuple(r) for r in read] == [(i, s, t) for i, s, t in rows]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.text("ab", max_size=3)), min_size=1,
                max_size=5), st.integers(0, 4), st.sampled_from(["1,a,b", "1", '1,"a', "x,a"]))
def test_one_malformed_record_among_valid_ones_fails_the_file(rows, at, bad):
    lines = ["%d,%s" % row for row in rows]
    lines.insert(min(at, len(lines)), bad)
    text = "\n".join(lines) + "\n"
    try:
        decode_csv_rows(text, CsvDialect(), ["i", "s"], [Field("int"), STRING], "f.csv")
    except CsvReadError as e:
        assert e.line == min(at, len(rows)) + 1
    else:
        raise AssertionError("accepted %r" % text)


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(list("ab\r\n é")), max_size=40))
def test_text_lines_are_never_merged_or_invented(text):
    lines = split_java_lines(text)
    assert "".join(lines) == text.replace("\r", "").replace("\n", "")
    assert not any("\n" in line or "\r" in line for line in lines)
    legacy = split_text_input_format_lines(text)
    assert not any("\n" in line for line in legacy)
    assert len(legacy) == text.count("\n") + (0 if text.endswith("\n") or not text else 1)


AVRO_SCHEMA = {"type": "record", "name": "R", "fields": [
    {"name": "id", "type": "long"}, {"name": "name", "type": "string"},
    {"name": "tags", "type": {"type": "array", "items": "string"}},
    {"name": "kind", "type": {"type": "enum", "name": "K", "symbols": ["A", "B"]}},
    {"name": "score", "type": ["null", "double"]}]}


@settings(max_examples=300, deadline=None)
@given(st.integers(-10**12, 10**12), st.text(max_size=8), st.lists(st.text(max_size=3),
                                                                   max_size=3),
       st.sampled_from(["A", "B"]), st.none() | st.floats(allow_nan=False), st.data())
def test_avro_message_cut_short_or_damaged_fails_never_a_made_up_record(
        id_, name, tags, kind, score, data):
    from pyflink_on_spark.codecs.formats import avro
    schema = avro.parse_schema(AVRO_SCHEMA)
    record = {"id": id_, "name": name, "tags": tags, "kind": kind, "score": score}
    message = avro.serialize(record, schema)
    assert avro.deserialize(message, schema) == record
    cut = data.draw(st.integers(0, len(message) - 1))
    try:
        avro.deserialize(message[:cut], schema)
    except ValueError:
        pass
    else:
        raise AssertionError("a message cut at %d of %d bytes decoded" % (cut, len(message)))
    damaged = bytearray(message)
    damaged[data.draw(st.integers(0, len(message) - 1))] = data.draw(st.integers(0, 255))
    try:
        avro.deserialize(bytes(damaged), schema)
    except ValueError:
        pass
