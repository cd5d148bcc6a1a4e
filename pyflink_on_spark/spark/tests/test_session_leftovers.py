"""A run leaves no log-configuration directory behind, and the default master retries a
failed task as a cluster does."""
import os
import tempfile
import time

from pyflink_on_spark.spark import session


def test_the_log_configuration_directory_is_removed_once_the_jvm_started(spark):
    leftovers = [n for n in os.listdir(tempfile.gettempdir())
                 if n.startswith(session._CONF_PREFIX)]
    for name in leftovers:   # other live runs may be starting: none may be ours
        assert os.environ.get("SPARK_CONF_DIR") != os.path.join(tempfile.gettempdir(), name)
    assert not os.environ.get("SPARK_CONF_DIR", "").startswith(
        os.path.join(tempfile.gettempdir(), session._CONF_PREFIX))


def test_configuration_directories_of_runs_that_died_starting_are_removed(tmp_path,
                                                                          monkeypatch):
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    old = tmp_path / (session._CONF_PREFIX + "old")
    old.mkdir()
    long_ago = time.time() - 7200
    os.utime(old, (long_ago, long_ago))
    fresh = tmp_path / (session._CONF_PREFIX + "fresh")
    fresh.mkdir()
    session._remove_stale_conf_dirs()
    assert not old.exists() and fresh.exists()


def test_the_default_master_retries_failed_tasks(spark):
    if os.environ.get(session.MASTER_ENV):
        return   # a master chosen for this test run
    assert spark.sparkContext.master == session.DEFAULT_MASTER
