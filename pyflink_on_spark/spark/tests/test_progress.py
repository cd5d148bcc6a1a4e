"""Progress on a terminal only, Spark jobs described in Flink's terms, --ui prints the UI's
address. The terminal is a real pseudo-terminal (pty) around a `pyflink-on-spark run`."""
import os
import pty
import subprocess
import sys
from types import SimpleNamespace

from pyflink_on_spark.common import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.spark.executor import execute_job
from pyflink_on_spark.spark.progress import ProgressLine, progress_wanted
from pyflink_on_spark.spark.run_options import RunOptions

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))


def test_progress_only_on_a_terminal_and_not_when_quiet():
    controller, terminal = pty.openpty()
    read, write = os.pipe()
    try:
        with os.fdopen(os.dup(terminal), "w") as tty, os.fdopen(os.dup(write), "w") as pipe:
            assert progress_wanted(tty, enabled=True)
            assert not progress_wanted(tty, enabled=False)       # --quiet
            assert not progress_wanted(pipe, enabled=True)
    finally:
        for fd in (controller, terminal, read, write):
            os.close(fd)


def test_the_line_counts_stages_and_tasks_of_its_group():
    stages = {1: SimpleNamespace(numTasks=2, numCompletedTasks=2),
              2: SimpleNamespace(numTasks=4, numCompletedTasks=1)}
    tracker = SimpleNamespace(
        getJobIdsForGroup=lambda group: [7] if group == "g" else [],
        getJobInfo=lambda job: SimpleNamespace(stageIds=[1, 2]),
        getStageInfo=stages.get)
    line = ProgressLine(SimpleNamespace(statusTracker=lambda: tracker), "g", after_s=0)
    line.records = 42
    assert line.line().startswith("Spark stages 1/2, tasks 3/6, records 42, ")


def _spark_jobs(spark):
    """(group, description) of every Spark job the status store knows."""
    jobs = spark.sparkContext._jsc.sc().statusStore().jobsList(None)
    found = []
    for index in range(jobs.size()):
        job = jobs.apply(index)
        found.append((_option(job.jobGroup()), _option(job.description())))
    return found


def _option(value):
    """A Scala Option's value, None when empty (getOrElse(null) fails through Py4J)."""
    return value.get() if value.isDefined() else None


def test_spark_jobs_are_named_after_the_flink_job_and_its_operators(spark):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    doubled = env.from_collection([1, 2, 3], type_info=Types.INT()) \
        .map(lambda v: v * 2).name("Double it")
    # read by two later stages: checkpointed first (computed once)
    doubled.key_by(lambda v: v % 2).reduce(lambda a, b: a + b).name("Sum them").print()
    doubled.key_by(lambda v: v % 3).reduce(lambda a, b: a + b).name("Sum again").print()
    job = env._compile(env._job_sinks(env._sinks), "described job")
    execute_job(job, "described job", RunOptions(progress=False))
    ours = {d for g, d in _spark_jobs(spark) if g and g.endswith(": described job")}
    # the checkpoint of the shared stage, then the rest of the job
    assert "described job: stage 1: Double it" in ours, ours
    assert "described job: Source: Collection Source -> Double it -> Sum them -> Sum again" \
        in ours, ours


JOB = """
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
env = StreamExecutionEnvironment.get_execution_environment()
env.from_collection([1, 2, 3], type_info=Types.INT()).map(lambda v: v + 1).print()
env.execute("pty job")
"""


def test_run_on_a_terminal_shows_progress_and_the_ui_address(tmp_path):
    script = tmp_path / "job.py"
    script.write_text(JOB)
    controller, terminal = pty.openpty()
    env = dict(os.environ, PYTHONPATH=ROOT, PYFLINK_ON_SPARK_PROGRESS_AFTER="0")
    process = subprocess.Popen(
        [sys.executable, "-m", "pyflink_on_spark.cli.main", "run", "--ui", str(script)],
        stdin=terminal, stdout=terminal, stderr=terminal, env=env, cwd=str(tmp_path))
    os.close(terminal)
    output = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:          # the terminal closed: the process has exited
            break
        if not chunk:
            break
        output += chunk
    os.close(controller)
    assert process.wait(timeout=600) == 0, output.decode(errors="replace")
    text = output.decode(errors="replace")
    assert "Spark UI: http://" in text
    assert "\r\x1b[KSpark stages " in text and ", records " in text
    assert all(line in text for line in ("2\r\n", "3\r\n", "4\r\n")), text
