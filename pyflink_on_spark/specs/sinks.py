"""What a sink node runs, and what happens to the rows its tasks send out of the stage.

Every sink leaves its stage through an exit of its own (stage.SinkExit), read on the driver:
its rows are printed, collected or committed there, and a sink that writes from its tasks
(Kafka, JDBC) sends none, but reading its exit is what runs it. The specs say what is
written where; the runtime registry builds the operators that write in the task
(runtime/registry.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Tuple


@dataclass(frozen=True)
class PrintSinkSpec:
    """print(): lines rendered in the task ("{identifier}:{subtask}> value"), written by the
    driver."""
    identifier: Optional[str] = None
    input_type: Any = None              # the printed stream's declared type (its format)
    # the records come straight from a collection source holding nulls only Java takes
    # (CollectionSourceSpec.python_input_error): printed as Java holds them, not converted
    # as a Python operator's output is
    as_java_holds: bool = False


@dataclass(frozen=True)
class DiscardSinkSpec:
    """The sink of an operator no sink consumes (PyFlink runs such operators): nothing
    leaves the task."""


@dataclass(frozen=True)
class CollectSinkSpec:
    """execute_and_collect(): values handed to the driver's iterator. With `results_id` (a
    test's collecting sink, pyflink_on_spark.testing): values appended, in driver order, to
    the driver's list registered under that id (runtime/collected_results.py)."""
    results_id: Optional[str] = None


@dataclass(frozen=True)
class ElasticsearchSinkSpec:
    """ElasticsearchSink (Elasticsearch6SinkBuilder / Elasticsearch7SinkBuilder): the sink's
    tasks turn each record (a dict) into a bulk action as the emitter says
    (codecs/elasticsearch/actions.py) and send them to the node's `_bulk` API in batches
    (codecs/elasticsearch/bulk.py), flushed by count, size and interval, at the end of input
    and of each micro-batch; nothing leaves the task."""
    emitter: Any                 # codecs.elasticsearch.actions.EmitterSettings
    bulk: Any                    # codecs.elasticsearch.bulk.BulkSettings
    version: int = 7
    converter: Any = None        # value -> the stream's declared type, as it enters the Java sink


STAGING_PREFIX = ".pyflink-on-spark-staging-"


@dataclass(frozen=True)
class FileSinkSpec:
    """FileSink / StreamingFileSink: the sink's subtasks write part files into a hidden
    staging directory and send each finished part (staged path, final path) to the driver,
    which publishes them once the job succeeded (codecs/files/commit.py) and removes the
    staging directory in every case."""
    base_path: str
    writer: Any                 # a codecs.files.writers.PartWriterFactory bound to the input type
    buckets: Any                # codecs.files.buckets.BasePathBuckets | DateTimeBuckets
    rolling: Any                # codecs.files.rolling.DefaultRolling | CheckpointRolling
    part_prefix: str = "part"
    part_suffix: str = ""
    naming: str = "uuid"        # FileSink: <prefix>-<uuid>-<n><suffix>;
                                # StreamingFileSink: <prefix>-<subtask>-<n><suffix>
    converter: Any = None       # value -> the declared type, as it enters the Java sink
    bucket_check_interval: int = 60_000
    staging_token: str = ""     # unique per sink_to(): the job's hidden staging directory

    @property
    def staging_dir(self) -> str:
        return self.base_path.rstrip("/") + "/" + STAGING_PREFIX + self.staging_token


@dataclass(frozen=True)
class KafkaSinkSpec:
    """KafkaSink / FlinkKafkaProducer (AT_LEAST_ONCE, NONE): the sink's tasks encode the
    records as (topic, key bytes, value bytes) and produce them with their timestamps
    (codecs/kafka/producer.py), flushed at the end of input or of each micro-batch; nothing
    leaves the task."""
    properties: Tuple[Tuple[str, str], ...]   # the producer's properties (bootstrap.servers...)
    value_serializer: Callable[[Any], bytes]
    topic: Optional[str] = None               # a fixed topic, or
    topic_selector: Any = None                # a KafkaTopicSelector: value -> topic
    key_serializer: Optional[Callable[[Any], bytes]] = None
    converter: Any = None                     # value -> the declared type, before encoding
    write_timestamps: bool = True             # FlinkKafkaProducer: set_write_timestamp_to_kafka
    sink_name: str = "KafkaSink"


@dataclass(frozen=True)
class KafkaUpsertBufferSinkSpec(KafkaSinkSpec):
    """An upsert-kafka table's sink with sink.buffer-flush.* (table/upsert_kafka_tables.py):
    the encoded records reduced by (topic, key) in a buffer, each key's last one written
    when the buffer holds `max_rows` keys, when `interval_ms` passed since the last flush,
    and at the end of input or of each micro-batch (Flink's ReducingUpsertWriter)."""
    max_rows: int = 0
    interval_ms: int = 0


@dataclass(frozen=True)
class KafkaTransactionalSinkSpec:
    """KafkaSink / FlinkKafkaProducer with EXACTLY_ONCE: the sink's tasks encode the records
    as `records` says and produce them in Kafka transactions of their own, one
    transactional.id per subtask (<transactional_id_prefix>-<subtask>), committed at the end
    of input or of each micro-batch (codecs/kafka/transactions.py); nothing leaves the task."""
    records: KafkaSinkSpec                    # topic, serializers, producer properties
    transactional_id_prefix: str = "kafka-sink"
    sink_name: str = "KafkaSink"


@dataclass(frozen=True)
class JdbcSinkSpec:
    """JdbcSink.sink: the program's own statement, run in the sink's tasks in batches through
    the DB-API driver the URL names (codecs/jdbc); nothing leaves the task."""
    sql: str
    url: str
    user_name: Optional[str] = None
    password: Optional[str] = None
    sql_types: Tuple[str, ...] = ()      # Flink's JDBC type of each field (codecs/jdbc/parameters)
    batch_size: int = 5000
    batch_interval_ms: int = 0
    max_retries: int = 3
    converter: Any = None                # value -> the row type, as it enters the Java sink


@dataclass(frozen=True)
class JdbcUpsertSinkSpec(JdbcSinkSpec):
    """A jdbc table's upsert sink (table/jdbc_tables.py): `sql` upserts a row, `delete_sql`
    deletes one by its key (the fields at `key_indexes`); rows are reduced by key in each
    batch, as Flink's TableBufferReducedStatementExecutor does (codecs/jdbc/upsert_writer)."""
    delete_sql: str = ""
    key_indexes: Tuple[int, ...] = ()


@dataclass(frozen=True)
class CassandraSinkSpec:
    """CassandraSink of a row or tuple stream: the program's CQL query, prepared once per
    subtask, its `?` markers bound from each record's fields and executed asynchronously in
    the sink's tasks (codecs/cassandra/writer.py), flushed at the end of input and of each
    micro-batch; nothing leaves the task."""
    query: str
    host: str
    port: int = 9042
    max_concurrent_requests: int = 2 ** 31 - 1          # Flink's default: Integer.MAX_VALUE
    max_concurrent_requests_timeout_ms: Optional[int] = None   # None: wait as long as needed
    ignore_null_fields: bool = False
    converter: Any = None                # value -> the stream's declared type (Row / tuple)
    # the Java class each field reaches Flink's sink as ("java.lang.Long"; None: unknown):
    # which columns it binds to (codecs/cassandra/java_codecs.py)
    field_classes: Tuple[Optional[str], ...] = ()


@dataclass(frozen=True)
class RabbitMQSinkSpec:
    """RMQSink: the sink's tasks publish each record, serialized by the sink's schema, to the
    queue (default exchange, the queue's name as routing key) with publisher confirms, flushed
    at the end of input and of each micro-batch (codecs/rabbitmq/publisher.py); nothing leaves
    the task."""
    connection: Tuple[Tuple[str, Any], ...]   # RMQConnectionConfig's settings
    queue_name: str
    serializer: Callable[[Any], bytes]
    converter: Any = None                     # value -> the declared type, before serializing
