"""The Python workers of a local Spark import pyspark from the installed package (with its
bytecode), not from Spark's pyspark.zip (spark/worker_daemon.py)."""
import os

from pyflink_on_spark.spark.session import local_master_settings
from pyflink_on_spark.spark.worker_daemon import installed_pyspark_first


def _pip_layout(root, py4j_installed="0.10.9.9"):
    site = root / "site-packages"
    lib = site / "pyspark" / "python" / "lib"
    lib.mkdir(parents=True)
    (site / "pyspark" / "__init__.py").write_text("")
    (lib / "pyspark.zip").write_bytes(b"")
    (lib / "py4j-0.10.9.9-src.zip").write_bytes(b"")
    (site / ("py4j-%s.dist-info" % py4j_installed)).mkdir()
    return str(site), str(lib / "pyspark.zip"), str(lib / "py4j-0.10.9.9-src.zip")


def test_the_zips_of_the_installed_pyspark_move_behind_its_site_directory(tmp_path):
    site, zip_, py4j_zip = _pip_layout(tmp_path)
    path = ["/job", zip_, py4j_zip, "/usr/lib/python311.zip", site]
    assert installed_pyspark_first(path) == ["/job", "/usr/lib/python311.zip", site, zip_,
                                             py4j_zip]


def test_py4j_zip_stays_first_when_the_installed_py4j_is_another_version(tmp_path):
    site, zip_, py4j_zip = _pip_layout(tmp_path, py4j_installed="0.10.9.7")
    assert installed_pyspark_first([zip_, py4j_zip, site]) == [py4j_zip, site, zip_]


def test_a_zip_of_another_spark_home_stays_first(tmp_path):
    site, _, _ = _pip_layout(tmp_path)
    other = "/opt/spark/python/lib/pyspark.zip"   # a SPARK_HOME of its own: other code
    assert installed_pyspark_first([other, site]) == [other, site]
    _, zip_, _ = _pip_layout(tmp_path / "elsewhere")
    assert installed_pyspark_first([zip_, site]) == [zip_, site]   # its site not on the path


def test_only_a_local_master_gets_the_daemon():
    assert local_master_settings("local[2]", lambda: None)["spark.python.daemon.module"] == \
        "pyflink_on_spark.spark.worker_daemon"
    assert "spark.python.daemon.module" not in local_master_settings("yarn", lambda: None)


def test_the_test_sessions_workers_import_the_installed_pyspark(spark):
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    files = list(env.from_collection([1]).map(
        lambda _: __import__("pyspark").__file__).execute_and_collect())
    assert len(files) == 1 and ".zip" not in files[0]
    assert os.path.basename(files[0]) == "__init__.py"


def test_a_worker_whose_jvm_hung_up_ends_without_a_traceback():
    from pyflink_on_spark.spark.worker_daemon import quiet_when_the_jvm_is_gone

    def flush_fails(sock, authenticated):
        raise BrokenPipeError(32, "Broken pipe")

    assert quiet_when_the_jvm_is_gone(flush_fails)(None, True) == 1
    assert quiet_when_the_jvm_is_gone(lambda sock, authenticated: 0)(None, True) == 0


def test_other_worker_errors_still_reach_the_daemon():
    import pytest
    from pyflink_on_spark.spark.worker_daemon import quiet_when_the_jvm_is_gone

    def fails(sock, authenticated):
        raise ValueError("not a hang-up")

    with pytest.raises(ValueError):
        quiet_when_the_jvm_is_gone(fails)(None, True)


def test_workers_of_another_python_keep_pysparks_daemon(monkeypatch, tmp_path):
    import sys
    from pyflink_on_spark.spark.session import is_this_python
    other = tmp_path / "python"
    other.write_text("#!/bin/sh\nexit 1\n")
    other.chmod(0o755)
    assert is_this_python(sys.executable) and is_this_python(None)
    assert not is_this_python(str(other))
    venv_python = tmp_path / "venv" / "bin" / "python"   # a link to this binary elsewhere:
    venv_python.parent.mkdir(parents=True)               # another virtualenv's packages
    venv_python.symlink_to(os.path.realpath(sys.executable))
    assert not is_this_python(str(venv_python))
    monkeypatch.setenv("PYSPARK_PYTHON", str(other))
    assert "spark.python.daemon.module" not in local_master_settings("local[2]", lambda: None)


def test_a_job_python_that_cannot_import_the_daemon_is_refused_before_the_job(tmp_path):
    import sys
    import pytest
    from pyflink_on_spark.spark.python_dependencies import _require_daemon_module

    class Conf:
        def get(self, key, default=None):
            return "pyflink_on_spark.spark.worker_daemon"

    class Context:
        def getConf(self):
            return Conf()

    other = tmp_path / "python"
    other.write_text("#!/bin/sh\nexit 1\n")     # finds no module
    other.chmod(0o755)
    with pytest.raises(RuntimeError, match="cannot import pyflink_on_spark.spark.worker_daemon"):
        _require_daemon_module(Context(), str(other))
    _require_daemon_module(Context(), sys.executable)   # this Python: nothing to check


def test_a_workers_imports_are_frozen_before_its_second_task_once():
    from pyflink_on_spark.spark.worker_daemon import imports_frozen_after_the_first_task
    events = []

    def task(sock, authenticated):
        events.append("task")
        return 0

    worker = imports_frozen_after_the_first_task(task, freeze=lambda: events.append("freeze"))
    for _ in range(4):
        assert worker(None, True) == 0
    assert events == ["task", "freeze", "task", "task", "task"]


def test_the_test_sessions_reused_workers_collect_only_what_tasks_made(spark):
    # a job of one task, four times: the later ones run on a worker past its first task,
    # whose imports are frozen (gc.get_freeze_count counts the frozen objects)
    counts = [spark.sparkContext.parallelize([0], 1).map(
        lambda _: __import__("gc").get_freeze_count()).collect()[0] for _ in range(4)]
    assert counts[-1] > 10000
