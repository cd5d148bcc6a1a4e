"""What keeps `pyflink-on-spark serve`'s Spark Connect server to its user, without starting
one (test_connect.py checks a real server): the token a client on this machine adds to the
printed URL, the private state file, the command line and environment the server gets, a
server an earlier version started without a token, and what `serve` prints."""
import json
import os
import socket
import stat
import subprocess
import sys

import pytest

from pyflink_on_spark.cli import main as cli
from pyflink_on_spark.spark import connect_server, entry, session
from pyflink_on_spark.spark.connect_server import (ConnectServerError, ServerInfo,
                                                   authenticated_url, is_loopback)

TOKEN = "s3cr-et_token"


@pytest.fixture
def state(tmp_path, monkeypatch):
    """A state directory of its own (not made yet), no token in the environment."""
    directory = tmp_path / "state"
    monkeypatch.setenv(connect_server.STATE_ENV, str(directory))
    monkeypatch.delenv(connect_server.TOKEN_ENV, raising=False)
    return directory


@pytest.fixture
def listening():
    """A port something listens on (on the loopback), as a running server's would."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server.getsockname()[1]


@pytest.fixture
def process():
    """A live process of its own group, to stand for a server (stopping it ends only it)."""
    child = subprocess.Popen(["sleep", "60"], start_new_session=True)
    yield child
    child.kill()
    child.wait()


def _save(port, pid=None, token=TOKEN, host="127.0.0.1", session_id=""):
    return connect_server.save_served(ServerInfo(pid=pid or os.getpid(), port=port, log="",
                                                 session_id=session_id, token=token,
                                                 host=host))


def test_a_url_of_the_served_server_gets_its_token_on_localhost(state):
    _save(4711, session_id="abc")
    assert authenticated_url("sc://localhost:4711/;session_id=abc") == \
        "sc://localhost:4711/;session_id=abc;token=%s" % TOKEN
    assert authenticated_url("sc://localhost:4711") == "sc://localhost:4711/;token=" + TOKEN
    # pyspark's client sends a token to any name but localhost only over TLS
    assert authenticated_url("sc://127.0.0.1:4711") == "sc://localhost:4711/;token=" + TOKEN
    assert authenticated_url("sc://[::1]:4711") == "sc://localhost:4711/;token=" + TOKEN


def test_a_token_is_quoted_for_the_url(state):
    _save(4711, token="a;b=c/d")
    assert authenticated_url("sc://localhost:4711") == \
        "sc://localhost:4711/;token=a%3Bb%3Dc%2Fd"


def test_other_urls_are_left_as_they_are(state, monkeypatch):
    unchanged = ["sc://localhost:4712",                    # another port
                 "sc://localhost",                         # pyspark's default port, 15002
                 "sc://elsewhere:4711",                    # another machine
                 "sc://localhost:4711/;token=theirs",      # a token of its own
                 "sc://localhost:notaport", "local", "sc://localhost:4711/path"]
    assert [authenticated_url(url) for url in unchanged] == unchanged   # no state file
    _save(4711)
    assert [authenticated_url(url) for url in unchanged] == unchanged
    monkeypatch.setenv(connect_server.TOKEN_ENV, "from-the-environment")   # the user's
    assert authenticated_url("sc://localhost:4711") == "sc://localhost:4711"


def test_no_token_is_added_for_a_server_that_is_gone_or_has_none(state):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    _save(4711, pid=dead.pid)
    assert authenticated_url("sc://localhost:4711") == "sc://localhost:4711"
    _save(4711, token="")
    assert authenticated_url("sc://localhost:4711") == "sc://localhost:4711"


def test_connect_hands_pyspark_the_url_with_the_token(state, monkeypatch):
    _save(4711)
    remote = {}

    class Builder:
        def remote(self, url):
            remote["url"] = url
            return self

        def config(self, key, value):
            return self

        def getOrCreate(self):
            return "session"

    from pyspark.sql import SparkSession
    monkeypatch.setattr(SparkSession, "builder", Builder())
    monkeypatch.setattr(session, "_configure", lambda s: s)
    assert session._connect("sc://localhost:4711") == "session"
    assert remote["url"] == "sc://localhost:4711/;token=" + TOKEN


def test_the_state_file_is_private_and_so_is_a_new_state_directory(state):
    path = _save(4711)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(str(state)).st_mode) == 0o700
    os.chmod(path, 0o644)   # as an earlier version left it
    _save(4711)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    with open(path) as f:
        assert json.load(f)["token"] == TOKEN


def test_a_server_an_earlier_version_started_without_a_token_is_not_used_but_stopped(
        state, listening, process, capsys):
    os.makedirs(str(state))
    with open(connect_server.state_file(), "w") as f:   # an earlier version's fields only
        json.dump({"pid": process.pid, "port": listening, "log": "", "session_id": "abc",
                   "conf_dir": ""}, f)
    assert connect_server.served() is None and entry.served_url() is None
    assert connect_server.running_served().pid == process.pid
    assert authenticated_url("sc://localhost:%d" % listening) == \
        "sc://localhost:%d" % listening
    assert cli.main(["serve", "--status"]) == 1
    said = capsys.readouterr()
    assert said.out == ""
    assert "requires no token" in said.err and "serve --stop" in said.err
    with pytest.raises(ConnectServerError, match="serve --stop"):   # it stays known
        entry.start_served()
    assert cli.main(["serve", "--stop"]) == 0
    assert "stopped the Spark Connect server at sc://localhost:%d" % listening \
        in capsys.readouterr().out
    assert process.wait(timeout=10) is not None
    assert not os.path.exists(connect_server.state_file())


def test_a_state_file_with_fields_of_a_later_version_still_names_its_server(state, listening):
    os.makedirs(str(state))
    with open(connect_server.state_file(), "w") as f:
        json.dump({"pid": os.getpid(), "port": listening, "log": "", "token": TOKEN,
                   "host": "127.0.0.1", "something_new": 1}, f)
    assert connect_server.served().token == TOKEN


def test_the_server_gets_its_token_in_its_environment_and_listens_on_the_loopback(
        state, monkeypatch, tmp_path):
    started = _start_without_java(monkeypatch, tmp_path)
    assert started["info"].host == "127.0.0.1"
    assert "spark.connect.grpc.binding.address=127.0.0.1" in started["command"]
    token = started["env"][connect_server.TOKEN_ENV]
    assert started["info"].token == token and len(token) >= 40
    assert not any(token in arg for arg in started["command"])   # `ps` shows the command
    assert started["env"]["SPARK_LOCAL_IP"] == "127.0.0.1"        # a local master's UI
    assert _start_without_java(monkeypatch, tmp_path)["info"].token != token   # fresh


def test_the_users_token_and_address_are_used_and_kept_off_the_command_line(
        state, monkeypatch, tmp_path):
    started = _start_without_java(monkeypatch, tmp_path, host="0.0.0.0",
                                  conf={connect_server.TOKEN_KEY: "mine"})
    assert started["env"][connect_server.TOKEN_ENV] == "mine"
    assert started["info"].token == "mine" and started["info"].host == "0.0.0.0"
    assert not any("mine" in arg or connect_server.TOKEN_KEY in arg
                   for arg in started["command"])
    assert "spark.connect.grpc.binding.address=0.0.0.0" in started["command"]
    by_conf = _start_without_java(monkeypatch, tmp_path,
                                  conf={connect_server.BINDING_ADDRESS_KEY: "::1"})
    assert by_conf["info"].host == "::1"


def _start_without_java(monkeypatch, tmp_path, **kwargs):
    """start_server with the spark-submit it would start recorded, not started."""
    started = {}

    class Submitted:
        pid = 4242

        def __init__(self, command, env, **_):
            started["command"], started["env"] = command, env

        def poll(self):
            return None

    monkeypatch.setattr(session, "check_java", lambda: None)
    monkeypatch.setattr(connect_server.subprocess, "Popen", Submitted)
    monkeypatch.setattr(connect_server, "_accepting", lambda port, host: True)
    monkeypatch.setattr(connect_server.tempfile, "tempdir", str(tmp_path))
    started["info"] = connect_server.start_server(port=4711, **kwargs)
    return started


def test_loopback_addresses():
    assert all(map(is_loopback, ["localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]"]))
    assert not any(map(is_loopback, ["0.0.0.0", "::", "*", "", "10.0.0.1", "example.org"]))
    assert all(map(connect_server.answers_localhost, ["127.0.0.1", "0.0.0.0", "::", ""]))
    assert not any(map(connect_server.answers_localhost, ["10.0.0.1", "example.org"]))


def test_serve_host_binds_that_address_and_warns_that_other_machines_need_tls(
        state, monkeypatch, capsys):
    asked = {}

    def start_served(**kwargs):
        asked.update(kwargs)
        return entry.ServedServer("sc://localhost:4711", "serve.log", True,
                                  kwargs["host"] or "127.0.0.1", "/state/serve.json")
    monkeypatch.setattr(entry, "start_served", start_served)
    assert cli.main(["serve", "--host", "0.0.0.0"]) == 0
    said = capsys.readouterr()
    assert asked["host"] == "0.0.0.0"
    assert "listening on 0.0.0.0" in said.out
    assert "warning" in said.err and "TLS" in said.err and "/state/serve.json" in said.err
    assert "connects to localhost" not in said.err   # 0.0.0.0 takes in the loopback
    assert cli.main(["serve", "--host", "10.1.2.3"]) == 0
    assert "connects to localhost, where a server listening on 10.1.2.3 alone does not " \
        "answer" in capsys.readouterr().err
    assert cli.main(["serve"]) == 0
    said = capsys.readouterr()
    assert asked["host"] is None and said.err == ""
