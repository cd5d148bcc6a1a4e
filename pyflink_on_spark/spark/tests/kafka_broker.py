"""A real single-node Apache Kafka broker (KRaft: broker and controller in one JVM) on
loopback, for the tests and the benchmark.

Its jars (org.apache.kafka:kafka_2.13, with their dependencies) are fetched once with Maven
into a cache directory: a generated one-dependency pom and ``dependency:copy-dependencies``.
The broker runs as its own JVM: Kafka's jars never go on Spark's classpath (each carries a
Scala library of its own).
"""
from __future__ import annotations

import base64
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass
from typing import List, Optional

from pyflink_on_spark.tests.server_installs import installed_once
from pyflink_on_spark.tests.server_tools import free_port, install_from_maven, jdk_tool

KAFKA_VERSION = "4.1.1"
CACHE_ENV = "PYFLINK_ON_SPARK_KAFKA_HOME"      # where the broker's jars are kept
# the test broker's bootstrap.servers, for programs the tests run (compat cases)
BOOTSTRAP_ENV = "PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS"
START_TIMEOUT_S = 120.0

_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>pyflink-on-spark.test</groupId><artifactId>kafka-broker-classpath</artifactId>
  <version>1</version>
  <dependencies><dependency>
    <groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId>
    <version>{version}</version>
  </dependency></dependencies>
</project>
"""

# Single node: every internal topic has one replica (offsets, transaction state, share-group
# state), and a consumer group starts without waiting for more members.
_SERVER_PROPERTIES = """process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:{controller_port}
listeners=PLAINTEXT://127.0.0.1:{port},CONTROLLER://127.0.0.1:{controller_port}
advertised.listeners=PLAINTEXT://127.0.0.1:{port}
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs={log_dir}
num.partitions=1
auto.create.topics.enable=true
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=4
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
transaction.abort.timed.out.transaction.cleanup.interval.ms=5000
"""

_JVM_OPTIONS = ["-Xms128m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Djava.awt.headless=true"]


def cache_dir() -> str:
    return os.environ.get(CACHE_ENV) or os.path.join(
        os.path.expanduser("~"), ".cache", "pyflink-on-spark", "kafka-" + KAFKA_VERSION)


@installed_once("kafka broker")
def install_broker(version: str = KAFKA_VERSION) -> str:
    """The directory of the broker's jars, fetched with Maven when missing (once)."""
    return os.path.join(install_from_maven(
        cache_dir(), _POM.format(version=version), "org.apache.kafka:kafka_2.13:" + version,
        "Kafka test broker"), "libs")


def cluster_id() -> str:
    """What ``StorageTool random-uuid`` prints (Kafka's Uuid: 16 random bytes, URL-safe
    base64 without padding, never starting with '-'), made here to save a JVM start."""
    while True:
        text = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        if not text.startswith("-"):
            return text


@dataclass
class KafkaBroker:
    """A running broker: ``bootstrap_servers`` to connect, ``stop()`` to end it."""
    bootstrap_servers: str
    process: subprocess.Popen
    data_dir: str

    def stop(self) -> None:
        stop_server(self.process, self.data_dir)


def stop_server(process: subprocess.Popen, data_dir: str) -> None:
    """SIGTERM to a test server, SIGKILL after 20 s; then its directory goes."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    shutil.rmtree(data_dir, ignore_errors=True)


def _wait_for_port(port: int, process: subprocess.Popen, log_path: str) -> None:
    deadline = time.time() + START_TIMEOUT_S
    while time.time() < deadline:
        if process.poll() is not None:
            with open(log_path, errors="replace") as f:
                raise RuntimeError("The Kafka test broker exited (%s):\n%s"
                                   % (process.returncode, f.read()[-4000:]))
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("The Kafka test broker did not listen on port %d within %d s"
                       % (port, START_TIMEOUT_S))


def start_broker(libs: Optional[str] = None) -> KafkaBroker:
    """Formats a fresh KRaft storage directory and starts a broker on free loopback ports."""
    libs = libs or install_broker()
    classpath = os.path.join(libs, "*")
    data_dir = tempfile.mkdtemp(prefix="pyflink-on-spark-kafka-")
    port, controller_port = free_port(), free_port()
    properties = os.path.join(data_dir, "server.properties")
    with open(properties, "w") as f:
        f.write(_SERVER_PROPERTIES.format(port=port, controller_port=controller_port,
                                          log_dir=os.path.join(data_dir, "logs")))
    java: List[str] = [jdk_tool()] + _JVM_OPTIONS + ["-cp", classpath]
    formatted = subprocess.run(java + ["kafka.tools.StorageTool", "format", "-t",
                                       cluster_id(), "-c", properties],
                               capture_output=True, text=True)
    if formatted.returncode != 0:
        shutil.rmtree(data_dir, ignore_errors=True)
        raise RuntimeError("Formatting the Kafka test broker's storage failed:\n%s"
                           % (formatted.stdout + formatted.stderr)[-4000:])
    log_path = os.path.join(data_dir, "broker.log")
    with open(log_path, "w") as log:
        process = subprocess.Popen(java + ["kafka.Kafka", properties], stdout=log,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    broker = KafkaBroker("127.0.0.1:%d" % port, process, data_dir)
    try:
        _wait_for_port(port, process, log_path)
    except BaseException:
        broker.stop()
        raise
    return broker


@installed_once("spark kafka package")
def install_spark_kafka_package() -> str:
    """Makes Spark's Kafka connector resolvable offline (in ~/.m2) and returns its
    coordinates: the installed pyspark's version, else the newest earlier minor release of
    the same major version that Maven Central serves (it may lag behind pyspark)."""
    import pyspark

    from pyflink_on_spark.spark import kafka_package
    if kafka_package.local_version(pyspark.__version__) is not None:
        return kafka_package.kafka_package()
    major, minor = (int(p) for p in pyspark.__version__.split(".")[:2])
    candidates = [pyspark.__version__] + ["%d.%d.0" % (major, m) for m in range(minor - 1, -1, -1)]
    failures = []
    for version in candidates:
        coordinates = "org.apache.spark:%s_2.13:%s" % (kafka_package.ARTIFACT, version)
        result = subprocess.run(kafka_package.fetch_command(coordinates).split() + ["-q", "-B"],
                                capture_output=True, text=True, cwd=tempfile.gettempdir())
        if result.returncode == 0 and kafka_package.local_version(pyspark.__version__):
            return kafka_package.kafka_package()
        failures.append("%s: %s" % (version, (result.stdout + result.stderr)[-500:]))
    raise RuntimeError("Could not fetch Spark's Kafka connector with Maven:\n" +
                       "\n".join(failures))
