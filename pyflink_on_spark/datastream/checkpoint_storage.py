"""Checkpoint storage configuration (mirror of pyflink.datastream.checkpoint_storage).

These objects only record where checkpoints should go. For unbounded jobs the Spark layer uses
the checkpoint path as the streaming query's checkpointLocation; bounded jobs take no
checkpoints (as Flink's BATCH mode).
"""
from __future__ import annotations

import re
from abc import ABCMeta
from typing import Optional

__all__ = [
    'CheckpointStorage',
    'JobManagerCheckpointStorage',
    'FileSystemCheckpointStorage',
    'CustomCheckpointStorage']

_NO_JVM = "pyflink_on_spark runs without a JVM-side Flink, so there is no Java object to wrap"

_SCHEME_RE = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*):(.*)$")
_MISSING_SCHEME = ("The scheme (hdfs://, file://, etc) is null. Please specify the file system "
                   "scheme explicitly in the URI.")


def _split_uri(path: str):
    """(scheme or None, authority or None, path) of a Flink-style path string."""
    if not isinstance(path, str):
        path = str(path)
    if path == "":
        raise ValueError("Can not create a Path from an empty string")
    scheme = None
    rest = path
    m = _SCHEME_RE.match(path)
    # "C:/x" style Windows drive letters are not schemes.
    if m and len(m.group(1)) > 1:
        scheme, rest = m.group(1), m.group(2)
    authority = None
    if rest.startswith("//"):
        end = rest.find("/", 2)
        if end < 0:
            authority, rest = rest[2:], ""
        else:
            authority, rest = rest[2:end], rest[end:]
    rest = re.sub(r"/{2,}", "/", rest)
    if len(rest) > 1 and rest.endswith("/"):
        rest = rest[:-1]
    return scheme, authority, rest


def _normalize_uri(path: str, require_scheme: bool = True) -> str:
    """The string Flink's Path(path).toUri() would print, e.g. file:///tmp/x -> file:/tmp/x."""
    scheme, authority, rest = _split_uri(path)
    if scheme is None:
        if require_scheme:
            raise ValueError(_MISSING_SCHEME)
        return rest
    if authority:
        return "%s://%s%s" % (scheme, authority, rest)
    return "%s:%s" % (scheme, rest)


def _to_local_path(path: str) -> str:
    """A local directory path for a 'file:' URI or a plain absolute path."""
    scheme, authority, rest = _split_uri(path)
    if scheme is not None and scheme.lower() != "file":
        raise ValueError("Path %s has a non-local scheme" % path)
    return rest


class CheckpointStorage(object, metaclass=ABCMeta):
    """Where checkpoint data is stored."""

    def __init__(self, j_checkpoint_storage=None):
        if j_checkpoint_storage is not None:
            raise NotImplementedError(
                "%s(j_checkpoint_storage=...) wraps a Java CheckpointStorage; %s."
                % (type(self).__name__, _NO_JVM))
        self._j_checkpoint_storage = None


class JobManagerCheckpointStorage(CheckpointStorage):
    """Checkpoints kept in memory of the coordinator (small state, tests). On Spark: the
    driver-side default checkpoint location of the job, or ``checkpoint_path`` if given."""

    DEFAULT_MAX_STATE_SIZE = 5 * 1024 * 1024

    def __init__(self,
                 checkpoint_path=None,
                 max_state_size=None,
                 j_jobmanager_checkpoint_storage=None):
        if j_jobmanager_checkpoint_storage is not None:
            raise NotImplementedError(
                "JobManagerCheckpointStorage(j_jobmanager_checkpoint_storage=...) wraps a Java "
                "object; %s. Use JobManagerCheckpointStorage(checkpoint_path, max_state_size)."
                % _NO_JVM)
        super(JobManagerCheckpointStorage, self).__init__()
        if max_state_size is None:
            max_state_size = JobManagerCheckpointStorage.DEFAULT_MAX_STATE_SIZE
        if not isinstance(max_state_size, int) or max_state_size <= 0:
            raise ValueError("maxStateSize must be > 0")
        self._checkpoint_path = None if checkpoint_path is None \
            else _normalize_uri(checkpoint_path)
        self._max_state_size = max_state_size

    def get_checkpoint_path(self) -> Optional[str]:
        return self._checkpoint_path

    def get_max_state_size(self) -> int:
        return self._max_state_size

    def get_savepoint_path(self) -> Optional[str]:
        return None

    def __str__(self):
        return ("JobManagerCheckpointStorage (checkpoints to JobManager) ( maxStateSize: %d)"
                % self._max_state_size)

    def __eq__(self, other):
        return type(other) is type(self) and other.__dict__ == self.__dict__

    def __hash__(self):
        return hash((type(self).__name__, self._checkpoint_path, self._max_state_size))


class FileSystemCheckpointStorage(CheckpointStorage):
    """Checkpoints written to a file system directory (``checkpoint_path`` needs a scheme,
    e.g. ``file:///...``, ``hdfs://...``, ``s3://...``)."""

    MAX_FILE_STATE_THRESHOLD = 1024 * 1024
    _DEFAULT_FILE_STATE_THRESHOLD = 20 * 1024
    _DEFAULT_WRITE_BUFFER_SIZE = 4 * 1024

    def __init__(self,
                 checkpoint_path=None,
                 file_state_size_threshold=None,
                 write_buffer_size=-1,
                 j_filesystem_checkpoint_storage=None):
        if j_filesystem_checkpoint_storage is not None:
            raise NotImplementedError(
                "FileSystemCheckpointStorage(j_filesystem_checkpoint_storage=...) wraps a Java "
                "object; %s. Use FileSystemCheckpointStorage(checkpoint_path)." % _NO_JVM)
        super(FileSystemCheckpointStorage, self).__init__()
        if checkpoint_path is None:
            raise ValueError("checkpoint_path must not be None")
        if file_state_size_threshold is None:
            file_state_size_threshold = -1
        if not (-1 <= file_state_size_threshold <= self.MAX_FILE_STATE_THRESHOLD):
            raise ValueError(
                "The threshold for file state size must be in [-1, %d], where '-1' means to use "
                "the value from the deployment's configuration." % self.MAX_FILE_STATE_THRESHOLD)
        if write_buffer_size is None:
            write_buffer_size = -1
        if write_buffer_size < -1:
            raise ValueError("The write buffer size must be zero or larger.")
        self._checkpoint_path = _normalize_uri(checkpoint_path)
        self._file_state_size_threshold = file_state_size_threshold
        self._write_buffer_size = write_buffer_size

    def get_checkpoint_path(self) -> str:
        return self._checkpoint_path

    def get_savepoint_path(self) -> Optional[str]:
        return None

    def get_min_file_size_threshold(self) -> int:
        if self._file_state_size_threshold >= 0:
            return self._file_state_size_threshold
        return self._DEFAULT_FILE_STATE_THRESHOLD

    def get_write_buffer_size(self) -> int:
        if self._write_buffer_size >= 0:
            return self._write_buffer_size
        return self._DEFAULT_WRITE_BUFFER_SIZE

    def __str__(self):
        return ("FileSystemCheckpointStorage (checkpoints: '%s', fileStateThreshold: %d)"
                % (self._checkpoint_path, self.get_min_file_size_threshold()))

    def __eq__(self, other):
        return type(other) is type(self) and other.__dict__ == self.__dict__

    def __hash__(self):
        return hash((type(self).__name__, self._checkpoint_path))


class CustomCheckpointStorage(CheckpointStorage):
    """A user-defined Java CheckpointStorage: not available without a JVM-side Flink."""

    def __init__(self, j_custom_checkpoint_storage):
        raise NotImplementedError(
            "CustomCheckpointStorage wraps a Java CheckpointStorage implementation; %s. Use "
            "FileSystemCheckpointStorage(checkpoint_path) or JobManagerCheckpointStorage() "
            "instead." % _NO_JVM)
