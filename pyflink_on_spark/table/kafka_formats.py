"""The value formats of kafka tables (table/kafka_tables.py): a Kafka value -> a Row of the
table's columns (a source), a row -> a Kafka value (an INSERT), as Flink's `json`, `csv` and
`raw` formats read and write them (seen on PyFlink 1.20.5, compat cases kafka/table_*).
Pure Python: the stream's map / the sink's serializer call these in the tasks."""
from __future__ import annotations

import datetime
import functools
import json
import re
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from pyflink_on_spark.common.serialization import SimpleStringSchema

FORMATS = ("json", "csv", "raw")
# the format options with a meaning here, per format (others are refused naming them)
OPTIONS = {
    "json": ("json.ignore-parse-errors", "json.fail-on-missing-field"),
    "csv": ("csv.ignore-parse-errors", "csv.field-delimiter"),
    "raw": (),
}
# Flink types whose values a source decodes, and how (Flink's JsonToRowDataConverters: numbers
# and booleans from their node, or from its text)
_CONVERTERS: Dict[str, Callable[[Any], Any]] = {
    "TINYINT": int, "SMALLINT": int, "INT": int, "BIGINT": int,
    "FLOAT": float, "DOUBLE": float,
    "BOOLEAN": lambda v: v if isinstance(v, bool) else str(v).strip().lower() == "true",
    "STRING": lambda v: v if isinstance(v, str) else json.dumps(v, separators=(",", ":")),
}
_INTEGER_RANGES = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}
_TIMESTAMP_TYPE = re.compile(r"TIMESTAMP\([0-9]\)")


# Flink's json TIMESTAMP text ('json.timestamp-format.standard' SQL, its default): seen on
# PyFlink 1.20.5, '2024-01-01 00:00:01' and '...:01.5' read, a fraction of 9 digits too (kept
# beyond the column's precision: to_data_stream gives its microseconds), while ISO's 'T', a
# trailing 'Z', single-digit fields and a number fail the field
_SQL_TIMESTAMP = re.compile(r"(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?")


def _sql_timestamp(node) -> datetime.datetime:
    m = _SQL_TIMESTAMP.fullmatch(node) if isinstance(node, str) else None
    if m is None:
        raise ValueError("not a SQL timestamp: %r" % (node,))
    fraction = (m.group(7) or "").ljust(6, "0")[:6]
    return datetime.datetime(*[int(g) for g in m.groups()[:6]], int(fraction))


def converter(sql_type: str, fmt: str = "json") -> Callable[[Any], Any]:
    """How a source of format `fmt` converts a value of its text / JSON node to the
    column's type (a column of another type fails when a value is read: the table may be a
    sink only)."""
    if sql_type.startswith(("VARCHAR(", "CHAR(")):
        return _CONVERTERS["STRING"]
    if fmt == "json" and _TIMESTAMP_TYPE.fullmatch(sql_type):
        return _sql_timestamp
    if sql_type in _CONVERTERS:
        return _CONVERTERS[sql_type]
    return functools.partial(_unreadable, sql_type)


def _unreadable(sql_type: str, value):
    raise NotImplementedError("reading a kafka table column of type %s: pyflink_on_spark "
                              "reads TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, BOOLEAN "
                              "and STRING columns (and TIMESTAMP(p) of json) so far"
                              % sql_type)


def _true(options: Dict[str, str], key: str) -> bool:
    return options.get(key, "false").strip().lower() == "true"


def _integer(node, sql_type: str) -> int:
    """A JSON number node as Jackson's asInt / asLong (a fraction truncated), else Java's
    parseInt / parseLong of its text; out of the type's range fails."""
    if isinstance(node, (int, float)) and not isinstance(node, bool):
        value = int(node)
    else:
        value = int(str(node).strip())
    bits = _INTEGER_RANGES[sql_type]
    if not -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
        raise ValueError("For input string: \"%s\"" % (node,))
    return value


class Tombstone:
    """A Kafka record of a null value, as TableValueSchema gives it (a deserializer's None
    would skip the record)."""

    def __eq__(self, other) -> bool:
        return isinstance(other, Tombstone)

    def __hash__(self) -> int:
        return 0


class TableValueSchema(SimpleStringSchema):
    """The kafka table source's value deserializer: SimpleStringSchema's UTF-8 text, a
    Tombstone for a null value (which SimpleStringSchema cannot decode)."""

    def _deserialize(self, message):
        return Tombstone() if message is None else SimpleStringSchema._deserialize(self, message)


def table_value_schema() -> TableValueSchema:
    return TableValueSchema()


class RowDecoder:
    """A Kafka value (text) -> a Row of the table's columns, or None when the format skips
    it (`*.ignore-parse-errors`)."""

    def __init__(self, fmt: str, names: Sequence[str], types: Sequence[str],
                 options: Dict[str, str]) -> None:
        self.fmt = fmt
        self.names = list(names)
        self.types = list(types)
        self.converters = [converter(t, fmt) for t in types]
        self.ignore_errors = _true(options, fmt + ".ignore-parse-errors")
        self.fail_on_missing = _true(options, "json.fail-on-missing-field")
        self.delimiter = options.get("csv.field-delimiter", ",")

    def __call__(self, value: Optional[str]):
        from pyflink_on_spark.common.types import Row
        if value is None or isinstance(value, Tombstone):
            # a tombstone: seen on PyFlink 1.20.5, the raw format gives a row of NULL
            # (compat_tests/cases/kafka/table_upsert.py); json and csv give no row
            if self.fmt == "raw":
                row = Row(None)
                row.set_field_names(self.names)
                return row
            return None
        try:
            fields = self._fields(value)
        except ValueError:
            if self.ignore_errors:
                return None
            raise
        row = Row(*fields)
        row.set_field_names(self.names)
        return row

    def _fields(self, value: str) -> Tuple:
        if self.fmt == "raw":
            return (value,)
        if self.fmt == "csv":
            return self._csv(value)
        return self._json(value)

    def _json(self, value: str) -> Tuple:
        """Seen on PyFlink 1.20.5: text that is no JSON object, a missing field with
        json.fail-on-missing-field, or a bad field fail the row (`Failed to deserialize JSON
        '...'.`); with json.ignore-parse-errors the first is skipped, a bad field NULL."""
        try:
            record = json.loads(value)
        except ValueError:
            record = None
        if not isinstance(record, dict):
            raise ValueError("Failed to deserialize JSON '%s'." % value)
        fields: List = []
        for name, convert, sql_type in zip(self.names, self.converters, self.types):
            if name not in record and self.fail_on_missing:
                raise ValueError("Failed to deserialize JSON '%s'." % value)
            node = record.get(name)
            try:
                fields.append(None if node is None else
                              _integer(node, sql_type) if sql_type in _INTEGER_RANGES
                              else convert(node))
            except (ValueError, TypeError):
                # seen on PyFlink 1.20.5: with json.ignore-parse-errors a bad field is NULL
                if not self.ignore_errors:
                    raise ValueError("Failed to deserialize JSON '%s'." % value) from None
                fields.append(None)
        return tuple(fields)

    def _csv(self, value: str) -> Tuple:
        """Seen on PyFlink 1.20.5: too many fields, or a bad one, or too few fail the row
        (`Failed to deserialize CSV row '...'.`); with csv.ignore-parse-errors a row of too
        many fields is skipped, a bad field is NULL, missing trailing fields NULL."""
        import csv
        failed = "Failed to deserialize CSV row '%s'." % value
        try:
            cells = next(csv.reader([value], delimiter=self.delimiter, quotechar='"',
                                    doublequote=True, strict=True), [])
        except csv.Error:
            raise ValueError(failed) from None
        if len(cells) > len(self.names) or (len(cells) < len(self.names) and
                                            not self.ignore_errors):
            raise ValueError(failed)
        fields: List = []
        for k, (convert, sql_type) in enumerate(zip(self.converters, self.types)):
            if k >= len(cells):
                fields.append(None)
                continue
            try:
                fields.append(_csv_field(cells[k], sql_type, convert))
            except (ValueError, TypeError):
                if not self.ignore_errors:
                    raise ValueError(failed) from None
                fields.append(None)
        return tuple(fields)


def _csv_field(cell: str, sql_type: str, convert):
    if sql_type in _INTEGER_RANGES:
        return _integer(cell, sql_type)
    if sql_type in ("FLOAT", "DOUBLE"):
        return float(cell.strip())     # an empty field fails, as Java's parseDouble
    return convert(cell)


class RowEncoder:
    """A row of the table's columns (a Row, in column order) -> a Kafka value: the json
    format's object (fields in column order, nulls written), the csv format's line (no
    line end), or the raw format's single column (a NULL is a tombstone)."""

    def __init__(self, fmt: str, names: Sequence[str], types: Sequence[str],
                 options: Dict[str, str]) -> None:
        self.fmt = fmt
        self.names = tuple(names)
        self.types = tuple(types)
        self.csv_options = {"sep": options.get("csv.field-delimiter", ",")}

    def __call__(self, row) -> Optional[bytes]:
        from pyflink_on_spark.codecs.table_rows_text import csv_line, json_line
        values = tuple(row)
        if self.fmt == "raw":
            value = values[0]
            if value is None:
                return None
            return value if isinstance(value, (bytes, bytearray)) else str(value).encode()
        if self.fmt == "csv":
            return csv_line(values, self.types, self.csv_options, plain_decimals=True).encode()
        return json_line(values, self.names, self.types).encode()

    # a SerializationSchema of the shim's KafkaSink (datastream/connectors/kafka.py)
    _serialize = __call__
