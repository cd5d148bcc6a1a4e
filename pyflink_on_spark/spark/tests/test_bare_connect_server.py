"""Jobs through `sc://` to a Spark Connect server that knows nothing of the shim: pyspark's own
server class started by its own spark-submit, its Python workers a plain PySpark virtualenv
(the `bare_python` fixture), no PYTHONPATH: what a platform team runs. The client ships the
shim as a session artifact; a sample of compat cases prints what PyFlink printed, as on
`local[*]` and through `SPARK_REMOTE=local`."""
import os
import subprocess
import sys
import time

import pytest

import pyflink_on_spark
from pyflink_on_spark.spark.tests.kafka_broker import free_port
from pyflink_on_spark.spark.tests.standalone_cluster import clean_python_environment, spark_home

CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(pyflink_on_spark.__file__)))
CASES = os.path.join(CHECKOUT, "compat_tests", "cases")
SERVER_CLASS = "org.apache.spark.sql.connect.service.SparkConnectServer"
SAMPLE = ["basic/map_lambda_p1", "basic/key_by_reduce_p1", "state/event_time_timers",
          "window/event_time_tumbling_process", "two_input/keyed_co_process_timer",
          "connectors/file_sink_rolling_parts"]
START_TIMEOUT_S = 180

JOB = '''
from pyflink.datastream import StreamExecutionEnvironment
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection([1, 2, 3]).map(lambda x: x * 10).print()
env.execute()
'''


@pytest.fixture(scope="module")
def bare_connect_server(bare_python, tmp_path_factory):
    """sc:// URL of a Connect server on loopback (local[2]) whose workers run the bare
    Python; stopped after the module's tests."""
    work = tmp_path_factory.mktemp("bare-connect")
    port = free_port()
    env = clean_python_environment()
    env.update(PYSPARK_PYTHON=bare_python, SPARK_LOCAL_IP="127.0.0.1")
    log = open(os.path.join(str(work), "server.log"), "w")
    server = subprocess.Popen(
        [os.path.join(spark_home(), "bin", "spark-submit"), "--class", SERVER_CLASS,
         "--master", "local[2]", "--conf", "spark.connect.grpc.binding.address=127.0.0.1",
         "--conf", "spark.connect.grpc.binding.port=%d" % port,
         "--conf", "spark.ui.enabled=false"] + _class_sharing(),
        env=env, cwd=str(work), stdout=log, stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL, start_new_session=True)
    import socket
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            assert server.poll() is None, open(log.name).read()[-3000:]
            assert time.monotonic() < deadline, open(log.name).read()[-3000:]
            time.sleep(0.3)
    try:
        yield "sc://127.0.0.1:%d" % port
    finally:
        os.killpg(server.pid, 15)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, 9)
            server.wait()
        log.close()


def _class_sharing():
    """The server's JVM maps the class-data-sharing archive the shim's local sessions wrote
    for these jars (spark/class_cache.py), when there is one: JVM options only, which make
    its start quicker (CI time) and tell it nothing of the shim."""
    from pyflink_on_spark.spark.class_cache import class_cache_for
    from pyflink_on_spark.spark.session import java_binary
    cache = class_cache_for(java_binary(), spark_home())
    options = cache.mapping_options() if cache is not None else ""
    return ["--driver-java-options", options] if options else []


def _client(args, url, cwd, ship=True):
    env = clean_python_environment()
    env.update(SPARK_REMOTE=url, PYFLINK_ON_SPARK_SHIP="1" if ship else "0")
    return subprocess.run([sys.executable, "-m", "pyflink_on_spark.cli.main"] + args, env=env,
                          cwd=cwd, capture_output=True, text=True, timeout=900)


@pytest.mark.parametrize("ship", [True, False], ids=["shipped", "not-shipped"])
def test_a_job_through_sc_to_a_bare_connect_server(bare_connect_server, tmp_path, ship):
    script = tmp_path / "job.py"
    script.write_text(JOB)
    # from a directory of its own: the server's workers must not find the checkout there
    proc = _client(["run", str(script)], bare_connect_server, str(tmp_path), ship)
    if ship:
        assert proc.returncode == 0, proc.stderr[-4000:]
        assert proc.stdout == "10\n20\n30\n", proc.stderr[-3000:]
    else:   # the server's workers have nothing of ours but what a session ships
        assert proc.returncode != 0
        assert "No module named 'pyflink_on_spark'" in proc.stderr, proc.stderr[-3000:]


def test_compat_cases_through_sc_to_a_bare_connect_server_print_what_pyflink_printed(
        bare_connect_server, tmp_path):
    keywords = [arg for name in SAMPLE for arg in ("-k", name)]
    proc = _client(["compat", CASES] + keywords, bare_connect_server, str(tmp_path))
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-3000:]
    assert proc.stdout.splitlines()[-1] == "%d passed, 0 failed" % len(SAMPLE), proc.stdout
