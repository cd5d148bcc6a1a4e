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
