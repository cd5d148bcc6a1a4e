"""A versioned snapshot store under a checkpoint directory, on pyarrow.fs.

Layout under ``root`` (one directory per job, e.g. ``<checkpoint dir>/state``)::

    v<N>/<node>-<subtask>.state    one operator instance's snapshot of batch N (pickled)
    v<N>/<node>-<subtask>.files/   its private files (RocksDB: everything but SST files)
    v<N>/_META                     node -> parallelism at version N (written by the driver)

A node is an operator's state id: ``uid-<uid>`` when the program set a uid, else its
position in the program (``op<k>``), so the same program finds its state again.
    v<N>/_COMPLETED                written last by the driver: version N is whole
    shared/<token>-<name>.sst      RocksDB SST files, uploaded once, referenced by versions

A task of batch N restores from the newest *completed* version < N and writes version N,
so re-running batch N (after a crash, or a Spark task retry) overwrites version N with the
same content: no rollback is ever needed. Files are written under a fresh name and then
moved into place (local) or written whole by one PUT (object stores): a reader never sees
half a file.

Everything here is read back with pickle (the snapshots, _META) or feeds state that is
(RocksDB values): write access to ``root`` is code execution at the next restore
(docs/security.md). So on a local file system the store keeps ``root`` (the shim's own
directory under the user's checkpoint directory) 0700 and refuses it when it is a symlink or
another user's, makes what it creates 0700 / 0600, and reads only paths that resolve inside
``root``. Remote file systems (s3://, hdfs://...) have no such modes: their access control is
the bucket's or cluster's.
"""
from __future__ import annotations

import os
import pickle
import posixpath
import uuid
from typing import Dict, Iterable, List, Optional, Tuple

from pyarrow import fs as pafs

from pyflink_on_spark import private_files
from pyflink_on_spark.codecs.files.fs import filesystem_of

COMPLETED = "_COMPLETED"
META = "_META"
SHARED = "shared"


class SnapshotStore:
    """Versioned operator snapshots under ``root`` (a URI or a local path)."""

    def __init__(self, root: str) -> None:
        self.root_uri = root
        self.fs, self.root = filesystem_of(root)
        self._local = isinstance(self.fs, pafs.LocalFileSystem)
        self._root_checked = False

    # -- paths --------------------------------------------------------------------------------

    def path(self, *parts: str) -> str:
        return "/".join([self.root.rstrip("/")] + [p.strip("/") for p in parts if p])

    @staticmethod
    def version_dir(version: int) -> str:
        return "v%d" % version

    @staticmethod
    def state_name(node: str, subtask: int) -> str:
        return "%s-%d" % (node, subtask)

    def inside(self, path: str) -> str:
        """``path``, when it lies inside ``root`` (local: after resolving symlinks and
        '..'); else ValueError. A store never reads or writes elsewhere, whatever names a
        checkpoint's own files hold."""
        if self._local:
            root = os.path.realpath(self.root)
            resolved = os.path.realpath(path)
        else:
            root = posixpath.normpath(self.root)
            resolved = posixpath.normpath(path)
        if resolved != root and not resolved.startswith(root.rstrip("/") + "/"):
            raise ValueError(
                "pyflink_on_spark: %s is outside the checkpoint's state directory %s; the "
                "checkpoint's files were changed by something other than this job. Restore "
                "from a checkpoint directory only the job's user can write." % (path, root))
        return path

    def _own_root(self) -> None:
        """Local: ``root`` is ours (refused if a symlink or another user's) and 0700, checked
        once per store before its first read or write."""
        if self._local and not self._root_checked:
            if os.path.lexists(self.root):
                private_files.private_dir(self.root, "the checkpoint state directory")
            self._root_checked = True

    # -- bytes ---------------------------------------------------------------------------------

    def write_bytes(self, path: str, data: bytes) -> None:
        """Writes ``data`` to ``path`` so that readers see the old file or the new one."""
        self.inside(path)
        parent = path.rsplit("/", 1)[0]
        if self._local:
            self._own_root()
            private_files.makedirs_private(parent)
            tmp = "%s.tmp-%s" % (path, uuid.uuid4().hex[:8])
            with private_files.open_private(tmp, "xb") as out:
                out.write(data)
            os.replace(tmp, path)
        else:
            self.fs.create_dir(parent, recursive=True)
            with self.fs.open_output_stream(path) as out:   # one PUT on object stores
                out.write(data)

    def read_bytes(self, path: str) -> bytes:
        self.inside(path)
        self._own_root()
        with self.fs.open_input_stream(path) as f:
            return f.read()

    def exists(self, path: str) -> bool:
        return self.fs.get_file_info(path).type != pafs.FileType.NotFound

    def upload_file(self, local_path: str, path: str) -> None:
        with open(local_path, "rb") as f:
            self.write_bytes(path, f.read())

    def download_file(self, path: str, local_path: str) -> None:
        """Copies the store's ``path`` to ``local_path`` (a task's private scratch
        directory)."""
        self.inside(path)
        self._own_root()
        private_files.makedirs_private(os.path.dirname(local_path))
        with self.fs.open_input_stream(path) as src, \
                private_files.open_private(local_path, "wb") as out:
            while True:
                chunk = src.read(1 << 22)
                if not chunk:
                    break
                out.write(chunk)

    def list_names(self, path: str) -> List[str]:
        info = self.fs.get_file_info(pafs.FileSelector(path, allow_not_found=True))
        return sorted(i.base_name for i in info)

    def delete_dir(self, path: str) -> None:
        try:
            self.fs.delete_dir(path)
        except (FileNotFoundError, OSError):
            pass

    def delete_file(self, path: str) -> None:
        try:
            self.fs.delete_file(path)
        except (FileNotFoundError, OSError):
            pass

    # -- operator snapshots ------------------------------------------------------------------------

    def write_state(self, version: int, node: str, subtask: int, snapshot: dict) -> None:
        self.write_bytes(self.path(self.version_dir(version),
                                   self.state_name(node, subtask) + ".state"),
                         _dumps(snapshot))

    def read_state(self, version: int, node: str, subtask: int) -> Optional[dict]:
        path = self.path(self.version_dir(version), self.state_name(node, subtask) + ".state")
        if not self.exists(path):
            return None
        return pickle.loads(self.read_bytes(path))

    def private_dir(self, version: int, node: str, subtask: int) -> str:
        return self.path(self.version_dir(version), self.state_name(node, subtask) + ".files")

    def shared_path(self, name: str) -> str:
        return self.path(SHARED, name)

    # -- versions (the driver's side) ----------------------------------------------------------

    def versions(self) -> List[int]:
        """Completed versions, ascending."""
        found = []
        for name in self.list_names(self.root):
            if name.startswith("v") and name[1:].isdigit() and \
                    self.exists(self.path(name, COMPLETED)):
                found.append(int(name[1:]))
        return sorted(found)

    def latest_completed_before(self, version: int) -> Optional[int]:
        earlier = [v for v in self.versions() if v < version]
        return earlier[-1] if earlier else None

    def write_meta(self, version: int, parallelism: Dict[str, int]) -> None:
        self.write_bytes(self.path(self.version_dir(version), META), _dumps(dict(parallelism)))

    def read_meta(self, version: int) -> Dict[str, int]:
        return pickle.loads(self.read_bytes(self.path(self.version_dir(version), META)))

    def complete(self, version: int) -> None:
        self.write_bytes(self.path(self.version_dir(version), COMPLETED), b"")

    def retain(self, keep: int) -> List[int]:
        """Deletes all but the newest ``keep`` completed versions (and versions older than
        the oldest kept one that never completed), then shared files no kept version
        references. Returns the deleted versions."""
        completed = self.versions()
        kept = completed[-keep:] if keep > 0 else []
        oldest = kept[0] if kept else None
        deleted = []
        for name in self.list_names(self.root):
            if not (name.startswith("v") and name[1:].isdigit()):
                continue
            v = int(name[1:])
            if oldest is not None and v < oldest:
                self.delete_dir(self.path(name))
                deleted.append(v)
        referenced = set()
        for v in kept:
            for name in self.list_names(self.path(self.version_dir(v))):
                if name.endswith(".refs"):
                    text = self.read_bytes(self.path(self.version_dir(v), name)).decode()
                    referenced.update(line for line in text.splitlines() if line)
        for name in self.list_names(self.path(SHARED)):
            if name not in referenced and not name.startswith("."):
                self.delete_file(self.path(SHARED, name))
        return deleted

    def write_refs(self, version: int, node: str, subtask: int, names: Iterable[str]) -> None:
        self.write_bytes(self.path(self.version_dir(version),
                                   self.state_name(node, subtask) + ".refs"),
                         "\n".join(sorted(names)).encode())


def _dumps(value) -> bytes:
    try:
        return pickle.dumps(value, 5)
    except Exception:
        import cloudpickle
        return cloudpickle.dumps(value, 5)
