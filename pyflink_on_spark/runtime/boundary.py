"""The rows that cross a stage boundary: (edge, dest, src, seq, kind, payload).

An executor moves them between the stages' tasks (spark/batch_schema.py is Spark's schema of
them); `kind` says what the payload holds.
"""
from __future__ import annotations

KIND_RECORDS = 0      # payload: pickled (values, timestamps-or-None)
KIND_WATERMARK = 1    # payload: pickled int
KIND_SPLIT = 2        # payload: pickled source split
KIND_DRIVER = 3       # payload: pickled (values, None) for a sink exit (print / collect ...)
