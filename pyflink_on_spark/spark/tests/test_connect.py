"""Jobs through Spark Connect: a local Connect server (started once for this module by
`pyflink-on-spark serve`, stopped by `serve --stop` at the end) runs a sample of the compat cases with the recorded
PyFlink output, an unbounded job killed and restarted mid-batch, and a client that has no
Java at all. The same server shows what keeps it to its user: it listens on the loopback
only, refuses a client without its token, and keeps the token in a private file, never
printed."""
import json
import os
import stat
import subprocess
import sys
from dataclasses import dataclass
from typing import Dict

import pytest

from pyflink_on_spark.spark import connect_server, session
from pyflink_on_spark.spark.run_options import RunOptions, run_options, set_run_options
from pyflink_on_spark.tests.processes import listeners

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
# one or more of each: operators, keyed state, timers, windows, two inputs, side outputs,
# file sources (Spark's split size asked of the server) and sinks, collect, parallel print.
# Each case costs ~4 s through the server (~11 s in CI, where it was 129 s for 11 cases):
# map_lambda_p1, key_by_reduce_p1 and event_time_timers went, as the cases below run a
# lambda map (keyed_co_process_timer), keyed state and event-time timers through it too,
# and test_bare_connect_server.py runs those three through a Connect server of its own
SAMPLE = ["basic/batch_print_parallel", "basic/execute_and_collect_variants",
          "state/aggregating_state", "window/event_time_tumbling_process",
          "two_input/keyed_co_process_timer", "two_input/side_output_keyed_process",
          "connectors/read_text_file", "connectors/file_sink_rolling_parts"]


@dataclass(frozen=True)
class Served:
    env: Dict[str, str]   # the environment that finds the server (its state directory)
    url: str              # as `serve --status` printed it
    printed: str          # everything `serve` and `serve --status` printed

    @property
    def state(self) -> dict:
        with open(self.state_file) as f:
            return json.load(f)

    @property
    def state_file(self) -> str:
        return os.path.join(self.env[connect_server.STATE_ENV], "serve.json")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """`pyflink-on-spark serve` with its own state directory (not there yet: `serve` makes
    it); `serve --stop` at the end."""
    env = dict(os.environ)
    env[connect_server.STATE_ENV] = str(tmp_path_factory.mktemp("serve") / "state")
    for name in ("SPARK_REMOTE", connect_server.TOKEN_ENV):
        env.pop(name, None)
    started = _cli(["serve"], env=env)
    assert started.returncode == 0, started.stderr[-3000:]
    try:
        status = _cli(["serve", "--status"], env=env)
        assert status.returncode == 0, status.stdout + status.stderr
        yield Served(env, status.stdout.strip(), started.stdout + started.stderr
                     + status.stdout + status.stderr)
    finally:
        stopped = _cli(["serve", "--stop"], env=env)
        assert "stopped the Spark Connect server" in stopped.stdout, stopped.stdout
        assert _cli(["serve", "--status"], env=env).returncode == 1


@pytest.fixture(scope="module")
def connect_url(served):
    return served.url


def _cli(args, env=None, timeout=600):
    environment = dict(os.environ if env is None else env)
    environment["PYTHONPATH"] = REPO + os.pathsep + environment.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "pyflink_on_spark.cli.main"] + args,
                          capture_output=True, text=True, timeout=timeout, env=environment,
                          cwd=REPO)


def test_compat_cases_through_spark_connect_print_what_pyflink_printed(served):
    keywords = [arg for name in SAMPLE for arg in ("-k", name)]
    # the printed URL, without the token: the client finds it in the state file
    proc = _cli(["compat", os.path.join(REPO, "compat_tests", "cases"), "--remote",
                 served.url] + keywords, env=served.env)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert proc.stdout.splitlines()[-1] == "%d passed, 0 failed" % len(SAMPLE), proc.stdout


def test_run_uses_the_served_server_and_says_so_with_verbose(served, tmp_path):
    env, url = served.env, served.url
    job = tmp_path / "job.py"
    job.write_text(
        "from pyflink.datastream import StreamExecutionEnvironment\n"
        "env = StreamExecutionEnvironment.get_execution_environment()\n"
        "env.set_parallelism(1)\n"
        "env.from_collection(['x', 'y']).map(str.upper).print()\n"
        "env.execute('job')\n"
        "from pyflink_on_spark.spark.session import get_session, is_connect\n"
        "print('connect:', is_connect(get_session()))\n")
    proc = _cli(["run", "--verbose", str(job)], env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.splitlines() == ["X", "Y", "connect: True"]
    assert "running on the Spark Connect server started by `pyflink-on-spark serve` (%s)" \
        % url in proc.stderr


def test_a_connect_client_needs_no_java_and_starts_no_jvm(served, tmp_path):
    job = tmp_path / "job.py"
    job.write_text(
        "from pyflink.common import Types\n"
        "from pyflink.datastream import StreamExecutionEnvironment\n"
        "env = StreamExecutionEnvironment.get_execution_environment()\n"
        "env.set_parallelism(1)\n"
        "env.from_collection([1, 2, 3], type_info=Types.INT()).key_by(lambda v: v % 2)"
        ".reduce(lambda a, b: a + b).print()\n"
        "env.execute('job')\n"
        "import pyspark\n"
        "print('jvm:', pyspark.SparkContext._gateway)\n")
    env = {k: v for k, v in served.env.items() if k != "JAVA_HOME"}
    env["PATH"] = os.path.dirname(sys.executable)   # no java on it
    # 127.0.0.1, not the printed localhost: the same server, and its token
    url = served.url.replace("sc://localhost:", "sc://127.0.0.1:")
    proc = _cli(["run", "--remote", url, str(job)], env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert lines[-1] == "jvm: None"
    assert sorted(lines[:-1]) == ["1", "2", "4"]


def test_an_unbounded_job_through_connect_recovers_after_kill_9_mid_batch(served,
                                                                       tmp_path, monkeypatch):
    from pyflink_on_spark.spark.streaming.tests import test_streaming_recovery as recovery
    monkeypatch.setenv("SPARK_REMOTE", served.url)
    monkeypatch.setenv(connect_server.STATE_ENV, served.env[connect_server.STATE_ENV])
    plain_out, in_dir = recovery._run_stream(tmp_path, "killed", kills=[(2, "mid_batch")])
    streamed = recovery._per_key(recovery._parts(plain_out))
    bounded_dir = os.path.join(str(tmp_path), "bounded")
    os.makedirs(bounded_dir)
    proc = recovery.start_driver(bounded_dir, recovery.JOB,
                                 [in_dir, os.path.join(bounded_dir, "out"),
                                  os.path.join(bounded_dir, "ckpt"), "bounded", "hashmap", "2"])
    assert proc.wait(timeout=recovery.START_TIMEOUT) == 0
    bounded = recovery._per_key(recovery._parts(os.path.join(bounded_dir, "out")))
    sums = {k: v for k, v in streamed.items() if k[0] == "sum"}
    assert sum(len(v) for v in sums.values()) == recovery.N_FILES * 11   # none lost or doubled
    assert sums == {k: v for k, v in bounded.items() if k[0] == "sum"}


def test_the_remote_url_is_the_run_option_else_spark_remote(monkeypatch):
    saved = run_options()
    monkeypatch.setenv("SPARK_REMOTE", "sc://env-host:1")
    try:
        set_run_options(RunOptions())
        assert session.remote_url() == "sc://env-host:1"
        set_run_options(RunOptions(remote="sc://option-host:2"))
        assert session.remote_url() == "sc://option-host:2"
        monkeypatch.delenv("SPARK_REMOTE")
        set_run_options(RunOptions())
        assert session.remote_url() is None
    finally:
        set_run_options(saved)


def test_a_served_server_that_is_gone_is_not_used(tmp_path, monkeypatch):
    monkeypatch.setenv(connect_server.STATE_ENV, str(tmp_path))
    assert connect_server.served() is None
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    connect_server.save_served(connect_server.ServerInfo(pid=dead.pid, port=1, log="",
                                                         token="t", host="127.0.0.1"))
    assert connect_server.served() is None


def test_the_server_listens_on_the_loopback_only(served):
    pid, port = served.state["pid"], served.state["port"]
    found = listeners(pid)
    listening = [(l.address, l.port) for l in found if l.kind == "tcp"]
    assert ("127.0.0.1", port) in listening, listening   # (else this proves nothing)
    assert served.state["host"] == "127.0.0.1"
    assert [l for l in found if not l.loopback] == []


def test_a_client_without_the_token_or_with_a_wrong_one_is_refused(served):
    port = served.state["port"]
    refused = _client_errors(served.env, ["sc://localhost:%d" % port,
                                          "sc://localhost:%d/;token=wrong" % port])
    assert len(refused) == 2, refused
    for error in refused:
        assert "UNAUTHENTICATED" in error or "authentication" in error.lower(), error
    assert "No authentication token provided" in refused[0], refused[0]
    assert "Invalid authentication token" in refused[1], refused[1]


def test_the_token_is_in_a_private_state_file_and_never_printed(served):
    token = served.state["token"]
    assert len(token) >= 40   # secrets.token_urlsafe(32): 43 characters
    assert stat.S_IMODE(os.stat(served.state_file).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(os.path.dirname(served.state_file)).st_mode) == 0o700
    assert token not in served.printed
    assert "listening on 127.0.0.1" in served.printed and "serve: warning" not in served.printed
    status = _cli(["serve", "--status"], env=served.env)
    assert status.returncode == 0 and token not in status.stdout + status.stderr
    # nor shown to other users by `ps`: the server has it in its environment
    with open("/proc/%d/cmdline" % served.state["pid"], "rb") as f:
        assert token.encode() not in f.read()


def _client_errors(env, urls):
    """What each pyspark Connect client on `urls` (no $SPARK_CONNECT_AUTHENTICATE_TOKEN)
    met on its first query: a process of its own, away from this one's Spark."""
    script = (
        "import sys\n"
        "from pyspark.sql import SparkSession\n"
        "for url in sys.argv[1:]:\n"
        "    try:\n"
        "        spark = SparkSession.builder.remote(url).create()\n"
        "        spark.range(1).collect()\n"
        "        print('connected')\n"
        "    except Exception as e:\n"
        "        print(repr(str(e)))\n")
    proc = subprocess.run([sys.executable, "-c", script] + urls, capture_output=True,
                          text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [line for line in proc.stdout.splitlines() if line != "connected"]
