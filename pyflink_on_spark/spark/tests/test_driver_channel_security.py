"""The driver channel as an attacker meets it (spark/driver_channel.py,
spark/channel_protocol.py): a stranger's pickle runs nothing, a wrong key, an oversized or
malformed message and a slow-loris connection are refused without holding up the job's own
tasks, and a task trusts nothing from a process that does not prove the key."""
import os
import pickle
import socket
import struct
import threading
import time

import pytest

from pyflink_on_spark.spark import channel_protocol as protocol
from pyflink_on_spark.spark import driver_channel
from pyflink_on_spark.spark.driver_channel import (OUT, ROW, DriverChannel, channel_bind_address,
                                                   spark_guards_its_network)
from pyflink_on_spark.spark.task_channel import TaskChannel

A0 = (0, 0)


class _Marker:
    """A pickle that, loaded, creates a file: what an attacker's `__reduce__` would do."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def _evil_frame(marker_path) -> bytes:
    data = pickle.dumps(_Marker(str(marker_path)))
    return struct.pack("!I", len(data)) + data


def _run_task(channel, texts):
    task = TaskChannel(channel.address + (channel.token,), A0[0], A0[1], 0)
    for text in texts:
        task.send_output(text)
    task.send_row(7, b"payload")
    task.end()
    task.close()


def _collect(channel):
    channel.job_finished()
    return [(m[0], m[2]) for m in channel.messages()]


def _wait_until(condition, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_a_strangers_pickle_runs_nothing_and_the_job_output_is_unchanged(tmp_path, capsys):
    marker = tmp_path / "pwned"
    channel = DriverChannel([A0])
    try:
        with socket.create_connection(channel.address) as attacker:
            attacker.settimeout(5)
            # the driver speaks first (its challenge), then hangs up on the stranger
            received = attacker.recv(4096)
            attacker.sendall(_evil_frame(marker))
            try:
                assert attacker.recv(4096) == b""
            except ConnectionResetError:
                pass   # it closed with the stranger's bytes unread
        assert received.startswith(protocol.MAGIC)
        assert len(received) == protocol.CHALLENGE_BYTES
        _run_task(channel, ["printed\n"])
        got = _collect(channel)
    finally:
        channel.close()
    assert not marker.exists()
    assert got == [(OUT, "printed\n"), (ROW, 7)]
    assert channel.refused == 1
    # counted and its host named, never its bytes
    err = capsys.readouterr().err
    assert "refused 1 connection(s)" in err and "127.0.0.1" in err
    assert "pwned" not in err


def test_a_wrong_key_is_refused_and_the_task_is_told_so():
    channel = DriverChannel([A0])
    try:
        wrong = protocol.new_key()
        with pytest.raises(ConnectionError):
            TaskChannel(channel.address[:2] + (wrong,), 0, 0, 0)
        _wait_until(lambda: channel.refused == 1)
        _run_task(channel, ["still works\n"])
        assert _collect(channel) == [(OUT, "still works\n"), (ROW, 7)]
    finally:
        channel.close()


def test_a_recorded_hello_cannot_be_replayed_against_a_new_challenge():
    key = bytes.fromhex(protocol.new_key())
    first, first_nonce = protocol.challenge()
    hello, _ = protocol.task_hello(key, first, 1, 2, 0, False)
    assert protocol.check_task_hello(key, first_nonce, hello) is not None
    _, second_nonce = protocol.challenge()
    assert protocol.check_task_hello(key, second_nonce, hello) is None
    # nor can its fields be changed under the same MAC
    forged = hello[:20] + struct.pack("!IIIB", 9, 2, 0, 0) + hello[20 + 13:]
    assert protocol.check_task_hello(key, first_nonce, forged) is None


def test_an_oversized_hello_is_cut_at_its_fixed_size_and_refused(tmp_path):
    marker = tmp_path / "pwned"
    channel = DriverChannel([A0])
    try:
        with socket.create_connection(channel.address) as attacker:
            attacker.recv(protocol.CHALLENGE_BYTES)
            try:   # far more than the hello's 65 bytes: the driver reads no further
                attacker.sendall(protocol.MAGIC + b"\xff" * (8 << 20) + _evil_frame(marker))
            except OSError:
                pass   # the driver hung up while the rest was on its way
        _wait_until(lambda: channel.refused == 1)
        _run_task(channel, ["ok\n"])
        assert _collect(channel) == [(OUT, "ok\n"), (ROW, 7)]
    finally:
        channel.close()
    assert not marker.exists()


def test_an_authenticated_task_claiming_a_huge_message_fails_the_job_saying_why():
    cancelled = []
    channel = DriverChannel([A0], on_error=cancelled.append)
    try:
        task = TaskChannel(channel.address + (channel.token,), 0, 0, 0)
        task._out.write(struct.pack("!I", protocol.MAX_MESSAGE_BYTES + 1))
        task._out.flush()
        _wait_until(lambda: channel.user_error is not None)
        task.close()
    finally:
        channel.close()
    assert "over the channel's limit" in channel.user_error
    assert "stage 0, subtask 0" in channel.user_error
    assert cancelled == [channel.user_error]


def test_slow_loris_connections_do_not_hold_up_the_tasks(monkeypatch):
    monkeypatch.setattr(driver_channel, "HANDSHAKE_SECONDS", 1.0)
    channel = DriverChannel([A0])
    slow = []
    try:
        for _ in range(5):   # each trickles a byte at a time, never finishing its hello
            conn = socket.create_connection(channel.address)
            conn.recv(protocol.CHALLENGE_BYTES)
            conn.sendall(protocol.MAGIC[:1])
            slow.append(conn)
        started = time.monotonic()
        _run_task(channel, ["on time\n"])
        assert time.monotonic() - started < 0.9     # not after the slow ones' deadline
        # a byte every 0.3 s does not earn a new deadline per byte
        for _ in range(5):
            for conn in slow:
                try:
                    conn.sendall(b"\0")
                except OSError:
                    pass
            time.sleep(0.3)
        _wait_until(lambda: channel.refused == 5)
        assert _collect(channel) == [(OUT, "on time\n"), (ROW, 7)]
    finally:
        for conn in slow:
            conn.close()
        channel.close()


class _FakeDriver:
    """A process that took the channel's port: it answers GO and hands over a pickle, but
    does not hold the key."""

    def __init__(self, marker_path):
        self._server = socket.create_server(("127.0.0.1", 0))
        self.address = self._server.getsockname()
        self._payload = pickle.dumps(_Marker(str(marker_path)))
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        conn, _ = self._server.accept()
        with conn:
            challenge, _ = protocol.challenge()
            conn.sendall(challenge)
            conn.recv(protocol.TASK_HELLO_BYTES)
            conn.sendall(protocol.GO + b"\0" * protocol.MAC_BYTES)
            conn.sendall(struct.pack("!I", len(self._payload)) + self._payload
                         + b"\0" * protocol.MAC_BYTES)
            time.sleep(0.5)

    def close(self):
        self._server.close()


def test_a_task_trusts_nothing_from_a_process_that_does_not_prove_the_key(tmp_path):
    marker = tmp_path / "pwned"
    fake = _FakeDriver(marker)
    try:
        with pytest.raises(protocol.ChannelAuthError):
            TaskChannel(fake.address + (protocol.new_key(),), 0, 0, 0, want_args=True)
    finally:
        fake.close()
    assert not marker.exists()


def test_the_stage_arguments_reach_a_task_only_with_the_drivers_mac():
    channel = DriverChannel([A0])
    channel.stage_args = lambda stage, subtask: b"args of %d/%d" % (stage, subtask)
    try:
        task = TaskChannel(channel.address + (channel.token,), 0, 0, 0, want_args=True)
        assert task.stage_args == b"args of 0/0"
        task.end()
        task.close()
        key = bytes.fromhex(channel.token)
        with pytest.raises(protocol.ChannelAuthError):
            protocol.check_args(key, b"d" * 16, b"t" * 16, b"args", b"\0" * 32)
    finally:
        channel.close()


@pytest.mark.parametrize("message", [
    (OUT, 3, "text with a lone surrogate \udcff and ünïcode"),
    (ROW, 2 ** 40, -2, b"\x00\x80 payload"),
    ("end", 7),
    ("error", "Traceback ...\nValueError: boom"),
])
def test_messages_are_plain_frames_that_read_back_as_they_were_written(message):
    import io
    stream = io.BytesIO()
    protocol.write_message(stream, message)
    frame = stream.getvalue()
    assert b"\x80\x04\x95" not in frame[:8]          # no pickle header
    stream.seek(0)
    assert protocol.read_message(stream) == message
    assert protocol.read_message(stream) is None


def test_a_frame_that_is_not_a_message_is_refused_not_guessed():
    import io
    with pytest.raises(ValueError):
        protocol.read_message(io.BytesIO(struct.pack("!I", 9) + b"\x09" + b"\0" * 8))
    with pytest.raises(protocol.MessageTooLarge):
        protocol.read_message(io.BytesIO(struct.pack("!I", 100) + b"x" * 100), limit=99)


class _Conf(dict):
    def get(self, key, default=None):
        return dict.get(self, key, default)


class _Context:
    def __init__(self, master, conf):
        self.master = master
        self._conf = _Conf(conf)

    def getConf(self):
        return self._conf


class _Session:
    def __init__(self, master, **conf):
        self.sparkContext = _Context(master, {k.replace("_", "."): v for k, v in conf.items()})


def test_the_channel_listens_where_spark_does_never_on_every_interface():
    assert channel_bind_address(_Session("local[*,4]")) == "127.0.0.1"
    assert channel_bind_address(_Session("local[2]", spark_driver_bindAddress="0.0.0.0")) \
        == "127.0.0.1"   # a local master's tasks are on this machine
    assert channel_bind_address(_Session("spark://m:7077", spark_driver_host="10.1.2.3")) \
        == "10.1.2.3"
    assert channel_bind_address(_Session("spark://m:7077", spark_driver_host="10.1.2.3",
                                         spark_driver_bindAddress="10.9.9.9")) == "10.9.9.9"
    channel = DriverChannel([A0])
    try:
        assert channel._server.getsockname()[0] == "127.0.0.1"
    finally:
        channel.close()


def test_a_bind_address_not_of_this_machine_fails_saying_what_to_set():
    with pytest.raises(OSError, match="spark.driver.bindAddress"):
        DriverChannel([A0], host="192.0.2.1", bind_address="192.0.2.1")


@pytest.mark.parametrize("conf,expected", [
    ({}, None),
    ({"spark.authenticate": "true"}, "spark.authenticate"),
    ({"spark.authenticate": "false", "spark.network.crypto.enabled": "TRUE"},
     "spark.network.crypto.enabled"),
    ({"spark.ssl.enabled": "true"}, "spark.ssl.enabled"),
    ({"spark.ssl.rpc.enabled": " true "}, "spark.ssl.rpc.enabled"),
    ({"spark.ssl.enabled": "false"}, None),
])
def test_a_spark_that_guards_its_network_gets_no_port_of_the_jobs_own(conf, expected):
    assert spark_guards_its_network(conf.get) == expected


@pytest.mark.parametrize("conf,expected", [
    ({}, None),
    ({"spark.pyflink_on_spark.driverChannel.enabled": "false"},
     "spark.pyflink_on_spark.driverChannel.enabled=false"),
    ({"spark.pyflink_on_spark.driverChannel.enabled": "true"}, None),
    ({"spark.network.crypto.enabled": "true"}, "spark.network.crypto.enabled=true"),
])
def test_the_channel_is_off_by_the_users_setting_or_sparks_security(conf, expected):
    assert driver_channel.channel_off_because(conf.get) == expected


def test_a_task_that_cannot_reach_the_driver_fails_naming_the_address_and_the_setting():
    from pyflink_on_spark.spark.task_channel import DriverUnreachable
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]      # bound, never listening: refused
        started = time.monotonic()
        with pytest.raises(DriverUnreachable) as raised:
            TaskChannel(("127.0.0.1", port, protocol.new_key()), 0, 0, 0)
    assert time.monotonic() - started < 5
    assert "127.0.0.1:%d" % port in str(raised.value)
    assert "spark.driver.host" in str(raised.value)
