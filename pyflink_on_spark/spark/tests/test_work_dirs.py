"""Task scratch directories: named after their worker process, and removed by a later
worker once that process is gone (Spark stops workers without letting them clean up)."""
import os
import subprocess
import sys
import tempfile

from pyflink_on_spark.spark import work_dirs


def _dead_pid() -> int:
    return int(subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True).stdout)


def test_only_the_directories_of_gone_workers_are_removed(tmp_path):
    dead = tmp_path / ("pyflink-on-spark-s0-1-p%d-abc" % _dead_pid())
    mine = tmp_path / ("pyflink-on-spark-s0-1-p%d-def" % os.getpid())
    # an earlier version's names carry no process: removed once a day old
    stale = tmp_path / "pyflink-on-spark-s2-0-ab_c12xy"
    recent = tmp_path / "pyflink-on-spark-s2-1-zz9_8765"
    others = [tmp_path / name for name in ("pyflink-on-spark-shipped",
                                           "pyflink-on-spark-stream-x1abcdef")]
    for directory in [dead, mine, stale, recent] + others:
        directory.mkdir()
        (directory / "state.sst").write_bytes(b"x")
    day_ago = os.stat(stale).st_mtime - work_dirs.UNOWNED_AGE_S - 60
    os.utime(stale, (day_ago, day_ago))
    assert work_dirs.remove_orphaned_task_dirs(str(tmp_path)) == 2
    assert not dead.exists() and not stale.exists()
    assert mine.exists() and recent.exists() and all(d.exists() for d in others)


def test_a_new_task_dir_is_named_after_this_process_and_sweeps_once(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(work_dirs, "_swept", False)
    orphan = tmp_path / ("pyflink-on-spark-s1-0-p%d-old" % _dead_pid())
    orphan.mkdir()
    made = work_dirs.new_task_dir(3, 1)
    assert os.path.basename(made).startswith("pyflink-on-spark-s3-1-p%d-" % os.getpid())
    assert os.path.dirname(made) == str(tmp_path) and not orphan.exists()
    orphan.mkdir()
    work_dirs.new_task_dir(3, 2)     # this process has swept already
    assert orphan.exists()
