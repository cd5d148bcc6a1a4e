"""RocksDBKeyedStateBackend: keyed state in an embedded RocksDB (rocksdict, raw mode).

Nothing is mirrored in memory except a small bounded write-back cache, so state can be larger
than memory.

Key layout (all bytes; equal keys give equal bytes in every process, see encoding.py)::

    state id (2 bytes) | varint len | encode_key(key) | varint len | encode_key(namespace)
                                                                     (empty for VoidNamespace)

That is the *prefix* of (state, key, namespace). Under it:

* value / reducing / aggregating state: one entry at the prefix, the pickled value;
* list state: a header at the prefix (8-byte big-endian next sequence number, present iff the
  list is non-empty) and one entry per element at ``prefix + seq (8 bytes)``, so add() is
  O(1) and get() is one prefix scan;
* map state: one entry per user key at ``prefix + encode_key(user_key)``.

State ids are recorded in the database itself (``\\xff\\xff`` meta entries), so a database
restored from a snapshot maps names to the same ids.

The write-back cache holds the single-entry kinds (value, reducing, aggregating, list headers):
the per-record path of a hot key never touches RocksDB. It stores pickled bytes, so a value
read from state is always a fresh copy (as in Flink's RocksDB backend: mutating it without
update() changes nothing). List elements and map entries go to RocksDB directly. The write
ahead log is disabled: the database is a task's working copy; durability comes from
snapshot() (a RocksDB checkpoint).
"""
from __future__ import annotations

import itertools
import os
import pickle
import shutil
import tempfile
import uuid
from typing import Callable, Dict, Iterator, List, Optional, Tuple

try:
    from rocksdict import (
        BlockBasedOptions, Cache, Checkpoint, DBCompactionStyle, Options, Rdict, ReadOptions,
        WriteBatch, WriteOptions)
except ImportError as missing:
    # a compiled package: the shim ships its own Python code to a cluster's workers, not
    # this (docs/deploy.md); say where it is missing and what to do
    import sys as _sys
    raise ModuleNotFoundError(
        "EmbeddedRocksDBStateBackend needs the rocksdict package in the Python that runs this "
        "task (%s, Python %d.%d), which cannot import it (%s). Install it there (pip install "
        "rocksdict, on every worker machine or in the environment you ship with --archives), "
        "or use HashMapStateBackend." % (_sys.executable, _sys.version_info[0],
                                         _sys.version_info[1], missing),
        name="rocksdict") from None

from pyflink_on_spark.datastream.state import (
    AggregatingState, ListState, MapState, ReducingState, ValueState)
from pyflink_on_spark.private_files import private_dir
from pyflink_on_spark.runtime.state.backend import (
    AGGREGATING, LIST, MAP, REDUCING, VALUE, VOID_NAMESPACE, KeyedStateBackend,
    MergingStateMixin)
from pyflink_on_spark.runtime.state.encoding import (
    VALUE_PICKLE_PROTOCOL, decode_key, dumps_value, encode_key, loads_value, read_varint, varint)
from pyflink_on_spark.runtime.state.ttl import TtlStateBase

_MISS = object()
_dumps = pickle.dumps
_loads = pickle.loads
_PROTOCOL = VALUE_PICKLE_PROTOCOL
_META = b"\xff\xff"
_META_STATE = _META + b"state:"
_VOID_PART = varint(0)
_PICKLED_NONE = dumps_value(None)
_SEQ_LEN = 8
_EMPTY = ()

DEFAULT_CACHE_ENTRIES = 65536
DEFAULT_CACHE_BYTES = 64 * 1024 * 1024


def _seq(n: int) -> bytes:
    return n.to_bytes(_SEQ_LEN, "big")


_FIRST_SEQ = _seq(0)


def _keeping(iterator, read_options):
    """Iterates ``iterator`` while holding ``read_options``: rocksdict's iterators do not keep
    their ReadOptions (and so the upper bound) alive themselves."""
    yield from iterator
    del read_options


def _successor(prefix: bytes) -> Optional[bytes]:
    """The smallest byte string greater than every string starting with ``prefix``."""
    stripped = prefix.rstrip(b"\xff")
    if not stripped:
        return None
    return stripped[:-1] + bytes((stripped[-1] + 1,))


def _ns_part(namespace) -> bytes:
    if namespace is VOID_NAMESPACE:
        return _VOID_PART
    encoded = encode_key(namespace)
    return varint(len(encoded)) + encoded


def _split_dbkey(dbkey: bytes):
    """(key bytes, namespace bytes, rest) of a state entry key."""
    klen, pos = read_varint(dbkey, 2)
    kb = dbkey[pos:pos + klen]
    pos += klen
    nlen, pos = read_varint(dbkey, pos)
    nb = dbkey[pos:pos + nlen]
    pos += nlen
    return kb, nb, dbkey[pos:]


# ---------------------------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------------------------

def build_options(predefined=None, options_factory=None) -> Options:
    """rocksdict Options for a PredefinedOptions member (by name) and an OptionsFactory."""
    opts = Options(raw_mode=True)
    opts.create_if_missing(True)
    name = getattr(predefined, "name", predefined) or "DEFAULT"
    if name in ("SPINNING_DISK_OPTIMIZED", "SPINNING_DISK_OPTIMIZED_HIGH_MEM",
                "FLASH_SSD_OPTIMIZED"):
        opts.increase_parallelism(4)
        opts.set_use_fsync(False)
        opts.set_max_open_files(-1)
    if name in ("SPINNING_DISK_OPTIMIZED", "SPINNING_DISK_OPTIMIZED_HIGH_MEM"):
        opts.set_compaction_style(DBCompactionStyle.level())
        opts.set_level_compaction_dynamic_level_bytes(True)
    if name == "SPINNING_DISK_OPTIMIZED_HIGH_MEM":
        opts.set_target_file_size_base(256 * 1024 * 1024)
        opts.set_max_bytes_for_level_base(1024 * 1024 * 1024)
        opts.set_write_buffer_size(64 * 1024 * 1024)
        opts.set_min_write_buffer_number_to_merge(3)
        opts.set_max_write_buffer_number(4)
        table = BlockBasedOptions()
        table.set_block_cache(Cache(256 * 1024 * 1024))
        table.set_block_size(128 * 1024)
        table.set_bloom_filter(10, False)
        opts.set_block_based_table_factory(table)
    if options_factory is not None:
        result = options_factory.create_db_options(opts)
        opts = opts if result is None else result
        result = options_factory.create_column_options(opts)
        opts = opts if result is None else result
    return opts


# ---------------------------------------------------------------------------------------------
# States
# ---------------------------------------------------------------------------------------------

class _RocksKvState(object):

    def __init__(self, backend: 'RocksDBKeyedStateBackend', name: str, sid: bytes):
        self._b = backend
        self._name = name
        self._sid = sid
        self._ns = VOID_NAMESPACE
        self._nspart = _VOID_PART
        self._lkp = None  # key part of the last db key built (see RocksDBValueState)
        self._lk = None

    def set_current_namespace(self, namespace) -> None:
        if namespace is self._ns:
            return
        self._ns = namespace
        self._nspart = _ns_part(namespace)
        self._lkp = None

    def _set_sid(self, sid: bytes) -> None:
        self._sid = sid
        self._lkp = None

    def get_current_namespace(self):
        return self._ns

    def _prefix(self) -> bytes:
        b = self._b
        return self._sid + (b._kpart or b._make_kpart()) + self._nspart


class _RocksSingleState(_RocksKvState):
    """One cached entry per (key, namespace)."""

    def clear(self) -> None:
        self._b._store(self._prefix(), None)

    def _read(self):
        b = self._b
        k = self._prefix()
        raw = b._cache.get(k, _MISS)
        if raw is _MISS:
            raw = b._load(k)
        return raw

    def _merge_take(self):
        b = self._b
        k = self._prefix()
        raw = b._cache.get(k, _MISS)
        if raw is _MISS:
            raw = b._load(k)
        if raw is None:
            return None
        b._store(k, None)
        return loads_value(raw)


class RocksDBValueState(_RocksSingleState, ValueState):

    def value(self):
        b = self._b
        kp = b._kpart or b._make_kpart()
        if kp is self._lkp:
            k = self._lk
        else:
            k = self._lk = self._sid + kp + self._nspart
            self._lkp = kp
        raw = b._cache.get(k, _MISS)
        if raw is _MISS:
            raw = b._load(k)
        return None if raw is None else _loads(raw)

    def update(self, value) -> None:
        b = self._b
        kp = b._kpart or b._make_kpart()
        if kp is self._lkp:
            k = self._lk
        else:
            k = self._lk = self._sid + kp + self._nspart
            self._lkp = kp
        if value is None:
            raw = None
        else:
            try:
                raw = _dumps(value, _PROTOCOL)
            except Exception:
                raw = dumps_value(value)
        b._store(k, raw)


class RocksDBReducingState(_RocksSingleState, MergingStateMixin, ReducingState):

    def __init__(self, backend, name, sid, reduce_function):
        super().__init__(backend, name, sid)
        self._reduce = reduce_function.reduce

    def get(self):
        raw = self._read()
        return None if raw is None else loads_value(raw)

    def add(self, value) -> None:
        b = self._b
        k = self._prefix()
        raw = b._cache.get(k, _MISS)
        if raw is _MISS:
            raw = b._load(k)
        if raw is None:
            result = value
        else:
            result = self._reduce(loads_value(raw), value)
        b._store(k, None if result is None else dumps_value(result))

    def _merge_combine(self, a, b):
        return self._reduce(a, b)

    def _merge_into_current(self, merged):
        raw = self._read()
        result = merged if raw is None else self._reduce(loads_value(raw), merged)
        self._b._store(self._prefix(), None if result is None else dumps_value(result))


class RocksDBAggregatingState(_RocksSingleState, MergingStateMixin, AggregatingState):

    def __init__(self, backend, name, sid, agg_function):
        super().__init__(backend, name, sid)
        self._agg = agg_function

    def get(self):
        raw = self._read()
        if raw is None:
            return None
        acc = loads_value(raw)
        return None if acc is None else self._agg.get_result(acc)

    def add(self, value) -> None:
        b = self._b
        k = self._prefix()
        if value is None:
            b._store(k, None)
            return
        raw = b._cache.get(k, _MISS)
        if raw is _MISS:
            raw = b._load(k)
        acc = None if raw is None else loads_value(raw)
        if acc is None:
            acc = self._agg.create_accumulator()
        acc = self._agg.add(value, acc)
        b._store(k, None if acc is None else dumps_value(acc))

    def _merge_combine(self, a, b):
        return self._agg.merge(a, b)

    def _merge_into_current(self, merged):
        raw = self._read()
        current = None if raw is None else loads_value(raw)
        result = merged if current is None else self._agg.merge(current, merged)
        self._b._store(self._prefix(), None if result is None else dumps_value(result))


class RocksDBListState(_RocksKvState, MergingStateMixin, ListState):

    def _header(self, prefix):
        b = self._b
        raw = b._cache.get(prefix, _MISS)
        if raw is _MISS:
            raw = b._load(prefix)
        return raw

    def _raw_elements(self, prefix):
        # elements sort after the header (the prefix itself) from sequence number 0 on
        return list(self._b._scan_values(prefix, prefix + _FIRST_SEQ))

    def get(self):
        prefix = self._prefix()
        if self._header(prefix) is None:
            return []
        return [_loads(v) for v in self._b._scan_values(prefix, prefix + _FIRST_SEQ)]

    def add(self, value) -> None:
        b = self._b
        prefix = self._prefix()
        header = self._header(prefix)
        seq = 0 if header is None else int.from_bytes(header, "big")
        b._db.put(prefix + _seq(seq), dumps_value(value))
        b._store(prefix, _seq(seq + 1))

    def _append_raw(self, prefix, raws) -> None:
        if not raws:
            return
        b = self._b
        header = self._header(prefix)
        seq = 0 if header is None else int.from_bytes(header, "big")
        batch = WriteBatch(raw_mode=True)
        for raw in raws:
            batch.put(prefix + _seq(seq), raw)
            seq += 1
        b._db.write(batch)
        b._store(prefix, _seq(seq))

    def add_all(self, values) -> None:
        self._append_raw(self._prefix(), [dumps_value(v) for v in values])

    def _clear_prefix(self, prefix) -> None:
        if self._header(prefix) is None:
            return
        self._b._delete_scan(prefix)
        self._b._store(prefix, None)

    def clear(self) -> None:
        self._clear_prefix(self._prefix())

    def update(self, values) -> None:
        prefix = self._prefix()
        self._clear_prefix(prefix)
        self._append_raw(prefix, [dumps_value(v) for v in values])

    # merge works on pickled elements: nothing is unpickled
    def _merge_take(self):
        prefix = self._prefix()
        if self._header(prefix) is None:
            return None
        raws = self._raw_elements(prefix)
        self._clear_prefix(prefix)
        return raws

    def _merge_combine(self, a, b):
        a.extend(b)
        return a

    def _merge_into_current(self, merged):
        self._append_raw(self._prefix(), merged)


class RocksDBMapState(_RocksKvState, MapState):

    def get(self, key):
        raw = self._b._db.get(self._prefix() + encode_key(key))
        return None if raw is None else loads_value(raw)

    def put(self, key, value) -> None:
        self._b._db.put(self._prefix() + encode_key(key), dumps_value(value))

    def put_all(self, dict_value) -> None:
        items = dict_value.items() if hasattr(dict_value, "items") else dict_value
        prefix = self._prefix()
        batch = WriteBatch(raw_mode=True)
        for k, v in items:
            batch.put(prefix + encode_key(k), dumps_value(v))
        self._b._db.write(batch)

    def remove(self, key) -> None:
        self._b._db.delete(self._prefix() + encode_key(key))

    def contains(self, key) -> bool:
        raw = self._b._db.get(self._prefix() + encode_key(key))
        return raw is not None and raw != _PICKLED_NONE

    def _entries(self):
        # the prefix (current key and namespace) is bound now, not at the first next()
        prefix = self._prefix()
        plen = len(prefix)
        return ((decode_key(k[plen:]), v) for k, v in self._b._scan(prefix))

    def items(self):
        return ((k, loads_value(v)) for k, v in self._entries())

    def keys(self):
        return (k for k, _ in self._entries())

    def values(self):
        return (loads_value(v) for _, v in self._entries())

    def is_empty(self) -> bool:
        for _ in self._b._scan(self._prefix()):
            return False
        return True

    def clear(self) -> None:
        self._b._delete_scan(self._prefix())


# ---------------------------------------------------------------------------------------------
# Backend
# ---------------------------------------------------------------------------------------------

class RocksDBKeyedStateBackend(KeyedStateBackend):
    """Keyed state in RocksDB under ``path`` (created; deleted by close() unless
    ``delete_on_close`` is False)."""

    def __init__(self, max_parallelism: int = 128, clock: Callable[[], int] = None, *,
                 path: str, options: Optional[Options] = None,
                 cache_entries: int = DEFAULT_CACHE_ENTRIES,
                 cache_bytes: int = DEFAULT_CACHE_BYTES,
                 delete_on_close: bool = True):
        if clock is None:
            from pyflink_on_spark.runtime.context import wall_clock_ms
            clock = wall_clock_ms
        super().__init__(max_parallelism, clock)
        self.path = os.path.abspath(path)
        self._options = options if options is not None else build_options()
        self._delete_on_close = delete_on_close
        self._cache_limit = max(1, int(cache_entries))
        self._cache_bytes_limit = max(1, int(cache_bytes))
        self._cache = {}  # db key -> pickled bytes, or None for "absent"
        self._cache_bytes = 0
        self._dirty = set()
        self._key = None
        self._kpart = None
        self._kmemo = {}
        self._raw = {}  # name -> raw rocksdb state (below TTL decorators)
        # SST file -> (its name in the checkpoint store's shared/, size): the files the
        # last snapshot_to_store uploaded or restore_from_store read, not uploaded again
        self._checkpoint_sst: Dict[str, tuple] = {}
        self._open()

    def _open(self) -> None:
        # its values are pickles, unpickled when read: only this user may write them (and
        # restore()'s copy of a snapshot is narrowed to 0700 here too)
        private_dir(self.path, "the RocksDB directory")
        self._db = Rdict(self.path, self._options)
        write_options = WriteOptions()
        write_options.disable_wal = True
        self._db.set_write_options(write_options)
        self._sids = {}
        for k, v in self._scan(_META_STATE):
            self._sids[k[len(_META_STATE):].decode("utf-8")] = v

    # -- keys ---------------------------------------------------------------------------------

    def set_current_key(self, key) -> None:
        self._key = key
        t = type(key)
        # str / int keys: their key part is memoised (other types could compare equal to
        # them, e.g. 1.0 == 1, and must not share an encoding)
        self._kpart = self._kmemo.get(key) if (t is str or t is int) else None

    def get_current_key(self):
        return self._key

    def _make_kpart(self) -> bytes:
        key = self._key
        t = type(key)
        if t is str or t is int:
            memo = self._kmemo
            kp = memo.get(key)
            if kp is None:
                encoded = encode_key(key)
                kp = varint(len(encoded)) + encoded
                if len(memo) >= 65536:
                    memo.clear()
                memo[key] = kp
        else:
            encoded = encode_key(key)
            kp = varint(len(encoded)) + encoded
        self._kpart = kp
        return kp

    # -- write-back cache -----------------------------------------------------------------------

    def _load(self, dbkey: bytes):
        """Reads a cacheable entry from RocksDB into the cache."""
        raw = self._db.get(dbkey)
        cache = self._cache
        if len(cache) >= self._cache_limit:
            self._evict()
        cache[dbkey] = raw
        if raw is not None:
            self._cache_bytes += len(raw)
            if self._cache_bytes > self._cache_bytes_limit:
                self._evict()
        return raw

    def _store(self, dbkey: bytes, raw) -> None:
        """Writes a cacheable entry (None deletes it) into the cache."""
        cache = self._cache
        if len(cache) >= self._cache_limit and dbkey not in cache:
            self._evict()
        cache[dbkey] = raw
        self._dirty.add(dbkey)
        if raw is not None:
            self._cache_bytes += len(raw)
            if self._cache_bytes > self._cache_bytes_limit:
                self._evict()

    def _flush(self, drop: bool = False) -> None:
        """Writes dirty cache entries to RocksDB; ``drop`` also empties the cache."""
        dirty = self._dirty
        if dirty:
            cache = self._cache
            batch = WriteBatch(raw_mode=True)
            for k in dirty:
                raw = cache[k]
                if raw is None:
                    batch.delete(k)
                else:
                    batch.put(k, raw)
            self._db.write(batch)
            dirty.clear()
        if drop:
            self._cache.clear()
            self._cache_bytes = 0

    def _evict(self) -> None:
        """Writes the dirty entries back and forgets the older half of the cache."""
        self._flush()
        cache = self._cache
        for k in list(itertools.islice(cache, (len(cache) + 1) // 2)):
            del cache[k]
        self._cache_bytes = sum(len(v) for v in cache.values() if v is not None)
        if self._cache_bytes > self._cache_bytes_limit:
            cache.clear()
            self._cache_bytes = 0

    # -- scans ----------------------------------------------------------------------------------

    def _scan(self, prefix: bytes, start: Optional[bytes] = None) -> Iterator:
        """(key, value) of the RocksDB entries under ``prefix`` (from ``start`` on, if given).
        The cache is not consulted: only kinds that bypass it are scanned, or the caller
        flushes first."""
        end = _successor(prefix)
        if end is None:
            return (kv for kv in self._db.items(from_key=start or prefix)
                    if kv[0].startswith(prefix))
        read_options = ReadOptions()
        read_options.set_iterate_upper_bound(end)
        return _keeping(self._db.items(from_key=start or prefix, read_opt=read_options),
                        read_options)

    def _scan_values(self, prefix: bytes, start: bytes) -> Iterator:
        """The values of the entries from ``start`` up to the end of ``prefix``."""
        end = _successor(prefix)
        if end is None:
            return (v for k, v in self._scan(prefix, start))
        read_options = ReadOptions()
        read_options.set_iterate_upper_bound(end)
        return _keeping(self._db.values(from_key=start, read_opt=read_options), read_options)

    def _delete_scan(self, prefix: bytes) -> None:
        batch = WriteBatch(raw_mode=True)
        n = 0
        for k, _ in self._scan(prefix):
            batch.delete(k)
            n += 1
        if n:
            self._db.write(batch)

    # -- states -------------------------------------------------------------------------------

    def _sid_for(self, name: str) -> bytes:
        sid = self._sids.get(name)
        if sid is None:
            used = set(self._sids.values())
            n = len(self._sids) + 1
            while n.to_bytes(2, "big") in used:
                n += 1
            if n >= 0xFFFF:
                raise ValueError("Too many states in one operator (max 65534)")
            sid = n.to_bytes(2, "big")
            self._db.put(_META_STATE + name.encode("utf-8"), sid)
            self._sids[name] = sid
        return sid

    def _create_state(self, kind, name, descriptor):
        sid = self._sid_for(name)
        if kind == VALUE:
            state = RocksDBValueState(self, name, sid)
        elif kind == LIST:
            state = RocksDBListState(self, name, sid)
        elif kind == MAP:
            state = RocksDBMapState(self, name, sid)
        elif kind == REDUCING:
            state = RocksDBReducingState(self, name, sid, descriptor.get_reduce_function())
        elif kind == AGGREGATING:
            state = RocksDBAggregatingState(self, name, sid, descriptor.get_agg_function())
        else:
            raise ValueError(kind)
        self._raw[name] = state
        return state

    def _state_scan(self, name):
        """(key bytes, namespace bytes, rest, value) of every entry of state ``name``."""
        sid = self._sids.get(name)
        if sid is None:
            return
        self._flush()
        for k, v in self._scan(sid):
            kb, nb, rest = _split_dbkey(k)
            yield kb, nb, rest, v

    def keys_for_state(self, descriptor_or_name, namespace=VOID_NAMESPACE) -> Iterator:
        name = self._name_of(descriptor_or_name)
        target = b"" if namespace is VOID_NAMESPACE else encode_key(namespace)
        last = None
        for kb, nb, _, _ in self._state_scan(name):
            if nb == target and kb != last:
                last = kb
                yield decode_key(kb)

    def _keys_any_namespace(self, name):
        last = None
        for kb, _, _, _ in self._state_scan(name):
            if kb != last:
                last = kb
                yield decode_key(kb)

    def namespaces_for_state(self, descriptor_or_name) -> list:
        """Namespaces under which state ``descriptor_or_name`` holds anything."""
        seen = []
        seen_bytes = set()
        for _, nb, _, _ in self._state_scan(self._name_of(descriptor_or_name)):
            if nb not in seen_bytes:
                seen_bytes.add(nb)
                seen.append(VOID_NAMESPACE if nb == b"" else decode_key(nb))
        return seen

    def cleanup_expired(self) -> int:
        now = self.clock()
        removed = 0
        self._flush(drop=True)
        for name, state in self._states.items():
            if not isinstance(state, TtlStateBase):
                continue
            ttl = state.settings.ttl
            kind = self._kinds[name]
            sid = self._sids[name]
            batch = WriteBatch(raw_mode=True)
            if kind == LIST:
                header = None
                live = 0
                for k, v in self._scan(sid):
                    _, _, rest = _split_dbkey(k)
                    if not rest:
                        if header is not None and live == 0:
                            batch.delete(header)
                        header, live = k, 0
                        continue
                    if loads_value(v)[1] + ttl <= now:
                        batch.delete(k)
                        removed += 1
                    else:
                        live += 1
                if header is not None and live == 0:
                    batch.delete(header)
            else:
                for k, v in self._scan(sid):
                    if loads_value(v)[1] + ttl <= now:
                        batch.delete(k)
                        removed += 1
            self._db.write(batch)
        return removed

    # -- snapshots ------------------------------------------------------------------------------

    def snapshot(self, path: str) -> None:
        """A RocksDB checkpoint of all state in the (new) directory ``path``."""
        self._flush()
        self._db.flush()
        Checkpoint(self._db).create_checkpoint(path)

    def restore(self, path: str) -> None:
        """Replaces all state with a snapshot taken by ``snapshot``."""
        self._flush(drop=True)
        self._db.close()
        shutil.rmtree(self.path, ignore_errors=True)
        shutil.copytree(path, self.path)
        self._open()
        for name, raw in self._raw.items():
            raw._set_sid(self._sid_for(name))

    # -- checkpoints of unbounded jobs (runtime/checkpoint) -----------------------------------
    #
    # A RocksDB checkpoint of the working database, its files uploaded incrementally into
    # the checkpoint store (runtime/checkpoint/keyed.py).

    checkpoint_kind = "rocksdb"

    def snapshot_to_store(self, store, version: int, state_id: str, subtask: int) -> dict:
        """Uploads a RocksDB checkpoint of the database (runtime/checkpoint/keyed.py: new SST
        files to shared/, the rest to the version's private directory). Returns its
        description."""
        from pyflink_on_spark.runtime.checkpoint.keyed import upload_files
        tmp = tempfile.mkdtemp(prefix="pyflink-ckpt-", dir=os.path.dirname(self.path))
        local = os.path.join(tmp, "db")
        try:
            self.snapshot(local)
            sst, private, uploaded, self._checkpoint_sst = upload_files(
                store, local, self._checkpoint_sst, version, state_id, subtask)
            return {"kind": "rocksdb", "sst": sst, "private": private, "uploaded": uploaded,
                    "declarations": self.state_declarations()}
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def restore_from_store(self, store, version: int, state_id: str,
                           parts: List[Tuple[int, dict]], keep) -> None:
        from pyflink_on_spark.runtime.checkpoint.keyed import download_files
        self.restore_declarations([description for _, description in parts])
        if keep is None and len(parts) == 1:
            old_subtask, description = parts[0]
            tmp = tempfile.mkdtemp(prefix="pyflink-restore-", dir=os.path.dirname(self.path))
            try:
                local = os.path.join(tmp, "db")
                sizes = download_files(store, description, version, state_id, old_subtask,
                                       local)
                self.restore(local)
                self._checkpoint_sst = sizes
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        else:
            self._restore_rescaled(store, version, state_id, parts, keep)

    def _restore_rescaled(self, store, version: int, state_id: str,
                          parts: List[Tuple[int, dict]], keep) -> None:
        """Fills the (empty) backend with the entries of the old subtasks' databases whose
        key ``keep`` accepts. State ids differ between databases, so entries are
        re-addressed by state name."""
        from pyflink_on_spark.runtime.checkpoint.keyed import download_files
        self._flush(drop=True)
        for old_subtask, description in parts:
            tmp = tempfile.mkdtemp(prefix="pyflink-rescale-", dir=os.path.dirname(self.path))
            try:
                local = os.path.join(tmp, "db")
                download_files(store, description, version, state_id, old_subtask, local)
                old = Rdict(local, Options(raw_mode=True))
                try:
                    names = {v: k[len(_META_STATE):].decode("utf-8")
                             for k, v in old.items(from_key=_META_STATE)
                             if k.startswith(_META_STATE)}
                    batch = WriteBatch(raw_mode=True)
                    for k, v in old.items():
                        if k.startswith(_META):
                            continue
                        name = names.get(k[:2])
                        if name is None:
                            continue
                        key_bytes, _, _ = _split_dbkey(k)
                        if keep is not None and not keep(decode_key(key_bytes)):
                            continue
                        batch.put(self._sid_for(name) + k[2:], v)
                    self._db.write(batch)
                finally:
                    old.close()
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        for name, raw in self._raw.items():
            raw._set_sid(self._sid_for(name))

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            if not self._delete_on_close:
                self._flush(drop=True)
            self._db.close()
        finally:
            self._cache.clear()
            self._dirty.clear()
            if self._delete_on_close:
                try:
                    Rdict.destroy(self.path, self._options)
                except Exception:
                    pass
                shutil.rmtree(self.path, ignore_errors=True)

    def __repr__(self):
        return "RocksDBKeyedStateBackend(path=%r, states=%s)" % (self.path, sorted(self._raw))


def unique_db_dir(base: str, label: str = "") -> str:
    """A fresh directory name under ``base`` for one backend instance."""
    tag = "".join(c if c.isalnum() or c in "-_" else "_" for c in label)[:80]
    return os.path.join(base, "rocksdb-%s%s" % (tag + "-" if tag else "", uuid.uuid4().hex[:12]))
