"""A throwaway single-node Apache Cassandra 5.0 on loopback, for the CassandraSink tests, its
compat cases and the benchmark.

Its jars (org.apache.cassandra:cassandra-all with its runtime dependencies, ~66 MB, ~40 s
from an empty Maven repository) are fetched once with Maven into a cache directory (once per
process, started early when the collected tests ask for the `cassandra` fixture:
tests/server_installs.py): a generated one-dependency pom and
``dependency:copy-dependencies``, as the Kafka test broker's are
(pyflink_on_spark/spark/tests/kafka_broker.py). The node runs as its own JVM
(org.apache.cassandra.service.CassandraDaemon in the foreground) with a minimal cassandra.yaml
in a fresh temporary directory: loopback, free native and storage ports, one token, small
memtables, no JMX, a 512 MiB heap. Cassandra 5.0 is the first release that supports Java 17,
the JDK here; the JVM options it needs on Java 17 are those of its conf/jvm17-server.options.

Started like this it answers CQL after ~5-6 s (measured here: 5.4 s, RSS ~560 MB). Most of
the default start was Cassandra estimating its memtable row overhead over 100,000 rows
(12 of 24 s): `cassandra.memtable_row_overhead_computation_step` makes that 100.
"""
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
from pyflink_on_spark.tests.server_tools import free_port, install_from_maven, jdk_tool, log_tail

CASSANDRA_VERSION = "5.0.6"
CACHE_ENV = "PYFLINK_ON_SPARK_CASSANDRA_HOME"     # where the node's jars are kept
# the test node's host:port (CQL native protocol), for programs the tests run (compat cases)
HOST_PORT_ENV = "PYFLINK_ON_SPARK_TEST_CASSANDRA"
START_TIMEOUT_S = 120.0

_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>pyflink-on-spark.test</groupId><artifactId>cassandra-classpath</artifactId>
  <version>1</version>
  <dependencies><dependency>
    <groupId>org.apache.cassandra</groupId><artifactId>cassandra-all</artifactId>
    <version>{version}</version>
  </dependency></dependencies>
</project>
"""

# A single node that owns the whole ring (one token, no bootstrap), small caches and
# memtables; the commit log synced every 10 s (its data is thrown away anyway)
_CASSANDRA_YAML = """cluster_name: pyflink-on-spark-test
num_tokens: 1
initial_token: 0
partitioner: org.apache.cassandra.dht.Murmur3Partitioner
data_file_directories: [{root}/data]
commitlog_directory: {root}/commitlog
saved_caches_directory: {root}/saved_caches
hints_directory: {root}/hints
cdc_raw_directory: {root}/cdc_raw
commitlog_sync: periodic
commitlog_sync_period: 10000ms
seed_provider:
  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
    parameters:
      - seeds: "127.0.0.1:{storage_port}"
listen_address: 127.0.0.1
rpc_address: 127.0.0.1
storage_port: {storage_port}
native_transport_port: {port}
start_native_transport: true
endpoint_snitch: SimpleSnitch
auto_bootstrap: false
memtable_heap_space: 32MiB
memtable_offheap_space: 32MiB
key_cache_size: 0MiB
counter_cache_size: 0MiB
concurrent_reads: 4
concurrent_writes: 4
concurrent_counter_writes: 4
concurrent_compactors: 1
"""

# Cassandra logs INFO to a file of its own (read back when it fails to start)
_LOGBACK_XML = """<configuration>
  <appender name="FILE" class="ch.qos.logback.core.FileAppender">
    <file>{log}</file>
    <encoder><pattern>%-5level [%thread] %date{{ISO8601}} %F:%L - %msg%n</pattern></encoder>
  </appender>
  <root level="INFO"><appender-ref ref="FILE"/></root>
</configuration>
"""

# conf/jvm17-server.options of Cassandra 5.0 (its JPMS and Netty settings)
_JAVA17_OPTIONS = [
    "-Djdk.attach.allowAttachSelf=true",
    "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "--add-exports", "java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED",
    "--add-exports", "java.rmi/sun.rmi.registry=ALL-UNNAMED",
    "--add-exports", "java.rmi/sun.rmi.server=ALL-UNNAMED",
    "--add-exports", "java.sql/java.sql=ALL-UNNAMED",
    "--add-exports", "java.base/java.lang.ref=ALL-UNNAMED",
    "--add-exports", "jdk.unsupported/sun.misc=ALL-UNNAMED",
    "--add-exports", "jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
    "--add-exports", "jdk.attach/sun.tools.attach=ALL-UNNAMED",
    "--add-opens", "java.base/java.lang.module=ALL-UNNAMED",
    "--add-opens", "java.base/jdk.internal.loader=ALL-UNNAMED",
    "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
    "--add-opens", "java.base/jdk.internal.reflect=ALL-UNNAMED",
    "--add-opens", "java.base/jdk.internal.math=ALL-UNNAMED",
    "--add-opens", "java.base/jdk.internal.module=ALL-UNNAMED",
    "--add-opens", "java.base/jdk.internal.util.jar=ALL-UNNAMED",
    "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
    "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens", "java.base/java.io=ALL-UNNAMED",
    "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-opens", "jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
    "--add-opens", "java.base/java.lang=ALL-UNNAMED",
    "--add-opens", "java.base/java.util=ALL-UNNAMED",
    "-Dio.netty.tryReflectionSetAccessible=true",
]

_JVM_OPTIONS = ["-Xms256m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Djava.awt.headless=true"]

# a single fresh node waits for nobody: no gossip settling, ring delay or superuser delay;
# system tables are not fsynced; the memtable row-overhead estimate runs over 100 rows
_CASSANDRA_PROPERTIES = ["-Dcassandra-foreground=yes", "-Dcassandra.unsafesystem=true",
                         "-Dcassandra.skip_wait_for_gossip_to_settle=0",
                         "-Dcassandra.ring_delay_ms=0", "-Dcassandra.superuser_setup_delay_ms=0",
                         "-Dcassandra.memtable_row_overhead_computation_step=100"]


def cache_dir() -> str:
    return os.environ.get(CACHE_ENV) or os.path.join(
        os.path.expanduser("~"), ".cache", "pyflink-on-spark", "cassandra-" + CASSANDRA_VERSION)


@installed_once("cassandra node")
def install_cassandra(version: str = CASSANDRA_VERSION) -> str:
    """The directory of the node's jars, fetched with Maven when missing (once)."""
    return os.path.join(install_from_maven(
        cache_dir(), _POM.format(version=version),
        "org.apache.cassandra:cassandra-all:" + version, "Cassandra test node",
        maven_args=["-DincludeScope=runtime"]), "libs")


@dataclass
class CassandraServer:
    """A running node: ``host_port`` ("127.0.0.1:<port>") to connect, ``stop()`` to end it."""
    host: str
    port: int
    process: subprocess.Popen
    root: str

    @property
    def host_port(self) -> str:
        return "%s:%d" % (self.host, self.port)

    def stop(self) -> None:
        """Its data is thrown away: SIGKILL (a clean shutdown flushes every table, ~2 s)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        shutil.rmtree(self.root, ignore_errors=True)


def _wait_for_port(server: CassandraServer, log_path: str) -> None:
    deadline = time.time() + START_TIMEOUT_S
    while time.time() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError("The Cassandra test node exited (%s):\n%s"
                               % (server.process.returncode, log_tail(log_path)))
        try:
            with socket.create_connection((server.host, server.port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("The Cassandra test node did not listen on %s within %d s:\n%s"
                       % (server.host_port, START_TIMEOUT_S, log_tail(log_path)))


def start_server(libs: Optional[str] = None) -> CassandraServer:
    """Starts a fresh node on free loopback ports and waits until it answers CQL."""
    libs = libs or install_cassandra()
    root = tempfile.mkdtemp(prefix="pyflink-on-spark-cassandra-")
    port, storage_port = free_port(), free_port()
    config = os.path.join(root, "cassandra.yaml")
    with open(config, "w") as f:
        f.write(_CASSANDRA_YAML.format(root=root, port=port, storage_port=storage_port))
    log_path = os.path.join(root, "system.log")
    logback = os.path.join(root, "logback.xml")
    with open(logback, "w") as f:
        f.write(_LOGBACK_XML.format(log=log_path))
    command: List[str] = (
        [jdk_tool()] + _JVM_OPTIONS + _JAVA17_OPTIONS + _CASSANDRA_PROPERTIES +
        ["-Dcassandra.config=file://" + config, "-Dlogback.configurationFile=file://" + logback,
         "-Dcassandra.storagedir=" + root, "-Dcassandra.logdir=" + root,
         "-cp", os.path.join(libs, "*"), "org.apache.cassandra.service.CassandraDaemon"])
    with open(os.path.join(root, "stdout.log"), "w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, cwd=root)
    server = CassandraServer("127.0.0.1", port, process, root)
    try:
        _wait_for_port(server, log_path)
    except BaseException:
        server.stop()
        raise
    return server


if __name__ == "__main__":     # a node for trying things by hand: python -m ...cassandra_server
    started = time.time()
    node = start_server()
    print("Cassandra %s on %s (started in %.1f s); Ctrl-C stops it"
          % (CASSANDRA_VERSION, node.host_port, time.time() - started), flush=True)
    try:
        node.process.wait()
    except KeyboardInterrupt:
        pass
    finally:
        node.stop()
