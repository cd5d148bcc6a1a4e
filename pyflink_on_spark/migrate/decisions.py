"""What needs a person's decision when a PyFlink job moves to Spark: the jars it loads, its
Python dependencies, and configuration with or without a Spark counterpart."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from pyflink_on_spark.migrate.analyzer import Use

_ENV = "pyflink.datastream.stream_execution_environment.StreamExecutionEnvironment."
_CONFIG = "pyflink.common.configuration.Configuration."
_CHECKPOINT_CONFIG = "pyflink.datastream.checkpoint_config.CheckpointConfig."


def _spark_version() -> str:
    try:
        from importlib.metadata import version
        return version("pyspark")
    except Exception:                # not installed where the report is made: say so
        return "<your Spark version>"


def kafka_package() -> str:
    return "org.apache.spark:spark-sql-kafka-0-10_2.13:%s" % _spark_version()


@dataclass(frozen=True)
class Decision:
    topic: str                 # jars / python-dependencies / configuration
    path: str
    line: int
    api: str                   # the PyFlink call (short name)
    argument: str              # what the program passes (a jar, a file, a key)
    spark: str                 # what to do on Spark
    has_spark_counterpart: bool


# jar file name (regex) -> (what replaces it on Spark, has a counterpart)
JARS: Sequence[Tuple[str, str, bool]] = (
    (r"flink-(sql-)?connector-kafka",
     "Spark's own Kafka source/sink: --packages {kafka} (pyflink-on-spark run --conf "
     "spark.jars.packages={kafka})", True),
    (r"flink-(sql-)?(avro|json|csv|parquet|orc)",
     "not needed: pyflink_on_spark reads and writes this format itself (drop the jar)", True),
    (r"flink-(sql-)?connector-jdbc",
     "not needed: JdbcSink runs your statement through Python DB-API drivers (PostgreSQL: "
     "pip install 'pyflink-on-spark[jdbc]'; MySQL / MariaDB: pip install "
     "'pyflink-on-spark[mysql]'; SQLite: built in), and jdbc tables of PostgreSQL read and "
     "write through the first (docs/table.md, \"JDBC tables\"); drop the jar", True),
    (r"(^|/)(postgresql|sqlite-jdbc|mysql-connector-j|mysql-connector-java|mariadb-java-client)"
     r"-[0-9][^/]*\.jar$",
     "not needed: JdbcSink reaches the database through a Python driver (drop the jar)", True),
    (r"flink-connector-cassandra",
     "not needed: CassandraSink writes through the DataStax Python driver (pip install "
     "'pyflink-on-spark[cassandra]'); drop the jar", True),
    (r"flink-(sql-)?connector-rabbitmq",
     "not needed: RMQSource / RMQSink talk to RabbitMQ through pika (pip install "
     "'pyflink-on-spark[rabbitmq]'); drop the jar", True),
    (r"flink-(sql-)?connector-elasticsearch[67]",
     "not needed: ElasticsearchSink sends its bulk requests over HTTP itself (drop the jar)",
     True),
    (r"flink-(sql-)?connector-(elasticsearch|cassandra|kinesis|pulsar)",
     "check docs/connectors.md: pyflink_on_spark maps only the connectors listed there", False),
)


def _jar_advice(argument: Optional[str]) -> Tuple[str, bool]:
    if argument is None:
        return ("a jar path computed at run time: check which connector it brings", False)
    for pattern, advice, counterpart in JARS:
        if re.search(pattern, argument):
            return advice.format(kafka=kafka_package()), counterpart
    return ("Java code does not run in pyflink_on_spark (no Flink JVM): port what this jar "
            "provides to Python, or drop it if the job does not use it", False)


PYTHON_DEPENDENCIES = {
    "add_python_file": "shipped by pyflink_on_spark with SparkContext.addPyFile (spark-submit "
                       "--py-files does the same); check the path exists where the job is "
                       "submitted",
    "add_python_archive": "shipped by pyflink_on_spark with SparkContext.addArchive "
                          "ARCHIVE#TARGET (spark-submit --archives); bounded jobs only",
    "set_python_requirements": "pip-installed by pyflink_on_spark on each Spark worker (needs "
                               "pip there, or the cache directory for offline installs); or "
                               "bake them into the executors' image",
    "set_python_executable": "honoured for the job's Spark tasks (SparkContext.pythonExec); "
                             "the interpreter needs pyspark and pyflink_on_spark",
    "register_cached_file": "spark-submit --files (SparkFiles.get on the executors)",
}

# Flink configuration key (regex) -> (Spark counterpart, has one)
CONFIG_KEYS: Sequence[Tuple[str, str, bool]] = (
    (r"^parallelism\.default$", "the job's parallelism: tasks per Spark stage", True),
    (r"^execution\.runtime-mode$", "honoured by pyflink_on_spark (STREAMING / BATCH)", True),
    (r"^pipeline\.(jars|classpaths)$", "see the jars decisions: --packages / --jars", True),
    (r"^python\.files$", "honoured: SparkContext.addPyFile (spark-submit --py-files)", True),
    (r"^python\.archives$", "honoured: SparkContext.addArchive (spark-submit --archives)",
     True),
    (r"^python\.requirements$", "honoured: pip-installed on each Spark worker", True),
    (r"^python\.(client\.)?executable$", "spark.pyspark.python / spark.pyspark.driver.python",
     True),
    (r"^state\.backend(\.type)?$", "pyflink_on_spark's keyed state backend: hashmap (memory) "
                                   "or rocksdb (rocksdict on the executor's local disk)", True),
    (r"^(state\.checkpoints\.dir|execution\.checkpointing\.dir)$",
     "Spark's checkpointLocation for unbounded jobs; bounded jobs take no checkpoints", True),
    (r"^execution\.checkpointing\.", "bounded jobs on Spark take no checkpoints", False),
    (r"^pipeline\.auto-watermark-interval$",
     "honoured in part: 0 disables periodic watermarks (see docs/compatibility.md)", True),
    (r"^taskmanager\.memory\.", "spark.executor.memory / spark.executor.memoryOverhead", True),
    (r"^taskmanager\.numberOfTaskSlots$", "spark.executor.cores", True),
    (r"^jobmanager\.memory\.", "spark.driver.memory", True),
)

CONFIG_METHODS = {
    _ENV + "set_parallelism": ("parallelism", "tasks per Spark stage (as Flink subtasks)", True),
    _ENV + "set_max_parallelism": ("max parallelism", "key groups, as in Flink", True),
    _ENV + "set_state_backend": ("state backend", "pyflink_on_spark's keyed state backend "
                                 "(HashMap: memory; EmbeddedRocksDB: rocksdict on local disk)",
                                 True),
    _ENV + "enable_checkpointing": ("checkpointing", "Spark's checkpointLocation for unbounded "
                                    "jobs; bounded jobs take no checkpoints", True),
    _CHECKPOINT_CONFIG + "set_checkpoint_storage_dir": (
        "checkpoint directory", "Spark's checkpointLocation (unbounded jobs)", True),
    _CHECKPOINT_CONFIG + "set_checkpoint_storage": (
        "checkpoint storage", "Spark's checkpointLocation (unbounded jobs)", True),
}


def _config_key_advice(key: Optional[str]) -> Tuple[str, bool]:
    if key is None:
        return ("a key computed at run time: check it by hand", False)
    for pattern, advice, counterpart in CONFIG_KEYS:
        if re.search(pattern, key):
            return advice, counterpart
    return ("pyflink_on_spark ignores this Flink setting", False)


def _short(api: str) -> str:
    return ".".join(api.split(".")[-2:])


def decisions_for(uses: Sequence[Use]) -> List[Decision]:
    out: List[Decision] = []
    for use in uses:
        if use.kind not in ("call", "attribute"):
            continue
        method = use.api.rsplit(".", 1)[-1]
        if use.api in (_ENV + "add_jars", _ENV + "add_classpaths"):
            for argument in use.args or (None,):
                advice, counterpart = _jar_advice(argument)
                out.append(Decision("jars", use.path, use.line, _short(use.api),
                                    argument or "?", advice, counterpart))
        elif use.api.startswith(_ENV) and method in PYTHON_DEPENDENCIES:
            out.append(Decision("python-dependencies", use.path, use.line, _short(use.api),
                                (use.args[0] if use.args else None) or "?",
                                PYTHON_DEPENDENCIES[method], True))
        elif use.api.startswith(_CONFIG) and method.startswith("set"):
            key = use.args[0] if use.args else None
            advice, counterpart = _config_key_advice(key)
            out.append(Decision("configuration", use.path, use.line, _short(use.api),
                                key or "?", advice, counterpart))
        elif use.api in CONFIG_METHODS:
            what, advice, counterpart = CONFIG_METHODS[use.api]
            argument = ", ".join(a if a is not None else "..." for a in use.args) or what
            out.append(Decision("configuration", use.path, use.line, _short(use.api),
                                argument, advice, counterpart))
    return out
