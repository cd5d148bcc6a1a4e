"""CSV as Flink's Jackson-based CSV formats write and read it.

Observed on PyFlink 1.20 (CsvRowSerializationSchema, CsvBulkWriters): a string is quoted
when it contains a character below the "minimum safe character" (one past the largest of
column separator, quote character and line separator: with the defaults every character
below '-', so spaces, '#', '"', ',' and control characters) or a backslash; quotes inside
are doubled; null and the empty string are written as the null literal (default empty);
numbers in Java notation (1.0E-7); arrays joined by the array element separator; each line
ends with the line separator ("\\n").
"""
from __future__ import annotations

import base64
import csv as pycsv
import datetime
import decimal
import io
import itertools
import re
from typing import Iterator, List, Optional, Sequence, Tuple

from pyflink_on_spark.common._java_text import (
    java_double_str, java_float_str, java_sql_date_str, java_sql_time_str,
    java_sql_timestamp_str)
from pyflink_on_spark.codecs.formats.base import FileRecordFormat
from pyflink_on_spark.codecs.formats.fields import FRACTIONAL, INTEGRAL, Field


class CsvDialect:
    """The settings both directions share (Jackson's CsvSchema / Flink's builders)."""

    def __init__(self, column_separator: str = ",", quote_char: Optional[str] = '"',
                 escape_char: Optional[str] = None, array_separator: str = ";",
                 null_value: str = "", line_separator: str = "\n",
                 allow_comments: bool = False, use_header: bool = False,
                 skip_first_data_row: bool = False) -> None:
        self.column_separator = column_separator
        self.quote_char = quote_char
        self.escape_char = escape_char
        self.array_separator = array_separator
        self.null_value = null_value
        self.line_separator = line_separator
        self.allow_comments = allow_comments
        self.use_header = use_header
        self.skip_first_data_row = skip_first_data_row

    def __repr__(self) -> str:
        return "CsvDialect(%r)" % self.__dict__

    # -- writing ------------------------------------------------------------------------------
    def _min_safe(self) -> int:
        chars = [self.column_separator] + list(self.line_separator)
        if self.quote_char:
            chars.append(self.quote_char)
        return max(ord(c) for c in chars) + 1

    def quote(self, text: str) -> str:
        if not text or not self.quote_char:
            return text
        limit = self._min_safe()
        escape = self.escape_char
        if not any(ord(c) < limit or c == "\\" or c == self.quote_char or c == escape
                   for c in text):
            return text
        q = self.quote_char
        body = text.replace(escape, escape + escape) if escape else text
        return q + body.replace(q, q + q) + q


def render_value(value, field: Field, dialect: CsvDialect) -> str:
    """The unquoted text of one value."""
    kind = field.kind
    if kind == "string":
        return str(value)
    if kind == "boolean":
        return "true" if value else "false"
    if kind in INTEGRAL:
        return str(int(value))
    if kind == "double":
        return java_double_str(float(value))
    if kind == "float":
        return java_float_str(float(value))
    if kind == "decimal":
        return str(value)
    if kind in ("date", "local_date"):
        return java_sql_date_str(value)
    if kind in ("time", "local_time"):
        return java_sql_time_str(value)
    if kind == "timestamp":
        return java_sql_timestamp_str(value)
    if kind == "local_datetime":
        return value.isoformat()
    if kind == "bytes":
        return base64.b64encode(bytes(value)).decode("ascii")
    if kind == "array":
        element = field.element
        separator = field.separator if field.separator is not None else dialect.array_separator
        return separator.join(dialect.null_value if v is None
                              else render_value(v, element, dialect) for v in value)
    raise TypeError("CSV cannot write a %s field" % kind)


class CsvRowWriter:
    """Rows -> CSV lines (with the line separator)."""

    def __init__(self, fields: Sequence[Field], dialect: CsvDialect) -> None:
        self.fields = list(fields)
        self.dialect = dialect

    def line(self, row) -> str:
        dialect = self.dialect
        out = []
        for value, field in zip(_values(row), self.fields):
            if value is None:
                out.append(dialect.null_value)
                continue
            text = render_value(value, field, dialect)
            # Jackson writes numbers and booleans as such, everything else as strings
            out.append(text if field.kind in _UNQUOTED else dialect.quote(text))
        return dialect.column_separator.join(out) + dialect.line_separator


_UNQUOTED = INTEGRAL + FRACTIONAL + ("decimal", "boolean")


def _values(row):
    from pyflink_on_spark.common.types import Row
    if isinstance(row, Row):
        return row._values
    return list(row)


# -- reading ---------------------------------------------------------------------------------

_JAVA_BLANKS = "".join(chr(c) for c in range(33))


def java_trim(text: str) -> str:
    """String.trim(): strips characters up to and including the space."""
    return text.strip(_JAVA_BLANKS)


def parse_java_boolean(text: str) -> bool:
    return java_trim(text).lower() == "true"


def parse_value(text: Optional[str], field: Field, dialect: CsvDialect, column: str):
    """One field's text -> the Python value Flink's CSV converters produce."""
    if text is None:
        return None
    if dialect.null_value != "" and text == dialect.null_value:
        return None
    kind = field.kind
    if kind == "string":
        return text
    if kind == "array":
        if text == "":
            return []
        separator = field.separator if field.separator is not None else dialect.array_separator
        parts = text.split(separator) if separator else [text]
        return [parse_value(p, field.element, dialect, column) for p in parts]
    stripped = java_trim(text)
    try:
        if kind in INTEGRAL:
            if not stripped.lstrip("+-").isdigit():
                raise ValueError('For input string: "%s"' % stripped)
            return int(stripped)
        if kind in FRACTIONAL:
            if stripped == "":
                raise ValueError("empty String")
            return float(stripped)
        if kind == "decimal":
            return decimal.Decimal(stripped)
        if kind == "boolean":
            return parse_java_boolean(stripped)
        if kind in ("date", "local_date"):
            return datetime.date.fromisoformat(stripped)
        if kind in ("time", "local_time"):
            return datetime.time.fromisoformat(stripped)
        if kind in ("timestamp", "local_datetime"):
            return datetime.datetime.fromisoformat(stripped.replace(" ", "T"))
        if kind == "bytes":
            return base64.b64decode(stripped)
    except (ValueError, decimal.InvalidOperation) as e:
        raise ValueError("Fail to deserialize at field: %s. %s" % (column, e)) from None
    raise TypeError("CSV cannot read a %s field" % kind)


def split_line(line: str, dialect: CsvDialect) -> List[str]:
    """One CSV record's fields (quotes removed, doubled quotes undone)."""
    reader = pycsv.reader(io.StringIO(line), delimiter=dialect.column_separator,
                          quotechar=dialect.quote_char or '"',
                          quoting=pycsv.QUOTE_MINIMAL if dialect.quote_char
                          else pycsv.QUOTE_NONE,
                          escapechar=dialect.escape_char, doublequote=True, strict=False)
    rows = list(reader)
    return rows[0] if rows else []


# -- reading files as Flink's CsvReaderFormat (Jackson's CsvParser) does ---------------------

class CsvReadError(ValueError):
    """A record Flink's CSV reader rejects. `line` is the 1-based line the record starts on."""

    def __init__(self, message: str, line: int = 0, source: str = "") -> None:
        self.reason = message
        self.line = line
        self.source = source
        where = []
        if source:
            where.append("file %s" % source)
        if line:
            where.append("line %d" % line)
        super().__init__(message + (" (%s)" % ", ".join(where) if where else ""))


_EOF = -1
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class _JacksonCsvDecoder:
    """Jackson's CsvDecoder (jackson-dataformat-csv 2.x, as shaded in Flink 1.20) over a whole
    text: values are split at the column separator, records at "\n", "\r" or "\r\n"; a value
    is quoted only when its first character is the quote character; a quote inside an
    unquoted value is an ordinary character; after a closing quote only spaces may come
    before the separator or line end; the escape character works inside and outside quotes
    (\0 \n \r \t translated); an unclosed quote fails at the end of the input."""

    def __init__(self, text: str, dialect: CsvDialect) -> None:
        self.text = text
        self.pos = 0
        self._line_count = (0, 1)     # (position, its line): line_at counts on from it
        self.pending = 0              # 0, the CR/LF ending the last value, or _EOF (closed)
        self.sep = dialect.column_separator
        self.quote = dialect.quote_char or None
        self.escape = dialect.escape_char or None
        self.allow_comments = dialect.allow_comments
        specials = [self.sep, "\r", "\n"] + ([self.escape] if self.escape else [])
        self._unquoted_end = re.compile("[%s]" % "".join(re.escape(c) for c in specials))
        if self.quote:
            inner = [self.quote] + ([self.escape] if self.escape else [])
            self._quoted_stop = re.compile("[%s]" % "".join(re.escape(c) for c in inner))

    # input ---------------------------------------------------------------------------------
    def _more(self) -> bool:
        if self.pos < len(self.text):
            return True
        self.pending = _EOF           # Jackson closes its input when it sees the end
        return False

    def line_at(self, pos: int) -> int:
        """The 1-based line of position `pos`. Records are asked for in increasing position,
        so lines are counted on from the last answer (counting from the start each time made
        reading a file quadratic: 20,000 rows took 48 s)."""
        counted, lines = self._line_count
        if pos < counted:
            counted, lines = 0, 1
        start = counted
        if start and self.text[start - 1] == "\r" and self.text[start:start + 1] == "\n":
            start += 1            # the \n of a \r\n already counted
        lines += len(_LINE_BREAK.findall(self.text, start, pos)) if pos > start else 0
        self._line_count = (pos, lines)
        return lines

    def _handle_lf(self) -> None:
        if self.pending == "\r" and self._more() and self.text[self.pos] == "\n":
            self.pos += 1
        self.pending = 0

    # records -------------------------------------------------------------------------------
    def start_new_line(self) -> bool:
        if self.pending:
            if self.pending == _EOF:
                return False
            self._handle_lf()
        return self.skip_lines_when_needed()

    def skip_lines_when_needed(self) -> bool:
        if not self.allow_comments:
            return self._more()
        text = self.text
        while self._more():
            ch = text[self.pos]
            if ch == "#":
                self.pos += 1
                self._skip_to_line_end()
            elif ch in "\r\n":
                self.pos += 1
                self.pending = ch
                self._handle_lf()
            elif ch == " ":
                self.pos += 1
            else:
                return True
        return False

    def _skip_to_line_end(self) -> bool:
        while self._more():
            ch = self.text[self.pos]
            self.pos += 1
            if ch in "\r\n":
                self.pending = ch
                self._handle_lf()
                return True
        return False

    def skip_line(self) -> None:
        if self.pending:
            if self.pending == _EOF:
                return
            self._handle_lf()
        self._skip_to_line_end()

    # values --------------------------------------------------------------------------------
    def next_string(self) -> Optional[str]:
        """The next value of the record, or None at the end of the record."""
        if self.pending:
            if self.pending != _EOF:
                self._handle_lf()
            return None
        if not self._more():
            return ""                 # end of input right after a separator: empty value
        text = self.text
        ch = text[self.pos]
        self.pos += 1
        if ch in "\r\n":
            self.pending = ch
            return ""
        if ch == self.quote:
            return self._quoted()
        if ch == self.sep:
            return ""
        if ch == self.escape:
            out = [self._unescape()]
        else:
            self.pos -= 1
            out = []
        return self._unquoted(out)

    def _unquoted(self, out: List[str]) -> str:
        text = self.text
        while True:
            match = self._unquoted_end.search(text, self.pos)
            if match is None:
                out.append(text[self.pos:])
                self.pos = len(text)
                self.pending = _EOF
                return "".join(out)
            out.append(text[self.pos:match.start()])
            ch = match.group()
            self.pos = match.end()
            if ch == self.sep:
                return "".join(out)
            if ch in "\r\n":
                self.pending = ch
                return "".join(out)
            out.append(self._unescape())

    def _unescape(self) -> str:
        if not self._more():
            raise CsvReadError("Unexpected EOF in escaped character")
        ch = self.text[self.pos]
        self.pos += 1
        return {"0": "\0", "n": "\n", "r": "\r", "t": "\t"}.get(ch, ch)

    def _quoted(self) -> str:
        text = self.text
        out = []
        while True:
            match = self._quoted_stop.search(text, self.pos)
            if match is None:
                self.pos = len(text)
                raise CsvReadError("Missing closing quote for value")
            out.append(text[self.pos:match.start()])
            self.pos = match.end()
            if match.group() == self.quote:
                if self.pos < len(text) and text[self.pos] == self.quote:
                    out.append(self.quote)      # doubled quote
                    self.pos += 1
                    continue
                break
            out.append(self._unescape())
        while self._more():
            ch = text[self.pos]
            self.pos += 1
            if ch == self.sep:
                break
            if ch <= " ":
                if ch in "\r\n":
                    self.pending = ch
                    break
                continue
            raise CsvReadError("Unexpected character (%s): Expected column separator "
                               "character (%s) or end-of-line"
                               % (_char_desc(ch), _char_desc(self.sep)))
        return "".join(out)


def _char_desc(ch: str) -> str:
    """Jackson's ParserMinimalBase._getCharDesc."""
    code = ord(ch)
    if ch.isprintable() and code >= 32:
        return "'%s' (code %d)" % (ch, code)
    return "(CTRL-CHAR, code %d)" % code


def read_csv_records(text: str, dialect: CsvDialect, width: int,
                     source: str = "") -> Iterator[Tuple[int, List[str]]]:
    """(line, values) of each record as Jackson's CsvParser reads an object per record with a
    schema of `width` columns: the header line and the first data row are skipped when the
    schema says so; a record with more values fails ("Too many entries", one trailing empty
    value allowed: ALLOW_TRAILING_COMMA); a shorter record is returned as is (Flink's
    converter rejects it). Raises CsvReadError naming the source and line."""
    decoder = _JacksonCsvDecoder(text, dialect)
    start = 0
    try:
        decoder.skip_lines_when_needed()
        if dialect.use_header:
            start = decoder.pos
            while decoder.next_string() is not None:
                pass
            decoder.skip_lines_when_needed()
        if dialect.skip_first_data_row:
            decoder.skip_line()
            decoder.skip_lines_when_needed()
        if not decoder._more():
            return
        first = True
        while True:
            if not first and not decoder.start_new_line():
                return
            first = False
            start = decoder.pos
            values: List[str] = []
            while True:
                value = decoder.next_string()
                if value is None:
                    break
                if len(values) >= width:
                    if len(values) == width:      # one trailing empty value is allowed
                        value = java_trim(value)
                        if not value and decoder.next_string() is None:
                            break
                    raise CsvReadError('Too many entries: expected at most %d (value #%d '
                                       '(%d chars) "%s")' % (width, len(values), len(value),
                                                             value))
                values.append(value)
            yield decoder.line_at(start), values
    except CsvReadError as e:
        if e.line or e.source:
            raise
        raise CsvReadError(e.reason, decoder.line_at(start), source) from None


def csv_rows(text: str, dialect: CsvDialect, names: Sequence[str], fields: Sequence[Field],
             source: str = "") -> Iterator:
    """A CSV file's text -> Rows as Flink's CsvReaderFormat produces them, one at a time
    (fails where it fails: malformed quoting, too many or too few values, unparsable
    values)."""
    from pyflink_on_spark.common.types import _create_row
    names = list(names)
    width = len(fields)
    for line, values in read_csv_records(text, dialect, width, source):
        if len(values) != width:
            raise CsvReadError("Row length mismatch. %d fields expected but was %d."
                               % (width, len(values)), line, source)
        try:
            row = _create_row(names, [parse_value(v, f, dialect, n)
                                      for v, f, n in zip(values, fields, names)])
        except ValueError as e:
            raise CsvReadError(str(e), line, source) from None
        yield row


def decode_csv_rows(text: str, dialect: CsvDialect, names: Sequence[str],
                    fields: Sequence[Field], source: str = "") -> list:
    """csv_rows, all of them."""
    return list(csv_rows(text, dialect, names, fields, source))


def _csv_text(path: str, content: bytes) -> str:
    """A CSV file's text: its bytes decompressed by extension as Flink's StreamFormat does,
    decoded as UTF-8."""
    from pyflink_on_spark.codecs.formats.text import decompress
    return decompress(path, content).decode("utf-8", errors="replace")


def decode_csv_file(path: str, content: bytes, dialect: CsvDialect, names: Sequence[str],
                    fields: Sequence[Field]) -> list:
    """A whole CSV file's bytes -> its Rows, or CsvReadError naming the file and line."""
    return decode_csv_rows(_csv_text(path, content), dialect, names, fields, path)


# Rows of a CSV file a task reads that leave together (read_content): the file's text is
# held whole (a quoted value may span lines), its Rows, several times its size, are not
CSV_CHUNK_ROWS = 4096


class CsvFileFormat(FileRecordFormat):
    """CsvReaderFormat's decoder: a file is decoded whole, as Jackson's CsvParser reads it
    (decode_csv_file: its quoting and its errors); a reader that hands every column as a
    string may use decode_batch, which converts the values as Flink's CSV converters do
    (e.g. an empty number fails, an empty array is [])."""

    def __init__(self, dialect: CsvDialect, names: Sequence[str], fields: Sequence[Field],
                 produced_type=None) -> None:
        self.dialect = dialect
        self.names = list(names)
        self.fields = list(fields)
        self.produced_type = produced_type

    def decode_file(self, path: str, content: bytes) -> list:
        return decode_csv_file(path, content, self.dialect, self.names, self.fields)

    def read_content(self, path: str, content: bytes) -> Iterator[list]:
        text = _csv_text(path, content)
        del content                   # (the caller keeps no other reference to it)
        rows = csv_rows(text, self.dialect, self.names, self.fields, path)
        while True:
            chunk = list(itertools.islice(rows, CSV_CHUNK_ROWS))
            if not chunk:
                return
            yield chunk

    def decode_batch(self, batch) -> list:
        from pyflink_on_spark.common.types import _create_row
        columns = [batch.column(i).to_pylist() for i in range(batch.num_columns)]
        names, fields, dialect = self.names, self.fields, self.dialect
        rows = []
        for values in zip(*columns):
            # a reader may give null for an unquoted empty field (Spark's); Jackson gives ""
            rows.append(_create_row(names, [parse_value("" if v is None else v, f, dialect, n)
                                            for v, f, n in zip(values, fields, names)]))
        return rows

    def __repr__(self) -> str:
        return "CsvReaderFormat(%s)" % ", ".join(self.names)
