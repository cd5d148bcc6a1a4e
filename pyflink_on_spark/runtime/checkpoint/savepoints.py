"""Savepoints of an unbounded job: a self-contained copy of one completed checkpoint version,
and a fresh checkpoint directory seeded from one.

A savepoint is a directory ``savepoint-<job id[:6]>-<12 hex digits>`` (the name Flink gives
its savepoints) under the directory the caller names::

    _SAVEPOINT                 written last (JSON): format, the version copied, the job's
                               name, node -> parallelism, the state ids that hold state
    state/v<N>/...             the completed version N: every operator instance's snapshot
    state/shared/<name>        the RocksDB SST files version N references
    state/sources/<id>/...     the sources' positions up to batch N (files read, Kafka
                               offset ranges)

Nothing in it names an absolute path: a savepoint moved or copied elsewhere restores.

A job started from a savepoint gets a fresh checkpoint directory whose state directory is
seeded with the savepoint's files, plus ``_VERSION_BASE`` (N + 1: Spark's batch 0 of the new
query is version N + 1, whose tasks restore version N) and ``_FROM_SAVEPOINT`` (the path it
came from). A restart of that job with the same checkpoint directory resumes from its own
checkpoints, whatever savepoint the command line still names.

State follows its state id (``uid-<uid>`` when the program set a uid, else the operator's
position in the program): an operator of the new job finds the state its id had, a new
operator starts empty, and state in the savepoint that no operator of the new job claims fails
the start (Flink: "Cannot map checkpoint/savepoint state for operator ...") unless unclaimed
state may be dropped (``execution.savepoint.ignore-unclaimed-state`` /
``--allow-non-restored-state``). An operator whose snapshots hold no state (a stateless map)
is never unclaimed state, as in Flink.

Savepoints hold pickled snapshots: restoring one runs whatever it contains (docs/security.md).
A local savepoint directory must be the user's own and not writable by others.
"""
from __future__ import annotations

import json
import os
import pickle
import time
import uuid
from typing import Dict, Iterable, List, Optional, Set

from pyarrow import fs as pafs

from pyflink_on_spark.runtime.checkpoint.store import META, SHARED, SnapshotStore

FORMAT = 1
MANIFEST = "_SAVEPOINT"
STATE_DIR = "state"
VERSION_BASE = "_VERSION_BASE"
FROM_SAVEPOINT = "_FROM_SAVEPOINT"
SOURCES = "sources"


class SavepointError(RuntimeError):
    """A savepoint that cannot be read or does not fit the job."""


def savepoint_name(job_id: str) -> str:
    return "savepoint-%s-%s" % (job_id[:6], uuid.uuid4().hex[:12])


def flink_path(uri: str) -> str:
    """The path as Flink reports a savepoint's (a local one as ``file:/abs/path``)."""
    if "://" in uri and not uri.startswith("file://"):
        return uri
    path = uri[len("file://"):] if uri.startswith("file://") else uri
    return "file:" + os.path.abspath(path)


def _join(base: str, name: str) -> str:
    return base.rstrip("/") + "/" + name


def _files_under(store: SnapshotStore, path: str) -> List[str]:
    """Every file under ``path`` in ``store``, relative to ``path``."""
    selector = pafs.FileSelector(path, recursive=True, allow_not_found=True)
    prefix = path.rstrip("/") + "/"
    return sorted(info.path[len(prefix):] for info in store.fs.get_file_info(selector)
                  if info.type == pafs.FileType.File and ".tmp-" not in info.base_name)


def _copy(source: SnapshotStore, relative: Iterable[str], target: SnapshotStore) -> int:
    """Copies files (paths relative to each store's root); returns the bytes copied."""
    copied = 0
    for name in relative:
        data = source.read_bytes(source.path(name))
        target.write_bytes(target.path(name), data)
        copied += len(data)
    return copied


def _version_files(store: SnapshotStore, version: int) -> List[str]:
    """The files of completed version ``version``: its own, the shared SST files it
    references and the sources' records (relative to the store's root)."""
    version_dir = store.version_dir(version)
    files = [version_dir + "/" + name
             for name in _files_under(store, store.path(version_dir))]
    shared: Set[str] = set()
    for name in files:
        if name.endswith(".refs"):
            text = store.read_bytes(store.path(name)).decode()
            shared.update(line for line in text.splitlines() if line)
    files += [SHARED + "/" + name for name in sorted(shared)]
    files += [SOURCES + "/" + name for name in _files_under(store, store.path(SOURCES))]
    return files


def holds_state(snapshot: Optional[dict]) -> bool:
    """Whether an operator instance's snapshot holds state a user could miss: keyed state
    (registered states), timers, broadcast state, or a source's position (Flink counts a
    source's splits as operator state). Watermarks and part counters do not count."""
    if not snapshot:
        return False
    keyed = snapshot.get("keyed")
    if keyed:
        # RocksDB: a checkpoint with data has SST files; heap: its registered states' tables
        if keyed.get("sst") if keyed.get("kind") == "rocksdb" else keyed.get("data"):
            return True
    timers = snapshot.get("timers") or {}
    if timers.get("event") or timers.get("processing"):
        return True
    return bool(snapshot.get("broadcast"))


def stateful_nodes(store: SnapshotStore, version: int) -> Set[str]:
    """State ids whose snapshots at ``version`` hold state, plus the ids of sources that
    recorded positions."""
    meta = store.read_meta(version)
    found = set()
    for node, parallelism in meta.items():
        for subtask in range(parallelism):
            if holds_state(store.read_state(version, node, subtask)):
                found.add(node)
                break
    found.update(store.list_names(store.path(SOURCES)))
    return found


def write_savepoint(store: SnapshotStore, version: int, target_dir: str, job_id: str,
                    job_name: str) -> str:
    """Copies completed version ``version`` of ``store`` into a new savepoint under
    ``target_dir``; returns its path as Flink reports it. Called between two micro-batches
    (the driver's batch loop), so the version and the sources' records are a consistent
    pair."""
    if not target_dir:
        # Flink's words, seen on PyFlink 1.20.5 (stop_with_savepoint(False, None))
        raise SavepointError(
            "No savepoint directory configured. You can either specify a directory via "
            "configure a cluster-wide default via key 'execution.checkpointing.savepoint-dir' "
            "or specify a directory in the command line.")
    started = time.time()
    path = _join(target_dir.rstrip("/"), savepoint_name(job_id))
    target = SnapshotStore(_join(path, STATE_DIR))
    copied = _copy(store, _version_files(store, version), target)
    meta = store.read_meta(version)
    manifest = {"format": FORMAT, "version": version, "job_name": job_name,
                "job_id": job_id, "parallelism": meta,
                "stateful": sorted(stateful_nodes(store, version)),
                "created_ms": int(started * 1000), "bytes": copied}
    # beside state/, written last: a savepoint without it is incomplete
    savepoint = SnapshotStore(path)
    savepoint.write_bytes(savepoint.path(MANIFEST),
                          json.dumps(manifest, indent=1, sort_keys=True).encode())
    return flink_path(path)


def _local(uri: str) -> Optional[str]:
    if uri.startswith("file:"):
        rest = uri[len("file:"):]
        return "/" + rest.lstrip("/") if rest.startswith("/") else rest
    return None if "://" in uri else uri


def read_manifest(savepoint: str) -> dict:
    """The savepoint's manifest; SavepointError naming the path when there is none, or it is
    of a format this version cannot read."""
    local = _local(savepoint)
    if local is not None:
        savepoint = local
        if not os.path.isdir(local):
            raise SavepointError("The savepoint %s does not exist (no such directory)."
                                 % savepoint)
        _check_local_owner(local)
    store = SnapshotStore(savepoint)
    manifest_path = _join(store.root, MANIFEST)
    if not store.exists(manifest_path):
        raise SavepointError(
            "%s is not a pyflink_on_spark savepoint (no %s file in it): savepoints of Flink "
            "itself cannot be read on Spark; take one with JobClient.trigger_savepoint / "
            "stop_with_savepoint or `pyflink-on-spark savepoint`." % (savepoint, MANIFEST))
    with store.fs.open_input_stream(manifest_path) as f:
        manifest = json.loads(f.read().decode())
    if manifest.get("format") != FORMAT:
        raise SavepointError("The savepoint %s has format %r; this version of pyflink_on_spark "
                             "reads format %d." % (savepoint, manifest.get("format"), FORMAT))
    return manifest


def _check_local_owner(path: str) -> None:
    """A savepoint is code (pickles): refuse one another user could have written."""
    st = os.stat(path)
    if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
        raise SavepointError("The savepoint %s belongs to another user (uid %d): a savepoint "
                             "holds pickled state, restoring it runs code; copy it yourself "
                             "after checking where it came from." % (path, st.st_uid))
    if st.st_mode & 0o022:
        raise SavepointError("The savepoint %s is writable by other users (mode %o): a "
                             "savepoint holds pickled state, restoring it runs code; "
                             "chmod go-w it first." % (path, st.st_mode & 0o777))


def version_base(store: SnapshotStore) -> int:
    """The state version of Spark's batch 0 in this checkpoint directory (0, or after the
    savepoint's version for a job started from one)."""
    path = store.path(VERSION_BASE)
    return int(store.read_bytes(path).decode()) if store.exists(path) else 0


def check_claims(savepoint: str, state_ids: Iterable[str], allow_non_restored: bool) -> dict:
    """The savepoint's manifest, after checking that every state it holds has an operator
    of the job to claim it (unless ``allow_non_restored``): what Flink checks when a job is
    submitted (seen on PyFlink 1.20.5: execute_async raises)."""
    manifest = read_manifest(savepoint)
    unclaimed = sorted(set(manifest["stateful"]) - set(state_ids))
    if unclaimed and not allow_non_restored:
        # Flink's words, but for the CLI option and key names of this tool
        raise SavepointError(
            "Failed to rollback to checkpoint/savepoint %s. Cannot map checkpoint/savepoint "
            "state for %s to the new program, because the operator is not available in the "
            "new program. If you want to allow to skip this, set "
            "'execution.savepoint.ignore-unclaimed-state' to true or run with "
            "--allow-non-restored-state. (State ids are 'uid-<uid>' for operators with a uid, "
            "else the operator's position: set uids on stateful operators before changing a "
            "job.)" % (flink_path(savepoint), ", ".join(
                "operator '%s'" % name for name in unclaimed)))
    return manifest


def seed_from_savepoint(savepoint: str, store: SnapshotStore, state_ids: Iterable[str],
                        allow_non_restored: bool) -> Optional[int]:
    """Seeds the empty checkpoint state directory ``store`` from ``savepoint`` for a job
    whose operators have ``state_ids``; returns the savepoint's version, or None when the
    directory was seeded from this savepoint before (a restarted job resumes from its own
    checkpoints). SavepointError when the directory holds another run's state, or the
    savepoint holds state no operator of the job claims (unless ``allow_non_restored``)."""
    origin_path = store.path(FROM_SAVEPOINT)
    if store.exists(origin_path):
        seeded_from = store.read_bytes(origin_path).decode()
        if seeded_from == flink_path(savepoint):
            return None
        raise SavepointError(
            "The checkpoint directory %s was started from the savepoint %s; to start from %s, "
            "use a new checkpoint directory." % (store.root_uri, seeded_from, savepoint))
    if store.versions():
        raise SavepointError(
            "The checkpoint directory %s already holds the checkpoints of a run of this job; "
            "a job starts from a savepoint into an empty checkpoint directory (set another "
            "one, or remove it)." % store.root_uri)
    manifest = check_claims(savepoint, state_ids, allow_non_restored)
    unclaimed = sorted(set(manifest["stateful"]) - set(state_ids))
    local = _local(savepoint)
    source = SnapshotStore(_join(local if local is not None else savepoint, STATE_DIR))
    version = int(manifest["version"])
    names = [n for n in _files_under(source, source.root)
             if not _unclaimed_file(n, set(unclaimed))]
    _copy(source, names, store)
    if unclaimed:
        # the dropped state's nodes leave the version's node -> parallelism map too
        meta = {node: p for node, p in source.read_meta(version).items()
                if node not in unclaimed}
        store.write_bytes(store.path(store.version_dir(version), META),
                          pickle.dumps(meta, 5))
    store.write_bytes(store.path(VERSION_BASE), str(version + 1).encode())
    store.write_bytes(origin_path, flink_path(savepoint).encode())
    return version


def _unclaimed_file(name: str, unclaimed: Set[str]) -> bool:
    """Whether a savepoint file belongs to dropped state (its snapshots or its positions)."""
    parts = name.split("/")
    if parts[0] == SOURCES and len(parts) > 1:
        return parts[1] in unclaimed
    if parts[0].startswith("v") and len(parts) > 1:
        base = parts[1].split(".", 1)[0]
        node = base.rsplit("-", 1)[0]
        return node in unclaimed
    return False


def describe(manifest: Dict) -> str:
    """One line about a savepoint, for the CLI."""
    return ("savepoint of job '%s' at checkpoint %d, %d operators with state, %d bytes"
            % (manifest.get("job_name"), manifest.get("version"),
               len(manifest.get("stateful", ())), manifest.get("bytes", 0)))
