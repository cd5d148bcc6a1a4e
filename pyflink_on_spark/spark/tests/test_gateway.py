"""The driver's JVM as the shim starts it (spark/gateway.py): a quiet run's stderr holds only
what the job prints; the JVM's boot warning is the one line left out of what it writes, even
split across reads; a signal to the driver's process group does not reach the JVM."""
import concurrent.futures
import os
import signal
import subprocess
import sys
import threading
import time

from pyflink_on_spark.spark.gateway import INCUBATOR_WARNING, _copy

JOB = '''
from pyflink.datastream import StreamExecutionEnvironment
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection([1, 2, 3]).map(lambda x: x * 10).print()
env.execute()
'''

UNBOUNDED_JOB = '''
import sys
from pyflink.common import Duration, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), sys.argv[1]) \\
    .monitor_continuously(Duration.of_millis(100)).build()
env.from_source(source, WatermarkStrategy.no_watermarks(), "files") \\
    .map(lambda s: s.upper(), output_type=Types.STRING()).print()
env.execute("unbounded")
'''


def _copied(chunks):
    read_end, write_end = os.pipe()
    out_read, out_write = os.pipe()
    thread = threading.Thread(target=_copy, args=(read_end, out_write))
    thread.start()
    for chunk in chunks:
        os.write(write_end, chunk)
        time.sleep(0.05)   # separate reads
    os.close(write_end)
    thread.join(timeout=10)
    data = b""
    while True:
        more = os.read(out_read, 65536)
        if not more:
            break
        data += more
    os.close(out_read)
    return data


def test_the_boot_warning_is_left_out_even_split_across_reads():
    line = INCUBATOR_WARNING
    assert _copied([line[:10], line[10:30], line[30:] + b"an error\n", b"more\n"]) == \
        b"an error\nmore\n"


def test_everything_else_passes_through_unchanged():
    assert _copied([b"WARNING: something else\n", b"an error\n"]) == \
        b"WARNING: something else\nan error\n"
    assert _copied([b"WARN"]) == b"WARN"   # a prefix of the line that never completes
    # only the boot line is dropped: the same text later (a job's own print) passes
    assert _copied([b"x\n", INCUBATOR_WARNING]) == b"x\n" + INCUBATOR_WARNING


def _cli(args, cwd, **kwargs):
    return subprocess.Popen([sys.executable, "-m", "pyflink_on_spark.cli.main"] + args,
                            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, **kwargs)


def test_a_quiet_run_prints_only_what_the_job_prints_and_verbose_shows_spark(tmp_path):
    script = tmp_path / "job.py"
    script.write_text(JOB)
    # both runs at once (each its own driver and JVM): a driver mostly waits for its JVM
    quiet = _cli(["run", str(script)], str(tmp_path))
    verbose = _cli(["run", "--verbose", str(script)], str(tmp_path))
    with concurrent.futures.ThreadPoolExecutor(1) as beside:
        verbose_output = beside.submit(verbose.communicate, timeout=600)
        out, err = quiet.communicate(timeout=600)
        assert quiet.returncode == 0, err
        assert out == "10\n20\n30\n"
        assert err == ""
        out, err = verbose_output.result()
    assert verbose.returncode == 0, err
    assert out == "10\n20\n30\n"
    assert INCUBATOR_WARNING.decode().strip() in err   # what the quiet run leaves out


def test_sigterm_to_the_drivers_process_group_stops_an_unbounded_job_without_a_trace(
        tmp_path):
    """`timeout`, `kill -TERM -PGID`: the JVM, in a session of its own, keeps serving the
    driver's orderly stop after the batch."""
    in_dir = tmp_path / "in"
    in_dir.mkdir()
    (in_dir / "a.txt").write_text("one\n")
    script = tmp_path / "job.py"
    script.write_text(UNBOUNDED_JOB)
    driver = _cli(["run", str(script), str(in_dir)], str(tmp_path), start_new_session=True)
    try:
        line = driver.stdout.readline()   # the first batch's record: the job runs
        assert line == "ONE\n"
        os.killpg(driver.pid, signal.SIGTERM)
        out, err = driver.communicate(timeout=120)
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()
    # the status of a death by the signal, as PyFlink's client, after one line saying so
    assert driver.returncode == 128 + signal.SIGTERM, err
    assert "Traceback" not in err and "Py4J" not in err, err
    stopped = [line for line in err.splitlines() if "stopped by SIGTERM" in line]
    assert len(stopped) == 1 and "job 'unbounded'" in stopped[0], err
