"""The order in which Flink's BATCH mode processes keys: sorted by the key's serialized form.

Observed on PyFlink 1.20: keys without a declared type (pickled) sort by their cloudpickle
bytes (length first, so 2, 10, -1 and "B", "a", "b", "aa"); STRING keys by length, then
characters; numeric keys by their big-endian bytes. Bytes compare as signed Java bytes, so
INT 128 sorts before 0 and -1 before 2.

`batch_key_order(key_type)` maps a key to bytes whose plain (unsigned, lexicographic)
comparison is that order -- the comparison Python's bytes and Spark's binary columns both
use -- so Spark can sort a keyed exchange by it (spark/executor.py). The bytes are
prefix-free (a length or a fixed width comes first), so a timestamp appended to them
(`sorted_record_order`) orders a key's records without mixing keys."""
from __future__ import annotations

import struct
from typing import Any, Callable, Optional

from pyflink_on_spark.common._key_hash import pickle_key

_FLIP = bytes(b ^ 0x80 for b in range(256))


def _signed(data: bytes) -> bytes:
    # Flink compares serialized keys byte by byte as signed Java bytes: flipping the top
    # bit makes an unsigned bytes comparison give the same order.
    return data.translate(_FLIP)


def pickled_key_order(key: Any) -> bytes:
    """The order bytes of a key without a declared type: its pickle as PyFlink's coder
    writes it (pickle_key: a Row pickled as PyFlink's Row), length first."""
    return pickle_order(pickle_key(key))


def pickle_order(data: bytes) -> bytes:
    """pickled_key_order's bytes from the key's pickle itself.

    Flink compares the pickle's length (a 4-byte int), then its bytes, all as signed bytes.
    These bytes compare the same way but are shorter in front, where it pays: Spark's sort
    compares the first 8 bytes of two rows' order cheaply and the rest only on a tie, and
    with the 4-byte length and the pickle's header first, every key of one length tied
    there (the sort of a million int keys' rows took 5 s).
    - The length: a length under 256 (the 4 bytes 0, 0, 0, n) as 1 and n; the lengths
      before those in the signed order as 0 and the 4 bytes, those after as 2 and the 4
      bytes: three classes in their order, each read back by its first byte.
    - The pickle's first bytes are left out where they are the same in every pickle of
      that length: a protocol-5 pickle starts with 0x80 0x05 and, from 4 bytes of content
      on, a frame header giving the length less 11. The pickle module writes one frame for
      a pickle under 64 KiB, so below that the header is a function of the length."""
    length = len(data)
    if length < 256:
        head = _SHORT_LENGTHS[length]
        if length >= _FRAMED_MIN:
            if data.startswith(_FRAME_HEADERS[length]):
                return head + data[_FRAMED_HEADER:].translate(_FLIP)
        elif data.startswith(_PROTOCOL_5):
            return head + data[2:].translate(_FLIP)
        return head + data.translate(_FLIP)
    signed_length = _signed(_LENGTH(length))
    head = (b"\x00" if signed_length < b"\x80\x80\x80" else b"\x02") + signed_length
    if length < _ONE_FRAME_MAX and data.startswith(_frame_header(length)):
        return head + data[_FRAMED_HEADER:].translate(_FLIP)
    return head + data.translate(_FLIP)


_LENGTH = struct.Struct(">i").pack
_PROTOCOL_5 = b"\x80\x05"
_FRAMED_HEADER = 11            # PROTO 5, FRAME and its 8-byte length
_FRAMED_MIN = 15               # a frame holds 4 bytes at least (pickle's FRAME_SIZE_MIN)
_ONE_FRAME_MAX = 1 << 16       # pickle's FRAME_SIZE_TARGET: under it, one frame


def _frame_header(length: int) -> bytes:
    return _PROTOCOL_5 + b"\x95" + struct.pack("<Q", length - _FRAMED_HEADER)


_SHORT_LENGTHS = [b"\x01" + bytes([n ^ 0x80]) for n in range(256)]
_FRAME_HEADERS = [_frame_header(n) if n >= _FRAMED_MIN else b"" for n in range(256)]


def _string(key: Any) -> bytes:
    if not isinstance(key, str):
        return b"\x01" + pickled_key_order(key)
    # Flink writes a string's length (in characters) before its characters
    return b"\x00" + struct.pack(">I", len(key)) + _signed(key.encode("utf-8"))


_NUMBER_FORMATS = {"BYTE": ">b", "SHORT": ">h", "INT": ">i", "LONG": ">q", "FLOAT": ">f",
                   "DOUBLE": ">d"}


def _numeric(fmt: str) -> Callable[[Any], bytes]:
    pack = struct.Struct(fmt).pack

    def order(key: Any) -> bytes:
        try:
            return b"\x00" + _signed(pack(key))
        except (struct.error, TypeError):
            return b"\x01" + pickled_key_order(key)
    return order


def batch_key_order(key_type) -> Callable[[Any], bytes]:
    """key -> bytes in Flink's BATCH key order for keys of the declared `key_type`."""
    name = type(key_type).__name__ if key_type is not None else None
    basic = getattr(key_type, "_basic_type", None) or getattr(key_type, "basic_type", None)
    basic_name = getattr(basic, "name", None)
    if name is None or name == "PickledBytesTypeInfo":
        return pickled_key_order
    if basic_name == "STRING":
        return _string
    if basic_name in _NUMBER_FORMATS:
        return _numeric(_NUMBER_FORMATS[basic_name])
    return pickled_key_order


# The `order` of a boundary row on a key-sorted exchange (runtime/boundary.py): rows of
# other edges (b"": a broadcast input, splits) come first, then the record counts of a
# two-input operator's sorted edges, then every record row in key and timestamp order, then
# the control rows (watermarks) of the sorted edges.
ORDER_BEFORE_RECORDS = b"\x00"
ORDER_RECORDS = b"\x01"
ORDER_AFTER_RECORDS = b"\x02"
TIMESTAMP_BYTES = 8
_TIMESTAMP = struct.Struct(">Q").pack
_OFFSET = 1 << 63


def sorted_record_order(key_bytes: bytes, timestamp: Optional[int]) -> bytes:
    """The order of a row of one key's records with one timestamp (None: no timestamp,
    which Flink's batch sort puts first, as Long.MIN_VALUE)."""
    return ORDER_RECORDS + key_bytes + _TIMESTAMP(0 if timestamp is None
                                                   else timestamp + _OFFSET)


# Flink's batch sort puts a record without timestamp with those of Long.MIN_VALUE
LONG_MIN = -(1 << 63)


def order_timestamp(order: bytes) -> int:
    """The timestamp part of a record row's order (Long.MIN_VALUE for no timestamp)."""
    return int.from_bytes(order[-TIMESTAMP_BYTES:], "big") - _OFFSET


def key_of_order(order: bytes) -> bytes:
    """The key part of a record row's order: equal for the rows of one key."""
    return order[1:-TIMESTAMP_BYTES]
