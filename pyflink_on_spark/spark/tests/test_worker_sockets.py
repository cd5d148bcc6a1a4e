"""The JVM's sockets to its Python workers: Unix sockets in a directory of the session's own,
removed at exit (Spark leaves its socket files behind); the other settings of a local
master."""
import os
import subprocess
import sys
import tempfile

from pyflink_on_spark.spark.session import (is_local_master, local_master_settings,
                                            worker_socket_settings)


def test_a_short_directory_gets_unix_sockets_and_a_long_one_keeps_tcp():
    assert worker_socket_settings("/tmp/x") == {
        "spark.python.unix.domain.socket.enabled": "true",
        "spark.python.unix.domain.socket.dir": "/tmp/x"}
    assert worker_socket_settings("/tmp/" + "d" * 70) == {}
    assert worker_socket_settings(None) == {}


def test_only_a_local_master_keeps_its_worker_sockets_in_a_directory_of_the_driver():
    # a cluster's executors run elsewhere, where the driver's directory does not exist
    assert is_local_master("local[*,4]") and is_local_master("local")
    assert not is_local_master("yarn")
    assert not is_local_master("spark://host:7077")
    assert not is_local_master(None)          # under spark-submit: not known here


def test_a_local_master_shuffles_without_compression_or_checksums_and_a_cluster_as_spark_does():
    local = local_master_settings("local[*,4]", lambda: "/tmp/x")
    assert (local["spark.shuffle.compress"], local["spark.shuffle.checksum.enabled"],
            local["spark.python.unix.domain.socket.dir"]) == ("false", "false", "/tmp/x")
    made = []
    assert local_master_settings("yarn", lambda: made.append(1)) == {}
    assert made == []        # no socket directory is made for a cluster


def test_the_test_session_runs_with_the_local_shuffle(spark):
    conf = spark.sparkContext.getConf()
    assert conf.get("spark.shuffle.compress") == "false"
    assert conf.get("spark.shuffle.checksum.enabled") == "false"


def test_the_sockets_directory_goes_with_its_process_and_orphans_are_removed():
    root = tempfile.gettempdir()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    orphan = tempfile.mkdtemp(prefix="pyflink-on-spark-sockets-%s-" % dead, dir=root)
    mine = tempfile.mkdtemp(prefix="pyflink-on-spark-sockets-%d-" % os.getpid(), dir=root)
    try:
        made = subprocess.run(
            [sys.executable, "-c", "from pyflink_on_spark.spark.session import "
             "worker_socket_dir; d = worker_socket_dir(); import os; "
             "print(d, os.path.isdir(d))"],
            capture_output=True, text=True, check=True).stdout.split()
        assert made[1] == "True"                 # it existed while its process ran
        assert not os.path.exists(made[0])       # and left with it
        assert not os.path.exists(orphan)        # a gone process's directory is removed
        assert os.path.isdir(mine)               # a live one's is not
    finally:
        for path in (orphan, mine):
            if os.path.isdir(path):
                os.rmdir(path)


def test_the_session_puts_its_worker_sockets_in_its_own_directory(spark):
    directory = spark.sparkContext.getConf().get("spark.python.unix.domain.socket.dir")
    assert os.path.basename(directory).startswith("pyflink-on-spark-sockets-%d-" % os.getpid())
    spark.range(2).mapInArrow(lambda batches: batches, "id long").count()  # a Python task
    assert any(name.endswith(".sock") for name in os.listdir(directory))


def test_the_test_session_keeps_the_status_of_its_last_100_jobs(spark):
    # an unbounded job's driver keeps a bounded status history (session.STATUS_RETENTION)
    conf = spark.sparkContext.getConf()
    assert [conf.get(k) for k in ("spark.ui.retainedJobs", "spark.ui.retainedStages",
                                  "spark.ui.retainedTasks",
                                  "spark.sql.ui.retainedExecutions")] == \
        ["100", "100", "10000", "100"]
