"""Rows of a `filesystem` table of the `csv` format, read as Flink 1.20's csv format reads
them (CsvFileFormatFactory: Jackson's CsvParser over the whole file, then Flink's
CsvToRowDataConverters). Pure Python: the Spark tasks reading a table's files call it
(spark/table_connectors.py).

Seen on PyFlink 1.20.5 (docs/table.md, "Connector tables"):
* a text value (STRING, VARCHAR(n), CHAR(n)) is the field's text as it is: spaces kept, an
  empty field is '' (not NULL);
* a number, BOOLEAN or TIMESTAMP is read from the text with its leading and trailing blanks
  (characters up to the space, tabs too) stripped: ` 12 ` is 12, `" 12 "` too; a DECIMAL or
  DATE is not (` 1.25` fails); an empty or blank field of these types is an error
  ('For input string: ""'), but BOOLEAN's, false;
* BOOLEAN: true when the text is `true` in any case, false for any other text (`yes`, `1`);
* 'csv.null-literal': a field of exactly that text (unstripped, quoted or not) is NULL;
* a record with fewer fields than the table's columns fails ("Row length mismatch. 3 fields
  expected but was 2."; an empty line is a record of one empty field), one with more fails
  ("Too many entries: expected at most 2 ...");
* 'csv.ignore-parse-errors' = 'true': a value that does not parse is NULL (the row kept), the
  missing fields of a short record are NULL, a record with too many fields is skipped."""
from __future__ import annotations

import datetime
import decimal
import re
from typing import Iterator, List, Optional, Sequence

from pyflink_on_spark.codecs.formats.csv import (_EOF, CsvDialect, CsvReadError,
                                                _JacksonCsvDecoder, java_trim)

_TEXT = re.compile(r"(STRING|VARCHAR\(\d+\)|CHAR\(\d+\))$")
_INTEGERS = {"TINYINT": (-2 ** 7, 2 ** 7 - 1), "SMALLINT": (-2 ** 15, 2 ** 15 - 1),
             "INT": (-2 ** 31, 2 ** 31 - 1), "BIGINT": (-2 ** 63, 2 ** 63 - 1)}
_DECIMAL = re.compile(r"DECIMAL\((\d+), (\d+)\)$")
_TIMESTAMP = re.compile(r"TIMESTAMP\((\d)\)$")
_JAVA_INTEGER = re.compile(r"[+-]?[0-9]+$")
# Double.parseDouble / Float.parseFloat (their text after String.trim())
_JAVA_FLOATING = re.compile(r"[+-]?(NaN|Infinity|(([0-9]+\.?[0-9]*|\.[0-9]+)"
                            r"([eE][+-]?[0-9]+)?)[fFdD]?)$")
_JAVA_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")
# Flink's SQL timestamp text: ISO date, one space, HH:mm:ss, an optional fraction
_SQL_TIMESTAMP = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2}) ([0-9]{2}):([0-9]{2}):([0-9]{2})"
                            r"(\.[0-9]{1,9})?$")
_SQL_DATE = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})$")

TYPES = "BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL, DATE, " \
        "TIMESTAMP(p), STRING, VARCHAR(n), CHAR(n)"


def readable_type(sql_type: str) -> bool:
    """Whether a column of this type is read here (others are refused by name)."""
    return bool(sql_type in ("BOOLEAN", "FLOAT", "DOUBLE", "DATE") or sql_type in _INTEGERS
                or _TEXT.match(sql_type) or _DECIMAL.match(sql_type)
                or _TIMESTAMP.match(sql_type))


class _ParseError(ValueError):
    """A value Flink's converter rejects (its exception's message)."""


def _number_error(text: str) -> _ParseError:
    return _ParseError('java.lang.NumberFormatException: For input string: "%s"' % text)


def _integer(text: str, sql_type: str) -> int:
    if not _JAVA_INTEGER.match(text):
        raise _number_error(text)
    value = int(text)
    low, high = _INTEGERS[sql_type]
    if not low <= value <= high:
        if sql_type in ("TINYINT", "SMALLINT"):
            raise _ParseError('java.lang.NumberFormatException: Value out of range. '
                              'Value:"%s" Radix:10' % text)
        raise _number_error(text)
    return value


def _floating(text: str) -> float:
    if not _JAVA_FLOATING.match(text):
        if text == "":
            raise _ParseError("java.lang.NumberFormatException: empty String")
        raise _number_error(text)
    return float(text.rstrip("fFdD"))


def _decimal(text: str, precision: int, scale: int) -> Optional[decimal.Decimal]:
    """new BigDecimal(text) (no blanks stripped), rounded HALF_UP to the scale; NULL beyond
    the precision (DecimalData.fromBigDecimal)."""
    if not _JAVA_DECIMAL.match(text):
        if text == "":
            raise _ParseError("java.lang.ArrayIndexOutOfBoundsException: Index 0 out of bounds "
                              "for length 0")
        bad = next((c for c in text.lstrip("+-") if not (c.isdigit() or c in ".eE")), None)
        if bad is not None:
            raise _ParseError("java.lang.NumberFormatException: Character %s is neither a "
                              "decimal digit number, decimal point, nor \"e\" notation "
                              "exponential mark." % bad)
        raise _ParseError("java.lang.NumberFormatException: %s" % text)
    value = decimal.Decimal(text).quantize(decimal.Decimal(1).scaleb(-scale),
                                           rounding=decimal.ROUND_HALF_UP)
    if len(value.as_tuple().digits) > precision and value != 0:
        return None
    return value


def _date(text: str) -> datetime.date:
    """java.sql.Date.valueOf(text): yyyy-[m]m-[d]d, no blanks stripped, a day past the
    month's end rolled over (lenient)."""
    match = _SQL_DATE.match(text)
    if match:
        year, month, day = (int(g) for g in match.groups())
        if 1 <= month <= 12 and 1 <= day <= 31:
            return datetime.date(year, month, 1) + datetime.timedelta(days=day - 1)
    raise _ParseError("java.lang.IllegalArgumentException")


_TIMESTAMP_TEMPLATE = "0000-00-00 00:00:00"
_TIMESTAMP_PIECES = [(m.start(), m.group()) for m in re.finditer(r"0+|[^0]", _TIMESTAMP_TEMPLATE)]


def _unparsed(text: str) -> str:
    """Why the text is not Flink's SQL timestamp (yyyy-MM-dd HH:mm:ss[.f...]), in
    DateTimeFormatter's words."""
    for start, piece in _TIMESTAMP_PIECES:   # a number fails at its first digit's index
        part = text[start:start + len(piece)]
        if len(part) < len(piece) or (part != piece if piece[0] != "0"
                                      else not part.isdigit() or not part.isascii()):
            return "could not be parsed at index %d" % start
    end = len(_TIMESTAMP_TEMPLATE)
    fraction = re.match(r"\.[0-9]{1,9}", text[end:])
    if fraction:
        end += fraction.end()
    return "could not be parsed, unparsed text found at index %d" % end


def _timestamp(text: str, precision: int) -> datetime.datetime:
    """Flink's SQL timestamp text (blanks stripped), the fraction cut to the precision."""
    match = _SQL_TIMESTAMP.match(text)
    if match:
        fraction = (match.group(7) or ".")[1:]
        micros = int((fraction + "000000")[:6])
        unit = 10 ** (6 - min(precision, 6))
        try:
            return datetime.datetime(*(int(g) for g in match.groups()[:6]),
                                     micros // unit * unit)
        except ValueError as e:
            raise _ParseError("java.time.format.DateTimeParseException: Text '%s' could not "
                              "be parsed: %s" % (text, e)) from None
    raise _ParseError("java.time.format.DateTimeParseException: Text '%s' %s"
                      % (text, _unparsed(text)))


def convert(text: str, sql_type: str):
    """One field's text -> the column's value as Flink's csv converter reads it, or
    _ParseError with the converter's exception."""
    if _TEXT.match(sql_type):
        return text
    decimal_type = _DECIMAL.match(sql_type)
    if decimal_type:
        return _decimal(text, int(decimal_type.group(1)), int(decimal_type.group(2)))
    if sql_type == "DATE":
        return _date(text)
    text = java_trim(text)
    if sql_type in _INTEGERS:
        return _integer(text, sql_type)
    if sql_type in ("FLOAT", "DOUBLE"):
        return _floating(text)
    if sql_type == "BOOLEAN":
        return text.lower() == "true"
    timestamp = _TIMESTAMP.match(sql_type)
    if timestamp:
        return _timestamp(text, int(timestamp.group(1)))
    raise NotImplementedError("a csv column of type %s (types read: %s)" % (sql_type, TYPES))


def table_csv_rows(text: str, types: Sequence[str], options: dict,
                   source: str = "") -> Iterator[tuple]:
    """The rows of one file's text. `options`: the table's csv.* options (Flink's names:
    field-delimiter, quote-character, disable-quote-character, allow-comments,
    ignore-parse-errors, null-literal, escape-character). Raises CsvReadError naming the file
    and line where Flink fails the job."""
    quote = None if options.get("disable-quote-character", "false").strip().lower() == "true" \
        else options.get("quote-character", '"')
    dialect = CsvDialect(column_separator=options.get("field-delimiter", ","),
                         quote_char=quote, escape_char=options.get("escape-character"),
                         allow_comments=options.get("allow-comments", "false").strip().lower() == "true")
    ignore = options.get("ignore-parse-errors", "false").strip().lower() == "true"
    null = options.get("null-literal")
    width = len(types)
    decoder = _JacksonCsvDecoder(text, dialect)
    decoder.skip_lines_when_needed()
    if not decoder._more():
        return
    first = True
    while True:
        if not first and not decoder.start_new_line():
            return
        first = False
        start = decoder.pos
        try:
            values = _record(decoder, width)
        except CsvReadError as e:
            if not ignore:
                raise CsvReadError(e.reason, decoder.line_at(start), source) from None
            if not _skip_record(decoder):
                return
            first = True
            continue
        if len(values) != width and not ignore:
            raise CsvReadError("Row length mismatch. %d fields expected but was %d."
                               % (width, len(values)), decoder.line_at(start), source)
        row = []
        for i, sql_type in enumerate(types):
            value = values[i] if i < len(values) else None
            if value is None or (null is not None and value == null):
                row.append(None)
                continue
            try:
                row.append(convert(value, sql_type))
            except _ParseError as e:
                if not ignore:
                    raise CsvReadError(str(e), decoder.line_at(start), source) from None
                row.append(None)
        yield tuple(row)


def _record(decoder: _JacksonCsvDecoder, width: int) -> List[str]:
    values: List[str] = []
    while True:
        value = decoder.next_string()
        if value is None:
            return values
        if len(values) >= width:
            if len(values) == width:      # one trailing empty value is allowed
                trimmed = java_trim(value)
                if not trimmed and decoder.next_string() is None:
                    return values
            raise CsvReadError('Too many entries: expected at most %d (value #%d (%d chars) '
                               '"%s")' % (width, len(values), len(value), value))
        values.append(value)


def _skip_record(decoder: _JacksonCsvDecoder) -> bool:
    """Past the rest of a failed record (Jackson's MappingIterator resyncs at its end);
    whether another record follows."""
    if decoder.pending == _EOF:
        return False
    if decoder.pending:
        decoder._handle_lf()
    else:
        decoder._skip_to_line_end()
    return decoder.skip_lines_when_needed()


CHUNK_ROWS = 4096


def table_csv_file_rows(path: str, content: bytes, types: Sequence[str],
                        options: dict) -> Iterator[List[tuple]]:
    """The rows of one file's bytes (decompressed by its name's extension, as Flink's
    StreamFormat, and decoded as UTF-8), in lists of up to CHUNK_ROWS."""
    import itertools
    from pyflink_on_spark.codecs.formats.csv import _csv_text
    if path.startswith("file:"):
        path = "/" + path[len("file:"):].lstrip("/")
    rows = table_csv_rows(_csv_text(path, content), types, options, path)
    while True:
        chunk = list(itertools.islice(rows, CHUNK_ROWS))
        if not chunk:
            return
        yield chunk
