"""A table's rows as Flink's table connectors write them (seen on PyFlink 1.20.5): the print
connector's lines (`+I[1, a, 1.0E10, 1.20, 2024-01-02T03:04:05.120]`), and the filesystem
connector's csv and json lines. Pure Python: the Spark tasks of an INSERT call these
(spark/table_connectors.py) and the kafka table formats (table/kafka_formats.py)."""
from __future__ import annotations

import datetime
import json
import math
import struct
from decimal import Decimal
from typing import Dict, Sequence

_KINDS = {0: "+I", 1: "-U", 2: "+U", 3: "-D"}
_INTEGERS = ("TINYINT", "SMALLINT", "INT", "BIGINT")
_TEXT = ("STRING", "VARCHAR(", "CHAR(")
_RAW_IN_CSV = _INTEGERS + ("BOOLEAN", "FLOAT", "DOUBLE")


def check_types(types: Sequence[str], connector: str) -> None:
    """Raises NotImplementedError naming a column type whose text is not Flink's here."""
    for sql_type in types:
        if not (sql_type in _INTEGERS or sql_type in ("BOOLEAN", "FLOAT", "DOUBLE", "DATE")
                or sql_type.startswith(("DECIMAL(", "TIMESTAMP(")) or sql_type == "STRING"
                or sql_type.startswith(_TEXT[1:])
                or (connector == "print" and sql_type.startswith("TIMESTAMP_LTZ("))):
            raise NotImplementedError("a column of type %s in a %s table is not supported by "
                                      "pyflink_on_spark yet" % (sql_type, connector))


def java_double(value: float, single: bool = False) -> str:
    """Java's Double.toString (Float.toString with `single`): 1.0, 1.0E10, 1.0E-5."""
    if value != value:
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    text = repr(value)
    if single:
        rounded = struct.unpack("f", struct.pack("f", value))[0]
        for digits in range(1, 10):
            text = "%.*g" % (digits, rounded)
            if struct.unpack("f", struct.pack("f", float(text)))[0] == rounded:
                break
    number = Decimal(text).normalize()
    sign = "-" if value < 0 else ""
    magnitude = abs(value)
    if 1e-3 <= magnitude < 1e7:
        plain = format(abs(number), "f")
        return sign + (plain if "." in plain else plain + ".0")
    digits = "".join(str(d) for d in number.as_tuple().digits)
    exponent = len(digits) - 1 + number.as_tuple().exponent
    return "%s%s.%sE%d" % (sign, digits[0], digits[1:] or "0", exponent)


def _local_date_time(value: datetime.datetime) -> str:
    """Java's LocalDateTime.toString: seconds and fraction only when not zero, the fraction
    in 3, 6 digits."""
    text = value.strftime("%Y-%m-%dT%H:%M")
    if value.second or value.microsecond:
        text += ":%02d" % value.second
    if value.microsecond:
        text += (".%03d" % (value.microsecond // 1000) if value.microsecond % 1000 == 0
                 else ".%06d" % value.microsecond)
    return text


def _instant(value: datetime.datetime) -> str:
    """Java's Instant.toString (a TIMESTAMP_LTZ in a print line, seen on PyFlink 1.20.5:
    1970-01-01T00:00:05Z): UTC, seconds always, the fraction in 3 or 6 digits when not
    zero, then Z."""
    if value.tzinfo is not None:
        value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    text = value.strftime("%Y-%m-%dT%H:%M:%S")
    if value.microsecond:
        text += (".%03d" % (value.microsecond // 1000) if value.microsecond % 1000 == 0
                 else ".%06d" % value.microsecond)
    return text + "Z"


def _sql_timestamp(value: datetime.datetime) -> str:
    """Flink's SQL timestamp text (csv and json): seconds always, the fraction without
    trailing zeros."""
    text = value.strftime("%Y-%m-%d %H:%M:%S")
    if value.microsecond:
        text += (".%06d" % value.microsecond).rstrip("0")
    return text


def _value(value, sql_type: str, timestamp, decimal) -> str:
    if value is None:
        return None
    if sql_type == "BOOLEAN":
        return "true" if value else "false"
    if sql_type in ("FLOAT", "DOUBLE"):
        return java_double(value, sql_type == "FLOAT")
    if sql_type.startswith("DECIMAL("):
        return decimal(value)
    if sql_type.startswith("TIMESTAMP("):
        return timestamp(value)
    if sql_type == "DATE":
        return value.isoformat()
    return str(value)


def _normalized(value: Decimal) -> str:
    """Flink's csv / json decimal: trailing zeros stripped (1.20 -> 1.2, 100.00 -> 1E+2)."""
    return str(value.normalize()) if value else "0"


def _plain(value: Decimal) -> str:
    """Java's stripTrailingZeros().toPlainString(): 1.20 -> 1.2, 100.00 -> 100."""
    return format(value.normalize(), "f") if value else "0"


def print_line(values: Sequence, types: Sequence[str], kind: int = 0) -> str:
    """The print connector's line of a row: `+I[1, a, null]`."""
    return "%s[%s]" % (_KINDS[kind], ", ".join(
        "null" if v is None else _instant(v) if t.startswith("TIMESTAMP_LTZ(")
        else _value(v, t, _local_date_time, str)
        for v, t in zip(values, types)))


def csv_line(values: Sequence, types: Sequence[str], options: Dict[str, str],
             plain_decimals: bool = False) -> str:
    """The csv format's line of a row (no line end): numbers and booleans as they are, other
    values (text, decimals, dates, timestamps) quoted when they hold a character below
    max(separator, quote) + 1 (with ',': space, '!', '#', '+', a line end...; with ';' digits
    too), a quote inside doubled; null as the null literal (empty). `plain_decimals`:
    decimals without trailing zeros and without an exponent (seen on PyFlink 1.20.5 in a
    kafka csv value: 100.00 is `100`)."""
    separator = options.get("sep", ",")
    quote = options.get("quote", '"')
    null = options.get("nullValue", "")
    safe = max(ord(separator), ord(quote)) + 1
    fields = []
    decimal = _plain if plain_decimals else _normalized
    for value, sql_type in zip(values, types):
        text = _value(value, sql_type, _sql_timestamp, decimal)
        if text is None:
            fields.append(null)
        elif sql_type in _RAW_IN_CSV:
            fields.append(text)
        elif any(ord(c) < safe or c == separator or c == quote for c in text):
            fields.append(quote + text.replace(quote, quote + quote) + quote)
        else:
            fields.append(text)
    return separator.join(fields)


def json_line(values: Sequence, names: Sequence[str], types: Sequence[str]) -> str:
    """The json format's line of a row: fields in column order, nulls written, numbers as
    Java writes them, timestamps in Flink's SQL format."""
    fields = []
    for value, name, sql_type in zip(values, names, types):
        if value is None:
            text = "null"
        elif sql_type in _INTEGERS or sql_type in ("BOOLEAN", "FLOAT", "DOUBLE") or \
                sql_type.startswith("DECIMAL("):
            text = _value(value, sql_type, _sql_timestamp, _normalized)
        else:
            text = json.dumps(_value(value, sql_type, _sql_timestamp, _normalized),
                              ensure_ascii=False)
        fields.append("%s:%s" % (json.dumps(name, ensure_ascii=False), text))
    return "{%s}" % ",".join(fields)
