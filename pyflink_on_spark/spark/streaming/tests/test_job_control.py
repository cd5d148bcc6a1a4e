"""The control socket of a running job, without Spark: the batch loop's side is played by a
thread that serves savepoints from a real store, as the executor does after each batch."""
import json
import os
import stat
import threading
import time

import pytest

from pyflink_on_spark.runtime.checkpoint.tests.stream_harness import StreamRunner
from pyflink_on_spark.runtime.checkpoint.tests.test_micro_batches import _job
from pyflink_on_spark.spark.streaming.job_control import (
    JobNotFound, ask_job, find_job, list_jobs, new_entry, short_socket_name, start_control)
from pyflink_on_spark.spark.streaming.savepoint_requests import SavepointRequests

JOB_ID = "5e1f" + "ab" * 14


@pytest.fixture
def running(tmp_path):
    """A 'job' with one completed checkpoint version, its control socket listening, and a
    batch loop serving savepoints every 50 ms until it is stopped (a drain asked: after a
    drained batch, as the executor plans one)."""
    job, _ = _job(1)
    runner = StreamRunner(job, str(tmp_path / "state"))
    runner.run_batch(0, [(0, [("k0", 1, 1)])])
    stop = threading.Event()
    savepoints = SavepointRequests(JOB_ID, "counting", str(tmp_path / "default-sps"))
    jobs = str(tmp_path / "jobs")
    control = start_control(new_entry(JOB_ID, "counting", str(tmp_path)), stop, savepoints,
                            jobs)
    done = threading.Event()

    def batch_loop():
        version = 0
        while not stop.is_set() and not done.is_set():
            drained = savepoints.draining()
            if drained:
                version += 1
                runner.run_batch(version, [], drain=True)
            savepoints.serve(runner.store, version, stop, drained=drained)
            time.sleep(0.05)
    loop = threading.Thread(target=batch_loop, daemon=True)
    loop.start()
    yield jobs, stop, savepoints
    done.set()
    loop.join()
    control.close()


def test_a_running_job_is_listed_and_its_files_are_private(running):
    jobs, _, _ = running
    [entry] = list_jobs(jobs)
    assert (entry.job_id, entry.name, entry.pid) == (JOB_ID, "counting", os.getpid())
    assert stat.S_IMODE(os.stat(jobs).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(os.path.join(jobs, JOB_ID + ".sock")).st_mode) == 0o600
    assert find_job("5e1f", jobs) == entry and find_job("counting", jobs) == entry
    with pytest.raises(JobNotFound, match="no running job matches 'ffff'"):
        find_job("ffff", jobs)


def test_savepoint_then_stop_through_the_socket(running):
    jobs, stop, savepoints = running
    entry = find_job("5e1f", jobs)
    assert ask_job(entry, "status", jobs) == {"ok": True, "status": "RUNNING"}
    answer = ask_job(entry, "savepoint", jobs, timeout=60)
    assert answer["ok"] and "/default-sps/savepoint-5e1fab-" in answer["path"]
    assert os.path.isfile(os.path.join(answer["path"][len("file:"):], "_SAVEPOINT"))
    assert not stop.is_set()
    answer = ask_job(entry, "stop", jobs, target=os.path.dirname(jobs) + "/other",
                     timeout=60)
    assert answer["ok"] and "/other/savepoint-5e1fab-" in answer["path"]
    assert stop.is_set() and savepoints.stopped_with_savepoint


def test_stop_with_a_drain_from_the_command_line_waits_for_a_drained_batch(
        running, monkeypatch, capsys):
    from pyflink_on_spark.cli.main import main
    from pyflink_on_spark.spark.streaming.job_control import JOBS_ENV
    jobs, stop, savepoints = running
    monkeypatch.setenv(JOBS_ENV, jobs)
    target = os.path.dirname(jobs) + "/drained"
    assert main(["stop", "5e1f", "--drain", "-p", target]) == 0
    path = capsys.readouterr().out.split("Path: ")[1].strip()
    with open(os.path.join(path[len("file:"):], "_SAVEPOINT")) as f:
        assert json.load(f)["version"] == 1       # the drained batch's, not version 0
    assert stop.is_set() and savepoints.stopped_with_savepoint


def test_a_drain_is_served_only_after_a_drained_batch(tmp_path):
    job, _ = _job(1)
    runner = StreamRunner(job, str(tmp_path / "state"))
    runner.run_batch(0, [(0, [("k0", 1, 1)])])
    savepoints = SavepointRequests(JOB_ID, "counting", str(tmp_path / "sps"))
    stop = threading.Event()
    drained = savepoints.ask(None, then_stop=True, drain=True)
    plain = savepoints.ask(None, then_stop=False)
    assert savepoints.draining()
    savepoints.serve(runner.store, 0, stop)
    assert plain.done() and not drained.done() and not stop.is_set()
    runner.run_batch(1, [], drain=True)
    savepoints.serve(runner.store, 1, stop, drained=True)
    assert "/sps/savepoint-5e1fab-" in drained.result()
    assert stop.is_set() and not savepoints.draining()


def test_cancel_and_bad_requests(running):
    jobs, stop, _ = running
    entry = find_job("counting", jobs)
    assert ask_job(entry, "launch missiles", jobs)["error"] == \
        "unknown request 'launch missiles'"
    # not JSON: an answer, and the job goes on
    import socket
    with socket.socket(socket.AF_UNIX) as sock, \
            short_socket_name(os.path.join(jobs, JOB_ID + ".sock")) as name:
        sock.connect(name)
        sock.sendall(b"\x80\x04K\x01.\n")      # a pickle is not a request
        answer = json.loads(sock.makefile().readline())
    assert answer["ok"] is False
    assert "DecodeError" in answer["error"]
    assert ask_job(entry, "cancel", jobs) == {"ok": True}
    assert stop.is_set()


def test_a_killed_jobs_entry_is_dropped_by_the_next_listing(tmp_path):
    jobs = str(tmp_path / "jobs")
    os.makedirs(jobs, 0o700)
    gone = dict(job_id="0" * 32, name="gone", pid=2 ** 22 + 12345, started_ms=0,
                checkpoint_dir="/x")
    with open(os.path.join(jobs, gone["job_id"] + ".json"), "w") as f:
        json.dump(gone, f)
    assert list_jobs(jobs) == []
    assert os.listdir(jobs) == []


def test_a_job_in_a_directory_too_deep_for_a_socket_address_is_reached(tmp_path):
    # a Unix socket's address holds 107 bytes of path: the job binds, and the CLI connects,
    # through /proc/self/fd when its directory is deeper than that
    jobs = str(tmp_path / ("d" * 60) / ("e" * 60) / "jobs")
    stop = threading.Event()
    savepoints = SavepointRequests(JOB_ID, "deep", str(tmp_path / "sps"))
    control = start_control(new_entry(JOB_ID, "deep", str(tmp_path)), stop, savepoints, jobs)
    try:
        assert control is not None
        assert len(os.path.join(jobs, JOB_ID + ".sock")) > 107
        assert os.path.exists(os.path.join(jobs, JOB_ID + ".sock"))
        [entry] = list_jobs(jobs)
        assert ask_job(entry, "cancel", jobs, timeout=30) == {"ok": True}
        assert stop.is_set()
    finally:
        control.close()
