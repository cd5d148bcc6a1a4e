"""State backends (mirror of pyflink.datastream.state_backend).

A state backend object is configuration only; each keyed operator task builds its working
state from it (``pyflink_on_spark.runtime.state.create_keyed_state_backend``):

* HashMapStateBackend, MemoryStateBackend, FsStateBackend -> state in Python dicts in the
  task's memory.
* EmbeddedRocksDBStateBackend, RocksDBStateBackend -> state in an embedded RocksDB (rocksdict)
  on the executor's local disk, under the configured db storage paths; state larger than
  memory works.

Checkpoint-related settings (checkpoint paths, incremental checkpoints, transfer threads) are
recorded and returned by the getters.
"""
from __future__ import annotations

import os
import warnings
from abc import ABCMeta
from enum import Enum
from typing import List, Optional

from pyflink_on_spark.datastream.checkpoint_storage import _normalize_uri, _to_local_path

__all__ = [
    'StateBackend',
    'HashMapStateBackend',
    'EmbeddedRocksDBStateBackend',
    'MemoryStateBackend',
    'FsStateBackend',
    'RocksDBStateBackend',
    'CustomStateBackend',
    'PredefinedOptions',
    'OptionsFactory']

_NO_JVM = "pyflink_on_spark runs without a JVM-side Flink, so there is no Java object to wrap"


def _ternary(value, what: str):
    if value not in (None, True, False):
        raise TypeError("Unsupported input for '%s': %s, the value of the parameter should be "
                        "None or True or False." % (what, value))
    return value


class StateBackend(object, metaclass=ABCMeta):
    """Base of the state backends: how and where keyed state is kept while the job runs."""

    def __init__(self, j_state_backend=None):
        if j_state_backend is not None:
            raise NotImplementedError(
                "%s(j_state_backend=...) wraps a Java StateBackend; %s."
                % (type(self).__name__, _NO_JVM))
        self._j_state_backend = None

    def __eq__(self, other):
        return type(other) is type(self) and other.__dict__ == self.__dict__

    def __hash__(self):
        return hash(type(self).__name__)


class HashMapStateBackend(StateBackend):
    """Keeps working state as objects in memory (Python dicts)."""

    def __init__(self, j_hashmap_state_backend=None):
        if j_hashmap_state_backend is not None:
            raise NotImplementedError(
                "HashMapStateBackend(j_hashmap_state_backend=...) wraps a Java object; %s. "
                "Use HashMapStateBackend()." % _NO_JVM)
        super(HashMapStateBackend, self).__init__()

    def __str__(self):
        return "HashMapStateBackend"

    __repr__ = __str__


class PredefinedOptions(Enum):
    """Preset RocksDB tunings (mapped onto rocksdict options by the engine).

    DEFAULT: RocksDB defaults.
    SPINNING_DISK_OPTIMIZED: level compaction with dynamic level sizes, more background
    threads, no fsync, unlimited open files.
    SPINNING_DISK_OPTIMIZED_HIGH_MEM: as above plus a large block cache, bigger blocks, write
    buffers and files, and bloom filters.
    FLASH_SSD_OPTIMIZED: more background threads, no fsync, unlimited open files.
    """

    DEFAULT = 0
    SPINNING_DISK_OPTIMIZED = 1
    SPINNING_DISK_OPTIMIZED_HIGH_MEM = 2
    FLASH_SSD_OPTIMIZED = 3

    @staticmethod
    def _from_j_predefined_options(j_predefined_options) -> 'PredefinedOptions':
        raise NotImplementedError(
            "PredefinedOptions._from_j_predefined_options converts a Java object; %s." % _NO_JVM)

    def _to_j_predefined_options(self):
        raise NotImplementedError(
            "PredefinedOptions._to_j_predefined_options creates a Java object; %s." % _NO_JVM)


class OptionsFactory(object):
    """Python counterpart of Flink's RocksDBOptionsFactory: adjusts the rocksdict ``Options``
    used to open the state database. Subclass it and pass the instance (or the class, or its
    dotted name) to ``EmbeddedRocksDBStateBackend.set_options``.

    Both hooks receive a ``rocksdict.Options`` and return the (possibly same) object.
    """

    def create_db_options(self, current_options):
        return current_options

    def create_column_options(self, current_options):
        return current_options


def _check_db_storage_paths(paths) -> List[str]:
    result = []
    for raw in paths:
        if raw is None:
            raise ValueError("null path")
        path = _to_local_path(str(raw))
        if not os.path.isabs(path):
            raise ValueError("Relative paths are not supported")
        result.append(path)
    return result


def _resolve_options_factory(options):
    """(display name, OptionsFactory instance or None) of what set_options received."""
    if isinstance(options, OptionsFactory):
        cls = type(options)
        return "%s.%s" % (cls.__module__, cls.__qualname__), options
    if isinstance(options, type):
        if not issubclass(options, OptionsFactory):
            raise ValueError("The input class does not implement OptionsFactory.")
        return "%s.%s" % (options.__module__, options.__qualname__), options()
    if not isinstance(options, str):
        raise TypeError("set_options expects the class name of an options factory, an "
                        "OptionsFactory class or instance; got %r" % (options,))
    module_name, _, attr = options.rpartition(".")
    factory = None
    if module_name:
        try:
            import importlib
            candidate = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError, ValueError):
            candidate = None
        if isinstance(candidate, type):
            if not issubclass(candidate, OptionsFactory):
                raise ValueError("The input class does not implement OptionsFactory.")
            factory = candidate()
    if factory is None:
        warnings.warn(
            "EmbeddedRocksDBStateBackend.set_options(%r): a Java RocksDBOptionsFactory cannot be "
            "loaded without a JVM-side Flink; the name is recorded (get_options returns it) but "
            "the database is opened with the predefined options only. Pass a Python "
            "pyflink_on_spark.datastream.state_backend.OptionsFactory to tune rocksdict."
            % options, RuntimeWarning, stacklevel=3)
    return options, factory


class EmbeddedRocksDBStateBackend(StateBackend):
    """Keeps working state in an embedded RocksDB (rocksdict) on local disk; state can be
    larger than memory."""

    _DEFAULT_TRANSFER_THREADS = 4

    def __init__(self,
                 enable_incremental_checkpointing=None,
                 j_embedded_rocks_db_state_backend=None):
        if j_embedded_rocks_db_state_backend is not None:
            raise NotImplementedError(
                "EmbeddedRocksDBStateBackend(j_embedded_rocks_db_state_backend=...) wraps a Java "
                "object; %s. Use EmbeddedRocksDBStateBackend(enable_incremental_checkpointing)."
                % _NO_JVM)
        super(EmbeddedRocksDBStateBackend, self).__init__()
        self._incremental = _ternary(enable_incremental_checkpointing,
                                     "enable_incremental_checkpointing")
        self._db_storage_paths = None  # type: Optional[List[str]]
        self._predefined_options = PredefinedOptions.DEFAULT
        self._options_name = None  # type: Optional[str]
        self._options_factory = None  # type: Optional[OptionsFactory]
        self._transfer_threads = None  # type: Optional[int]

    def set_db_storage_paths(self, *paths: str):
        """Local directories for the RocksDB files (absolute, or file: URIs). Tasks spread
        over them. No argument resets to the default (under the task's working directory)."""
        if len(paths) < 1:
            self._db_storage_paths = None
        else:
            self._db_storage_paths = _check_db_storage_paths(paths)

    def get_db_storage_paths(self) -> List[str]:
        return list(self._db_storage_paths or [])

    def is_incremental_checkpoints_enabled(self) -> bool:
        return bool(self._incremental)

    def set_predefined_options(self, options: 'PredefinedOptions'):
        if not isinstance(options, PredefinedOptions):
            raise TypeError("options must be a PredefinedOptions, got %r" % (options,))
        self._predefined_options = options

    def get_predefined_options(self) -> 'PredefinedOptions':
        return self._predefined_options

    def set_options(self, options_factory_class_name: str):
        """Sets an options factory: a Python OptionsFactory (instance, class or dotted class
        name) is applied to the rocksdict options; a Java class name is only recorded."""
        self._options_name, self._options_factory = \
            _resolve_options_factory(options_factory_class_name)

    def get_options(self) -> Optional[str]:
        return self._options_name

    def get_number_of_transfer_threads(self) -> int:
        if self._transfer_threads is None:
            return self._DEFAULT_TRANSFER_THREADS
        return self._transfer_threads

    def set_number_of_transfer_threads(self, number_of_transfering_threads: int):
        if number_of_transfering_threads <= 0:
            raise ValueError("The number of threads used to transfer files in "
                             "EmbeddedRocksDBStateBackend should be greater than zero.")
        self._transfer_threads = int(number_of_transfering_threads)

    def __str__(self):
        return ("EmbeddedRocksDBStateBackend{, localRocksDbDirectories=%s, "
                "enableIncrementalCheckpointing=%s, numberOfTransferThreads=%d, "
                "writeBatchSize=-1}" % (
                    "null" if self._db_storage_paths is None
                    else "[" + ", ".join(self._db_storage_paths) + "]",
                    "UNDEFINED" if self._incremental is None else str(self._incremental).lower(),
                    -1 if self._transfer_threads is None else self._transfer_threads))

    __repr__ = __str__


class MemoryStateBackend(StateBackend):
    """Deprecated: state in memory, checkpoints to the coordinator. Works as
    HashMapStateBackend."""

    DEFAULT_MAX_STATE_SIZE = 5 * 1024 * 1024

    def __init__(self,
                 checkpoint_path=None,
                 savepoint_path=None,
                 max_state_size=None,
                 using_asynchronous_snapshots=None,
                 j_memory_state_backend=None):
        if j_memory_state_backend is not None:
            raise NotImplementedError(
                "MemoryStateBackend(j_memory_state_backend=...) wraps a Java object; %s. "
                "Use HashMapStateBackend()." % _NO_JVM)
        super(MemoryStateBackend, self).__init__()
        _ternary(using_asynchronous_snapshots, "using_asynchronous_snapshots")
        if max_state_size is None:
            max_state_size = MemoryStateBackend.DEFAULT_MAX_STATE_SIZE
        if max_state_size <= 0:
            raise ValueError("maxStateSize must be > 0")
        self._checkpoint_path = None if checkpoint_path is None \
            else _normalize_uri(checkpoint_path)
        self._savepoint_path = None if savepoint_path is None \
            else _normalize_uri(savepoint_path)
        self._max_state_size = int(max_state_size)
        self._j_memory_state_backend = None

    def get_max_state_size(self) -> int:
        return self._max_state_size

    def is_using_asynchronous_snapshots(self) -> bool:
        # Snapshots are always asynchronous in Flink 1.20; the argument is ignored there too.
        return True

    def __str__(self):
        return ("MemoryStateBackend (data in heap memory / checkpoints to JobManager) "
                "(checkpoints: '%s', savepoints: '%s, maxStateSize: %d)"
                % (self._checkpoint_path or "null", self._savepoint_path or "null",
                   self._max_state_size))

    __repr__ = __str__


class FsStateBackend(StateBackend):
    """Deprecated: state in memory, checkpoints to a file system. Works as
    HashMapStateBackend; ``checkpoint_directory_uri`` is the checkpoint location."""

    _DEFAULT_FILE_STATE_THRESHOLD = 20 * 1024
    _DEFAULT_WRITE_BUFFER_SIZE = 4 * 1024
    _MAX_FILE_STATE_THRESHOLD = 1024 * 1024

    def __init__(self,
                 checkpoint_directory_uri=None,
                 default_savepoint_directory_uri=None,
                 file_state_size_threshold=None,
                 write_buffer_size=None,
                 using_asynchronous_snapshots=None,
                 j_fs_state_backend=None):
        if j_fs_state_backend is not None:
            raise NotImplementedError(
                "FsStateBackend(j_fs_state_backend=...) wraps a Java object; %s. "
                "Use HashMapStateBackend() with FileSystemCheckpointStorage." % _NO_JVM)
        super(FsStateBackend, self).__init__()
        if checkpoint_directory_uri is None:
            raise ValueError("The parameter 'checkpoint_directory_uri' is required!")
        _ternary(using_asynchronous_snapshots, "using_asynchronous_snapshots")
        if file_state_size_threshold is None:
            file_state_size_threshold = -1
        if write_buffer_size is None:
            write_buffer_size = -1
        if not (-1 <= file_state_size_threshold <= self._MAX_FILE_STATE_THRESHOLD):
            raise ValueError(
                "The threshold for file state size must be in [-1, %d], where '-1' means to use "
                "the value from the deployment's configuration."
                % self._MAX_FILE_STATE_THRESHOLD)
        if write_buffer_size < -1:
            raise ValueError("The write buffer size must be zero or larger.")
        self._checkpoint_path = _normalize_uri(checkpoint_directory_uri)
        self._savepoint_path = None if default_savepoint_directory_uri is None \
            else _normalize_uri(default_savepoint_directory_uri)
        self._file_state_size_threshold = file_state_size_threshold
        self._write_buffer_size = write_buffer_size
        self._j_fs_state_backend = None

    def get_checkpoint_path(self) -> str:
        return self._checkpoint_path

    def get_min_file_size_threshold(self) -> int:
        if self._file_state_size_threshold >= 0:
            return self._file_state_size_threshold
        return self._DEFAULT_FILE_STATE_THRESHOLD

    def is_using_asynchronous_snapshots(self) -> bool:
        return True

    def get_write_buffer_size(self) -> int:
        if self._write_buffer_size >= 0:
            return self._write_buffer_size
        return self._DEFAULT_WRITE_BUFFER_SIZE

    def __str__(self):
        return ("File State Backend (checkpoints: '%s', savepoints: '%s, fileStateThreshold: %d)"
                % (self._checkpoint_path, self._savepoint_path or "null",
                   self._file_state_size_threshold))

    __repr__ = __str__


class RocksDBStateBackend(StateBackend):
    """Deprecated: EmbeddedRocksDBStateBackend plus a checkpoint location. Works as
    EmbeddedRocksDBStateBackend (which it wraps)."""

    def __init__(self,
                 checkpoint_data_uri=None,
                 enable_incremental_checkpointing=None,
                 checkpoint_stream_backend=None,
                 j_rocks_db_state_backend=None):
        if j_rocks_db_state_backend is not None:
            raise NotImplementedError(
                "RocksDBStateBackend(j_rocks_db_state_backend=...) wraps a Java object; %s. "
                "Use EmbeddedRocksDBStateBackend()." % _NO_JVM)
        super(RocksDBStateBackend, self).__init__()
        _ternary(enable_incremental_checkpointing, "enable_incremental_checkpointing")
        if checkpoint_data_uri is not None:
            checkpoint_backend = FsStateBackend(checkpoint_data_uri)
        elif isinstance(checkpoint_stream_backend, StateBackend):
            checkpoint_backend = checkpoint_stream_backend
        else:
            checkpoint_backend = None
        self._checkpoint_backend = checkpoint_backend
        self._embedded = EmbeddedRocksDBStateBackend(
            bool(enable_incremental_checkpointing))
        self._j_rocks_db_state_backend = None

    def get_checkpoint_backend(self):
        return self._checkpoint_backend

    def set_db_storage_paths(self, *paths: str):
        self._embedded.set_db_storage_paths(*paths)

    def get_db_storage_paths(self) -> List[str]:
        return self._embedded.get_db_storage_paths()

    def is_incremental_checkpoints_enabled(self) -> bool:
        return self._embedded.is_incremental_checkpoints_enabled()

    def set_predefined_options(self, options: 'PredefinedOptions'):
        self._embedded.set_predefined_options(options)

    def get_predefined_options(self) -> 'PredefinedOptions':
        return self._embedded.get_predefined_options()

    def set_options(self, options_factory_class_name: str):
        self._embedded._options_name, self._embedded._options_factory = \
            _resolve_options_factory(options_factory_class_name)

    def get_options(self) -> Optional[str]:
        return self._embedded.get_options()

    def get_number_of_transfering_threads(self) -> int:
        return self._embedded.get_number_of_transfer_threads()

    def set_number_of_transfering_threads(self, number_of_transfering_threads: int):
        self._embedded.set_number_of_transfer_threads(number_of_transfering_threads)

    def _get_embedded(self) -> EmbeddedRocksDBStateBackend:
        return self._embedded

    def __str__(self):
        paths = self._embedded._db_storage_paths
        return ("RocksDBStateBackend{checkpointStreamBackend=%s, localRocksDbDirectories=%s, "
                "enableIncrementalCheckpointing=%s, numberOfTransferThreads=%d, "
                "writeBatchSize=2097152}" % (
                    self._checkpoint_backend,
                    "null" if paths is None else "[" + ", ".join(paths) + "]",
                    str(self.is_incremental_checkpoints_enabled()).lower(),
                    self.get_number_of_transfering_threads()))

    __repr__ = __str__


class CustomStateBackend(StateBackend):
    """A user-defined Java StateBackend: not available without a JVM-side Flink."""

    def __init__(self, j_custom_state_backend):
        raise NotImplementedError(
            "CustomStateBackend wraps a Java StateBackend implementation; %s. Use "
            "HashMapStateBackend() (state in memory) or EmbeddedRocksDBStateBackend() (state on "
            "local disk, larger than memory) instead." % _NO_JVM)
