"""State backends' files are pickles read back as code (docs/security.md): their
directories are the user's only, whatever the umask, and the shared temp fallback of RocksDB
is refused when another user made it."""
import os
import tempfile

import pytest

from pyflink_on_spark.tests.file_modes import mode as _mode, umask_022  # noqa: F401 (autouse)
from pyflink_on_spark.private_files import UnsafePathError
from pyflink_on_spark.runtime.state import create_keyed_state_backend
from pyflink_on_spark.runtime.state.heap import HeapKeyedStateBackend
from pyflink_on_spark.runtime.state.rocksdb import RocksDBKeyedStateBackend




def test_a_heap_snapshot_is_0700_and_0600(tmp_path, clock):
    backend = HeapKeyedStateBackend(128, clock)
    backend.snapshot(str(tmp_path / "snap"))
    assert _mode(tmp_path / "snap") == 0o700
    (name,) = os.listdir(tmp_path / "snap")
    assert _mode(tmp_path / "snap" / name) == 0o600


def test_a_rocksdb_directory_is_0700_also_after_a_restore(tmp_path, clock):
    backend = RocksDBKeyedStateBackend(128, clock, path=str(tmp_path / "db"))
    try:
        assert _mode(tmp_path / "db") == 0o700
        snap = tmp_path / "snap"
        backend.snapshot(str(snap))
        os.chmod(snap, 0o755)                  # copytree carries the snapshot's mode over
        backend.restore(str(snap))
        assert _mode(tmp_path / "db") == 0o700
    finally:
        backend.close()


def test_a_rocksdb_directory_that_is_a_symlink_is_refused(tmp_path, clock):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "db").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(UnsafePathError, match="RocksDB directory"):
        RocksDBKeyedStateBackend(128, clock, path=str(tmp_path / "db"))
    assert os.listdir(tmp_path / "elsewhere") == []


def test_rocksdb_without_a_work_dir_uses_the_users_own_temp_directory(tmp_path, clock,
                                                                       monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    backend = create_keyed_state_backend("rocksdb", work_dir=None, max_parallelism=128,
                                         clock=clock)
    try:
        base = tmp_path / ("pyflink-on-spark-rocksdb-%d" % os.getuid())
        assert os.path.dirname(backend.path) == str(base)
        assert _mode(base) == 0o700 and _mode(backend.path) == 0o700
    finally:
        backend.close()


def test_rocksdb_refuses_a_temp_directory_another_user_made(tmp_path, clock, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    other = os.getuid() + 1
    (tmp_path / ("pyflink-on-spark-rocksdb-%d" % other)).mkdir(mode=0o777)
    monkeypatch.setattr(os, "getuid", lambda: other)    # that user's name, made by another
    with pytest.raises(UnsafePathError, match="pyflink-on-spark-rocksdb-%d" % other):
        create_keyed_state_backend("rocksdb", work_dir=None, max_parallelism=128,
                                   clock=clock)
