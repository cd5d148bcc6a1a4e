"""Which build of Spark's Kafka connector the shim adds to the session (no Spark started)."""
import os

from pyflink_on_spark.spark import kafka_package


def _m2_with(tmp_path, *versions):
    for version in versions:
        directory = tmp_path / "org/apache/spark/spark-sql-kafka-0-10_2.13" / version
        directory.mkdir(parents=True)
        (directory / ("spark-sql-kafka-0-10_2.13-%s.jar" % version)).write_bytes(b"")
    return str(tmp_path)


def test_the_installed_version_is_taken_when_it_is_in_the_local_repository(tmp_path):
    m2 = _m2_with(tmp_path, "4.2.0", "4.3.0")
    assert kafka_package.local_version("4.3.0", m2) == "4.3.0"


def test_else_the_newest_earlier_build_of_the_same_major_version(tmp_path):
    m2 = _m2_with(tmp_path, "3.5.1", "4.0.1", "4.2.0", "4.10.0")
    assert kafka_package.local_version("4.3.0", m2) == "4.2.0"
    assert kafka_package.local_version("5.0.0", m2) is None
    # a directory without its jar (a failed download) does not count
    (tmp_path / "org/apache/spark/spark-sql-kafka-0-10_2.13/4.2.1").mkdir()
    assert kafka_package.local_version("4.3.0", m2) == "4.2.0"


def test_the_unresolved_error_prints_the_maven_command(monkeypatch):
    monkeypatch.setenv(kafka_package.PACKAGE_ENV,
                       "org.apache.spark:spark-sql-kafka-0-10_2.13:9.9.9")
    error = kafka_package.unresolved_error("KafkaSource", RuntimeError("unresolved dependency"))
    assert "mvn org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get " \
           "-Dartifact=org.apache.spark:spark-sql-kafka-0-10_2.13:9.9.9" in str(error)
    assert os.environ[kafka_package.PACKAGE_ENV] in str(error)


RESTART_PROBE = '''
from pyflink_on_spark.spark import session as sessions
from pyflink_on_spark.spark.kafka_package import has_kafka_provider, kafka_session
first = sessions.get_session()
print("before:", has_kafka_provider(first))
spark = kafka_session()
print("after:", has_kafka_provider(spark))
spark.read.format("kafka").option("kafka.bootstrap.servers", "127.0.0.1:1") \\
    .option("subscribe", "t").load()
print("the kafka source resolves")
'''


def test_a_session_started_without_the_package_is_restarted_in_a_new_jvm_with_it(tmp_path):
    """Packages reach the classpath only when a JVM starts: a session the shim started
    without Spark's Kafka package (a first job that read no Kafka) is restarted with a JVM
    of its own. In a process of its own: the test session stays as it is."""
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    for name in ("SPARK_REMOTE", "PYFLINK_ON_SPARK_CONF"):
        env.pop(name, None)
    out = subprocess.run([sys.executable, "-c", RESTART_PROBE], env=env, capture_output=True,
                         text=True, timeout=600, cwd=str(tmp_path))
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.splitlines() == ["before: False", "after: True",
                                       "the kafka source resolves"]
