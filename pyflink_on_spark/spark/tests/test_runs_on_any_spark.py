"""Jobs on a Spark with nothing of ours installed (issue 38; spark/package_shipping.py): a
standalone cluster whose executors run a plain PySpark virtualenv, spark-submit to it, and
pyspark's own local Connect server whose Python lacks the shim. Each client is a process of
its own, as a user runs it; the recorded PyFlink output is the reference."""
import os
import sys


import pyflink_on_spark
from pyflink_on_spark.spark.tests.local_connect import one_local_connect_server
from pyflink_on_spark.spark.tests.standalone_cluster import (clean_python_environment,
                                                            with_class_sharing)

CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(pyflink_on_spark.__file__)))
CASES = os.path.join(CHECKOUT, "compat_tests", "cases")
# operators, keyed state (HashMap and RocksDB), timers, windows (event time, counts), two
# inputs, a FileSink, a parallel print: each a job on the cluster, its output compared with
# PyFlink's
CLUSTER_SAMPLE = ["basic/map_lambda_p1", "basic/key_by_reduce_p1", "basic/batch_print_parallel",
                  "state/aggregating_state", "state/event_time_timers",
                  "window/event_time_tumbling_process", "window/count_tumbling_apply",
                  "two_input/keyed_co_process_timer", "connectors/file_sink_rolling_parts",
                  # EmbeddedRocksDBStateBackend: rocksdict shipped as an archive
                  "state/state_backends"]

JOB = '''
from pyflink.datastream import StreamExecutionEnvironment
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection([1, 2, 3]).map(lambda x: x * 10).print()
env.execute()
'''

FAILING_JOB = '''
from pyflink.datastream import StreamExecutionEnvironment


def divide(x):
    return 10 // (x - 2)          # the user's own line: x == 2 divides by zero


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection([1, 2, 3]).map(divide).print()
env.execute()
'''

SUBMITTED_JOB = '''
from pyflink_on_spark.aliasing import install_pyflink_alias; install_pyflink_alias()
''' + JOB


def _cli(args):
    return [sys.executable, "-m", "pyflink_on_spark.cli.main"] + args


def compat_arguments():
    """The `pyflink-on-spark compat` command's arguments: CLUSTER_SAMPLE's cases."""
    return ["compat", CASES] + [arg for name in CLUSTER_SAMPLE for arg in ("-k", name)]


def test_compat_cases_on_a_cluster_without_the_shim_print_what_pyflink_printed(
        client_jobs_on_the_cluster, standalone_cluster):
    # `pyflink-on-spark compat` runs in the client application of the Kafka and JDBC cluster
    # tests' jobs (client_jobs_on_the_cluster in conftest.py): each cluster application costs
    # its driver's and executors' start
    run = client_jobs_on_the_cluster
    out = run.output_of("compat")
    diagnosis = out[-4000:] + run.err[-3000:] + standalone_cluster.executor_log_tails()
    assert run.exit_code("compat") == 0 and run.code == 0, diagnosis
    assert out.splitlines()[-1] == "%d passed, 0 failed" % len(CLUSTER_SAMPLE), out


def test_a_user_error_on_the_cluster_shows_the_users_traceback_not_the_engines(
        standalone_cluster, tmp_path):
    script = tmp_path / "failing_job.py"
    script.write_text(FAILING_JOB)
    # the cluster named by `run --master` alone (the other tests name it in the environment)
    env = standalone_cluster.env()
    del env["PYFLINK_ON_SPARK_MASTER"]
    code, out, err = standalone_cluster.run_client(
        _cli(["run", "--master", standalone_cluster.master_url, str(script)]), str(tmp_path),
        cwd=CHECKOUT, env=env)
    assert code == 1, err[-3000:]
    assert "ZeroDivisionError" in err and "failing_job.py" in err, err[-3000:]
    assert "return 10 // (x - 2)" in err, err[-3000:]
    # the shipped bytecode names the engine's files relative to its zip: still hidden
    assert "pyflink_on_spark/runtime/" not in err, err[-3000:]


def test_spark_submit_of_a_job_runs_on_the_cluster_without_py_files(standalone_cluster,
                                                                   tmp_path):
    from pyflink_on_spark.spark.tests.standalone_cluster import (class_sharing_options,
                                                                spark_home)
    script = tmp_path / "submitted_job.py"
    script.write_text(SUBMITTED_JOB)
    env = standalone_cluster.env()
    # the driver maps the shim's class-data-sharing archive, if any: JVM options only
    options = class_sharing_options()
    submit = [os.path.join(spark_home(), "bin", "spark-submit"), "--master",
              standalone_cluster.master_url, "--conf", "spark.driver.host=127.0.0.1",
              "--conf", "spark.ui.enabled=false"] + (
                  ["--driver-java-options", options] if options else []) + [str(script)]
    # spark-submit's driver is this interpreter (PYSPARK_DRIVER_PYTHON), where the shim is
    code, out, err = standalone_cluster.run_client(submit, str(tmp_path), cwd=CHECKOUT,
                                                   env=env)
    assert code == 0, err[-4000:] + standalone_cluster.executor_log_tails()
    assert out == "10\n20\n30\n", err[-3000:]


def _connect_local_env(bare_python):
    """A client whose `SPARK_REMOTE=local` starts pyspark's own local Connect server, whose
    Python workers run the bare Python; nothing of ours on their path but what is shipped."""
    env = clean_python_environment()
    env.update(SPARK_REMOTE="local", PYSPARK_PYTHON=bare_python,
               PYFLINK_ON_SPARK_SHIP="1")
    # the server's JVM maps the shim's class-data-sharing archive, if any: JVM options only
    return with_class_sharing(env)


# Shipped only: that without shipping such a server's workers cannot run the job is shown
# once, through a bare Connect server (test_bare_connect_server.py, "not-shipped"): each run
# here starts a Connect server's JVM in the client (~20 s).
def test_a_job_through_a_local_connect_server_whose_python_lacks_the_shim(bare_python,
                                                                         tmp_path):
    import subprocess
    script = tmp_path / "job.py"
    script.write_text(JOB)
    # from a directory of its own: the server's workers must not find the checkout there
    with one_local_connect_server():
        proc = subprocess.run([sys.executable, "-m", "pyflink_on_spark.cli.main", "run",
                               str(script)], env=_connect_local_env(bare_python),
                              cwd=str(tmp_path), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert proc.stdout == "10\n20\n30\n", proc.stderr[-3000:]


def _python_of_another_minor_version(tmp_path) -> str:
    """An interpreter of another minor version than this one on this machine (pyenv's, the
    system's); else a stand-in answering the driver's one question as such a Python would
    (a plain script: were it run as a PySpark worker, it would fail otherwise)."""
    import glob
    import subprocess
    this = "%d.%d" % sys.version_info[:2]
    candidates = set(glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python3"))
                     + glob.glob("/usr/bin/python3.*") + glob.glob("/usr/local/bin/python3.*"))
    for python in sorted(candidates):
        if not os.access(python, os.X_OK) or python.endswith("-config"):
            continue
        found = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                               capture_output=True, text=True)
        if found.returncode == 0 and found.stdout.strip() not in ("", this):
            return python
    stand_in = tmp_path / "python3.99"
    stand_in.write_text('#!/bin/sh\necho \'{"python": "3.99", "platform": "linux-x86_64", '
                        '"packages": {}}\'\n')
    stand_in.chmod(0o755)
    return str(stand_in)


def _jobs_started(event_dir) -> list:
    """The descriptions of the Spark jobs an uncompressed event log records."""
    import glob
    import json
    descriptions = []
    for path in glob.glob(os.path.join(str(event_dir), "*")):
        with open(path) as f:
            for line in f:
                event = json.loads(line)
                if event["Event"] == "SparkListenerJobStart":
                    descriptions.append(event["Properties"].get("spark.job.description"))
    return descriptions


def test_executors_of_another_minor_python_fail_the_job_before_any_task_saying_what_to_do(
        standalone_cluster, tmp_path):
    script = tmp_path / "job.py"
    script.write_text(JOB)
    other = _python_of_another_minor_version(tmp_path)
    events = tmp_path / "events"
    events.mkdir()
    env = standalone_cluster.env()
    env["PYSPARK_PYTHON"] = other
    conf = ["spark.eventLog.enabled=true", "spark.eventLog.dir=file://%s" % events,
            "spark.eventLog.compress=false", "spark.eventLog.rolling.enabled=false"]
    code, out, err = standalone_cluster.run_client(
        _cli(["run"] + [arg for c in conf for arg in ("--conf", c)] + [str(script)]),
        str(tmp_path), cwd=CHECKOUT, env=env)
    driver = "%d.%d" % sys.version_info[:2]
    assert code == 1, err[-3000:]
    assert "The executors' Python (%s) is Python 3." % other in err, err[-3000:]
    assert "the driver's (%s) Python %s" % (sys.executable, driver) in err, err[-3000:]
    assert "Name a Python %s on the executors with PYSPARK_PYTHON or --conf " \
        "spark.pyspark.python" % driver in err, err[-3000:]
    assert "PYTHON_VERSION_MISMATCH" not in err and out == ""
    # the one Spark job that ran asked the executors' Python; none of the job's ran
    assert _jobs_started(events) == ["pyflink-on-spark: which Python the executors run"]
