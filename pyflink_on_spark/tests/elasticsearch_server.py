"""A throwaway single-node Elasticsearch 7.17 on loopback, for the Elasticsearch sink's tests,
its compat cases and the benchmark.

Elastic's download site is not reachable here, but the server's jars are on Maven Central:
org.elasticsearch:elasticsearch (the node) and org.elasticsearch.plugin:transport-netty4-client
(its HTTP and transport layer), ~32 MB with their dependencies. They are fetched once with
Maven into a cache directory (a generated pom and ``dependency:copy-dependencies``, as the
Kafka test broker's are: pyflink_on_spark/spark/tests/kafka_broker.py), and a small Java class
is compiled there with javac: `EmbeddedNode` subclasses org.elasticsearch.node.Node, whose
constructor taking classpath plugins is protected in 7.x, to start a node with the netty4
plugin and no modules (no x-pack, no ingest, no painless: the sink needs only `_bulk`).

The node runs as its own JVM with a 512 MiB heap: single-node discovery, HTTP and transport on
free loopback ports, data in a fresh temporary directory, disk watermarks off (a full CI disk
must not turn the test indices read-only). Measured here: the first install (Maven download and
javac) takes ~18 s; the node is ready (cluster health yellow) 5-6 s after its start, 14 s on a
2-core machine busy with other jobs; RSS ~200-250 MB.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from pyflink_on_spark.tests.server_installs import installed_once
from pyflink_on_spark.tests.server_tools import free_port, install_from_maven, jdk_tool, log_tail

ES_VERSION = "7.17.29"
CACHE_ENV = "PYFLINK_ON_SPARK_ELASTICSEARCH_HOME"   # where the node's jars are kept
# the test node's HTTP address (http://127.0.0.1:port), for programs the tests run
URL_ENV = "PYFLINK_ON_SPARK_TEST_ELASTICSEARCH_URL"
START_TIMEOUT_S = 120.0

_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>pyflink-on-spark.test</groupId><artifactId>elasticsearch-classpath</artifactId>
  <version>1</version>
  <dependencies>
    <dependency><groupId>org.elasticsearch</groupId><artifactId>elasticsearch</artifactId>
      <version>{version}</version></dependency>
    <dependency><groupId>org.elasticsearch.plugin</groupId>
      <artifactId>transport-netty4-client</artifactId><version>{version}</version></dependency>
  </dependencies>
</project>
"""

_NODE_SOURCE = """import java.nio.file.Paths;
import java.util.Collections;
import java.util.concurrent.CountDownLatch;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.node.InternalSettingsPreparer;
import org.elasticsearch.node.Node;
import org.elasticsearch.transport.Netty4Plugin;

/** A single Elasticsearch node with the netty4 plugin from the classpath (the constructor
 *  taking classpath plugins is protected). Arguments: home directory, HTTP port, transport
 *  port. Runs until SIGTERM. */
public class EmbeddedNode extends Node {
    EmbeddedNode(Settings settings) {
        super(InternalSettingsPreparer.prepareEnvironment(
                  settings, Collections.emptyMap(), null, () -> "test-node"),
              Collections.singletonList(Netty4Plugin.class), true);
    }

    public static void main(String[] args) throws Exception {
        String home = args[0];
        Settings settings = Settings.builder()
            .put("path.home", home)
            .put("path.data", Paths.get(home, "data").toString())
            .put("path.logs", Paths.get(home, "logs").toString())
            .put("cluster.name", "pyflink-on-spark-test")
            .put("node.name", "test-node")
            .put("network.host", "127.0.0.1")
            .put("http.port", args[1])
            .put("transport.port", args[2])
            .put("discovery.type", "single-node")
            .put("http.type", "netty4")
            .put("transport.type", "netty4")
            .put("cluster.routing.allocation.disk.threshold_enabled", false)
            .build();
        EmbeddedNode node = new EmbeddedNode(settings);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try { node.close(); } catch (Exception e) { }
            stopped.countDown();
        }));
        node.start();
        System.out.println("STARTED");
        System.out.flush();
        stopped.await();   // the node's threads are daemons: keep the JVM alive
    }
}
"""

_JVM_OPTIONS = ["-Xms256m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Djava.awt.headless=true", "-Dlog4j2.disable.jmx=true"]


def cache_dir() -> str:
    return os.environ.get(CACHE_ENV) or os.path.join(
        os.path.expanduser("~"), ".cache", "pyflink-on-spark", "elasticsearch-" + ES_VERSION)


def _compile_launcher(work: str, libs: str) -> None:
    """EmbeddedNode compiled into work/classes, beside libs/."""
    source = os.path.join(work, "EmbeddedNode.java")
    with open(source, "w") as f:
        f.write(_NODE_SOURCE)
    compiled = subprocess.run([jdk_tool("javac"), "-cp", os.path.join(libs, "*"),
                               "-d", os.path.join(work, "classes"), source],
                              capture_output=True, text=True)
    if compiled.returncode != 0:
        raise RuntimeError("Compiling the Elasticsearch test node's launcher failed:\n%s"
                           % (compiled.stdout + compiled.stderr)[-4000:])


@installed_once("elasticsearch node")
def install_node(version: str = ES_VERSION) -> str:
    """The cache directory holding libs/ (the node's jars) and classes/ (EmbeddedNode),
    fetched and compiled when missing (once)."""
    return install_from_maven(cache_dir(), _POM.format(version=version),
                              "org.elasticsearch:elasticsearch:" + version,
                              "Elasticsearch test node", build=_compile_launcher)


def request(url: str, method: str = "GET", body: Optional[bytes] = None,
            content_type: str = "application/json", timeout: float = 30.0) -> Dict[str, Any]:
    """One HTTP request to the node: its JSON answer (an HTTP error's JSON body too)."""
    req = urllib.request.Request(url, data=body, method=method,
                                 headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as e:
        return json.loads(e.read() or b"{}")


def search_all(url: str, index: str) -> List[Dict[str, Any]]:
    """Every document of `index` (pattern) after a refresh: the hits with _index, _id,
    _source."""
    request("%s/%s/_refresh" % (url, index), "POST")
    answer = request("%s/%s/_search?size=10000" % (url, index))
    return answer.get("hits", {}).get("hits", [])


@dataclass
class ElasticsearchNode:
    """A running node: `url` (http://127.0.0.1:port) to connect, `stop()` to end it."""
    url: str
    process: subprocess.Popen
    home: str

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.home, ignore_errors=True)


def _wait_until_ready(node: ElasticsearchNode, log_path: str) -> None:
    deadline = time.time() + START_TIMEOUT_S
    while time.time() < deadline:
        if node.process.poll() is not None:
            raise RuntimeError("The Elasticsearch test node exited (%s):\n%s"
                               % (node.process.returncode, log_tail(log_path)))
        try:
            health = request(node.url + "/_cluster/health?wait_for_status=yellow&timeout=5s",
                             timeout=10)
            if health.get("status") in ("yellow", "green"):
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError("The Elasticsearch test node did not answer on %s within %d s:\n%s"
                       % (node.url, START_TIMEOUT_S, log_tail(log_path)))


def start_node(home: Optional[str] = None) -> ElasticsearchNode:
    """Starts a node on free loopback ports with a fresh data directory."""
    install = home or install_node()
    classpath = os.pathsep.join([os.path.join(install, "classes"),
                                 os.path.join(install, "libs", "*")])
    data_home = tempfile.mkdtemp(prefix="pyflink-on-spark-elasticsearch-")
    port = free_port()
    log_path = os.path.join(data_home, "node.log")
    java: List[str] = [jdk_tool()] + _JVM_OPTIONS + ["-cp", classpath, "EmbeddedNode",
                                                         data_home, str(port),
                                                         str(free_port())]
    with open(log_path, "w") as log:
        process = subprocess.Popen(java, stdout=log, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL)
    node = ElasticsearchNode("http://127.0.0.1:%d" % port, process, data_home)
    try:
        _wait_until_ready(node, log_path)
    except BaseException:
        node.stop()
        raise
    return node
