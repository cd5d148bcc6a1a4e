"""Snapshots of keyed state backends, and their redistribution by key group.

Heap: the backend's tables (state name -> namespace -> key -> stored value) travel inside the
operator's snapshot. RocksDB: a RocksDB checkpoint of the working database, uploaded
incrementally as Spark's RocksDBFileManager does: SST files are immutable, so each one is
uploaded once into the store's ``shared/`` directory under a unique name and later versions
only reference it; the small mutable files (MANIFEST, CURRENT, OPTIONS) go into the version's
private directory.

Rescaling (a restore at another parallelism): every old subtask's state is read and only the
keys whose key group the new subtask owns are kept (Flink's KeyGroupRangeAssignment).
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
import uuid
from typing import Callable, Dict, List, Optional

from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.runtime.state.backend import VOID_NAMESPACE
from pyflink_on_spark.runtime.state.heap import HeapKeyedStateBackend

KeyFilter = Optional[Callable[[object], bool]]


def is_rocksdb(backend) -> bool:
    # a RocksDB backend exists only once its module was imported; importing it here would
    # fail a HashMap job in a Python without rocksdict (a cluster's plain executors)
    module = sys.modules.get("pyflink_on_spark.runtime.state.rocksdb")
    return module is not None and isinstance(backend, module.RocksDBKeyedStateBackend)


# ---------------------------------------------------------------------------------- heap

def export_heap(backend: HeapKeyedStateBackend) -> dict:
    return {name: {ns: table for ns, table in raw._tables.items() if table}
            for name, raw in backend._raw.items()}


def import_heap(backend: HeapKeyedStateBackend, data: dict) -> None:
    """Replaces the backend's state with ``data`` (states not created yet get theirs when
    they are, as HeapKeyedStateBackend.restore does)."""
    backend._restored = {name: {ns: dict(table) for ns, table in tables.items()}
                         for name, tables in data.items()}
    for name, raw in backend._raw.items():
        raw._tables = {VOID_NAMESPACE: {}}
        raw._ns_reset()
        backend._install(name, raw)


def merge_heap(parts: List[dict], keep: KeyFilter) -> dict:
    merged: Dict[str, dict] = {}
    for data in parts:
        for name, tables in data.items():
            target = merged.setdefault(name, {})
            for ns, table in tables.items():
                into = target.setdefault(ns, {})
                for key, stored in table.items():
                    if keep is None or keep(key):
                        into[key] = stored
    return merged


# ---------------------------------------------------------------------------------- RocksDB

def snapshot_rocksdb(backend, store: SnapshotStore, version: int, node: str,
                     subtask: int) -> dict:
    """Uploads a RocksDB checkpoint of ``backend``: new SST files to shared/, the rest to the
    version's private directory. Returns the snapshot's description."""
    from rocksdict import Checkpoint
    backend._flush()
    backend._db.flush()
    known: Dict[str, tuple] = getattr(backend, "_checkpoint_sst", {})
    tmp = tempfile.mkdtemp(prefix="pyflink-ckpt-", dir=os.path.dirname(backend.path))
    local = os.path.join(tmp, "db")
    try:
        Checkpoint(backend._db).create_checkpoint(local)
        sst: Dict[str, str] = {}
        private: List[str] = []
        uploaded = 0
        private_dir = store.private_dir(version, node, subtask)
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
        backend._checkpoint_sst = {name: (shared, os.path.getsize(os.path.join(local, name)))
                                   for name, shared in sst.items()}
        store.write_refs(version, node, subtask, sst.values())
        return {"kind": "rocksdb", "sst": sst, "private": private, "uploaded": uploaded}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


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


def _download(store: SnapshotStore, description: dict, version: int, node: str,
              subtask: int, local: str) -> Dict[str, tuple]:
    os.makedirs(local)
    sizes = {}
    for name, shared in description["sst"].items():
        target = os.path.join(local, _file_name(name))
        store.download_file(store.shared_path(_file_name(shared)), target)
        sizes[name] = (shared, os.path.getsize(target))
    private_dir = store.private_dir(version, node, subtask)
    for name in description["private"]:
        store.download_file(private_dir + "/" + _file_name(name),
                            os.path.join(local, _file_name(name)))
    return sizes


def restore_rocksdb(backend, store: SnapshotStore, description: dict, version: int,
                    node: str, subtask: int) -> None:
    tmp = tempfile.mkdtemp(prefix="pyflink-restore-", dir=os.path.dirname(backend.path))
    try:
        local = os.path.join(tmp, "db")
        sizes = _download(store, description, version, node, subtask, local)
        backend.restore(local)
        backend._checkpoint_sst = sizes
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def restore_rocksdb_rescaled(backend, store: SnapshotStore, parts: List[tuple],
                             version: int, node: str, keep: KeyFilter) -> None:
    """Fills the (empty) ``backend`` with the entries of the old subtasks' databases whose
    key ``keep`` accepts. ``parts``: [(old subtask, description)]. State ids differ between
    databases, so entries are re-addressed by state name."""
    from rocksdict import Options, Rdict, WriteBatch
    from pyflink_on_spark.runtime.state.encoding import decode_key
    from pyflink_on_spark.runtime.state.rocksdb import _META_STATE, _split_dbkey
    backend._flush(drop=True)
    for old_subtask, description in parts:
        tmp = tempfile.mkdtemp(prefix="pyflink-rescale-", dir=os.path.dirname(backend.path))
        try:
            local = os.path.join(tmp, "db")
            _download(store, description, version, node, old_subtask, local)
            options = Options(raw_mode=True)
            old = Rdict(local, options)
            try:
                names = {v: k[len(_META_STATE):].decode("utf-8")
                         for k, v in old.items(from_key=_META_STATE)
                         if k.startswith(_META_STATE)}
                batch = WriteBatch(raw_mode=True)
                for k, v in old.items():
                    if k.startswith(b"\xff\xff"):
                        continue
                    name = names.get(k[:2])
                    if name is None:
                        continue
                    key_bytes, _, _ = _split_dbkey(k)
                    if keep is not None and not keep(decode_key(key_bytes)):
                        continue
                    batch.put(backend._sid_for(name) + k[2:], v)
                backend._db.write(batch)
            finally:
                old.close()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    for name, raw in backend._raw.items():
        raw._set_sid(backend._sid_for(name))
