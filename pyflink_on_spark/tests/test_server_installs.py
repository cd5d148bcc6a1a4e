"""A test server's install runs once per process, whoever asks first: the early start at
the end of collection and the fixture share its result or its error."""
import threading
import time

import pytest

from pyflink_on_spark.tests import server_installs
from pyflink_on_spark.tests.server_installs import installed_once


def test_callers_during_and_after_the_install_share_one_run():
    runs = []

    @installed_once("test: slow install")
    def install():
        runs.append(1)
        time.sleep(0.3)
        return "/opt/server"

    results = []
    threads = [threading.Thread(target=lambda: results.append(install())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == ["/opt/server"] * 4 and install() == "/opt/server"
    assert runs == [1]


def test_a_failed_install_fails_every_caller_with_its_error():
    @installed_once("test: failing install")
    def install():
        raise RuntimeError("apt-get install left no initdb")

    for _ in range(2):
        with pytest.raises(RuntimeError, match="left no initdb"):
            install()


def test_early_installs_skip_functions_that_do_not_run_once(monkeypatch):
    ran = []
    import types
    module = types.ModuleType("fake_servers")
    module.plain = lambda: ran.append("plain")
    module.once = installed_once("test: early")(lambda: ran.append("once"))
    monkeypatch.setitem(__import__("sys").modules, "fake_servers", module)
    monkeypatch.setattr(server_installs, "EARLY", {
        "a": [("apt", "fake_servers:plain")], "b": [("download", "fake_servers:once")]})
    for thread in server_installs.install_early(["a", "b", "unknown"]):
        thread.join()
    assert ran == ["once"]


_INSTALL_IN_A_PROCESS = '''
import sys, time
from pyflink_on_spark.tests.server_installs import installed_once

@installed_once(sys.argv[2])
def install():
    with open(sys.argv[1], "a") as log:
        log.write("start\\n")
    time.sleep(0.3)
    with open(sys.argv[1], "a") as log:
        log.write("end\\n")

install()
'''


def test_two_processes_install_one_after_the_other(tmp_path):
    # pytest-xdist workers are processes: the same install must not run in two at once
    import subprocess
    import sys
    log = tmp_path / "log"
    name = "test: across processes %s" % tmp_path.name
    processes = [subprocess.Popen([sys.executable, "-c", _INSTALL_IN_A_PROCESS, str(log), name])
                 for _ in range(2)]
    assert [p.wait(timeout=60) for p in processes] == [0, 0]
    assert log.read_text().split() == ["start", "end", "start", "end"]
