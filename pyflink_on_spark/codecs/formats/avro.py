"""Avro binary encoding and object container files, in pure Python (the Avro 1.11
specification), for AvroRowSerializationSchema / AvroRowDeserializationSchema (plain Avro
binary, no header: what Flink's schemas write to Kafka) and AvroBulkWriters (container files,
codec "null"). Avro container files read by an engine's own reader (Spark's avro source) become
records through AvroFileFormat."""
from __future__ import annotations

import datetime
import decimal

import json
import os
import struct
from typing import Any, BinaryIO, Dict, List

from pyflink_on_spark.codecs.formats.base import FileRecordFormat

_PRIMITIVES = ("null", "boolean", "int", "long", "float", "double", "bytes", "string")
_EPOCH = datetime.date(1970, 1, 1)
_EPOCH_DT = datetime.datetime(1970, 1, 1)
_EPOCH_TZ = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_FLOAT = struct.Struct("<f")
_DOUBLE = struct.Struct("<d")


class AvroDataError(ValueError):
    """Bytes that are not a value of the schema (truncated, negative length, bad index):
    Java's decoder fails on them too (EOFException, AvroRuntimeException)."""


class AvroSchemaError(ValueError):
    pass


def parse_schema(text_or_json) -> Any:
    """JSON text or object -> a normalized schema (named types resolved by reference)."""
    schema = json.loads(text_or_json) if isinstance(text_or_json, str) else text_or_json
    return _normalize(schema, {}, None)


def _normalize(schema, names: Dict[str, Any], namespace):
    if isinstance(schema, str):
        if schema in _PRIMITIVES:
            return {"type": schema}
        full = schema if "." in schema or namespace is None else namespace + "." + schema
        if full in names:
            return names[full]
        if schema in names:
            return names[schema]
        raise AvroSchemaError("Undefined name: %r" % schema)
    if isinstance(schema, list):
        return {"type": "union", "branches": [_normalize(s, names, namespace) for s in schema]}
    kind = schema.get("type")
    if kind in ("record", "error", "enum", "fixed"):
        ns = schema.get("namespace", namespace)
        name = schema["name"]
        full = name if "." in name or not ns else ns + "." + name
        node = dict(schema)
        names[full] = node
        names.setdefault(name, node)
        if kind in ("record", "error"):
            node["fields"] = [dict(f, type=_normalize(f["type"], names, ns))
                              for f in schema["fields"]]
        return node
    if kind == "array":
        return dict(schema, items=_normalize(schema["items"], names, namespace))
    if kind == "map":
        return dict(schema, values=_normalize(schema["values"], names, namespace))
    if isinstance(kind, (dict, list)) or (isinstance(kind, str) and kind not in _PRIMITIVES):
        inner = _normalize(kind, names, namespace)
        return dict(inner, **{k: v for k, v in schema.items() if k != "type"})
    return dict(schema)


# -- encoding -------------------------------------------------------------------------------

def _write_long(out: bytearray, n: int) -> None:
    n = (n << 1) ^ (n >> 63)
    while n & ~0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def _matches(value, schema) -> bool:
    kind = schema["type"]
    if kind == "null":
        return value is None
    if value is None:
        return False
    if kind == "boolean":
        return isinstance(value, bool)
    if kind in ("int", "long"):
        return (isinstance(value, int) and not isinstance(value, bool)) or \
            isinstance(value, (datetime.date, datetime.time))
    if kind in ("float", "double"):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind in ("bytes", "fixed"):
        return isinstance(value, (bytes, bytearray, decimal.Decimal))
    if kind in ("string", "enum"):
        return isinstance(value, str)
    if kind == "array":
        return isinstance(value, (list, tuple))
    if kind == "map":
        return isinstance(value, dict)
    if kind in ("record", "error"):
        return not isinstance(value, (str, bytes, int, float, list))
    return False


def _logical_to_int(value, schema):
    logical = schema.get("logicalType")
    if isinstance(value, datetime.datetime):
        base = _EPOCH_TZ if value.tzinfo is not None else _EPOCH_DT
        micros = (value - base) // datetime.timedelta(microseconds=1)
        return micros // 1000 if logical == "timestamp-millis" or \
            logical == "local-timestamp-millis" else micros
    if isinstance(value, datetime.date):
        return (value - _EPOCH).days
    if isinstance(value, datetime.time):
        micros = ((value.hour * 60 + value.minute) * 60 + value.second) * 1_000_000 \
            + value.microsecond
        return micros // 1000 if logical == "time-millis" else micros
    return value


def _record_values(value, schema) -> List:
    names = [f["name"] for f in schema["fields"]]
    if isinstance(value, dict):
        return [value.get(n) for n in names]
    from pyflink_on_spark.common.types import Row
    if isinstance(value, Row):
        return value._values   # Flink's AvroRowSerializationSchema maps by position
    return list(value)


def encode(value, schema, out: bytearray) -> None:
    kind = schema["type"]
    if kind == "null":
        return
    if kind == "union":
        for index, branch in enumerate(schema["branches"]):
            if _matches(value, branch):
                _write_long(out, index)
                encode(value, branch, out)
                return
        raise AvroSchemaError("%r matches no branch of %s" % (value, _describe(schema)))
    if value is None:
        raise AvroSchemaError("null is not a %s" % _describe(schema))
    if kind == "boolean":
        out.append(1 if value else 0)
    elif kind in ("int", "long"):
        _write_long(out, int(_logical_to_int(value, schema)))
    elif kind == "float":
        out += _FLOAT.pack(value)
    elif kind == "double":
        out += _DOUBLE.pack(value)
    elif kind == "bytes":
        if isinstance(value, decimal.Decimal):
            value = _decimal_bytes(value, schema)
        _write_long(out, len(value))
        out += value
    elif kind == "string":
        data = value.encode("utf-8")
        _write_long(out, len(data))
        out += data
    elif kind == "fixed":
        if isinstance(value, decimal.Decimal):
            value = _decimal_bytes(value, schema, schema["size"])
        out += value
    elif kind == "enum":
        _write_long(out, schema["symbols"].index(value))
    elif kind == "array":
        if value:
            _write_long(out, len(value))
            for item in value:
                encode(item, schema["items"], out)
        out.append(0)
    elif kind == "map":
        if value:
            _write_long(out, len(value))
            for key, item in value.items():
                encode(key, {"type": "string"}, out)
                encode(item, schema["values"], out)
        out.append(0)
    elif kind in ("record", "error"):
        for field, item in zip(schema["fields"], _record_values(value, schema)):
            encode(item, field["type"], out)
    else:
        raise AvroSchemaError("unknown Avro type %r" % kind)


def _decimal_bytes(value: decimal.Decimal, schema, size: int = None) -> bytes:
    unscaled = int(value.scaleb(schema.get("scale", 0)).to_integral_value())
    length = size or max(1, (unscaled.bit_length() + 8) // 8)
    return unscaled.to_bytes(length, "big", signed=True)


def _describe(schema) -> str:
    if schema["type"] == "union":
        return "[%s]" % ", ".join(_describe(b) for b in schema["branches"])
    return schema.get("name", schema["type"])


def serialize(value, schema) -> bytes:
    out = bytearray()
    encode(value, schema, out)
    return bytes(out)


# -- decoding -------------------------------------------------------------------------------

class _Reader:
    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def long(self) -> int:
        shift = result = 0
        data = self.data
        while True:
            if self.pos >= len(data):
                raise AvroDataError("Avro data ends in the middle of a value (EOFException)")
            if shift > 63:
                raise AvroDataError("Invalid long encoding")
            b = data[self.pos]
            self.pos += 1
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                break
            shift += 7
        return (result >> 1) ^ -(result & 1)

    def take(self, n: int) -> bytes:
        if n < 0:
            raise AvroDataError("Malformed data. Length is negative: %d" % n)
        if self.pos + n > len(self.data):
            raise AvroDataError("Avro data ends in the middle of a value (EOFException)")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk


def _from_logical(value, schema):
    logical = schema.get("logicalType")
    if logical is None:
        return value
    if logical == "date":
        return _EPOCH + datetime.timedelta(days=value)
    if logical in ("time-millis", "time-micros"):
        micros = value * 1000 if logical == "time-millis" else value
        return (datetime.datetime.min + datetime.timedelta(microseconds=micros)).time()
    if logical in ("timestamp-millis", "timestamp-micros"):
        micros = value * 1000 if logical == "timestamp-millis" else value
        return _EPOCH_TZ + datetime.timedelta(microseconds=micros)
    if logical in ("local-timestamp-millis", "local-timestamp-micros"):
        micros = value * 1000 if logical == "local-timestamp-millis" else value
        return _EPOCH_DT + datetime.timedelta(microseconds=micros)
    if logical == "decimal":
        unscaled = int.from_bytes(value, "big", signed=True)
        return decimal.Decimal(unscaled).scaleb(-schema.get("scale", 0))
    return value


def _pick(options, index: int, what: str):
    if not 0 <= index < len(options):
        raise AvroDataError("Malformed data: %s index %d out of range [0, %d)"
                            % (what, index, len(options)))
    return options[index]


def decode(reader: _Reader, schema, make_record):
    kind = schema["type"]
    if kind == "null":
        return None
    if kind == "union":
        return decode(reader, _pick(schema["branches"], reader.long(), "union branch"),
                      make_record)
    if kind == "boolean":
        return reader.take(1) != b"\x00"
    if kind in ("int", "long"):
        return _from_logical(reader.long(), schema)
    if kind == "float":
        return _FLOAT.unpack(reader.take(4))[0]
    if kind == "double":
        return _DOUBLE.unpack(reader.take(8))[0]
    if kind == "bytes":
        return _from_logical(reader.take(reader.long()), schema)
    if kind == "string":
        return reader.take(reader.long()).decode("utf-8")
    if kind == "fixed":
        return _from_logical(reader.take(schema["size"]), schema)
    if kind == "enum":
        return _pick(schema["symbols"], reader.long(), "enum symbol")
    if kind in ("array", "map"):
        items = [] if kind == "array" else {}
        while True:
            count = reader.long()
            if count == 0:
                return items
            if count < 0:
                count = -count
                reader.long()   # block size in bytes
            for _ in range(count):
                if kind == "array":
                    items.append(decode(reader, schema["items"], make_record))
                else:
                    key = reader.take(reader.long()).decode("utf-8")
                    items[key] = decode(reader, schema["values"], make_record)
    if kind in ("record", "error"):
        names = [f["name"] for f in schema["fields"]]
        return make_record(names, [decode(reader, f["type"], make_record)
                                   for f in schema["fields"]])
    raise AvroSchemaError("unknown Avro type %r" % kind)


def deserialize(message: bytes, schema, make_record=None):
    """make_record(names, values): records as dicts by default (GenericRecord in PyFlink)."""
    make_record = make_record or (lambda names, values: dict(zip(names, values)))
    return decode(_Reader(message), schema, make_record)


# -- object container files -----------------------------------------------------------------

MAGIC = b"Obj\x01"


class ContainerWriter:
    """An Avro object container file (codec "null"), one block per `block_records`."""

    def __init__(self, stream: BinaryIO, schema_json: str, block_records: int = 4096) -> None:
        self._stream = stream
        self._schema = parse_schema(schema_json)
        self._sync = os.urandom(16)
        self._block = bytearray()
        self._count = 0
        self._block_records = block_records
        header = bytearray(MAGIC)
        encode({"avro.schema": schema_json.encode("utf-8"), "avro.codec": b"null"},
               {"type": "map", "values": {"type": "bytes"}}, header)
        header += self._sync
        stream.write(bytes(header))

    def append(self, value) -> None:
        encode(value, self._schema, self._block)
        self._count += 1
        if self._count >= self._block_records:
            self._flush()

    def _flush(self) -> None:
        if not self._count:
            return
        out = bytearray()
        _write_long(out, self._count)
        _write_long(out, len(self._block))
        self._stream.write(bytes(out) + bytes(self._block) + self._sync)
        self._block = bytearray()
        self._count = 0

    def close(self) -> None:
        self._flush()
        self._stream.close()


def read_container(data: bytes, make_record=None) -> List:
    """All records of a container file (codecs null and deflate): for tests and checks."""
    import zlib
    reader = _Reader(data)
    if reader.take(4) != MAGIC:
        raise AvroSchemaError("not an Avro object container file")
    meta = decode(reader, {"type": "map", "values": {"type": "bytes"}}, None)
    schema = parse_schema(meta["avro.schema"].decode("utf-8"))
    codec = meta.get("avro.codec", b"null")
    sync = reader.take(16)
    records = []
    while reader.pos < len(data):
        count = reader.long()
        block = reader.take(reader.long())
        if codec == b"deflate":
            block = zlib.decompress(block, -15)
        inner = _Reader(block)
        for _ in range(count):
            records.append(decode(inner, schema, make_record or
                                  (lambda names, values: dict(zip(names, values)))))
        if reader.take(16) != sync:
            raise AvroSchemaError("bad sync marker")
    return records


def canonical_json(schema_text: str) -> str:
    """The schema as compact JSON (what Java's Schema.toString prints)."""
    return json.dumps(json.loads(schema_text), separators=(",", ":"))




class AvroFileFormat(FileRecordFormat):
    """AvroInputFormat's decoder: a reader of Avro container files hands the record schema's
    fields as columns; each row becomes a GenericRecord (a dict)."""

    def __init__(self, schema_json: str, produced_type=None) -> None:
        self.schema_json = schema_json
        parsed = parse_schema(schema_json)
        if parsed["type"] != "record":
            raise ValueError("AvroInputFormat needs a record schema, got %s" % schema_json)
        self.names = [f["name"] for f in parsed["fields"]]
        self.produced_type = produced_type

    def decode_batch(self, batch) -> list:
        columns = [batch.column(i).to_pylist() for i in range(batch.num_columns)]
        return [dict(zip(self.names, values)) for values in zip(*columns)]

    def __repr__(self) -> str:
        return "AvroInputFormat"
