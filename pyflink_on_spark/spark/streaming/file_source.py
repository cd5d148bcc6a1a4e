"""The split rows of one micro-batch of a monitored FileSource: the batch's new files, read
by Spark's readers exactly as the bounded FileSource reads them (spark/file_source.py), each
with its global index from the FileIndex (file index % parallelism -> reading subtask)."""
from __future__ import annotations

from typing import List, Tuple

from pyflink_on_spark.spark.batch_schema import SPARK_SCHEMA
from pyflink_on_spark.spark.file_source import indexed_files_frame


def spark_uri(path: str) -> str:
    return path if "://" in path else "file://" + path


def monitored_file_frame(scan, entries: List[Tuple[str, int]], parallelism: int, session):
    """DataFrame of split rows for the files ``entries`` [(path, global index)]."""
    if not entries:
        return session.createDataFrame([], SPARK_SCHEMA)
    return indexed_files_frame(scan, [(spark_uri(f), i) for f, i in entries], parallelism,
                               session)
