"""Rows to and from JSON as Flink's JsonRowSerializationSchema / JsonRowDeserializationSchema
(flink-json, Jackson) do it.

Observed on PyFlink 1.20: compact output (no spaces), fields in the type's order, doubles in
Java notation (1.0E-7), null for None, strings escaped as JSON requires (non-ASCII kept),
SQL_DATE "2024-01-02", SQL_TIME "03:04:05Z", SQL_TIMESTAMP "2024-01-02T03:04:05.123Z", bytes
in base64. Reading coerces like Jackson's asInt/asDouble/asBoolean ("6" -> 6, "1.5e3" ->
1500.0), ignores unknown fields and gives None for missing ones.
"""
from __future__ import annotations

import base64
import datetime
import decimal
import json
from typing import Optional

from pyflink_on_spark.common._java_text import java_double_str, java_float_str
from pyflink_on_spark.codecs.formats.fields import FRACTIONAL, INTEGRAL, Field

_string = json.JSONEncoder(ensure_ascii=False).encode


def _fraction(nanos: int) -> str:
    if not nanos:
        return ""
    return "." + ("%09d" % nanos).rstrip("0")


def render_json(value, field: Field) -> str:
    if value is None:
        return "null"
    kind = field.kind
    if kind == "string":
        return _string(str(value))
    if kind == "boolean":
        return "true" if value else "false"
    if kind in INTEGRAL:
        return str(int(value))
    if kind == "double":
        return java_double_str(float(value))
    if kind == "float":
        return java_float_str(float(value))
    if kind == "decimal":
        return str(decimal.Decimal(value).normalize())
    if kind in ("date", "local_date"):
        return '"%s"' % value.isoformat()
    if kind == "time":
        return '"%02d:%02d:%02d%sZ"' % (value.hour, value.minute, value.second,
                                        _fraction(value.microsecond * 1000))
    if kind == "local_time":
        return '"%s"' % value.isoformat()
    if kind == "timestamp":
        return '"%sT%02d:%02d:%02d%sZ"' % (value.date().isoformat(), value.hour, value.minute,
                                           value.second, _fraction(value.microsecond * 1000))
    if kind == "local_datetime":
        return '"%s"' % value.isoformat()
    if kind == "bytes":
        return '"%s"' % base64.b64encode(bytes(value)).decode("ascii")
    if kind == "array":
        return "[" + ",".join(render_json(v, field.element) for v in value) + "]"
    if kind == "map":
        return "{" + ",".join("%s:%s" % (_string(str(k)), render_json(v, field.element))
                              for k, v in value.items()) + "}"
    if kind == "row":
        values = _row_values(value, field)
        return "{" + ",".join("%s:%s" % (_string(name), render_json(v, f))
                              for name, v, f in zip(field.names, values, field.fields)) + "}"
    raise TypeError("JSON cannot write a %s field" % kind)


def _row_values(value, field: Field):
    from pyflink_on_spark.common.types import Row
    if isinstance(value, Row):
        if hasattr(value, "_fields"):
            return value.get_fields_by_names(list(field.names))
        return value._values
    if isinstance(value, dict):
        return [value.get(n) for n in field.names]
    return list(value)


def serialize_row(value, field: Field) -> bytes:
    return render_json(value, field).encode("utf-8")


# -- reading ---------------------------------------------------------------------------------
# As flink-json's legacy JsonRowDeserializationSchema (Jackson readTree, then per-field
# converters), observed on PyFlink 1.20 (codecs/formats/tests/reference/json_row_observed.json):
# the first JSON value is read and what follows it ignored; NaN, single quotes, trailing
# commas, leading zeros fail; "null" is no record; a non-object fails; integers take a number
# in range (fractions truncated) or parse the node's text (Integer.parseInt(asText().trim()));
# doubles parse the text as Double.parseDouble; booleans are Boolean.parseBoolean(asText()),
# so 1 is false; with ignore_parse_errors a malformed message is skipped and a field that
# does not convert becomes null (the row is kept).

import re

_RANGES = {"byte": 8, "short": 16, "int": 32, "long": 64}
_JAVA_DOUBLE = re.compile(r"[+-]?(NaN|Infinity|((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFdD]?)")
_JAVA_BLANKS = "".join(chr(c) for c in range(33))
_decoder = json.JSONDecoder(parse_constant=lambda name: _reject_constant(name))


def _reject_constant(name):
    raise ValueError("Non-standard token '%s': enable `JsonReadFeature.ALLOW_NON_NUMERIC_"
                     "NUMBERS` to allow" % name)


class JsonFieldError(ValueError):
    """A field's value does not convert to its type (skipped field with ignore_parse_errors)."""


def _java_text(node) -> str:
    """Jackson's JsonNode.asText(): containers give ""."""
    if isinstance(node, bool):
        return "true" if node else "false"
    if isinstance(node, str):
        return node
    if isinstance(node, float):
        return java_double_str(node)
    if isinstance(node, int):
        return str(node)
    return ""


def _to_integral(node, kind: str) -> int:
    bits = _RANGES.get(kind)
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if bits else (None, None)
    if isinstance(node, (int, float)) and not isinstance(node, bool):
        if bits is None:
            return int(node)
        if low <= node <= high:
            return int(node)                       # canConvertToInt/Long: truncates fractions
    text = _java_text(node).strip(_JAVA_BLANKS)
    if re.fullmatch(r"[+-]?\d+", text):
        value = int(text)
        if bits is None or low <= value <= high:
            return value
    raise JsonFieldError('For input string: "%s"' % text)


def _to_fractional(node) -> float:
    if isinstance(node, (int, float)) and not isinstance(node, bool):
        return float(node)
    text = _java_text(node).strip(_JAVA_BLANKS)
    if not text:
        raise JsonFieldError("empty String")
    if not _JAVA_DOUBLE.fullmatch(text):
        raise JsonFieldError('For input string: "%s"' % text)
    return float(text.rstrip("fFdD").replace("Infinity", "inf"))


def convert_json(node, field: Field, fail_on_missing: bool = False,
                 ignore_errors: bool = False):
    """A parsed JSON node -> the Python value of `field`."""
    if node is None:
        return None
    kind = field.kind
    if kind == "string":
        return node if isinstance(node, str) else json.dumps(node, separators=(",", ":"))
    if kind == "boolean":
        if isinstance(node, bool):
            return node
        return _java_text(node).strip(_JAVA_BLANKS).lower() == "true"
    if kind in INTEGRAL:
        return _to_integral(node, kind)
    if kind in FRACTIONAL:
        return _to_fractional(node)
    try:
        if kind == "decimal":
            return decimal.Decimal(str(node))
        if kind in ("date", "local_date"):
            return datetime.date.fromisoformat(node)
        if kind in ("time", "local_time"):
            return datetime.time.fromisoformat(node.rstrip("Z"))
        if kind in ("timestamp", "local_datetime"):
            return datetime.datetime.fromisoformat(node.rstrip("Z"))
        if kind == "bytes":
            return base64.b64decode(node)
    except (ValueError, TypeError, AttributeError, decimal.InvalidOperation) as e:
        raise JsonFieldError(str(e)) from None
    if kind == "array":
        return [convert_json(v, field.element, fail_on_missing, ignore_errors) for v in node]
    if kind == "map":
        return {k: convert_json(v, field.element, fail_on_missing, ignore_errors)
                for k, v in node.items()}
    if kind == "row":
        return json_to_row(node, field, fail_on_missing, ignore_errors)
    raise TypeError("JSON cannot read a %s field" % kind)


def json_to_row(node, field: Field, fail_on_missing: bool = False,
                ignore_errors: bool = False):
    from pyflink_on_spark.common.types import _create_row
    if not isinstance(node, dict):
        raise ValueError("Failed to deserialize JSON object: expected an object, got %r"
                         % (node,))
    values = []
    for name, f in zip(field.names, field.fields):
        if name not in node and fail_on_missing:
            raise ValueError("Could not find field with name '%s'." % name)
        try:
            values.append(convert_json(node.get(name), f, fail_on_missing, ignore_errors))
        except JsonFieldError:
            if not ignore_errors:
                raise
            values.append(None)
    return _create_row(list(field.names), values)


def parse_first_json_value(text: str):
    """The first JSON value of the text (what follows it is ignored, as Jackson's readTree);
    ValueError for empty input or malformed JSON."""
    index = len(text) - len(text.lstrip(" \t\r\n"))
    if index == len(text):
        raise ValueError("No content to map due to end-of-input")
    value, _ = _decoder.raw_decode(text, index)
    return value


def deserialize_row(message: bytes, field: Field, fail_on_missing: bool = False,
                    ignore_parse_errors: bool = False) -> Optional[object]:
    try:
        node = parse_first_json_value(message.decode("utf-8", "replace"))
        if node is None:
            return None
        return json_to_row(node, field, fail_on_missing, ignore_parse_errors)
    except Exception as e:
        if ignore_parse_errors:
            return None
        raise ValueError("Failed to deserialize JSON '%s': %s"
                         % (message.decode("utf-8", "replace"), e)) from None
