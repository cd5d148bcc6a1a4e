"""The rows that cross a stage boundary: (edge, dest, src, seq, kind, payload[, order]).

An executor moves them between the stages' tasks (spark/batch_schema.py is Spark's schema of
them); `kind` says what the payload holds. `order` (bytes; b"" when a row leaves it out)
is set only by the exits of a key-sorted exchange (BATCH mode into a keyed operator,
runtime/batch_order.py): a row there holds records of one key with one timestamp, and the
runner delivers a subtask's rows in `order` first (direct/exchange.py).
"""
from __future__ import annotations

KIND_RECORDS = 0      # payload: pickled (values, timestamps-or-None)
KIND_WATERMARK = 1    # payload: pickled int
KIND_SPLIT = 2        # payload: pickled source split
KIND_DRIVER = 3       # payload: pickled (values, None) for a sink exit (print / collect ...)


def row_order(row: tuple) -> bytes:
    """A boundary row's `order` (b"" for the rows that leave it out)."""
    return row[6] if len(row) > 6 else b""
