"""`pyflink-on-spark run` ends the local Spark it started before it returns (session.py
end_owned_session): when the command has exited, so has Spark's JVM; a job still running in
a thread of the script's own is not cut short."""
import os
import subprocess
import sys

JOB = '''
import sys
from pyflink.datastream import StreamExecutionEnvironment
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection([1, 2, 3]).map(lambda x: x * 10).print()
env.execute("job")
from pyspark import SparkContext
with open(sys.argv[1], "w") as f:
    f.write(str(SparkContext._gateway.proc.pid))
'''

# the script's main thread ends while a thread of its own (not a daemon) starts the job
JOB_IN_THREAD = '''
import threading, time
from pyflink.datastream import StreamExecutionEnvironment
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection([1, 2, 3]).map(lambda x: x * 10).print()
threading.Thread(target=lambda: (time.sleep(1), env.execute("job"))).start()
print("main thread done")
'''


def _run(tmp_path, text, *args):
    script = tmp_path / "job.py"
    script.write_text(text)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    env.pop("SPARK_REMOTE", None)
    out_path, err_path = tmp_path / "out.txt", tmp_path / "err.txt"
    with open(out_path, "w") as out, open(err_path, "w") as err:
        # waits for the command's own process only (not for the end of its output, which
        # Spark's JVM and Python workers hold open too)
        code = subprocess.Popen([sys.executable, "-m", "pyflink_on_spark.cli.main", "run",
                                 "--master", "local[2]", str(script), *args],
                                env=env, stdout=out, stderr=err).wait(timeout=600)
    return code, out_path.read_text(), err_path.read_text()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open("/proc/%d/stat" % pid) as f:   # an exited child not yet reaped is a zombie
        return f.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_spark_has_exited_when_the_command_returns(tmp_path):
    pid_file = tmp_path / "jvm.pid"
    code, out, err = _run(tmp_path, JOB, str(pid_file))
    assert code == 0, err[-3000:]
    assert sorted(out.split()) == ["10", "20", "30"]
    assert "Traceback" not in err, err[-3000:]
    pid = int(pid_file.read_text())
    assert not _alive(pid), "Spark's JVM (pid %d) still runs after the command returned" % pid


def test_a_job_in_a_thread_of_the_script_still_runs_to_its_end(tmp_path):
    code, out, err = _run(tmp_path, JOB_IN_THREAD)
    assert code == 0, err[-3000:]
    lines = out.splitlines()
    assert lines[0] == "main thread done"
    assert sorted(lines[1:]) == ["10", "20", "30"]


def test_main_called_from_python_leaves_the_session_running(spark, tmp_path, capsys):
    from pyflink_on_spark.cli.main import main
    script = tmp_path / "job.py"
    script.write_text(JOB.replace("with open(sys.argv[1]", "with open(%r" % str(
        tmp_path / "pid")))
    assert main(["run", str(script)]) == 0
    assert sorted(capsys.readouterr().out.split()) == ["10", "20", "30"]
    assert not spark.sparkContext._jsc.sc().isStopped()


# files a script leaves open, as `python job.py` writes them: one held in a reference cycle
# (freed only by a collection of cyclic garbage, which the command's exit skips), one in a
# module global
OPEN_FILES = '''
import sys
class Holder:
    pass
holder = Holder()
holder.itself = holder
holder.file = open(sys.argv[1], "w")
holder.file.write("in a cycle")
kept = open(sys.argv[2], "w")
kept.write("in a global")
'''


def test_what_a_script_leaves_in_open_files_is_written(tmp_path):
    in_cycle, in_global = tmp_path / "cycle.txt", tmp_path / "global.txt"
    script = tmp_path / "files.py"
    script.write_text(OPEN_FILES)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), PYFLINK_ON_SPARK_PRESTART="0")
    out = subprocess.run([sys.executable, "-m", "pyflink_on_spark.cli.main", "run", str(script),
                          str(in_cycle), str(in_global)], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert in_cycle.read_text() == "in a cycle"
    assert in_global.read_text() == "in a global"
