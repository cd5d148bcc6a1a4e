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
from typing import List, Optional, Sequence

from pyflink_on_spark.common._java_text import (
    java_double_str, java_float_str, java_sql_date_str, java_sql_time_str,
    java_sql_timestamp_str)
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

def parse_java_boolean(text: str) -> bool:
    return text.strip().lower() == "true"


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
    stripped = text.strip()
    try:
        if kind in INTEGRAL:
            if not stripped.lstrip("+-").isdigit():
                raise ValueError('For input string: "%s"' % text)
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
