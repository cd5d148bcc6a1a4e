"""`pyflink-on-spark run` over an endless source shows its output while the job runs, and
Ctrl-C stops it cleanly (issue 17: a job over NumberSequenceSource(0, 2**62) used to print
nothing until the end, i.e. never)."""
import os
import signal
import subprocess
import sys
import threading
import time

JOB = '''
from pyflink.common import WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.number_seq import NumberSequenceSource

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
(env.from_source(NumberSequenceSource(0, 2 ** 62), WatermarkStrategy.no_watermarks(), "numbers")
    .filter(lambda n: n % 100000 == 0)
    .print())
env.execute("endless")
'''

# A guard against a hung CI job, not a measurement: the lines normally arrive within seconds
# of the JVM's start.
GUARD_SECONDS = 300


def _session_processes(session_id: int):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == session_id:   # field 6 of stat: the session id
                found.append(int(entry))
    return found


def _no_process_left(session_id: int) -> bool:
    # The JVM may still be finishing its shutdown hooks the moment the command returns.
    deadline = time.monotonic() + 60
    while _session_processes(session_id) and time.monotonic() < deadline:
        time.sleep(0.5)
    return _session_processes(session_id) == []


def test_an_endless_job_prints_while_it_runs_and_stops_on_ctrl_c(tmp_path):
    job = tmp_path / "endless.py"
    job.write_text(JOB)
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    # a shell runs background commands with SIGINT ignored, and Python then keeps it ignored:
    # the command gets the default disposition, as a terminal's Ctrl-C finds it
    proc = subprocess.Popen([sys.executable, "-m", "pyflink_on_spark.cli.main", "run", str(job)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    guard = threading.Timer(GUARD_SECONDS, lambda: os.killpg(proc.pid, signal.SIGKILL))
    guard.start()
    try:
        lines = [proc.stdout.readline() for _ in range(3)]
        running_when_printed = proc.poll() is None
        os.kill(proc.pid, signal.SIGINT)
        proc.communicate(timeout=GUARD_SECONDS)
    finally:
        guard.cancel()
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert lines == ["1> 0\n", "1> 100000\n", "1> 200000\n"]
    assert running_when_printed           # the output came before the (endless) job ended
    assert proc.returncode != 0           # interrupted, not finished
    assert proc.returncode != -signal.SIGKILL   # by the Ctrl-C, not by the guard
    assert _no_process_left(proc.pid)     # no JVM or Python worker left behind
