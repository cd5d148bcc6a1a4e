"""The temp-directory sweep (spark/temp_dirs.py) the runs' leftovers go through."""
import os
import time

import pytest

from pyflink_on_spark.spark.temp_dirs import remove_left_behind, untouched_for


def test_only_entries_with_the_prefix_that_are_left_behind_go(tmp_path):
    for name in ("run-1-old", "run-2-new", "other-old"):
        (tmp_path / name).mkdir()
    then = time.time() - 7200
    for name in ("run-1-old", "other-old"):
        os.utime(tmp_path / name, (then, then))
    assert remove_left_behind("run-", lambda e: untouched_for(e, 3600), str(tmp_path)) == 1
    assert sorted(os.listdir(tmp_path)) == ["other-old", "run-2-new"]


def test_an_entry_that_cannot_be_read_is_skipped(tmp_path):
    (tmp_path / "run-1").mkdir()

    def unreadable(entry):
        raise FileNotFoundError(entry.path)    # e.g. removed by another process meanwhile

    assert remove_left_behind("run-", unreadable, str(tmp_path)) == 0
    assert os.listdir(tmp_path) == ["run-1"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="needs root to give a directory to another uid")
def test_another_users_entries_are_neither_read_nor_removed(tmp_path):
    (tmp_path / "run-mine").mkdir()
    (tmp_path / "run-theirs").mkdir()
    os.chown(tmp_path / "run-theirs", 65534, -1)     # nobody's, in a shared temp directory
    asked = []

    def left_behind(entry):
        asked.append(entry.name)
        return True

    assert remove_left_behind("run-", left_behind, str(tmp_path)) == 1
    assert asked == ["run-mine"]
    assert os.listdir(tmp_path) == ["run-theirs"]
