"""The files of a monitored directory (FileSource.monitor_continuously), batch by batch.

Batch N reads the files that appeared since batch N-1, each with a global index (its
position in discovery order: files sorted by path within a discovery). What batch N read is
written to ``<checkpoint>/sources/<source>/<N>`` before the batch runs, and a re-run of batch
N (after a crash) reads that record instead of listing again: same batch id, same input,
even if more files arrived meanwhile. The index of a file never changes, so the subtask that
reads it (index % parallelism) and the order of records are the same in every run.

Compaction: one record per batch would pile up (a batch every trigger interval, with or
without new files), so ``compact(before)`` folds the records of batches older than
``before`` (batches that will never run again: older than the oldest kept state version)
into one ``base-<B>`` file (every file seen up to batch B) once COMPACT_EVERY of them
accumulated: the directory holds at most COMPACT_EVERY records plus one base. The base
itself holds every file ever read (as Flink's enumerator keeps every processed path).

Listing goes through pyarrow.fs (local paths, file://, hdfs://, s3://...) and skips names
starting with '.' or '_', as Flink's default file filter (and the shim's bounded FileSource)
does. A file is taken as complete when it is first seen: write files elsewhere and move them
into the directory (Flink's monitor has the same contract).
"""
from __future__ import annotations

import json
import posixpath
from typing import Dict, List, Optional, Sequence, Tuple

from pyarrow import fs as pafs

from pyflink_on_spark.codecs.files.fs import filesystem_of
from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore


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


def root_of(uri: str) -> Tuple[str, str]:
    """(scheme prefix, normalised path) of a source path, as list_files names its files."""
    _, root = filesystem_of(uri)
    prefix = uri[: len(uri) - len(uri.split("://", 1)[1])] if "://" in uri else ""
    return prefix, posixpath.normpath(root)


def is_under(f: str, prefix: str, base: str) -> bool:
    """Whether the file ``f`` is the source path (prefix, base) or lies under it ('..'
    resolved first: the names are compared, the file system is not asked)."""
    if not f.startswith(prefix):
        return False
    path = posixpath.normpath(f[len(prefix):])
    return path == base or path.startswith(base.rstrip("/") + "/")


COMPACT_EVERY = 64   # batch records folded into the base at once
BASE_PREFIX = "base-"


class FileIndex:
    """The growing file index of one monitored source."""

    def __init__(self, store: SnapshotStore, source_id: str, paths: Sequence[str]) -> None:
        self.store = store
        self.paths = tuple(paths)
        self.dir = store.path("sources", source_id)
        self._seen: Dict[str, int] = {}
        self._loaded_up_to = -1
        self._roots: Optional[List[Tuple[str, str]]] = None   # the paths, as root_of says

    def _record_path(self, batch_id: int) -> str:
        return "%s/%d" % (self.dir, batch_id)

    def _listing(self):
        """(batch ids that have a record, the newest base's batch id or None)."""
        names = self.store.list_names(self.dir)
        records = sorted(int(n) for n in names if n.isdigit())
        bases = [int(n[len(BASE_PREFIX):]) for n in names
                 if n.startswith(BASE_PREFIX) and n[len(BASE_PREFIX):].isdigit()]
        return records, max(bases, default=None)

    def _load(self, batch_id: int) -> None:
        """Reads the base and the records of every batch before ``batch_id`` not read yet."""
        records, base = self._listing()
        if base is not None and self._loaded_up_to < base < batch_id:
            for path, index in json.loads(self.store.read_bytes(
                    "%s/%s%d" % (self.dir, BASE_PREFIX, base))):
                self._seen[path] = index
            self._loaded_up_to = base
        for b in (n for n in records if self._loaded_up_to < n < batch_id):
            for path, index in json.loads(self.store.read_bytes(self._record_path(b))):
                self._seen[path] = index
            self._loaded_up_to = b

    def _check_recorded(self, f: str, batch_id: int) -> None:
        """A re-run batch reads the files its record names: only ones under the source's
        own paths (the record is in the checkpoint directory, and a name pointing elsewhere
        would make the job read, and write out, any file its user can read)."""
        if self._roots is None:
            self._roots = [root_of(uri) for uri in self.paths]
        if not any(is_under(f, prefix, base) for prefix, base in self._roots):
            raise ValueError(
                "pyflink_on_spark: the checkpoint's record of batch %d names %s, which is not "
                "under the source's paths %s: the source's paths changed since the batch was "
                "recorded, or the checkpoint directory was changed by something other than "
                "this job. Run with the paths it was recorded with, or from a new checkpoint "
                "directory." % (batch_id, f, ", ".join(self.paths)))

    def compact(self, before: int) -> None:
        """Folds the records of batches < ``before`` into a new base once COMPACT_EVERY of
        them accumulated (the base is written before any record is deleted: a crash in
        between leaves records the base repeats, read twice with the same indexes)."""
        records, base = self._listing()
        old = [b for b in records if b < before]
        if len(old) < COMPACT_EVERY:
            return
        last = old[-1]
        seen: Dict[str, int] = {}
        if base is not None:
            for path, index in json.loads(self.store.read_bytes(
                    "%s/%s%d" % (self.dir, BASE_PREFIX, base))):
                seen[path] = index
        for b in old:
            for path, index in json.loads(self.store.read_bytes(self._record_path(b))):
                seen[path] = index
        self.store.write_bytes("%s/%s%d" % (self.dir, BASE_PREFIX, last),
                               json.dumps(sorted(seen.items(), key=lambda e: e[1])).encode())
        for b in old:
            self.store.delete_file(self._record_path(b))
        if base is not None:
            self.store.delete_file("%s/%s%d" % (self.dir, BASE_PREFIX, base))

    def files_for_batch(self, batch_id: int) -> List[Tuple[str, int]]:
        """(file, global index) read by batch ``batch_id``: recorded, or discovered now."""
        record = self._record_path(batch_id)
        if self.store.exists(record):
            entries = [tuple(e) for e in json.loads(self.store.read_bytes(record))]
            for f, _ in entries:
                self._check_recorded(f, batch_id)
            return entries
        self._load(batch_id)
        start = max(self._seen.values(), default=-1) + 1
        new = [f for f in list_files(self.paths) if f not in self._seen]
        entries = [(f, start + i) for i, f in enumerate(new)]
        self.store.write_bytes(record, json.dumps(entries).encode())
        for f, i in entries:
            self._seen[f] = i
        self._loaded_up_to = batch_id
        return entries
