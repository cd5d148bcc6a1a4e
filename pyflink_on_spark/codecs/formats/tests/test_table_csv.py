"""A filesystem table's csv values read as Flink's csv format reads them: every expectation
here was seen on PyFlink 1.20.5 (a table of these columns over a file of these lines,
execute().collect())."""
import datetime
from decimal import Decimal

import pytest

from pyflink_on_spark.codecs.formats.csv import CsvReadError
from pyflink_on_spark.codecs.formats.table_csv import (readable_type, table_csv_file_rows,
                                                       table_csv_rows, table_csv_text_rows)


def rows(text, types, **options):
    return list(table_csv_rows(text, types, {k.replace("_", "-"): v
                                             for k, v in options.items()}, "f.csv"))


def value(text, sql_type):
    return rows("a,%s\n" % text, ("STRING", sql_type))[0][1]


def test_the_tutorial_file_numbers_and_timestamps_after_spaces_an_empty_text_is_empty():
    # cc3213252/pyflink-learn src/operations/source.txt
    text = ("yu, 12, 32, 2022-07-01 10:00:00\nkite, 54, 23, 2022-07-01 10:02:00\n"
            "mike, 23, 12, 2022-07-01 10:03:00\n, 12, 43, 2022-07-01 11:00:00")
    got = rows(text, ("STRING", "BIGINT", "BIGINT", "TIMESTAMP(3)"))
    assert got[0] == ("yu", 12, 32, datetime.datetime(2022, 7, 1, 10, 0))
    assert got[3] == ("", 12, 43, datetime.datetime(2022, 7, 1, 11, 0))


@pytest.mark.parametrize("sql_type,text,expected", [
    ("INT", "12", 12), ("BIGINT", " 12", 12), ("TINYINT", "12 ", 12),
    ("SMALLINT", "  12  ", 12), ("INT", '" 12 "', 12), ("BIGINT", "\t12", 12),
    ("INT", "+12", 12),
    ("DOUBLE", " 1.5 ", 1.5), ("FLOAT", '" 1.5 "', 1.5), ("DOUBLE", "1e3", 1000.0),
    ("BOOLEAN", " true ", True), ("BOOLEAN", '" true "', True), ("BOOLEAN", "TRUE", True),
    ("BOOLEAN", "yes", False), ("BOOLEAN", "1", False), ("BOOLEAN", "", False),
    ("DECIMAL(10, 2)", "1.25", Decimal("1.25")), ("DECIMAL(10, 2)", "1.256", Decimal("1.26")),
    ("DECIMAL(10, 2)", "1e2", Decimal("100.00")), ("DECIMAL(3, 1)", "12345.5", None),
    ("DATE", "2022-07-01", datetime.date(2022, 7, 1)),
    ("TIMESTAMP(3)", "  2022-07-01 10:00:00  ", datetime.datetime(2022, 7, 1, 10)),
    ("TIMESTAMP(3)", "2022-07-01 10:00:00.123456",
     datetime.datetime(2022, 7, 1, 10, 0, 0, 123000)),
    ("STRING", " ab ", " ab "), ("STRING", "\tab", "\tab"), ("VARCHAR(5)", '" ab "', " ab "),
    ("VARCHAR(5)", "", ""), ("VARCHAR(5)", " ", " "), ("VARCHAR(2)", "abcdef", "abcdef"),
    ("DATE", "2022-7-1", datetime.date(2022, 7, 1)), ("DOUBLE", "Infinity", float("inf")),
    ("DOUBLE", "1.5d", 1.5),
])
def test_values(sql_type, text, expected):
    got = value(text, sql_type)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize("sql_type,text,error", [
    ("INT", "", 'For input string: ""'), ("BIGINT", " ", 'For input string: ""'),
    ("INT", "3000000000", 'For input string: "3000000000"'),
    ("TINYINT", "300", 'Value out of range. Value:"300" Radix:10'),
    ("DOUBLE", "", "empty String"), ("FLOAT", " ", "empty String"),
    ("DECIMAL(10, 2)", " 1.25", "Character   is neither a decimal digit number"),
    ("DECIMAL(10, 2)", '" 1.25 "', "Character   is neither a decimal digit number"),
    ("DECIMAL(10, 2)", "", "Index 0 out of bounds for length 0"),
    ("DATE", " 2022-07-01", "IllegalArgumentException"), ("DATE", "", "IllegalArgument"),
    ("TIMESTAMP(3)", "", "Text '' could not be parsed at index 0"),
    ("TIMESTAMP(3)", "2022-07-01T10:00:00", "could not be parsed at index 10"),
    ("TIMESTAMP(3)", "2022-07-01", "Text '2022-07-01' could not be parsed at index 10"),
    ("TIMESTAMP(3)", "2022-07-01 10:00", "could not be parsed at index 16"),
    ("TIMESTAMP(3)", "2022-7-1 10:00:00", "could not be parsed at index 5"),
])
def test_values_flink_fails_on(sql_type, text, error):
    with pytest.raises(CsvReadError, match="^.*%s.*\\(file f.csv, line 1\\)$"
                       % error.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        value(text, sql_type)


def test_records_of_the_wrong_length_fail():
    with pytest.raises(CsvReadError, match=r"Row length mismatch\. 3 fields expected but "
                                           r"was 2\. \(file f.csv, line 1\)"):
        rows("x,1\n", ("STRING", "BIGINT", "STRING"))
    with pytest.raises(CsvReadError, match=r'Too many entries: expected at most 2 \(value #2 '
                                           r'\(5 chars\) "extra"\) \(file f.csv, line 2\)'):
        rows("y,2\nx,1,extra\n", ("STRING", "BIGINT"))
    with pytest.raises(CsvReadError, match="Row length mismatch. 2 fields expected but was 1"):
        rows("x,1\n\ny,2\n", ("STRING", "BIGINT"))     # an empty line: one empty field
    assert rows("x\n\ny\n", ("STRING",)) == [("x",), ("",), ("y",)]


def test_ignore_parse_errors():
    types = ("STRING", "BIGINT")
    assert rows("x,1\ny,zz\nz,3\n", types, ignore_parse_errors="true") == [
        ("x", 1), ("y", None), ("z", 3)]
    assert rows("x,1\ny,2,q\n", ("STRING", "BIGINT", "STRING"),
                ignore_parse_errors="true") == [("x", 1, None), ("y", 2, "q")]
    assert rows("x,1,e\ny,2\n", types, ignore_parse_errors="true") == [("y", 2)]
    assert rows("x,1\n\ny,2\n", types, ignore_parse_errors="true") == [
        ("x", 1), ("", None), ("y", 2)]
    assert rows("x,nope\n", ("STRING", "TIMESTAMP(3)"), ignore_parse_errors="true") == [
        ("x", None)]


def test_null_literal_matches_the_whole_unstripped_text_of_any_type():
    assert rows("NULL,x\n NULL ,y\nnull,z\n,w\n\"NULL\",v\n", ("STRING", "STRING"),
                null_literal="NULL") == [(None, "x"), (" NULL ", "y"), ("null", "z"),
                                         ("", "w"), (None, "v")]
    for sql_type in ("BIGINT", "INT", "DOUBLE", "DATE", "TIMESTAMP(3)", "BOOLEAN",
                     "DECIMAL(10, 2)"):
        assert rows("x,NULL\n", ("STRING", sql_type), null_literal="NULL") == [("x", None)]
    with pytest.raises(CsvReadError, match='For input string: "NULL"'):
        rows("x, NULL \n", ("STRING", "BIGINT"), null_literal="NULL")
    with pytest.raises(CsvReadError, match='For input string: ""'):
        rows("x,\n", ("STRING", "BIGINT"), null_literal="NULL")


def test_comments_delimiters_and_quotes():
    types = ("STRING", "BIGINT")
    assert rows("x,1\n  # indented\n\n#c\ny,2\n", types, allow_comments="true") == [
        ("x", 1), ("y", 2)]
    assert rows("x,1 # tail\n", ("STRING", "STRING"), allow_comments="true") == [
        ("x", "1 # tail")]
    assert rows("# hi,1\nx,1\n", types) == [("# hi", 1), ("x", 1)]
    assert rows(" x ; 1 ; 2.5 \n", ("STRING", "BIGINT", "DOUBLE"), field_delimiter=";") == [
        (" x ", 1, 2.5)]
    assert rows('" a b ",  "c"  \n', ("STRING", "STRING")) == [(" a b ", '  "c"  ')]
    assert rows('"a" ,1\n"a""b",1\na"b,1\n', types) == [("a", 1), ('a"b', 1), ('a"b', 1)]
    assert rows("'a,b',1\n", types, quote_character="'") == [("a,b", 1)]
    assert rows('"x",1\n', types, disable_quote_character="true") == [('"x"', 1)]
    assert rows("x\\,y,1\n", types, escape_character="\\") == [("x,y", 1)]
    assert rows("x,1\r\ny,2", types) == [("x", 1), ("y", 2)]
    assert rows('"a\nb",1\n', types) == [("a\nb", 1)]      # a quoted value spans lines
    with pytest.raises(CsvReadError, match=r"Unexpected character \('b' \(code 98\)\): "
                                           r"Expected column separator character"):
        rows('"a"b,1\n', types)
    with pytest.raises(CsvReadError, match="Missing closing quote for value"):
        rows('"ab,1\n', types)


def test_files_are_decompressed_by_name_and_named_by_path():
    import gzip
    content = gzip.compress(b"x,1\ny,zz\n")
    with pytest.raises(CsvReadError, match=r"\(file /tmp/t/a.csv.gz, line 2\)"):
        list(table_csv_file_rows("file:/tmp/t/a.csv.gz", ("STRING", "INT"), {}, content))


def _read(pieces, types, options):
    try:
        return list(table_csv_text_rows(pieces, types, options, "f.csv"))
    except CsvReadError as e:
        return str(e)


@pytest.mark.parametrize("text, types, options", [
    ('x,1\n"a\nb ""q""\r\nc",2\r\ny,3\rz,4', ("STRING", "BIGINT"), {}),
    ('x,1\n  # c\n\n#d\ny,2\n', ("STRING", "BIGINT"), {"allow-comments": "true"}),
    ("x\\,y,1\nz\\\n,2\n", ("STRING", "BIGINT"), {"escape-character": "\\"}),
    ('x,1\ny,zz,3\n"q\n,5\nw,6\n', ("STRING", "BIGINT"), {"ignore-parse-errors": "true"}),
    ('x,1\ny,2,\nz,3, \n', ("STRING", "BIGINT"), {}),
    ('x,1\ny,2\n\n', ("STRING", "BIGINT"), {}),                  # fails on line 3
    ('x,1\n"y\n\n",2\nz,3,4\n', ("STRING", "BIGINT"), {}),      # fails on line 5
    ('x,1\n"y,2\n', ("STRING", "BIGINT"), {}),                     # an unclosed quote
    ('x,1\ny,2"\n"z"  ,3', ("STRING", "BIGINT"), {}),
    ('"a,b",1\n"c""d",""\nx"y,"3"\n"",4\n', ("STRING", "STRING"), {}),
])
def test_a_text_read_in_pieces_reads_as_whole(text, types, options):
    """A task reads a file a piece at a time: a record cut anywhere (a quoted value spanning
    lines, a "\r\n", an escape, a comment) reads as in the whole text, errors and their
    lines too."""
    whole = _read([text], types, options)
    for cut in range(len(text) + 1):
        assert _read([text[:cut], "", text[cut:]], types, options) == whole, cut
    assert _read(list(text), types, options) == whole


def test_a_file_is_read_a_piece_at_a_time(tmp_path):
    import gzip
    lines = ['%d,"v %d\nnext ""line""",%d.5' % (i, i, i) for i in range(300)]
    text = "\n".join(lines) + "\n" + "\u00e9" * 5 + ",1,2\n"   # two-byte characters
    expected = [(i, "v %d\nnext \"line\"" % i, i + 0.5) for i in range(300)] + [
        ("\u00e9" * 5, "1", 2.0)]
    (tmp_path / "a.csv").write_text(text, encoding="utf-8")
    (tmp_path / "b.csv.gz").write_bytes(gzip.compress(text.encode("utf-8")))
    types = ("STRING", "STRING", "DOUBLE")
    for name in ("a.csv", "b.csv.gz"):
        for size in (1, 7, 64, 1 << 20):
            chunks = list(table_csv_file_rows("file:" + str(tmp_path / name), types, {},
                                              size=size))
            got = [(int(r[0]) if r[0].isdigit() else r[0],) + r[1:] for c in chunks for r in c]
            assert got == expected, (name, size)
    (tmp_path / "c.csv").write_text(text + "x,1\n", encoding="utf-8")
    with pytest.raises(CsvReadError, match=r"Row length mismatch.*\(file .*c\.csv, line 602\)"):
        list(table_csv_file_rows(str(tmp_path / "c.csv"), types, {}, size=5))


def test_a_file_leaves_in_lists_of_bounded_length(tmp_path):
    from pyflink_on_spark.codecs.formats.table_csv import CHUNK_ROWS
    (tmp_path / "a.csv").write_text("".join("%d\n" % i for i in range(CHUNK_ROWS * 2 + 3)))
    chunks = list(table_csv_file_rows(str(tmp_path / "a.csv"), ("BIGINT",), {}))
    assert [len(c) for c in chunks] == [CHUNK_ROWS, CHUNK_ROWS, 3]
    assert [r[0] for c in chunks for r in c] == list(range(CHUNK_ROWS * 2 + 3))


def test_types_read():
    assert all(readable_type(t) for t in ("STRING", "VARCHAR(3)", "CHAR(2)", "DECIMAL(5, 2)",
                                          "TIMESTAMP(3)", "DATE", "BOOLEAN", "TINYINT"))
    assert not any(readable_type(t) for t in ("TIMESTAMP_LTZ(3)", "ARRAY<INT>", "BYTES",
                                              "TIME(0)"))
