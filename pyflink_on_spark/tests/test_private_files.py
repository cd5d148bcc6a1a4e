"""The shim's own directories and files are the user's only (private_files.py): 0700 / 0600
whatever the umask, and a symlink or another user's entry at one of its paths is refused."""
import os
import tempfile

import pytest

from pyflink_on_spark.tests.file_modes import mode as _mode, umask_022  # noqa: F401 (autouse)
from pyflink_on_spark.private_files import (UnsafePathError, ensure_owned, makedirs_private,
                                            open_private, private_dir, shared_temp_dir)




def _another_user(monkeypatch) -> int:
    """From here on this process runs as another uid: everything made so far is foreign."""
    other = os.getuid() + 1
    monkeypatch.setattr(os, "getuid", lambda: other)
    return other


def test_new_directories_are_0700_every_level(tmp_path):
    path = tmp_path / "a" / "b" / "c"
    assert private_dir(str(path)) == str(path)
    assert [_mode(p) for p in (tmp_path / "a", tmp_path / "a" / "b", path)] == [0o700] * 3


def test_makedirs_private_leaves_existing_directories_alone(tmp_path):
    (tmp_path / "mine").mkdir(mode=0o755)
    makedirs_private(str(tmp_path / "mine" / "x" / "y"))
    assert _mode(tmp_path / "mine") == 0o755
    assert _mode(tmp_path / "mine" / "x") == 0o700 and _mode(tmp_path / "mine" / "x" / "y") == 0o700


def test_an_existing_directory_of_ours_is_narrowed(tmp_path):
    path = tmp_path / "wide"
    path.mkdir()
    os.chmod(path, 0o777)
    private_dir(str(path))
    assert _mode(path) == 0o700


def test_a_symlink_is_refused_and_its_target_untouched(tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir(mode=0o755)
    link = tmp_path / "link"
    link.symlink_to(target)
    with pytest.raises(UnsafePathError, match="symbolic link"):
        private_dir(str(link))
    assert _mode(target) == 0o755


def test_another_users_directory_is_refused_with_what_to_do(tmp_path, monkeypatch):
    path = tmp_path / "theirs"
    path.mkdir(mode=0o777)
    os.chmod(path, 0o777)
    _another_user(monkeypatch)
    with pytest.raises(UnsafePathError) as refused:
        private_dir(str(path))
    assert str(path) in str(refused.value) and "not to you" in str(refused.value)
    assert "Remove it" in str(refused.value)
    assert _mode(path) == 0o777
    assert isinstance(refused.value, PermissionError)    # caches catching OSError do without


def test_ensure_owned_only_checks(tmp_path, monkeypatch):
    assert ensure_owned(str(tmp_path / "missing")) is False
    assert not (tmp_path / "missing").exists()
    assert ensure_owned(str(tmp_path)) is True
    _another_user(monkeypatch)
    with pytest.raises(UnsafePathError):
        ensure_owned(str(tmp_path))


def test_new_files_are_0600_and_text_or_bytes(tmp_path):
    with open_private(str(tmp_path / "b"), "wb") as f:
        f.write(b"x")
    with open_private(str(tmp_path / "t"), "w", encoding="utf-8") as f:
        f.write("é")
    assert _mode(tmp_path / "b") == 0o600 and _mode(tmp_path / "t") == 0o600
    assert (tmp_path / "t").read_text(encoding="utf-8") == "é"


def test_an_existing_file_of_ours_is_narrowed_appended_or_truncated(tmp_path):
    path = tmp_path / "f"
    path.write_text("ab")
    os.chmod(path, 0o666)
    with open_private(str(path), "a") as f:
        f.write("c")
    assert path.read_text() == "abc" and _mode(path) == 0o600
    with open_private(str(path), "w") as f:
        f.write("d")
    assert path.read_text() == "d"
    with pytest.raises(FileExistsError):
        open_private(str(path), "xb")


def test_a_symlinked_file_is_refused_and_its_target_kept(tmp_path):
    target = tmp_path / "victim"
    target.write_text("keep me")
    link = tmp_path / "out.html"
    link.symlink_to(target)
    for mode in ("wb", "a", "xb"):
        with pytest.raises(UnsafePathError, match="symbolic link"):
            open_private(str(link), mode)
    assert target.read_text() == "keep me"


def test_another_users_file_is_refused_before_truncating(tmp_path, monkeypatch):
    path = tmp_path / "theirs"
    path.write_text("theirs")
    _another_user(monkeypatch)
    with pytest.raises(UnsafePathError, match="belongs to uid"):
        open_private(str(path), "w")
    assert path.read_text() == "theirs"


def test_open_private_takes_only_writing_modes(tmp_path):
    with pytest.raises(ValueError, match="mode"):
        open_private(str(tmp_path / "f"), "rb")


def test_a_shared_temp_dir_is_named_per_user_and_private(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    made = shared_temp_dir("pyflink-on-spark-x")
    assert made == str(tmp_path / ("pyflink-on-spark-x-%d" % os.getuid()))
    assert _mode(made) == 0o700
    assert shared_temp_dir("pyflink-on-spark-x") == made      # reused


def test_a_shared_temp_dir_another_user_made_first_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    other = os.getuid() + 1
    pre_made = tmp_path / ("pyflink-on-spark-x-%d" % other)
    pre_made.mkdir()
    _another_user(monkeypatch)          # that uid's name, but made by us: not theirs
    with pytest.raises(UnsafePathError, match="pyflink-on-spark-x-%d" % other):
        shared_temp_dir("pyflink-on-spark-x")


def test_a_shared_temp_dir_pre_made_as_a_symlink_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    (tmp_path / "target").mkdir()
    (tmp_path / ("pyflink-on-spark-x-%d" % os.getuid())).symlink_to(tmp_path / "target")
    with pytest.raises(UnsafePathError, match="symbolic link"):
        shared_temp_dir("pyflink-on-spark-x")
