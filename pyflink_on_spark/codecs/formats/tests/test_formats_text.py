"""Text lines as Flink's TextLineInputFormat reads them (observed on PyFlink 1.20: a file
b"c1\r\nc2\rc3\n\nc5" gave c1, c2, c3, "", c5; .gz/.bz2 files were decompressed)."""
import bz2
import gzip
import lzma
import zlib

import pytest

from pyflink_on_spark.codecs.formats.text import (TextLineFormat, decompress, python_codec,
                                                   split_java_lines)


def test_java_line_terminators_and_kept_empty_and_last_lines():
    assert split_java_lines("c1\r\nc2\rc3\n\nc5") == ["c1", "c2", "c3", "", "c5"]


def test_a_trailing_terminator_adds_no_empty_line():
    assert split_java_lines("a\nb\n") == ["a", "b"]
    assert split_java_lines("a\r\n") == ["a"]
    assert split_java_lines("\n") == [""]
    assert split_java_lines("") == []


def test_unicode_line_separators_are_not_java_line_breaks():
    assert split_java_lines("a\u2028b\x0cc\n") == ["a\u2028b\x0cc"]


def test_decompress_by_extension():
    data = b"x1\nx2\n"
    assert decompress("/d/a.txt.gz", gzip.compress(data)) == data
    assert decompress("/d/a.gzip", gzip.compress(data)) == data
    assert decompress("/d/a.bz2", bz2.compress(data)) == data
    assert decompress("/d/a.xz", lzma.compress(data)) == data
    assert decompress("/d/a.deflate", zlib.compress(data)) == data
    assert decompress("/d/a.txt", data) == data


def test_decode_file_with_charsets():
    assert TextLineFormat("ISO-8859-1").decode_file("/a.txt", "é\nü".encode("latin-1")) == \
        ["é", "ü"]
    assert TextLineFormat("UTF-16").decode_file("/a.txt", "a\r\nb".encode("utf-16")) == \
        ["a", "b"]
    assert TextLineFormat().decode_file("/a.txt.xz", lzma.compress("é\n".encode())) == ["é"]


def test_unknown_charset_fails_like_java():
    with pytest.raises(ValueError, match="UnsupportedCharsetException: NOPE"):
        python_codec("NOPE")


def test_read_text_file_splits_at_newline_only_as_observed():
    # PyFlink 1.20's read_text_file on b"first\r\nsecond\rthird\n\nlast without newline"
    from pyflink_on_spark.codecs.formats.text import split_text_input_format_lines
    assert split_text_input_format_lines("first\r\nsecond\rthird\n\nlast without newline") == \
        ["first", "second\rthird", "", "last without newline"]
    assert split_text_input_format_lines("a\n") == ["a"]


def test_malformed_utf8_becomes_replacement_characters():
    import pyarrow as pa
    column = pa.array([b"ok", b"bad \xff byte"], pa.binary()).view(pa.string())
    batch = pa.RecordBatch.from_arrays([column], names=["value"])
    assert TextLineFormat().decode_batch(batch) == ["ok", "bad \ufffd byte"]
