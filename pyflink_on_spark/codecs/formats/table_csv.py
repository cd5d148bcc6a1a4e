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

import csv as pycsv
import datetime
import decimal
import re
from typing import Callable, Iterable, Iterator, List, Optional, Sequence

from pyflink_on_spark.codecs.formats.csv import (_EOF, _JAVA_BLANKS, _LINE_BREAK, CsvDialect,
                                                CsvReadError, _JacksonCsvDecoder, java_trim)

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


_FROM_ISO = datetime.datetime.fromisoformat
_UNITS = [10 ** (6 - min(p, 6)) for p in range(10)]


def _timestamp(text: str, precision: int) -> datetime.datetime:
    """Flink's SQL timestamp text (blanks stripped), the fraction cut to the precision."""
    match = _SQL_TIMESTAMP.match(text)
    if match:
        value = None
        if text[11:13] < "24":    # (a Python that reads hour 24 as the next day's 00)
            try:      # the text matched: Python's ISO reading gives the same, in C
                value = _FROM_ISO(text)
            except ValueError:    # a bad date; older Pythons take 3 or 6 digits only
                pass
        if value is not None:
            unit = _UNITS[precision]
            return value if not value.microsecond % unit else \
                value.replace(microsecond=value.microsecond // unit * unit)
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


def converter(sql_type: str) -> Callable[[str], object]:
    """The function from one field's text to the column's value as Flink's csv converter
    reads it (or _ParseError with the converter's exception), chosen once per column."""
    if _TEXT.match(sql_type):
        return _same
    decimal_type = _DECIMAL.match(sql_type)
    if decimal_type:
        precision, scale = int(decimal_type.group(1)), int(decimal_type.group(2))
        return lambda text: _decimal(text, precision, scale)
    if sql_type == "DATE":
        return _date
    if sql_type in _INTEGERS:
        low, high = _INTEGERS[sql_type]
        integer = _JAVA_INTEGER.match

        def to_integer(text: str) -> int:
            text = text.strip(_JAVA_BLANKS)
            if integer(text):
                value = int(text)
                if low <= value <= high:
                    return value
            return _integer(text, sql_type)      # (its error)
        return to_integer
    if sql_type in ("FLOAT", "DOUBLE"):
        floating = _JAVA_FLOATING.match

        def to_floating(text: str) -> float:
            text = text.strip(_JAVA_BLANKS)
            if floating(text) and text[-1] not in "fFdD":
                return float(text)
            return _floating(text)
        return to_floating
    if sql_type == "BOOLEAN":
        return lambda text: text.strip(_JAVA_BLANKS).lower() == "true"
    timestamp = _TIMESTAMP.match(sql_type)
    if timestamp:
        precision = int(timestamp.group(1))
        return lambda text: _timestamp(text.strip(_JAVA_BLANKS), precision)
    raise NotImplementedError("a csv column of type %s (types read: %s)" % (sql_type, TYPES))


def _same(text: str) -> str:
    return text


# a column of values that all read by the common path, checked at once (one regex over the
# column's stripped values joined by "\n", which no value holds): integers, Java's floating
# texts without a type suffix, SQL timestamps of an hour below 24
_INTEGER_TEXT = r"[+-]?[0-9]+"
_FLOATING_TEXT = r"[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
_TIMESTAMP_TEXT = (r"[0-9]{4}-[0-9]{2}-[0-9]{2} (?:[01][0-9]|2[0-3]):[0-9]{2}:[0-9]{2}"
                   r"(?:\.[0-9]{1,9})?")


def _column_check(text: str):
    return re.compile(r"(?:%s\n)*%s" % (text, text)).fullmatch


_COLUMN_CHECKS = {"integer": _column_check(_INTEGER_TEXT),
                  "floating": _column_check(_FLOATING_TEXT),
                  "timestamp": _column_check(_TIMESTAMP_TEXT)}


def column_converter(sql_type: str) -> Callable[[Sequence[str]], Optional[list]]:
    """The function from a column of field texts to their values as converter(sql_type)
    reads them one by one, or None when a value needs that (an error, an unusual text)."""
    one = converter(sql_type)
    if one is _same:
        return list
    kind = "integer" if sql_type in _INTEGERS else "floating" if sql_type in (
        "FLOAT", "DOUBLE") else "timestamp" if _TIMESTAMP.match(sql_type) else None
    if kind is None:
        return lambda column: list(map(one, column))
    check = _COLUMN_CHECKS[kind]
    if kind == "integer":
        low, high = _INTEGERS[sql_type]

        def read(texts: List[str]) -> Optional[list]:
            values = list(map(int, texts))
            return values if low <= min(values) and max(values) <= high else None
    elif kind == "floating":
        def read(texts: List[str]) -> Optional[list]:
            return list(map(float, texts))
    else:
        unit = _UNITS[int(_TIMESTAMP.match(sql_type).group(1))]

        def read(texts: List[str]) -> Optional[list]:
            try:
                values = list(map(_FROM_ISO, texts))
            except ValueError:        # a bad date (its error), or a fraction an older
                return None           # Python does not read
            if unit > 1 and any(v.microsecond % unit for v in values):
                values = [v.replace(microsecond=v.microsecond // unit * unit) for v in values]
            return values

    def convert_column(column: Sequence[str]) -> Optional[list]:
        texts = [v.strip(_JAVA_BLANKS) for v in column]
        if not texts or not check("\n".join(texts)):
            return None
        return read(texts)
    return convert_column


def convert(text: str, sql_type: str):
    """One field's text -> the column's value as Flink's csv converter reads it, or
    _ParseError with the converter's exception."""
    return converter(sql_type)(text)


def table_csv_rows(text: str, types: Sequence[str], options: dict,
                   source: str = "") -> Iterator[tuple]:
    """The rows of one file's text (table_csv_text_rows of one piece)."""
    return table_csv_text_rows((text,), types, options, source)


def table_csv_text_rows(pieces: Iterable[str], types: Sequence[str], options: dict,
                        source: str = "") -> Iterator[tuple]:
    """The rows of one file's text, given in pieces (table_csv_blocks)."""
    for columns in table_csv_blocks(pieces, types, options, source):
        yield from zip(*columns)


def table_csv_blocks(pieces: Iterable[str], types: Sequence[str], options: dict,
                     source: str = "") -> Iterator[List[list]]:
    """The rows of one file's text, given in pieces (read as they are needed: a task holds
    a piece or two, and a record longer than that, whatever the file's size), in blocks of
    columns (a list of values per column; a block holds the rows of about a piece).
    `options`: the table's csv.* options (Flink's names: field-delimiter, quote-character,
    disable-quote-character, allow-comments, ignore-parse-errors, null-literal,
    escape-character). Raises CsvReadError naming the file and line where Flink fails the
    job.

    The text is read by Jackson's decoder over a window of the text (a whole number of
    records from the last one read on): a record whose reading reached the window's end
    (where the decoder takes the text to end, or looks one character past a value) is read
    again over the window grown by the next piece, so every record is read as over the
    whole text (a quoted value spanning pieces too). A window holding neither the quote nor
    the escape character, comments off, is cut into lines and values by str.split: the
    decoder would cut it the same way (a quote is special only at a value's start); one
    with quotes but no "\r" has its lines read by Python's csv module up to the first line
    that is not one record of plain and whole quoted values (checked by a regex; the
    decoder reads on from there); its
    values are converted a column at a time when every record has the table's width and
    every value converts (else record by record, for Flink's first error or NULLs)."""
    quote = None if options.get("disable-quote-character", "false").strip().lower() == "true" \
        else options.get("quote-character", '"')
    dialect = CsvDialect(column_separator=options.get("field-delimiter", ","),
                         quote_char=quote, escape_char=options.get("escape-character"),
                         allow_comments=options.get("allow-comments", "false").strip().lower() == "true")
    ignore = options.get("ignore-parse-errors", "false").strip().lower() == "true"
    null = options.get("null-literal")
    width = len(types)
    converters = [converter(t) for t in types]
    column_converters = [column_converter(t) for t in types]
    sep = dialect.column_separator
    quote, escape = dialect.quote_char or None, dialect.escape_char or None
    splits = not dialect.allow_comments
    # a line holding the quote character read by the line rules when it is one whole record
    # of plain and quoted values, each quoted value closed right before a separator or the
    # line's end (Python's csv module reads it then as Jackson's decoder does)
    whole_line = whole_lines = None
    if quote and quote != sep:
        q, c = re.escape(quote), re.escape(sep)
        field = "(?:%s[^%s\n]*(?:%s%s[^%s\n]*)*%s|(?:[^%s%s\n][^%s\n]*)?)" % (
            q, q, q, q, q, q, q, c, c)
        line_pattern = "%s(?:%s%s)*" % (field, c, field)
        whole_line = re.compile(line_pattern).fullmatch
        whole_lines = re.compile("(?:%s\n)*%s" % (line_pattern, line_pattern)).fullmatch

    def row(values: List[Optional[str]], line: Callable[[], int]) -> tuple:
        if len(values) != width:
            if not ignore:
                raise CsvReadError("Row length mismatch. %d fields expected but was %d."
                                   % (width, len(values)), line(), source)
            values = values + [None] * (width - len(values))
        out = []
        for value, convert_value in zip(values, converters):
            if value is None or value == null:
                out.append(None)
                continue
            try:
                out.append(convert_value(value))
            except _ParseError as e:
                if not ignore:
                    raise CsvReadError(str(e), line(), source) from None
                out.append(None)
        return tuple(out)

    def columns_of(records: List[List[str]]) -> Optional[List[list]]:
        """The records' values converted a column at a time; None when a record is not of
        the table's width or a value does not convert (read record by record then)."""
        if null is not None or any(len(r) != width for r in records):
            return None
        columns = []
        for read_column, column in zip(column_converters, zip(*records)):
            try:
                values = read_column(column)
            except _ParseError:
                return None
            if values is None:
                return None
            columns.append(values)
        return columns

    pieces = iter(pieces)
    window = ""
    base = 1                  # the line of the window's first character
    final = False             # whether the window holds the text's end
    while True:
        piece = next(pieces, None)
        if piece is None:
            final = True
        elif not piece:
            continue
        else:
            window += piece
        quoted = quote is not None and quote in window
        if splits and not (escape and escape in window) and not (
                quoted and (whole_line is None or "\r" in window)):
            # whole lines: up to the last line break, not a "\r" ending a window a "\n" may
            # continue (the rest waits for the next piece)
            cut = len(window) if final else max(window.rfind("\n"), window.rfind("\r"))
            if cut == len(window) - 1 and window[cut] == "\r" and not final:
                cut = max(window.rfind("\n", 0, cut), window.rfind("\r", 0, cut))
            if cut < 0:
                continue
            text = window[:cut] if final else window[:cut + 1]
            lines = text.split("\n") if "\r" not in text else _LINE_BREAK.split(text)
            if lines[-1] == "":
                lines.pop()       # after the last line break (or an empty text): no record
            rest = None           # where the decoder takes over: a line not read so
            if quoted:
                if not whole_lines("\n".join(lines)):
                    number = next((i for i, line in enumerate(lines)
                                   if quote in line and not whole_line(line)), len(lines))
                    rest = sum(map(len, lines[:number])) + number     # (no "\r")
                    del lines[number:]
                try:
                    records = [r or [""] for r in pycsv.reader(
                        lines, delimiter=sep, quotechar=quote, doublequote=True,
                        quoting=pycsv.QUOTE_MINIMAL, strict=False)]
                except pycsv.Error:       # (a value over its field size limit)
                    records, rest = [], 0
                    del lines[:]
            else:
                records = [text.split(sep) for text in lines]
            columns = columns_of(records)
            if columns is None:
                rows = []
                for number, values in enumerate(records):
                    if len(values) > width:
                        if len(values) != width + 1 or values[width].strip(_JAVA_BLANKS):
                            if not ignore:
                                value = values[width]
                                raise CsvReadError(
                                    'Too many entries: expected at most %d (value #%d (%d '
                                    'chars) "%s")' % (width, width, len(value), value),
                                    base + number, source)
                            continue
                        del values[width]
                    rows.append(row(values, lambda: base + number))
                columns = [list(c) for c in zip(*rows)] if rows else None
            if columns:
                yield columns
            base += len(lines)
            if rest is None:
                if final:
                    return
                window = window[cut + 1:]
                continue
            window = window[rest:]
        decoder = _JacksonCsvDecoder(window, dialect)
        end = len(window)
        reached = not final   # whether reaching the window's end means reading it again
        rows = []
        mark = 0
        while True:
            mark = decoder.pos    # between records
            if not decoder.start_new_line():
                break
            start = decoder.pos
            try:
                values = _record(decoder, width)
            except CsvReadError as e:
                if reached and decoder.pos >= end:
                    break
                if not ignore:
                    raise CsvReadError(e.reason, base - 1 + decoder.line_at(start),
                                       source) from None
                more = _skip_record(decoder)
                if reached and decoder.pos >= end:
                    break
                if not more:
                    mark = end
                    break
                continue
            if reached and decoder.pos >= end:
                break
            rows.append(row(values, lambda: base - 1 + decoder.line_at(start)))
        if rows:
            yield [list(c) for c in zip(*rows)]
        if not reached:
            return
        base += decoder.line_at(mark) - 1
        window = window[mark:]


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


# rows of a file that leave a task together (table_csv_file_columns); the file's text is
# read READ_BYTES at a time (codecs/formats/text.py), so a task's memory is bounded whatever
# the file's size
CHUNK_ROWS = 4096


def table_csv_file_columns(path: str, types: Sequence[str], options: dict,
                           content: Optional[bytes] = None,
                           size: int = 0) -> Iterator[List[list]]:
    """The rows of one file (`path`: local or file:; `content`: its bytes read by someone
    else), decompressed by its name's extension, as Flink's StreamFormat, and decoded as
    UTF-8 (malformed bytes U+FFFD), as lists of column values of up to CHUNK_ROWS rows;
    read `size` bytes at a time (READ_BYTES)."""
    import codecs
    from pyflink_on_spark.codecs.formats.text import READ_BYTES, _byte_blocks
    if path.startswith("file:"):
        path = "/" + path[len("file:"):].lstrip("/")

    def pieces():
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        for block in _byte_blocks(path, size or READ_BYTES, content):
            yield decoder.decode(block)
        yield decoder.decode(b"", final=True)

    for columns in table_csv_blocks(pieces(), types, options, path):
        rows = len(columns[0])
        for start in range(0, rows, CHUNK_ROWS):
            yield columns if rows <= CHUNK_ROWS else \
                [c[start:start + CHUNK_ROWS] for c in columns]


def table_csv_file_rows(path: str, types: Sequence[str], options: dict,
                        content: Optional[bytes] = None,
                        size: int = 0) -> Iterator[List[tuple]]:
    """table_csv_file_columns, as lists of rows."""
    for columns in table_csv_file_columns(path, types, options, content, size):
        yield list(zip(*columns))
