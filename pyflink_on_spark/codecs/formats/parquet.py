"""Parquet files as rows or GenericRecords: a reader of Parquet files hands the row type's
columns as Arrow arrays (arrow_rows.py turns them into Python values as Flink's readers do)."""
from __future__ import annotations

from pyflink_on_spark.codecs.formats.base import FileRecordFormat
from pyflink_on_spark.codecs.formats.fields import Field


class ParquetFileFormat(FileRecordFormat):
    """The given columns of Parquet files, selected by name."""

    def __init__(self, row: Field, produced_type, as_dicts: bool = False,
                 case_sensitive: bool = True) -> None:
        self.row = row
        self.produced_type = produced_type
        self.as_dicts = as_dicts
        self.case_sensitive = case_sensitive

    def decode_batch(self, batch) -> list:
        from pyflink_on_spark.codecs.formats.arrow_rows import table_rows
        rows = table_rows(batch, self.row)
        if self.as_dicts:
            return [dict(zip(self.row.names, r._values)) for r in rows]
        return rows

    def __repr__(self) -> str:
        return "ParquetFormat(%s)" % ", ".join(self.row.names)
