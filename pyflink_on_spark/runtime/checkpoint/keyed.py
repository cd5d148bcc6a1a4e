"""Keyed state in checkpoints: the backends snapshot and restore themselves
(``KeyedStateBackend.snapshot_to_store`` / ``restore_from_store``, runtime/state/); this
module holds the store's side of a backend that keeps its state in files.

Heap (runtime/state/heap.py): the backend's tables (state name -> namespace -> key -> stored
value) travel inside the operator's snapshot, ``{"kind": "heap", "data": tables}``.

RocksDB (runtime/state/rocksdb.py): a RocksDB checkpoint of the working database, uploaded
incrementally as Spark's RocksDBFileManager does (upload_files below): SST files are
immutable, so each one is uploaded once into the store's ``shared/`` directory under a unique
name and later versions only reference it; the small mutable files (MANIFEST, CURRENT,
OPTIONS) go into the version's private directory. The operator's snapshot keeps
``{"kind": "rocksdb", "sst": {file: shared name}, "private": [file], "uploaded": bytes}``.

Rescaling (a restore at another parallelism): every old subtask's state is read and only the
keys whose key group the new subtask owns are kept (Flink's KeyGroupRangeAssignment).
"""
from __future__ import annotations

import os
import uuid
from typing import Dict, List, Tuple

from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore


def is_rocksdb(backend) -> bool:
    """Whether ``backend`` keeps its state in RocksDB (told by what it says of itself: the
    RocksDB backend's module is never imported for it, as a HashMap job's Python may have no
    rocksdict)."""
    return getattr(backend, "checkpoint_kind", None) == "rocksdb"


def upload_files(store: SnapshotStore, local: str, known: Dict[str, tuple], version: int,
                 state_id: str, subtask: int) -> Tuple[Dict[str, str], List[str], int,
                                                        Dict[str, tuple]]:
    """Uploads the files of directory ``local`` as part of ``version``: SST files not in
    ``known`` (file -> (shared name, size) of the previous upload) to shared/, the others to
    the version's private directory. Returns (SST file -> shared name, private files, bytes
    uploaded, the new ``known``)."""
    sst: Dict[str, str] = {}
    private: List[str] = []
    uploaded = 0
    private_dir = store.private_dir(version, state_id, subtask)
    for name in sorted(os.listdir(local)):
        path = os.path.join(local, name)
        size = os.path.getsize(path)
        if name.endswith(".sst"):
            previous = known.get(name)
            if previous is not None and previous[1] == size:
                sst[name] = previous[0]
                continue
            shared = "%s-%s" % (uuid.uuid4().hex[:12], name)
            store.upload_file(path, store.shared_path(shared))
            sst[name] = shared
            uploaded += size
        else:
            store.upload_file(path, private_dir + "/" + name)
            private.append(name)
            uploaded += size
    now_known = {name: (shared, os.path.getsize(os.path.join(local, name)))
                 for name, shared in sst.items()}
    store.write_refs(version, state_id, subtask, sst.values())
    return sst, private, uploaded, now_known


def _file_name(name: str) -> str:
    """``name`` from a snapshot's description, when it is a plain file name: the description
    is read back from the checkpoint, and a name with a separator or '..' would reach
    outside the store or the local database directory."""
    if not isinstance(name, str) or name in ("", ".", "..") or "/" in name or "\\" in name \
            or "\0" in name:
        raise ValueError("pyflink_on_spark: a RocksDB snapshot names the file %r, which is "
                         "not a plain file name; the checkpoint was changed by something "
                         "other than this job" % (name,))
    return name


def download_files(store: SnapshotStore, description: dict, version: int, state_id: str,
                   subtask: int, local: str) -> Dict[str, tuple]:
    """The files of an upload_files ``description`` ({"sst": ..., "private": ...}) into the
    new directory ``local``; returns SST file -> (shared name, size), the ``known`` of the
    next upload."""
    os.makedirs(local)
    sizes = {}
    for name, shared in description["sst"].items():
        target = os.path.join(local, _file_name(name))
        store.download_file(store.shared_path(_file_name(shared)), target)
        sizes[name] = (shared, os.path.getsize(target))
    private_dir = store.private_dir(version, state_id, subtask)
    for name in description["private"]:
        store.download_file(private_dir + "/" + _file_name(name),
                            os.path.join(local, _file_name(name)))
    return sizes


_download = download_files   # the name earlier tests know it by
