"""The temp-directory sweep (spark/temp_dirs.py) the runs' leftovers go through."""
import os
import time

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
