"""Ctrl-C / SIGTERM end an unbounded job's process as PyFlink's client ends (stop_signals.py):
after the orderly stop, one line on stderr, then death by the same signal; a program's own
handler of the signal is called instead. Driven without Spark, in a child process."""
import signal
import subprocess
import sys

import pytest

PROGRAM = '''
import os, signal, sys, threading
from pyflink_on_spark.spark.streaming.stop_signals import StopSignals
if sys.argv[2] == "own":
    signal.signal(signal.SIGTERM, lambda s, f: print("own handler", s, flush=True))
stop = threading.Event()
with StopSignals(stop) as signals:
    os.kill(os.getpid(), getattr(signal, sys.argv[1]))
    assert stop.wait(5)
print("printed before the end", flush=False)   # flushed before the process dies
signals.end_process("job", 3, sys.argv[3] if len(sys.argv) > 3 else None)
print("after end_process")
'''


def _run(*args):
    return subprocess.run([sys.executable, "-c", PROGRAM, *args], capture_output=True,
                          text=True, timeout=60)


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_ends_the_process_by_that_signal_after_one_line(name):
    done = _run(name, "default", "/ckpt")
    assert done.returncode == 128 + getattr(signal, name)
    assert done.stdout == "printed before the end\n"
    assert done.stderr == ("pyflink-on-spark: job 'job' stopped by %s after 3 micro-batches; "
                           "its state is kept in /ckpt: run it again to continue\n" % name)


def test_without_checkpointing_the_line_says_a_new_run_starts_afresh():
    done = _run("SIGTERM", "default")
    assert "checkpointing is off: a new run starts afresh" in done.stderr
    assert done.returncode == 128 + signal.SIGTERM


def test_a_handler_of_the_program_is_called_instead_of_dying():
    done = _run("SIGTERM", "own")
    assert done.returncode == 0
    assert done.stdout == "printed before the end\nown handler %d\nafter end_process\n" \
        % signal.SIGTERM
    assert "stopped by SIGTERM" in done.stderr
