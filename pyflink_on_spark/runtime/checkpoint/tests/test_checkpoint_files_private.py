"""Checkpointed state is pickles executed on restore (docs/security.md): what the store
writes is the user's only, it reads only inside its own directory, and a snapshot's
description cannot name files elsewhere."""
import os
import pickle

import pytest

from pyflink_on_spark.tests.file_modes import mode as _mode, umask_022  # noqa: F401 (autouse)
from pyflink_on_spark.private_files import UnsafePathError
from pyflink_on_spark.runtime.checkpoint import keyed
from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore




def test_what_the_store_writes_is_0700_and_0600_but_the_users_directory_keeps_its_mode(
        tmp_path):
    checkpoints = tmp_path / "checkpoints"       # the directory the user named
    checkpoints.mkdir(mode=0o755)
    store = SnapshotStore(str(checkpoints / "state"))
    store.write_state(1, "op1", 0, {"x": 1})
    store.write_meta(1, {"op1": 1})
    store.write_bytes(store.shared_path("a.sst"), b"sst")
    for directory in (checkpoints / "state", checkpoints / "state" / "v1",
                      checkpoints / "state" / "shared"):
        assert _mode(directory) == 0o700, directory
    for name in ("v1/op1-0.state", "v1/_META", "shared/a.sst"):
        assert _mode(checkpoints / "state" / name) == 0o600, name
    assert _mode(checkpoints) == 0o755
    assert [n for n in os.listdir(checkpoints / "state" / "v1") if ".tmp-" in n] == []


def test_a_state_directory_an_earlier_run_left_open_is_narrowed(tmp_path):
    root = tmp_path / "state"
    (root / "v0").mkdir(parents=True)
    os.chmod(root, 0o755)
    (root / "v0" / "op1-0.state").write_bytes(pickle.dumps({"x": 0}))
    store = SnapshotStore(str(root))
    assert store.read_state(0, "op1", 0) == {"x": 0}
    assert _mode(root) == 0o700


def test_a_state_directory_another_user_made_is_refused_before_anything_is_unpickled(
        tmp_path, monkeypatch):
    root = tmp_path / "state"
    (root / "v0").mkdir(parents=True)
    unpickled = []
    monkeypatch.setattr(pickle, "loads", lambda data: unpickled.append(data))
    (root / "v0" / "op1-0.state").write_bytes(b"planted")
    other = os.getuid() + 1
    monkeypatch.setattr(os, "getuid", lambda: other)
    with pytest.raises(UnsafePathError, match="checkpoint state directory"):
        SnapshotStore(str(root)).read_state(0, "op1", 0)
    assert unpickled == []


def test_a_state_directory_that_is_a_symlink_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "v0").mkdir(parents=True)
    (elsewhere / "v0" / "op1-0.state").write_bytes(pickle.dumps({"x": 0}))
    (tmp_path / "state").symlink_to(elsewhere)
    with pytest.raises(UnsafePathError, match="symbolic link"):
        SnapshotStore(str(tmp_path / "state")).read_state(0, "op1", 0)


def test_the_store_reads_and_writes_only_inside_its_root(tmp_path):
    (tmp_path / "secret").write_bytes(b"s")
    store = SnapshotStore(str(tmp_path / "state"))
    store.write_bytes(store.path("ok"), b"1")
    with pytest.raises(ValueError, match="outside the checkpoint's state directory"):
        store.read_bytes(store.path("..", "secret"))
    with pytest.raises(ValueError, match="outside"):
        store.write_bytes(str(tmp_path / "planted"), b"x")
    with pytest.raises(ValueError, match="outside"):
        store.download_file(str(tmp_path / "secret"), str(tmp_path / "copy"))
    assert not (tmp_path / "planted").exists() and not (tmp_path / "copy").exists()


def test_a_symlink_inside_the_store_pointing_out_is_not_followed(tmp_path):
    (tmp_path / "secret").write_bytes(b"s")
    store = SnapshotStore(str(tmp_path / "state"))
    store.write_bytes(store.path("ok"), b"1")
    os.symlink(tmp_path / "secret", tmp_path / "state" / "link")
    with pytest.raises(ValueError, match="outside"):
        store.read_bytes(store.path("link"))


@pytest.mark.parametrize("sst, private", [
    ({"000001.sst": "../../../secret"}, []),          # read from outside the store
    ({"{tmp}/evil.sst": "abc-000001.sst"}, []),       # written outside the local copy
    ({}, ["../evil.sst"]),
    ({}, [".."]),
])
def test_a_rocksdb_description_naming_other_files_is_refused(tmp_path, sst, private):
    (tmp_path / "secret").write_bytes(b"s")
    store = SnapshotStore(str(tmp_path / "state"))
    store.write_bytes(store.shared_path("abc-000001.sst"), b"sst")
    description = {"sst": {k.format(tmp=tmp_path): v for k, v in sst.items()},
                   "private": private}
    with pytest.raises(ValueError, match="not a plain file name"):
        keyed._download(store, description, 1, "op1", 0, str(tmp_path / "local" / "db"))
    assert not (tmp_path / "evil.sst").exists()
    assert not (tmp_path / "local" / "db" / "000001.sst").exists()


def test_a_rocksdb_download_is_private(tmp_path):
    store = SnapshotStore(str(tmp_path / "state"))
    store.write_bytes(store.shared_path("abc-000001.sst"), b"sst")
    store.write_bytes(store.private_dir(1, "op1", 0) + "/CURRENT", b"MANIFEST-1")
    local = tmp_path / "work" / "db"
    (tmp_path / "work").mkdir()
    sizes = keyed._download(store, {"sst": {"000001.sst": "abc-000001.sst"},
                                    "private": ["CURRENT"]}, 1, "op1", 0, str(local))
    assert sizes == {"000001.sst": ("abc-000001.sst", 3)}
    assert (local / "CURRENT").read_bytes() == b"MANIFEST-1"
    assert _mode(local / "000001.sst") == 0o600 and _mode(local / "CURRENT") == 0o600
