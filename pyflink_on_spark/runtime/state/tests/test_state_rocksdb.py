"""What is specific to the RocksDB backend: bounded cache, larger-than-cache state, key bytes,
snapshots, files, options; and the factory mapping API objects to backends."""
import os
import subprocess
import sys

import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.state import (
    ListStateDescriptor, MapStateDescriptor, ValueStateDescriptor)
from pyflink_on_spark.datastream.state_backend import (
    EmbeddedRocksDBStateBackend, FsStateBackend, HashMapStateBackend, MemoryStateBackend,
    OptionsFactory, PredefinedOptions, RocksDBStateBackend)
from pyflink_on_spark.runtime.state import (
    HeapKeyedStateBackend, create_keyed_state_backend)
from pyflink_on_spark.runtime.state.encoding import decode_key, encode_key
from pyflink_on_spark.runtime.state.rocksdb import RocksDBKeyedStateBackend, build_options


def _value():
    return ValueStateDescriptor("v", Types.PICKLED_BYTE_ARRAY())


def _list():
    return ListStateDescriptor("l", Types.PICKLED_BYTE_ARRAY())


def _map():
    return MapStateDescriptor("m", Types.PICKLED_BYTE_ARRAY(), Types.PICKLED_BYTE_ARRAY())


def test_more_keys_than_a_tiny_cache(tmp_path, clock):
    b = RocksDBKeyedStateBackend(128, clock, path=str(tmp_path / "db"), cache_entries=8)
    v = b.get_partitioned_state(_value())
    l_ = b.get_partitioned_state(_list())
    n = 3000
    for i in range(2 * n):
        b.set_current_key("key-%d" % (i % n))
        cur = v.value()
        v.update(1 if cur is None else cur + 1)
        l_.add(i)
    assert len(b._cache) <= 8
    for i in range(n):
        b.set_current_key("key-%d" % i)
        assert v.value() == 2
        assert list(l_.get()) == [i, i + n]
    assert len(list(b.keys_for_state(_value()))) == n
    b.close()


def test_cache_bytes_limit_bounds_memory(tmp_path, clock):
    b = RocksDBKeyedStateBackend(128, clock, path=str(tmp_path / "db"), cache_bytes=10_000)
    v = b.get_partitioned_state(_value())
    for i in range(200):
        b.set_current_key(i)
        v.update("x" * 1000)
        assert b._cache_bytes <= 10_000 + 2000
    for i in range(200):
        b.set_current_key(i)
        assert v.value() == "x" * 1000
    b.close()


def test_big_map_streams_without_loading(tmp_path, clock):
    b = RocksDBKeyedStateBackend(128, clock, path=str(tmp_path / "db"))
    m = b.get_partitioned_state(_map())
    b.set_current_key("k")
    m.put_all({i: i for i in range(5000)})
    it = iter(m.items())
    first = next(it)
    assert first[0] == first[1]
    assert sum(1 for _ in m.keys()) == 5000
    b.close()


def test_state_survives_reopen_of_the_same_directory(tmp_path, clock):
    path = str(tmp_path / "db")
    b = RocksDBKeyedStateBackend(128, clock, path=path, delete_on_close=False)
    v = b.get_partitioned_state(_value())
    b.set_current_key(("a", 1))
    v.update({"n": 1})
    b.close()
    b = RocksDBKeyedStateBackend(128, clock, path=path)
    # a different registration order must not matter: ids are stored in the db
    b.get_partitioned_state(_list())
    v = b.get_partitioned_state(_value())
    b.set_current_key(("a", 1))
    assert v.value() == {"n": 1}
    b.close()
    assert not os.path.exists(path)


def test_close_releases_files(tmp_path, clock):
    path = str(tmp_path / "db")
    b = RocksDBKeyedStateBackend(128, clock, path=path)
    b.get_partitioned_state(_value()).update(1)
    assert os.path.isdir(path)
    b.close()
    b.close()  # idempotent
    assert not os.path.exists(path)


@pytest.mark.parametrize("kind", ["heap", "rocksdb"])
def test_snapshot_and_restore(kind, tmp_path, clock):
    def make(name):
        if kind == "heap":
            return HeapKeyedStateBackend(128, clock)
        return RocksDBKeyedStateBackend(128, clock, path=str(tmp_path / name))

    b = make("a")
    v = b.get_partitioned_state(_value())
    l_ = b.get_partitioned_state(_list())
    for k in range(10):
        b.set_current_key(k)
        v.update(k * 10)
        l_.add_all([k, k])
    snap = str(tmp_path / "snap")
    b.snapshot(snap)
    b.set_current_key(0)
    v.update(-1)  # after the snapshot: not in it
    b.close()

    r = make("b")
    r.restore(snap)
    v = r.get_partitioned_state(_value())
    l_ = r.get_partitioned_state(_list())
    for k in range(10):
        r.set_current_key(k)
        assert v.value() == k * 10
        assert list(l_.get()) == [k, k]
    r.close()


def test_key_bytes_are_stable_across_processes():
    keys = ["hello", 42, ("a", "a"), ("x", 1, 2.5), frozenset({"p", "q", "r"}), None, b"\x00",
            -0.0]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))))))
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from pyflink_on_spark.runtime.state.encoding import encode_key\n"
            "print([encode_key(k).hex() for k in %r])" % (root, keys))
    outputs = set()
    for seed in ["1", "2", "12345"]:
        env = dict(os.environ, PYTHONHASHSEED=seed)
        outputs.add(subprocess.check_output([sys.executable, "-c", code], env=env).strip())
    assert len(outputs) == 1
    assert outputs.pop().decode() == str([encode_key(k).hex() for k in keys])


def test_encoding_does_not_depend_on_object_identity():
    s1 = "".join(["a", "b"])
    s2 = "".join(["a", "b"])
    assert s1 is not s2
    assert encode_key((s1, s1)) == encode_key((s1, s2))
    assert encode_key(-0.0) == encode_key(0.0)
    assert encode_key(float("nan")) == encode_key(float("nan"))
    assert encode_key(1) != encode_key(1.0) != encode_key(True)


class Point(object):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __eq__(self, other):
        return isinstance(other, Point) and (self.x, self.y) == (other.x, other.y)

    def __hash__(self):
        return hash((self.x, self.y))


@pytest.mark.parametrize("key", [
    "", "ünïcödé", 0, 10 ** 30, -5, 1.25, float("inf"), b"", b"\xff\x00", bytearray(b"ab"),
    (), (1, (2, (3, "x"))), [1, "a"], None, True, False, frozenset(), frozenset({1, "a"}),
    Point(1, ("a", "a")),
])
def test_encoding_round_trip(key):
    assert decode_key(encode_key(key)) == key
    assert type(decode_key(encode_key(key))) is type(key)


def test_build_options_for_every_predefined_option():
    class Tuned(OptionsFactory):
        calls = []

        def create_db_options(self, current_options):
            self.calls.append("db")
            current_options.set_max_open_files(500)
            return current_options

        def create_column_options(self, current_options):
            self.calls.append("column")
            return None  # None keeps the given options

    for p in PredefinedOptions:
        assert build_options(p) is not None
    tuned = Tuned()
    assert build_options(PredefinedOptions.SPINNING_DISK_OPTIMIZED_HIGH_MEM, tuned) is not None
    assert tuned.calls == ["db", "column"]


# -- factory ----------------------------------------------------------------------------------

@pytest.mark.parametrize("api", [
    None, HashMapStateBackend(), MemoryStateBackend(), FsStateBackend("file:///tmp/cp"),
    "hashmap"])
def test_factory_heap(api, tmp_path, clock):
    b = create_keyed_state_backend(api, work_dir=str(tmp_path), max_parallelism=128,
                                   clock=clock)
    assert isinstance(b, HeapKeyedStateBackend)
    assert b.max_parallelism == 128 and b.clock is clock


def test_factory_rocksdb_under_work_dir(tmp_path, clock):
    api = EmbeddedRocksDBStateBackend()
    api.set_predefined_options(PredefinedOptions.FLASH_SSD_OPTIMIZED)
    b = create_keyed_state_backend(api, work_dir=str(tmp_path), max_parallelism=64,
                                   clock=clock, label="Keyed Process (1/2)")
    assert isinstance(b, RocksDBKeyedStateBackend)
    assert b.path.startswith(str(tmp_path))
    assert "Keyed_Process__1_2_" in os.path.basename(b.path)
    v = b.get_partitioned_state(_value())
    b.set_current_key(1)
    v.update(1)
    assert v.value() == 1
    b.close()
    assert not os.path.exists(b.path)


def test_factory_rocksdb_honours_db_storage_paths(tmp_path, clock):
    api = EmbeddedRocksDBStateBackend()
    d1, d2 = tmp_path / "d1", tmp_path / "d2"
    api.set_db_storage_paths(str(d1), "file://" + str(d2))
    paths = set()
    for i in range(8):
        b = create_keyed_state_backend(api, work_dir=str(tmp_path / ("w%d" % i)),
                                       max_parallelism=128, clock=clock)
        assert os.path.dirname(b.path) in (str(d1), str(d2))
        paths.add(os.path.dirname(b.path))
        b.close()
    assert paths == {str(d1), str(d2)}


def test_factory_deprecated_rocksdb_backend_and_options_factory(tmp_path, clock):
    class Tuned(OptionsFactory):
        used = False

        def create_db_options(self, current_options):
            Tuned.used = True
            return current_options

    api = RocksDBStateBackend("file:///tmp/checkpoints")
    api.set_options(Tuned())
    api.set_db_storage_paths(str(tmp_path / "r"))
    b = create_keyed_state_backend(api, work_dir=str(tmp_path), max_parallelism=128,
                                   clock=clock, cache_entries=4)
    assert isinstance(b, RocksDBKeyedStateBackend)
    assert b.path.startswith(str(tmp_path / "r"))
    assert Tuned.used
    assert b._cache_limit == 4
    b.close()


def test_factory_rejects_unknown(tmp_path, clock):
    with pytest.raises(ValueError, match="hashmap"):
        create_keyed_state_backend("bogus", work_dir=str(tmp_path), max_parallelism=128,
                                   clock=clock)
    with pytest.raises(NotImplementedError, match="HashMapStateBackend"):
        create_keyed_state_backend(object(), work_dir=str(tmp_path), max_parallelism=128,
                                   clock=clock)


@pytest.mark.parametrize("kind", ["heap", "rocksdb"])
def test_restore_into_backend_with_existing_states(kind, tmp_path, clock):
    def make(name):
        if kind == "heap":
            return HeapKeyedStateBackend(128, clock)
        return RocksDBKeyedStateBackend(128, clock, path=str(tmp_path / name))

    a = make("a")
    m = a.get_partitioned_state(_map())
    a.set_current_key("k")
    m.set_current_namespace("w")
    m.put("x", 1)
    a.snapshot(str(tmp_path / "snap"))
    a.close()

    b = make("b")
    v = b.get_partitioned_state(_value())  # registered first: ids differ from "a"
    m = b.get_partitioned_state(_map())
    b.set_current_key("k")
    v.update("lost on restore")
    m.set_current_namespace("w")
    m.put("y", 2)
    b.restore(str(tmp_path / "snap"))
    assert m.get_current_namespace() == "w"
    assert sorted(m.items()) == [("x", 1)]
    assert v.value() is None
    v.update("new")
    assert v.value() == "new"
    b.close()


def test_factory_rocksdb_without_work_dir_uses_temp(clock):
    import tempfile
    b = create_keyed_state_backend("rocksdb", work_dir=None, max_parallelism=128, clock=clock)
    assert b.path.startswith(tempfile.gettempdir())
    b.close()
    assert not os.path.exists(b.path)
