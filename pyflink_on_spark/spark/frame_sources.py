"""Frame sources: sources Spark reads with its own readers (specs.sources FileSourceSpec,
KafkaSourceSpec). Each becomes a DataFrame of split rows (SPARK_SCHEMA, kind KIND_SPLIT,
payload a pickled chunk of records) addressed to the source's subtasks; build_frames then
exchanges and sorts them like any stage input."""
from __future__ import annotations

from pyflink_on_spark.specs.sources import FileSourceSpec, KafkaSourceSpec, TableSourceSpec


class MissingSparkPackageError(RuntimeError):
    """Spark lacks the data source a connector needs (an external package)."""


def spark_package_coordinates(artifact: str) -> str:
    """Maven coordinates of a Spark package built for the running Spark and Scala."""
    import pyspark
    scala = scala_binary_version()
    return "org.apache.spark:%s_%s:%s" % (artifact, scala, pyspark.__version__)


def scala_binary_version() -> str:
    import glob
    import os
    import pyspark
    jars = glob.glob(os.path.join(os.path.dirname(pyspark.__file__), "jars",
                                  "scala-library-*.jar"))
    if jars:
        version = os.path.basename(jars[0])[len("scala-library-"):-len(".jar")]
        return ".".join(version.split(".")[:2])
    return "2.13"  # Spark 4 is built for Scala 2.13 only


def missing_package_error(what: str, source: str, artifact: str) -> MissingSparkPackageError:
    coordinates = spark_package_coordinates(artifact)
    return MissingSparkPackageError(
        "%s needs Spark's '%s' data source, which is not on this Spark's classpath. Add the "
        "package: pyflink-on-spark run --conf spark.jars.packages=%s job.py (spark-submit: "
        "--packages %s), or set spark.jars.packages before the SparkSession starts."
        % (what, source, coordinates, coordinates))


def is_missing_data_source(error: Exception) -> bool:
    text = str(error)
    return "DATA_SOURCE_NOT_FOUND" in text or "Failed to find data source" in text


def source_frame(description, parallelism: int, session):
    """The split rows of a frame source running at `parallelism`."""
    if isinstance(description, FileSourceSpec):
        from pyflink_on_spark.spark.file_source import file_scan_frame
        return file_scan_frame(description, parallelism, session)
    if isinstance(description, KafkaSourceSpec):
        from pyflink_on_spark.spark.kafka import kafka_scan_frame
        return kafka_scan_frame(description, parallelism, session)
    if isinstance(description, TableSourceSpec):
        from pyflink_on_spark.spark.table_frames import table_source_frame
        return table_source_frame(description, parallelism, session)
    raise TypeError("unknown frame source %r" % (description,))


def with_files_as_splits(job, session):
    """`job` with each bounded FileSource whose files its tasks read themselves turned into
    a source split on the driver (file_source.files_as_splits); the same job otherwise."""
    from dataclasses import replace
    from pyflink_on_spark.spark.file_source import files_as_splits
    from pyflink_on_spark.specs.stage import StageSource
    stages, changed = [], False
    for stage in job.stages:
        frame = stage.source.frame if stage.source is not None else None
        if isinstance(frame, FileSourceSpec):
            splits = files_as_splits(frame, stage.spec.parallelism, session)
            if splits is not None:
                stage = replace(stage, source=StageSource(splits=splits))
                changed = True
        stages.append(stage)
    return replace(job, stages=tuple(stages)) if changed else job
