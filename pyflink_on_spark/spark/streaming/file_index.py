"""The files of a monitored directory (FileSource.monitor_continuously), batch by batch.

Batch N reads the files that appeared since batch N-1, each with a global index (its
position in discovery order: files sorted by path within a discovery). What batch N read is
written to ``<checkpoint>/sources/<source>/<N>`` before the batch runs, and a re-run of batch
N (after a crash) reads that record instead of listing again: same batch id, same input,
even if more files arrived meanwhile. The index of a file never changes, so the subtask that
reads it (index % parallelism) and the order of records are the same in every run.

Listing goes through pyarrow.fs (local paths, file://, hdfs://, s3://...) and skips names
starting with '.' or '_', as Flink's default file filter (and the shim's bounded FileSource)
does. A file is taken as complete when it is first seen: write files elsewhere and move them
into the directory (Flink's monitor has the same contract).
"""
from __future__ import annotations

import json
from typing import Dict, List, Sequence, Tuple

from pyarrow import fs as pafs

from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore, filesystem_of


def list_files(paths: Sequence[str]) -> List[str]:
    """Every visible file under ``paths`` (files or directories, recursive), as URIs or
    absolute local paths, sorted."""
    found = []
    for uri in paths:
        filesystem, root = filesystem_of(uri)
        prefix = uri[: len(uri) - len(uri.split("://", 1)[1])] if "://" in uri else ""
        info = filesystem.get_file_info(root)
        if info.type == pafs.FileType.File:
            found.append(prefix + root if prefix else root)
            continue
        if info.type == pafs.FileType.NotFound:
            continue
        selector = pafs.FileSelector(root, recursive=True, allow_not_found=True)
        for entry in filesystem.get_file_info(selector):
            if entry.type != pafs.FileType.File:
                continue
            relative = entry.path[len(root.rstrip("/")) + 1:]
            if any(part.startswith((".", "_")) for part in relative.split("/")):
                continue
            found.append(prefix + entry.path if prefix else entry.path)
    return sorted(set(found))


class FileIndex:
    """The growing file index of one monitored source."""

    def __init__(self, store: SnapshotStore, source_id: str, paths: Sequence[str]) -> None:
        self.store = store
        self.paths = tuple(paths)
        self.dir = store.path("sources", source_id)
        self._seen: Dict[str, int] = {}
        self._loaded_up_to = -1

    def _record_path(self, batch_id: int) -> str:
        return "%s/%d" % (self.dir, batch_id)

    def _load(self, batch_id: int) -> None:
        """Reads the records of every batch before ``batch_id`` not read yet."""
        names = [int(n) for n in self.store.list_names(self.dir) if n.isdigit()]
        for b in sorted(n for n in names if self._loaded_up_to < n < batch_id):
            for path, index in json.loads(self.store.read_bytes(self._record_path(b))):
                self._seen[path] = index
            self._loaded_up_to = b

    def files_for_batch(self, batch_id: int) -> List[Tuple[str, int]]:
        """(file, global index) read by batch ``batch_id``: recorded, or discovered now."""
        record = self._record_path(batch_id)
        if self.store.exists(record):
            return [tuple(e) for e in json.loads(self.store.read_bytes(record))]
        self._load(batch_id)
        start = max(self._seen.values(), default=-1) + 1
        new = [f for f in list_files(self.paths) if f not in self._seen]
        entries = [(f, start + i) for i, f in enumerate(new)]
        self.store.write_bytes(record, json.dumps(entries).encode())
        for f, i in entries:
            self._seen[f] = i
        self._loaded_up_to = batch_id
        return entries
