"""`pyflink-on-spark run` starts the SparkSession while the script loads (spark/prestart.py):
before the script's first execute() the session is already being made; scripts naming Kafka
(whose session needs the Kafka package at start) do not get one early."""
import os
import subprocess
import sys

# Waits (without running a job) for the session the CLI started in the background; then a
# job runs on it, and Ctrl-C is set to cancel Spark's jobs as pyspark's own handler does.
PROBE = '''
import signal, time
from pyflink_on_spark.spark import prestart, session
print("prestarted:", prestart._thread is not None)
deadline = time.monotonic() + 240
while session._session is None and time.monotonic() < deadline:
    time.sleep(0.2)
print("session started before execute:", session._session is not None)
from pyflink.datastream import StreamExecutionEnvironment
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection([1, 2, 3]).map(lambda x: x * 10).print()
env.execute("probe")
print("ctrl-c handler:", signal.getsignal(signal.SIGINT) is not signal.default_int_handler)
# Kafka
'''


def _run(tmp_path, text, extra_env=None):
    script = tmp_path / "job.py"
    script.write_text(text)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), **(extra_env or {}))
    env.pop("SPARK_REMOTE", None)
    return subprocess.run([sys.executable, "-m", "pyflink_on_spark.cli.main", "run",
                           "--master", "local[2]", str(script)], env=env,
                          capture_output=True, text=True, timeout=600)


def test_the_session_starts_while_the_script_loads(tmp_path):
    out = _run(tmp_path, PROBE.replace("# Kafka", ""))
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stdout.splitlines()
    assert lines[0] == "prestarted: True"   # NO_PRESTART_PROBE's line, when it is on
    assert lines[1] == "session started before execute: True"
    assert sorted(lines[2:5]) == ["10", "20", "30"]
    assert lines[5] == "ctrl-c handler: True"


# Whether the CLI started the session's thread before the script (no job: nothing to wait for).
# PROBE prints the same line first: that run is this probe's control (True when not turned off)
NO_PRESTART_PROBE = '''
from pyflink_on_spark.spark import prestart
print("prestarted:", prestart._thread is not None)
# Kafka
'''


def test_no_early_session_for_kafka_scripts_or_when_turned_off(tmp_path):
    out = _run(tmp_path, NO_PRESTART_PROBE)            # names Kafka (in a comment)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.splitlines() == ["prestarted: False"]
    out = _run(tmp_path, NO_PRESTART_PROBE.replace("# Kafka", ""),
               {"PYFLINK_ON_SPARK_PRESTART": "0"})
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.splitlines() == ["prestarted: False"]
