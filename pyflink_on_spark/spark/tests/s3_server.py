"""An S3-API object store for the tests: S3Proxy (org.gaul:s3proxy, one jar from Maven Central)
on loopback, with its in-memory backend, and the Hadoop s3a connector's jars that Spark needs
to reach it.

Why S3 and not HDFS as the shared storage the tests run jobs on: an S3-API store is what
Spark platforms share today (EMR, Databricks, Kubernetes with MinIO or Ceph), and both halves
of the shim reach it with what a plain PySpark environment already has: the executors'
Python through pyarrow's S3 support (built into the pyarrow wheel), the JVM through Hadoop's
s3a connector. HDFS would need libhdfs and a JVM inside every Python worker for pyarrow.

S3Proxy's "transient" backend keeps a flat key space as S3 does (its file-system backends
emulate directories and refuse some deletes S3 accepts). Its data lives as long as the server,
which outlives the drivers the tests kill.
"""
from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from typing import Dict, List, Tuple

from pyflink_on_spark.spark.tests.kafka_broker import _wait_for_port, stop_server
from pyflink_on_spark.tests.server_installs import installed_once
from pyflink_on_spark.tests.server_tools import free_port, jdk_tool

S3PROXY = ("org.gaul", "s3proxy", "2.6.0", "jar-with-dependencies")
# hadoop-aws at the version of the installed pyspark's Hadoop client, and what it needs
# at run time (hadoop-aws's pom: the AWS SDK bundle and the analytics accelerator)
S3A_JARS = (("org.apache.hadoop", "hadoop-aws", "3.5.0", None),
            ("software.amazon.awssdk", "bundle", "2.35.4", None),
            ("software.amazon.s3.analyticsaccelerator", "analyticsaccelerator-s3", "1.3.1",
             None))
REGION = "us-east-1"
# Recent AWS SDKs (pyarrow's among them) add CRC checksums to every upload by default, which
# S3Proxy (as MinIO and Ceph releases before 2025) rejects; "when required" is the setting
# AWS documents for such stores. The same variables go to the executors.
CHECKSUM_ENV = {"AWS_REQUEST_CHECKSUM_CALCULATION": "WHEN_REQUIRED",
                "AWS_RESPONSE_CHECKSUM_VALIDATION": "WHEN_REQUIRED"}


def maven_jar(group: str, artifact: str, version: str, classifier=None) -> str:
    """The artifact's jar in the local Maven repository, fetched with Maven when missing."""
    name = "%s-%s%s.jar" % (artifact, version, "-" + classifier if classifier else "")
    path = os.path.join(os.path.expanduser("~"), ".m2", "repository", *group.split("."),
                        artifact, version, name)
    if os.path.exists(path):
        return path
    mvn = shutil.which("mvn")
    if mvn is None:
        raise RuntimeError("The S3 tests need Maven ('mvn' on PATH) to fetch %s:%s:%s"
                           % (group, artifact, version))
    coordinates = ":".join([group, artifact, version] + (["jar", classifier] if classifier
                                                          else []))
    result = subprocess.run([mvn, "-q", "-B", "dependency:get", "-Dtransitive=false",
                             "-Dartifact=" + coordinates], capture_output=True, text=True)
    if result.returncode != 0 or not os.path.exists(path):
        raise RuntimeError("Fetching %s with Maven failed:\n%s"
                           % (coordinates, (result.stdout + result.stderr)[-4000:]))
    return path


@installed_once("s3 jars")
def install_s3_jars() -> Dict[str, str]:
    """S3Proxy's jar and the s3a connector's (S3A_JARS) in the local Maven repository,
    fetched when missing, once per test process (server_installs.py starts it early):
    "s3proxy" -> its path, "s3a" -> the connector's jars as a class path."""
    return {"s3proxy": maven_jar(*S3PROXY),
            "s3a": ":".join(maven_jar(*coordinates) for coordinates in S3A_JARS)}


@dataclass
class S3Server:
    """A running S3Proxy: its endpoint, credentials, and how a job reaches it."""
    endpoint: str              # host:port
    access_key: str
    secret_key: str
    process: subprocess.Popen
    work_dir: str
    port: int
    log_path: str
    ready: bool = False

    def wait_ready(self) -> "S3Server":
        """Returns once the server answers (at once after the first time); raises with its
        log if it exits or does not listen in time. Every method that reaches it calls this
        first: start_s3_server(wait=False) lets the caller start other servers meanwhile."""
        if not self.ready:
            try:
                _wait_for_port(self.port, self.process, self.log_path)
            except BaseException:
                self.stop()
                raise
            time.sleep(0.2)   # jetty accepts before the handlers are in place
            self.ready = True
        return self

    def pyarrow_options(self) -> Dict[str, object]:
        self.wait_ready()
        return {"endpoint_override": self.endpoint, "scheme": "http", "region": REGION,
                "access_key": self.access_key, "secret_key": self.secret_key}

    def filesystem(self):
        from pyarrow import fs as pafs
        return pafs.S3FileSystem(allow_bucket_creation=True, **self.pyarrow_options())

    def create_bucket(self, name: str) -> None:
        self.filesystem().create_dir(name)

    def spark_conf(self) -> List[Tuple[str, str]]:
        """What a job on a cluster sets to use this store: Hadoop's s3a settings (which the
        shim's Python side reads too), the connector's jars on the driver's and executors'
        class path (a cluster's nodes have them installed; `--packages
        org.apache.hadoop:hadoop-aws:<Hadoop version>` ships them instead), and the
        executors' checksum setting."""
        self.wait_ready()
        jars = install_s3_jars()["s3a"]
        conf = [("spark.driver.extraClassPath", jars),
                ("spark.executor.extraClassPath", jars),
                ("spark.hadoop.fs.s3a.endpoint", "http://" + self.endpoint),
                ("spark.hadoop.fs.s3a.endpoint.region", REGION),
                ("spark.hadoop.fs.s3a.path.style.access", "true"),
                ("spark.hadoop.fs.s3a.access.key", self.access_key),
                ("spark.hadoop.fs.s3a.secret.key", self.secret_key)]
        conf += [("spark.executorEnv." + k, v) for k, v in sorted(CHECKSUM_ENV.items())]
        return conf

    def stop(self) -> None:
        stop_server(self.process, self.work_dir)


def start_s3_server(wait: bool = True) -> S3Server:
    """S3Proxy on a free loopback port with fresh credentials, once it answers (wait=False:
    at once, while its JVM starts; S3Server.wait_ready). The checksum setting goes into this
    process's environment too (for its own pyarrow clients, and inherited by drivers)."""
    jar = install_s3_jars()["s3proxy"]
    os.environ.update(CHECKSUM_ENV)
    work_dir = tempfile.mkdtemp(prefix="pyflink-on-spark-s3-")
    port = free_port()
    identity, credential = "test-" + secrets.token_hex(4), secrets.token_hex(16)
    properties = os.path.join(work_dir, "s3proxy.conf")
    with open(properties, "w") as f:
        f.write("\n".join([
            "s3proxy.endpoint=http://127.0.0.1:%d" % port,
            "s3proxy.authorization=aws-v2-or-v4",
            "s3proxy.identity=" + identity, "s3proxy.credential=" + credential,
            "jclouds.provider=transient",
            "jclouds.identity=" + identity, "jclouds.credential=" + credential, ""]))
    log_path = os.path.join(work_dir, "s3proxy.log")
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            [jdk_tool(), "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar", jar,
             "--properties", properties], stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, cwd=work_dir)
    server = S3Server("127.0.0.1:%d" % port, identity, credential, process, work_dir, port,
                      log_path)
    return server.wait_ready() if wait else server
