"""Spark's Kafka connector package (spark-sql-kafka-0-10), added to the session by the shim
whenever a job uses Kafka: no jar hunting.

Spark resolves ``spark.jars.packages`` through Ivy, which looks in the local Maven repository
(~/.m2) first, so one ``mvn ...:get`` of the artifact makes it resolve offline. The version is
the installed pyspark's; when ~/.m2 has no build of it but has one of the same major version
(Maven Central may not serve every Spark release's connector yet), the newest of those is
used. ``PYFLINK_ON_SPARK_KAFKA_PACKAGE`` names the coordinates outright.
"""
from __future__ import annotations

import os
import re
from typing import Optional

from pyflink_on_spark.spark.frame_sources import MissingSparkPackageError, scala_binary_version

PACKAGE_ENV = "PYFLINK_ON_SPARK_KAFKA_PACKAGE"
ARTIFACT = "spark-sql-kafka-0-10"
PROVIDER_CLASS = "org.apache.spark.sql.kafka010.KafkaSourceProvider"
# already on pyspark's own classpath (jars/): resolving them again only costs time
EXCLUDES = ("org.apache.hadoop:hadoop-client-runtime", "org.apache.hadoop:hadoop-client-api")
MAVEN_GET = "mvn org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get -Dartifact=%s"


def _artifact_dir(m2: str) -> str:
    return os.path.join(m2, "org", "apache", "spark", "%s_%s" % (ARTIFACT,
                                                                   scala_binary_version()))


def _version_key(version: str):
    return tuple(int(p) if p.isdigit() else -1 for p in re.split(r"[.-]", version))


def local_version(pyspark_version: str, m2: Optional[str] = None) -> Optional[str]:
    """The connector version found in ~/.m2 for this Spark: its own, else the newest one of
    the same major version; None when there is none."""
    m2 = m2 or os.path.join(os.path.expanduser("~"), ".m2", "repository")
    directory = _artifact_dir(m2)
    try:
        versions = [v for v in os.listdir(directory) if os.path.exists(os.path.join(
            directory, v, "%s_%s-%s.jar" % (ARTIFACT, scala_binary_version(), v)))]
    except OSError:
        return None
    if pyspark_version in versions:
        return pyspark_version
    major = pyspark_version.split(".")[0]
    same_major = [v for v in versions if v.split(".")[0] == major
                  and _version_key(v) <= _version_key(pyspark_version)]
    return max(same_major, key=_version_key) if same_major else None


def kafka_package() -> str:
    """Maven coordinates of the Kafka connector this session uses."""
    if os.environ.get(PACKAGE_ENV):
        return os.environ[PACKAGE_ENV]
    import pyspark
    version = local_version(pyspark.__version__) or pyspark.__version__
    return "org.apache.spark:%s_%s:%s" % (ARTIFACT, scala_binary_version(), version)


def fetch_command(coordinates: Optional[str] = None) -> str:
    return MAVEN_GET % (coordinates or kafka_package())


def unresolved_error(what: str, cause: Exception) -> MissingSparkPackageError:
    coordinates = kafka_package()
    return MissingSparkPackageError(
        "%s needs Spark's Kafka connector %s, which Spark could not resolve (%s). Fetch it "
        "into the local Maven repository with:\n  %s\n(if Maven Central has no build for "
        "this Spark version, fetch the newest one of the same major version: the shim uses "
        "it), or name the coordinates in %s." % (what, coordinates, str(cause).strip()
                                                  .splitlines()[-1][:300],
                                                  fetch_command(coordinates), PACKAGE_ENV))


def has_kafka_provider(session) -> bool:
    """True when the session's JVM can load Spark's Kafka data source."""
    try:
        loader = session._jvm.java.lang.Thread.currentThread().getContextClassLoader()
        loader.loadClass(PROVIDER_CLASS)
        return True
    except Exception:
        return False


def job_reads_kafka(job) -> bool:
    """Whether the job has a Kafka source, read by Spark's Kafka reader (its sinks write
    with confluent-kafka: runtime/operators/kafka_sink.py)."""
    from pyflink_on_spark.specs.sources import KafkaSourceSpec
    return any(stage.source is not None and any(
        isinstance(frame, KafkaSourceSpec)   # a HybridSource's sources are in `sources`
        for frame in (stage.source.frame,) + tuple(getattr(stage.source.frame, "sources", ())))
        for stage in job.stages)


def kafka_session(what: str = "This Kafka job"):
    """The process's SparkSession with the Kafka connector on its classpath: the package is
    added before the session starts; a session the shim started without it is restarted
    with it (packages are read only at start-up)."""
    from pyflink_on_spark.spark import session as sessions
    sessions.require_package(kafka_package(), EXCLUDES)
    try:
        spark = sessions.get_session()
    except Exception as e:
        if "resolve" in str(e).lower() or "JAVA_GATEWAY_EXITED" in str(e):
            raise unresolved_error(what, e) from None
        raise
    if has_kafka_provider(spark):
        return spark
    if not sessions.owns_session():
        raise unresolved_error(what, RuntimeError(
            "the running SparkSession was started without it: add --packages %s"
            % kafka_package()))
    sessions.stop_session(new_jvm=True)
    try:
        spark = sessions.get_session()
    except Exception as e:
        raise unresolved_error(what, e) from None
    if not has_kafka_provider(spark):
        raise unresolved_error(what, RuntimeError(
            "the SparkSession restarted with %s still cannot load it" % kafka_package()))
    return spark
