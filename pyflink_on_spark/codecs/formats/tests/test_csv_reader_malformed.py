"""CsvReaderFormat's reading of malformed CSV, replayed against what Flink's own reader did.

reference/csv_reader_observed.json was written by reference/probe_csv_reader.py on PyFlink
1.20: 600 random inputs over four schemas (quotes, separators, line ends, escapes, comments,
header, null literal, arrays), each with the rows Flink's CsvReaderFormat returned and the
error it raised. The shim must return the same rows when Flink succeeds and fail with the
same message when Flink fails (it fails before emitting anything: a failed job is failed)."""
import json
import os

import pytest

from pyflink_on_spark.codecs.formats.csv import (CsvDialect, CsvReadError, decode_csv_rows,
                                                  read_csv_records)
from pyflink_on_spark.codecs.formats.fields import Field

_OBSERVED = os.path.join(os.path.dirname(__file__), "reference", "csv_reader_observed.json")

STRING = Field("string")
SCHEMAS = {
    "int_string": (["id", "name"], [Field("int"), STRING], CsvDialect()),
    "three_strings_escape_comments": (["a", "b", "c"], [STRING] * 3,
                                      CsvDialect(escape_char="\\", allow_comments=True)),
    "pipe_header_null": (["a", "n"], [STRING, Field("long")],
                         CsvDialect(column_separator="|", use_header=True, null_value="NULL")),
    "no_quote_array": (["a", "xs"], [STRING, Field("array", element=STRING, separator=";")],
                       CsvDialect(quote_char=None)),
}


def _observed():
    with open(_OBSERVED) as f:
        return json.load(f)


def _as_java_text(value):
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list):
        return [_as_java_text(v) for v in value]
    return str(value)


def _innermost_message(errors):
    """The deepest Java cause's message without its class name (first line only)."""
    text = errors[-1]
    head, _, message = text.partition(": ")
    return (message if "." in head and " " not in head else text).split("\n")[0]


@pytest.mark.parametrize("case", _observed(), ids=lambda c: "%s:%r" % (c["schema"], c["input"][:30]))
def test_csv_reader_matches_flink(case):
    names, fields, dialect = SCHEMAS[case["schema"]]
    if case["errors"] is None:
        rows = decode_csv_rows(case["input"], dialect, names, fields, "x.csv")
        assert [[_as_java_text(v) for v in row] for row in rows] == case["rows"]
    else:
        with pytest.raises(CsvReadError) as raised:
            decode_csv_rows(case["input"], dialect, names, fields, "x.csv")
        assert _innermost_message(case["errors"]) in raised.value.reason


def test_the_issue_examples_fail_as_on_pyflink_naming_file_and_line():
    names, fields, dialect = SCHEMAS["int_string"]
    for text, message, line in [
            ("1,a\n4,dave,extra\n", 'Too many entries: expected at most 2 (value #2 (5 chars) '
                                    '"extra")', 2),
            ("1,a\n5\n", "Row length mismatch. 2 fields expected but was 1.", 2),
            ('1,a\n6,"unterminated\n7,zed\n', "Missing closing quote for value", 2)]:
        with pytest.raises(CsvReadError) as raised:
            decode_csv_rows(text, dialect, names, fields, "/data/people.csv")
        assert raised.value.reason == message
        assert "file /data/people.csv, line %d" % line in str(raised.value)


def test_record_lines_count_multi_line_values():
    records = list(read_csv_records('a,"x\ny"\r\nb,c\rd,e', CsvDialect(), 2))
    assert records == [(1, ["a", "x\ny"]), (3, ["b", "c"]), (4, ["d", "e"])]
