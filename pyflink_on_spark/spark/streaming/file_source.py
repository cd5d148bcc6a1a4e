"""A monitored FileSource (FileSource.monitor_continuously) as an unbounded source of the
streaming executor (sources.py): each batch reads the directory's new files, read by Spark's
readers exactly as the bounded FileSource reads them (spark/file_source.py), each with its
global index from the FileIndex (file index % parallelism -> reading subtask)."""
from __future__ import annotations

from typing import List, Tuple

from pyflink_on_spark.spark.batch_schema import rows_frame
from pyflink_on_spark.spark.file_source import indexed_files_frame
from pyflink_on_spark.spark.streaming.file_index import FileIndex


def spark_uri(path: str) -> str:
    return path if "://" in path else "file://" + path


def monitored_file_frame(scan, entries: List[Tuple[str, int]], parallelism: int, session):
    """DataFrame of split rows for the files ``entries`` [(path, global index)]."""
    if not entries:
        return rows_frame(session, [])
    return indexed_files_frame(scan, [(spark_uri(f), i) for f, i in entries], parallelism,
                               session)


class MonitoredFiles:
    """The UnboundedSource (sources.py) of a monitored FileSource: a batch's input is the
    list of its new files [(path, global index)]."""

    def __init__(self, spec, store, source_id: str, parallelism: int) -> None:
        self.spec = spec
        self.parallelism = parallelism
        self.index = FileIndex(store, source_id, spec.paths)

    def plan(self, batch_id: int) -> List[Tuple[str, int]]:
        return self.index.files_for_batch(batch_id)

    def frame(self, plan: List[Tuple[str, int]], session):
        return monitored_file_frame(self.spec, plan, self.parallelism, session)

    def compact(self, before: int) -> None:
        self.index.compact(before)

    def close(self) -> None:
        pass
