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

def _as_number(node, cast, default):
    if isinstance(node, bool):
        return cast(1 if node else 0)
    if isinstance(node, (int, float)):
        return cast(node)
    if isinstance(node, str):
        try:
            return cast(float(node.strip())) if cast is not float else float(node.strip())
        except ValueError:
            return default
    return default


def convert_json(node, field: Field, fail_on_missing: bool = False):
    """A parsed JSON node -> the Python value of `field`."""
    if node is None:
        return None
    kind = field.kind
    if kind == "string":
        return node if isinstance(node, str) else json.dumps(node, separators=(",", ":"))
    if kind == "boolean":
        if isinstance(node, str):
            return node.strip().lower() == "true"
        return bool(node) if isinstance(node, bool) else False
    if kind in INTEGRAL:
        if isinstance(node, str) and node.strip().lstrip("+-").isdigit():
            return int(node.strip())
        return _as_number(node, int, 0)
    if kind in FRACTIONAL:
        return _as_number(node, float, 0.0)
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
    if kind == "array":
        return [convert_json(v, field.element, fail_on_missing) for v in node]
    if kind == "map":
        return {k: convert_json(v, field.element, fail_on_missing) for k, v in node.items()}
    if kind == "row":
        return json_to_row(node, field, fail_on_missing)
    raise TypeError("JSON cannot read a %s field" % kind)


def json_to_row(node, field: Field, fail_on_missing: bool = False):
    from pyflink_on_spark.common.types import _create_row
    if not isinstance(node, dict):
        raise ValueError("Failed to deserialize JSON object: expected an object, got %r"
                         % (node,))
    values = []
    for name, f in zip(field.names, field.fields):
        if name not in node and fail_on_missing:
            raise ValueError("Could not find field with name '%s'." % name)
        values.append(convert_json(node.get(name), f, fail_on_missing))
    return _create_row(list(field.names), values)


def deserialize_row(message: bytes, field: Field, fail_on_missing: bool = False,
                    ignore_parse_errors: bool = False) -> Optional[object]:
    try:
        return json_to_row(json.loads(message), field, fail_on_missing)
    except Exception as e:
        if ignore_parse_errors:
            return None
        raise ValueError("Failed to deserialize JSON '%s': %s"
                         % (message.decode("utf-8", "replace"), e)) from None
