"""A throwaway RabbitMQ broker for the RMQSource / RMQSink tests: Debian's `rabbitmq-server`
package (installed with apt-get when missing; it brings Erlang), one node of its own on
loopback, on free ports (AMQP, Erlang distribution, and an epmd of its own started here, so
that nothing is shared with a broker or Erlang node already on the machine), its Mnesia and
log directories in a temporary directory, no plugins (no management UI), stopped and removed
at the end. The user guest/guest may log in from anywhere (loopback only anyway).

Start-up takes ~5 s on the 2-core CI machine (measured: `start_server()` until an AMQP
connection opens), most of it the Erlang VM booting RabbitMQ's applications."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from typing import List, Optional

from pyflink_on_spark.tests.server_installs import installed_once
from pyflink_on_spark.tests.server_tools import apt_install, free_port

ADDRESS_ENV = "PYFLINK_ON_SPARK_TEST_RABBITMQ"   # "host:port" of the running broker
SERVER_SCRIPT = "/usr/lib/rabbitmq/bin/rabbitmq-server"
START_TIMEOUT_S = 90.0


@installed_once("rabbitmq-server")
def ensure_installed() -> str:
    """The broker's start script, installing Debian's rabbitmq-server package if needed."""
    if os.path.exists(SERVER_SCRIPT):
        return SERVER_SCRIPT
    apt_install(["rabbitmq-server"])
    if not os.path.exists(SERVER_SCRIPT):
        raise RuntimeError("apt-get install rabbitmq-server left no %s" % SERVER_SCRIPT)
    # the package's post-install may have started the system's own broker (where an init
    # system runs): it listens on 5672, not on the ports used here, and is left alone
    return SERVER_SCRIPT


def _epmd() -> str:
    found = shutil.which("epmd")
    if found:
        return found
    import glob
    candidates = sorted(glob.glob("/usr/lib/erlang/erts-*/bin/epmd"))
    if not candidates:
        raise RuntimeError("no epmd (Erlang's port mapper) found: is Erlang installed?")
    return candidates[-1]


@dataclass
class RabbitMQServer:
    root: str
    port: int
    process: Optional[subprocess.Popen] = None
    epmd: Optional[subprocess.Popen] = None
    started_in_s: float = 0.0

    @property
    def address(self) -> str:
        return "127.0.0.1:%d" % self.port

    def log_tail(self, lines: int = 30) -> str:
        text = []
        for directory, _, files in os.walk(self.root):
            for name in files:
                if name.endswith(".log"):
                    with open(os.path.join(directory, name), errors="replace") as f:
                        text.extend(f.read().splitlines()[-lines:])
        return "\n".join(text[-lines:])

    def start(self, script: str) -> None:
        started = time.monotonic()
        epmd_port = free_port()
        dist_port = free_port()
        with open(os.path.join(self.root, "enabled_plugins"), "w") as f:
            f.write("[].\n")
        with open(os.path.join(self.root, "rabbitmq.conf"), "w") as f:
            f.write("listeners.tcp.default = 127.0.0.1:%d\nloopback_users = none\n"
                    "log.file.level = warning\n" % self.port)
        env = dict(os.environ,
                   HOME=self.root,                     # its .erlang.cookie
                   ERL_EPMD_PORT=str(epmd_port),
                   RABBITMQ_NODENAME="pyflink-on-spark-test-%d@localhost" % self.port,
                   RABBITMQ_NODE_IP_ADDRESS="127.0.0.1",
                   RABBITMQ_NODE_PORT=str(self.port),
                   RABBITMQ_DIST_PORT=str(dist_port),
                   RABBITMQ_MNESIA_BASE=os.path.join(self.root, "mnesia"),
                   RABBITMQ_LOG_BASE=os.path.join(self.root, "log"),
                   RABBITMQ_ENABLED_PLUGINS_FILE=os.path.join(self.root, "enabled_plugins"),
                   RABBITMQ_CONFIG_FILE=os.path.join(self.root, "rabbitmq"),
                   RABBITMQ_ADVANCED_CONFIG_FILE=os.path.join(self.root, "advanced.config"),
                   RABBITMQ_CONF_ENV_FILE=os.path.join(self.root, "no-env-file"),
                   RABBITMQ_PID_FILE=os.path.join(self.root, "pid"),
                   # the VM runs in this process (no wrapper shell): its pid is ours to stop
                   RABBITMQ_ALLOW_INPUT="true",
                   # one scheduler: a test broker on a shared 2-core machine
                   RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-noinput +S 1:1 +A 4")
        # an epmd of its own, in the foreground (so its pid is known and it stops with us)
        self.epmd = subprocess.Popen([_epmd(), "-port", str(epmd_port)], env=env,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        out = open(os.path.join(self.root, "server-stdout.log"), "wb")
        self.process = subprocess.Popen([script], env=env, cwd=self.root,
                                        stdin=subprocess.DEVNULL, stdout=out,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        out.close()
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("rabbitmq-server exited with status %s while starting:\n%s"
                                   % (self.process.returncode, self.log_tail()))
            if self._accepts_amqp():
                self.started_in_s = time.monotonic() - started
                return
            time.sleep(0.2)
        raise RuntimeError("rabbitmq-server did not accept AMQP connections on %s within "
                           "%.0f s:\n%s" % (self.address, START_TIMEOUT_S, self.log_tail()))

    def _accepts_amqp(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"AMQP\x00\x00\x09\x01")
                s.settimeout(2.0)
                return s.recv(1) == b"\x01"      # a Connection.Start method frame
        except OSError:
            return False

    def stop(self) -> None:
        for process in (self.process, self.epmd):
            if process is None or process.poll() is not None:
                continue
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=15)
        shutil.rmtree(self.root, ignore_errors=True)


def start_server() -> RabbitMQServer:
    script = ensure_installed()
    root = tempfile.mkdtemp(prefix="pyflink-on-spark-rabbitmq-")
    server = RabbitMQServer(root, free_port())
    try:
        server.start(script)
    except BaseException:
        server.stop()
        raise
    return server


# -- a client for tests (pika) ------------------------------------------------------------------
def _channel(address: str):
    import pika
    host, port = address.rsplit(":", 1)
    connection = pika.BlockingConnection(pika.ConnectionParameters(host, int(port)))
    return connection, connection.channel()


def publish(address: str, queue: str, bodies, correlation_ids=None) -> None:
    """Publishes `bodies` (bytes) to `queue` (declared as Flink declares it), each with its
    correlation id if given, confirmed by the broker."""
    import pika
    connection, channel = _channel(address)
    try:
        channel.queue_declare(queue, durable=True)
        channel.confirm_delivery()
        for n, body in enumerate(bodies):
            properties = None if correlation_ids is None else \
                pika.BasicProperties(correlation_id=correlation_ids[n])
            channel.basic_publish("", queue, body, properties)
    finally:
        connection.close()


def drain(address: str, queue: str, limit: Optional[int] = None) -> List[bytes]:
    """The bodies of the queue's ready messages, in queue order, taken (acknowledged)."""
    connection, channel = _channel(address)
    bodies: List[bytes] = []
    try:
        channel.queue_declare(queue, durable=True)
        while limit is None or len(bodies) < limit:
            method, _, body = channel.basic_get(queue, auto_ack=True)
            if method is None:
                break
            bodies.append(body)
    finally:
        connection.close()
    return bodies


def message_count(address: str, queue: str) -> int:
    """How many messages of `queue` are ready (not held unacknowledged by a consumer)."""
    connection, channel = _channel(address)
    try:
        return channel.queue_declare(queue, durable=True).method.message_count
    finally:
        connection.close()
