"""Builds the engine's keyed state backend from the job's StateBackend configuration."""
from __future__ import annotations

import os
import zlib
from typing import Callable, Optional

from pyflink_on_spark.private_files import shared_temp_dir
from pyflink_on_spark.runtime.state.backend import KeyedStateBackend
from pyflink_on_spark.runtime.state.heap import HeapKeyedStateBackend

_HEAP_NAMES = {"hashmap", "heap", "memory", "filesystem", "fs", "jobmanager"}
_ROCKSDB_NAMES = {"rocksdb", "embeddedrocksdb"}


def uses_rocksdb(state_backend) -> bool:
    """Whether keyed operators under ``state_backend`` keep their state in RocksDB (so their
    tasks import rocksdict)."""
    from pyflink_on_spark.datastream import state_backend as api
    if isinstance(state_backend, str):
        return state_backend.strip().lower() in _ROCKSDB_NAMES
    return isinstance(state_backend, (api.RocksDBStateBackend, api.EmbeddedRocksDBStateBackend))


def create_keyed_state_backend(state_backend, *, work_dir: Optional[str], max_parallelism: int,
                               clock: Callable[[], int], label: str = "",
                               **rocksdb_kwargs) -> KeyedStateBackend:
    """The keyed state backend for one keyed operator instance.

    ``state_backend`` is the API object given to ``env.set_state_backend`` (or None, or a
    ``state.backend.type`` configuration string):

    * None, HashMapStateBackend, MemoryStateBackend, FsStateBackend, "hashmap" -> heap;
    * EmbeddedRocksDBStateBackend, RocksDBStateBackend, "rocksdb" -> RocksDB, in a fresh
      directory under one of the backend's db storage paths (picked by ``work_dir``), else
      under ``work_dir`` (else the user's ``pyflink-on-spark-rocksdb-<uid>`` in the system
      temp directory); its PredefinedOptions / OptionsFactory shape the rocksdict options.

    ``label`` (e.g. operator name and subtask) only makes directory names readable;
    ``rocksdb_kwargs`` go to RocksDBKeyedStateBackend (cache sizes, delete_on_close).
    """
    from pyflink_on_spark.datastream import state_backend as api

    if state_backend is None:
        return HeapKeyedStateBackend(max_parallelism, clock)
    if isinstance(state_backend, str):
        kind = state_backend.strip().lower()
        if kind in _HEAP_NAMES:
            return HeapKeyedStateBackend(max_parallelism, clock)
        if kind in _ROCKSDB_NAMES:
            return _rocksdb(None, work_dir, max_parallelism, clock, label, rocksdb_kwargs)
        raise ValueError("Unknown state backend %r; use 'hashmap' or 'rocksdb'." % state_backend)
    if isinstance(state_backend, (api.HashMapStateBackend, api.MemoryStateBackend,
                                  api.FsStateBackend)):
        return HeapKeyedStateBackend(max_parallelism, clock)
    if isinstance(state_backend, api.RocksDBStateBackend):
        return _rocksdb(state_backend._get_embedded(), work_dir, max_parallelism, clock, label,
                        rocksdb_kwargs)
    if isinstance(state_backend, api.EmbeddedRocksDBStateBackend):
        return _rocksdb(state_backend, work_dir, max_parallelism, clock, label, rocksdb_kwargs)
    raise NotImplementedError(
        "State backend %r is not supported by pyflink_on_spark; use HashMapStateBackend() or "
        "EmbeddedRocksDBStateBackend()." % (state_backend,))


def _rocksdb(config, work_dir: str, max_parallelism: int, clock, label: str,
             kwargs) -> KeyedStateBackend:
    from pyflink_on_spark.runtime.state.rocksdb import (
        RocksDBKeyedStateBackend, build_options, unique_db_dir)
    paths = config.get_db_storage_paths() if config is not None else []
    if paths:
        # Flink spreads tasks over the paths; here the choice is a function of work_dir
        base = paths[zlib.crc32((work_dir or label or "").encode("utf-8")) % len(paths)]
    elif work_dir:
        base = work_dir
    else:
        # a fixed name in the shared temp directory: the user's own, never another's
        base = shared_temp_dir("pyflink-on-spark-rocksdb")
    os.makedirs(base, exist_ok=True)    # a db storage path the user chose keeps its modes
    options = build_options(
        config.get_predefined_options() if config is not None else None,
        config._options_factory if config is not None else None)
    return RocksDBKeyedStateBackend(max_parallelism, clock, path=unique_db_dir(base, label),
                                    options=options, **kwargs)
