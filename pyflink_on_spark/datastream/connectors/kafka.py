"""Kafka (mirror of pyflink.datastream.connectors.kafka, 1.20): sources on Spark's Kafka source
(the spark-sql-kafka-0-10 package, added with --packages / spark.jars.packages), sinks on
confluent-kafka producers in the sink's tasks.

What runs: a *bounded* KafkaSource (set_bounded(...)) is a Spark batch read between starting
and ending offsets; an unbounded KafkaSource / FlinkKafkaConsumer runs on the streaming
executor (docs/streaming.md). KafkaSink / FlinkKafkaProducer produce each record with its
timestamp from the sink's tasks (codecs/kafka/producer.py: at least once), with
EXACTLY_ONCE in Kafka transactions (codecs/kafka/transactions.py).

The builders collect Flink's settings and check them; a source or sink becomes a declarative
spec (specs.sources.KafkaSourceSpec, specs.sinks.KafkaSinkSpec) that the Spark layer maps onto
Spark's Kafka options (spark/kafka.py) and the runtime onto its sink operators.
"""
from __future__ import annotations

import warnings
from abc import ABC, abstractmethod
from enum import Enum
from typing import Any, Callable, Dict, List, Optional, Set, Union

from pyflink_on_spark.common.serialization import DeserializationSchema, SerializationSchema
from pyflink_on_spark.datastream.connectors.base import (DeliveryGuarantee, Sink, Source,
                                                          StreamTransformer,
                                                          SupportsPreprocessing)
from pyflink_on_spark.datastream.functions import SinkFunction, SourceFunction

__all__ = [
    'FlinkKafkaConsumer',
    'FlinkKafkaProducer',
    'KafkaSource',
    'KafkaSourceBuilder',
    'KafkaSink',
    'KafkaSinkBuilder',
    'Semantic',
    'KafkaTopicPartition',
    'KafkaOffsetsInitializer',
    'KafkaOffsetResetStrategy',
    'KafkaRecordSerializationSchema',
    'KafkaRecordSerializationSchemaBuilder',
    'KafkaTopicSelector'
]

def _value_reader(schema: DeserializationSchema):
    deserialize = getattr(schema, "_deserialize", None)
    if deserialize is None:
        raise NotImplementedError(
            "%s cannot deserialize Kafka records in pyflink_on_spark; use SimpleStringSchema, "
            "JsonRowDeserializationSchema, CsvRowDeserializationSchema or "
            "AvroRowDeserializationSchema(avro_schema_string=...)" % type(schema).__name__)
    return deserialize


def _produced_type(schema: DeserializationSchema):
    from pyflink_on_spark.common.serialization import ByteArraySchema, SimpleStringSchema
    from pyflink_on_spark.common.typeinfo import Types
    if isinstance(schema, SimpleStringSchema):
        return Types.STRING()
    if isinstance(schema, ByteArraySchema):
        return Types.PRIMITIVE_ARRAY(Types.BYTE())
    inner = getattr(schema, "_j_deserialization_schema", None)
    if isinstance(inner, tuple) and inner and hasattr(inner[0], "_python_converter"):
        return inner[0]   # JSON / CSV row schemas carry their type information first
    return None


class KafkaTopicPartition(object):
    def __init__(self, topic: str, partition: int):
        self._topic = topic
        self._partition = partition

    def __eq__(self, other):
        if not isinstance(other, KafkaTopicPartition):
            return False
        return self._topic == other._topic and self._partition == other._partition

    def __hash__(self):
        return 31 * (31 + self._partition) + hash(self._topic)

    def __repr__(self):
        return "KafkaTopicPartition(%s, %d)" % (self._topic, self._partition)


class KafkaOffsetResetStrategy(Enum):
    LATEST = 0
    EARLIEST = 1
    NONE = 2


class KafkaOffsetsInitializer(object):
    """Where reading starts or stops, in each partition."""

    def __init__(self, j_initializer):
        # (kind, argument): ("earliest", None) ("latest", None) ("timestamp", ms)
        # ("offsets", ({tp: offset}, reset)) ("committed", reset)
        self._j_initializer = j_initializer

    @staticmethod
    def committed_offsets(
            offset_reset_strategy: 'KafkaOffsetResetStrategy' = KafkaOffsetResetStrategy.NONE) \
            -> 'KafkaOffsetsInitializer':
        return KafkaOffsetsInitializer(("committed", offset_reset_strategy))

    @staticmethod
    def timestamp(timestamp: int) -> 'KafkaOffsetsInitializer':
        return KafkaOffsetsInitializer(("timestamp", int(timestamp)))

    @staticmethod
    def earliest() -> 'KafkaOffsetsInitializer':
        return KafkaOffsetsInitializer(("earliest", None))

    @staticmethod
    def latest() -> 'KafkaOffsetsInitializer':
        return KafkaOffsetsInitializer(("latest", None))

    @staticmethod
    def offsets(offsets: Dict['KafkaTopicPartition', int],
                offset_reset_strategy: 'KafkaOffsetResetStrategy' =
                KafkaOffsetResetStrategy.EARLIEST) -> 'KafkaOffsetsInitializer':
        return KafkaOffsetsInitializer(("offsets", (dict(offsets), offset_reset_strategy)))

    def _spec(self, side: str = "starting", bounded: bool = True):
        """The specs.sources offsets of the starting (side="starting") or stopping offsets.
        Every initializer is taken on both sides, bounded or not, as PyFlink takes them;
        what Spark's Kafka source cannot say is resolved to explicit offsets on the driver
        before the read (spark/kafka_offsets.py), where Flink's errors are raised too
        (earliest() as stopping offsets, a committed offset the group lacks)."""
        from pyflink_on_spark.specs import sources
        kind, arg = self._j_initializer
        if kind == "earliest":
            return sources.EarliestOffsets()
        if kind == "latest":
            return sources.LatestOffsets()
        if kind == "timestamp":
            return sources.TimestampOffsets(arg)
        if kind == "offsets":
            offsets, reset = arg
            return sources.SpecificOffsets(tuple(sorted(
                (tp._topic, tp._partition, int(offset)) for tp, offset in offsets.items())),
                reset.name.lower())
        return sources.CommittedOffsets(arg.name.lower())

    def _uses_committed_offsets(self) -> bool:
        """committed_offsets() needs a group id (Flink's OffsetsInitializerValidator)."""
        return self._j_initializer[0] == "committed"


class KafkaSource(Source):
    """Reads Kafka topics (bounded: see KafkaSourceBuilder.set_bounded)."""

    def __init__(self, j_kafka_source):
        super().__init__(j_kafka_source)

    @staticmethod
    def builder() -> 'KafkaSourceBuilder':
        return KafkaSourceBuilder()

    def _kafka_spec(self, bounded: bool):
        """The source's specs.sources.KafkaSourceSpec (checked as Flink's builder checks)."""
        from pyflink_on_spark.specs.sources import KafkaSourceSpec
        c = self._j_source
        if not c.get("bootstrap_servers"):
            raise ValueError("Bootstrap Server is required but not provided.")
        subscriptions = [k for k in ("topics", "topic_pattern", "partitions") if c.get(k)]
        if len(subscriptions) != 1:
            raise ValueError("Exactly one of set_topics, set_topic_pattern and set_partitions "
                             "must be used, got %s" % (subscriptions or "none"))
        stopping = c.get("stopping")
        return KafkaSourceSpec(
            bootstrap_servers=c["bootstrap_servers"],
            value_decoder=_value_reader(c["deserializer"]),
            starting=c["starting"]._spec("starting", bounded),
            stopping=stopping._spec("stopping", bounded) if stopping is not None else None,
            topics=tuple(c.get("topics") or ()), topic_pattern=c.get("topic_pattern"),
            partitions=tuple(sorted((tp._topic, tp._partition)
                                    for tp in c.get("partitions") or ())),
            group_id=c.get("group_id") or c["properties"].get("group.id"),
            client_id_prefix=c.get("client_id_prefix"),
            properties=tuple(sorted((k, str(v)) for k, v in c["properties"].items())),
            bounded=bounded)

    def _source_definition(self):
        c = self._j_source
        if c.get("deserializer") is None:
            raise ValueError("No record deserializer is set (set_value_only_deserializer).")
        # set_unbounded(stopping): an unbounded source whose partitions stop at the stopping
        # offsets; the job runs on (streaming/kafka_index.py), as in Flink
        return self._kafka_spec(bounded=bool(c.get("bounded")))

    @property
    def _produced_type(self):
        return _produced_type(self._j_source.get("deserializer"))


class KafkaSourceBuilder(object):
    """Configures a KafkaSource (bootstrap servers, topics, deserializer are required)."""

    def __init__(self):
        self._j_builder = {"properties": {}, "starting": KafkaOffsetsInitializer.earliest(),
                           "stopping": None, "bounded": False}

    def build(self) -> 'KafkaSource':
        return self._build(check_group=True)

    def _build(self, check_group: bool) -> 'KafkaSource':
        # Flink's KafkaSourceBuilder.sanityCheck (IllegalStateException on PyFlink 1.20.5)
        b = self._j_builder
        initializers = [b["starting"]] + ([b["stopping"]] if b["stopping"] is not None else [])
        if check_group and any(i._uses_committed_offsets() for i in initializers) \
                and not (b.get("group_id") or b["properties"].get("group.id")):
            raise ValueError("Property group.id is required when using committed offset for "
                             "offsets initializer")
        return KafkaSource(dict(b, properties=dict(b["properties"])))

    def set_bootstrap_servers(self, bootstrap_servers: str) -> 'KafkaSourceBuilder':
        self._j_builder["bootstrap_servers"] = bootstrap_servers
        return self

    def set_group_id(self, group_id: str) -> 'KafkaSourceBuilder':
        self._j_builder["group_id"] = group_id
        return self

    def set_topics(self, *topics: str) -> 'KafkaSourceBuilder':
        self._j_builder["topics"] = list(topics)
        return self

    def set_topic_pattern(self, topic_pattern: str) -> 'KafkaSourceBuilder':
        self._j_builder["topic_pattern"] = topic_pattern
        return self

    def set_partitions(self, partitions: Set['KafkaTopicPartition']) -> 'KafkaSourceBuilder':
        self._j_builder["partitions"] = set(partitions)
        return self

    def set_starting_offsets(self, starting_offsets_initializer: 'KafkaOffsetsInitializer') \
            -> 'KafkaSourceBuilder':
        self._j_builder["starting"] = starting_offsets_initializer
        return self

    def set_unbounded(self, stopping_offsets_initializer: 'KafkaOffsetsInitializer') \
            -> 'KafkaSourceBuilder':
        self._j_builder["stopping"] = stopping_offsets_initializer
        self._j_builder["bounded"] = False
        return self

    def set_bounded(self, stopping_offsets_initializer: 'KafkaOffsetsInitializer') \
            -> 'KafkaSourceBuilder':
        self._j_builder["stopping"] = stopping_offsets_initializer
        self._j_builder["bounded"] = True
        return self

    def set_value_only_deserializer(self, deserialization_schema: DeserializationSchema) \
            -> 'KafkaSourceBuilder':
        self._j_builder["deserializer"] = deserialization_schema
        return self

    def set_client_id_prefix(self, prefix: str) -> 'KafkaSourceBuilder':
        self._j_builder["client_id_prefix"] = prefix
        return self

    def set_property(self, key: str, value: str) -> 'KafkaSourceBuilder':
        self._j_builder["properties"][key] = value
        return self

    def set_properties(self, props: Dict) -> 'KafkaSourceBuilder':
        self._j_builder["properties"].update(props)
        return self


# ---- legacy SourceFunction / SinkFunction ----

class FlinkKafkaConsumerBase(SourceFunction, ABC):
    """Deprecated Kafka consumer (a SourceFunction): always unbounded, so it cannot run on
    pyflink_on_spark yet; its settings map onto Spark's options like KafkaSource's."""

    def __init__(self, j_flink_kafka_consumer):
        self._j_function = j_flink_kafka_consumer   # the consumer's settings (dict)

    def set_commit_offsets_on_checkpoints(self, commit_on_checkpoints: bool) \
            -> 'FlinkKafkaConsumerBase':
        self._j_function["commit_on_checkpoints"] = commit_on_checkpoints
        return self

    def set_start_from_earliest(self) -> 'FlinkKafkaConsumerBase':
        self._j_function["starting"] = KafkaOffsetsInitializer.earliest()
        return self

    def set_start_from_latest(self) -> 'FlinkKafkaConsumerBase':
        self._j_function["starting"] = KafkaOffsetsInitializer.latest()
        return self

    def set_start_from_timestamp(self, startup_offsets_timestamp: int) \
            -> 'FlinkKafkaConsumerBase':
        self._j_function["starting"] = KafkaOffsetsInitializer.timestamp(
            startup_offsets_timestamp)
        return self

    def set_start_from_group_offsets(self) -> 'FlinkKafkaConsumerBase':
        self._j_function["starting"] = _group_offsets(self._j_function["properties"])
        return self

    def disable_filter_restored_partitions_with_subscribed_topics(self) \
            -> 'FlinkKafkaConsumerBase':
        return self

    def get_produced_type(self):
        return _produced_type(self._j_function["deserializer"])

    def _kafka_spec(self):
        """The consumer's settings as a (never bounded) KafkaSourceSpec."""
        c = self._j_function
        props = dict(c["properties"])
        builder = KafkaSource.builder().set_topics(*c["topics"]) \
            .set_value_only_deserializer(c["deserializer"]) \
            .set_starting_offsets(c["starting"])
        if "bootstrap.servers" in props:
            builder.set_bootstrap_servers(props.pop("bootstrap.servers"))
        if "group.id" in props:
            builder.set_group_id(props.pop("group.id"))
        # the legacy consumer has no group-id check (its group offsets come from the group
        # its properties name, if any)
        return builder.set_properties(props)._build(check_group=False)._kafka_spec(
            bounded=False)

    def _source_definition(self):
        return self._kafka_spec()


def _group_offsets(properties: Dict) -> 'KafkaOffsetsInitializer':
    """The legacy consumer's group offsets: where the group has none, the Kafka consumer's
    auto.offset.reset decides (its default: latest)."""
    reset = str(properties.get("auto.offset.reset", "latest")).upper()
    return KafkaOffsetsInitializer.committed_offsets(
        KafkaOffsetResetStrategy[reset] if reset in KafkaOffsetResetStrategy.__members__
        else KafkaOffsetResetStrategy.NONE)


class FlinkKafkaConsumer(FlinkKafkaConsumerBase):
    def __init__(self, topics: Union[str, List[str]], deserialization_schema: DeserializationSchema,
                 properties: Dict):
        warnings.warn("Deprecated in 1.16. Use KafkaSource instead.", DeprecationWarning)
        if not isinstance(topics, list):
            topics = [topics]
        super(FlinkKafkaConsumer, self).__init__({
            "topics": topics, "deserializer": deserialization_schema,
            "properties": dict(properties),
            # Flink's default: the group's committed offsets
            "starting": _group_offsets(properties)})


class Semantic(Enum):
    EXACTLY_ONCE = 0,
    AT_LEAST_ONCE = 1,
    NONE = 2


def _kafka_sink_spec(properties: Dict[str, str], topic: Optional[str], topic_selector,
                     key_schema, value_schema, input_type, write_timestamps: bool,
                     sink_name: str):
    """A specs.sinks.KafkaSinkSpec; the schemas must serialize in Python."""
    from pyflink_on_spark.specs.sinks import KafkaSinkSpec
    serialize_value = getattr(value_schema, "_serialize", None)
    serialize_key = getattr(key_schema, "_serialize", None) if key_schema is not None else None
    if serialize_value is None or (key_schema is not None and serialize_key is None):
        raise NotImplementedError(
            "%s cannot serialize Kafka records in pyflink_on_spark; use SimpleStringSchema, "
            "JsonRowSerializationSchema, CsvRowSerializationSchema or "
            "AvroRowSerializationSchema(avro_schema_string=...)"
            % type(value_schema if serialize_value is None else key_schema).__name__)
    converter = input_type._python_converter() if input_type is not None else None
    return KafkaSinkSpec(properties=tuple(sorted((k, str(v)) for k, v in properties.items())),
                         value_serializer=serialize_value, topic=topic,
                         topic_selector=topic_selector, key_serializer=serialize_key,
                         converter=converter, write_timestamps=write_timestamps,
                         sink_name=sink_name)


def _with_guarantee(records, exactly_once: bool, transactional_id_prefix: str, sink_name: str):
    """AT_LEAST_ONCE / NONE: the sink's tasks produce the records (specs.sinks.KafkaSinkSpec).
    EXACTLY_ONCE: they produce them in Kafka transactions of their own
    (specs.sinks.KafkaTransactionalSinkSpec)."""
    if not exactly_once:
        return records
    from pyflink_on_spark.specs.sinks import KafkaTransactionalSinkSpec
    return KafkaTransactionalSinkSpec(records=records,
                                      transactional_id_prefix=transactional_id_prefix,
                                      sink_name=sink_name)


class FlinkKafkaProducerBase(SinkFunction, ABC):
    """Deprecated Kafka producer (a SinkFunction), written as KafkaSink is; record timestamps
    only after set_write_timestamp_to_kafka(True), as in Flink."""

    def __init__(self, j_flink_kafka_producer):
        self._j_function = j_flink_kafka_producer   # the producer's settings (dict)

    def set_log_failures_only(self, log_failures_only: bool) -> 'FlinkKafkaProducerBase':
        self._j_function["log_failures_only"] = log_failures_only
        return self

    def set_flush_on_checkpoint(self, flush_on_checkpoint: bool) -> 'FlinkKafkaProducerBase':
        self._j_function["flush_on_checkpoint"] = flush_on_checkpoint
        return self

    def set_write_timestamp_to_kafka(self, write_timestamp_to_kafka: bool) \
            -> 'FlinkKafkaProducerBase':
        self._j_function["write_timestamp"] = write_timestamp_to_kafka
        return self

    _sink_name = "FlinkKafkaProducer"

    def _sink_definition(self, input_type):
        c = self._j_function
        if "bootstrap.servers" not in c["properties"]:
            raise ValueError("The producer config needs 'bootstrap.servers'.")
        records = _kafka_sink_spec(c["properties"], c["topic"], None, None, c["serializer"],
                                   input_type, bool(c.get("write_timestamp", False)),
                                   self._sink_name)
        # Flink names the legacy producer's transactions after its task and operator; here
        # a 'transactional.id' property is the prefix, else the topic
        prefix = c["properties"].get("transactional.id") or "FlinkKafkaProducer-" + c["topic"]
        return _with_guarantee(records, c["semantic"] == Semantic.EXACTLY_ONCE, str(prefix),
                               self._sink_name)


class FlinkKafkaProducer(FlinkKafkaProducerBase):
    def __init__(self, topic: str, serialization_schema: SerializationSchema,
                 producer_config: Dict, kafka_producer_pool_size: int = 5,
                 semantic=Semantic.AT_LEAST_ONCE):
        super(FlinkKafkaProducer, self).__init__({
            "topic": topic, "serializer": serialization_schema,
            "properties": dict(producer_config), "pool_size": kafka_producer_pool_size,
            "semantic": semantic})

    def ignore_failures_after_transaction_timeout(self) -> 'FlinkKafkaProducer':
        return self


# ---- KafkaSink ----

class KafkaSink(Sink, SupportsPreprocessing):
    """Writes to Kafka from the sink's tasks, each record with its timestamp (at least once),
    in Kafka transactions with EXACTLY_ONCE."""

    def __init__(self, j_kafka_sink, transformer: Optional[StreamTransformer] = None):
        super().__init__(j_kafka_sink)
        self._transformer = transformer

    @staticmethod
    def builder() -> 'KafkaSinkBuilder':
        return KafkaSinkBuilder()

    def get_transformer(self) -> Optional[StreamTransformer]:
        return self._transformer

    _sink_name = "KafkaSink"

    def _sink_definition(self, input_type):
        c = self._j_sink
        if not c.get("bootstrap_servers"):
            raise ValueError("bootstrapServers")
        serializer = c.get("record_serializer")
        if serializer is None:
            raise ValueError("recordSerializer")
        settings = serializer._j_serialization_schema
        properties = dict(c["properties"], **{"bootstrap.servers": c["bootstrap_servers"]})
        records = _kafka_sink_spec(properties, settings["topic"], serializer._topic_selector,
                                   settings["key"], settings["value"], input_type, True,
                                   self._sink_name)
        return _with_guarantee(records, c["delivery_guarantee"] == DeliveryGuarantee.EXACTLY_ONCE,
                               c["transactional_id_prefix"], self._sink_name)


class KafkaSinkBuilder(object):
    def __init__(self):
        # Flink's KafkaSinkBuilder starts with the prefix "kafka-sink" (flink-connector-kafka
        # 3.2.0-1.19: an EXACTLY_ONCE sink without set_transactional_id_prefix builds)
        self._j_builder = {"properties": {}, "delivery_guarantee": DeliveryGuarantee.NONE,
                           "transactional_id_prefix": "kafka-sink"}
        self._preprocessing = None

    def build(self) -> 'KafkaSink':
        return KafkaSink(dict(self._j_builder, properties=dict(self._j_builder["properties"])),
                         self._preprocessing)

    def set_bootstrap_servers(self, bootstrap_servers: str) -> 'KafkaSinkBuilder':
        self._j_builder["bootstrap_servers"] = bootstrap_servers
        return self

    def set_delivery_guarantee(self, delivery_guarantee: DeliveryGuarantee) -> 'KafkaSinkBuilder':
        self._j_builder["delivery_guarantee"] = delivery_guarantee
        return self

    def set_transactional_id_prefix(self, transactional_id_prefix: str) -> 'KafkaSinkBuilder':
        self._j_builder["transactional_id_prefix"] = transactional_id_prefix
        return self

    def set_record_serializer(self, record_serializer: 'KafkaRecordSerializationSchema') \
            -> 'KafkaSinkBuilder':
        self._j_builder["record_serializer"] = record_serializer
        return self

    def set_property(self, key: str, value: str) -> 'KafkaSinkBuilder':
        self._j_builder["properties"][key] = value
        return self


class KafkaRecordSerializationSchema(SerializationSchema):
    """Turns a record into a Kafka producer record (topic, key, value)."""

    def __init__(self, j_serialization_schema,
                 topic_selector: Optional['KafkaTopicSelector'] = None):
        super().__init__(j_serialization_schema)
        self._topic_selector = topic_selector

    @staticmethod
    def builder() -> 'KafkaRecordSerializationSchemaBuilder':
        return KafkaRecordSerializationSchemaBuilder()


class KafkaRecordSerializationSchemaBuilder(object):
    def __init__(self):
        self._fixed_topic = True
        self._topic = None
        self._topic_selector = None
        self._key_serialization_schema = None
        self._value_serialization_schema = None

    def build(self) -> 'KafkaRecordSerializationSchema':
        if self._value_serialization_schema is None:
            raise ValueError("No value serializer is configured.")
        if self._topic is None and self._topic_selector is None:
            raise ValueError("No topic or topic selector is configured.")
        settings = {"topic": self._topic if self._fixed_topic else None,
                    "key": self._key_serialization_schema,
                    "value": self._value_serialization_schema}
        return KafkaRecordSerializationSchema(
            settings, None if self._fixed_topic else self._topic_selector)

    def set_topic(self, topic: str) -> 'KafkaRecordSerializationSchemaBuilder':
        self._topic = topic
        self._fixed_topic = True
        return self

    def set_topic_selector(self, topic_selector: Union[Callable[[Any], str], 'KafkaTopicSelector'])\
            -> 'KafkaRecordSerializationSchemaBuilder':
        if not isinstance(topic_selector, KafkaTopicSelector) and not callable(topic_selector):
            raise TypeError('topic_selector must be KafkaTopicSelector or a callable')
        if not isinstance(topic_selector, KafkaTopicSelector):
            topic_selector = _TopicSelectorFunction(topic_selector)
        self._fixed_topic = False
        self._topic_selector = topic_selector
        return self

    def set_key_serialization_schema(self, key_serialization_schema: SerializationSchema) \
            -> 'KafkaRecordSerializationSchemaBuilder':
        self._key_serialization_schema = key_serialization_schema
        return self

    def set_value_serialization_schema(self, value_serialization_schema: SerializationSchema) \
            -> 'KafkaRecordSerializationSchemaBuilder':
        self._value_serialization_schema = value_serialization_schema
        return self


class KafkaTopicSelector(ABC):
    """Selects the topic of an outgoing record."""

    @abstractmethod
    def apply(self, data) -> str:
        pass


class _TopicSelectorFunction(KafkaTopicSelector):
    def __init__(self, f: Callable[[Any], str]):
        self._f = f

    def apply(self, data) -> str:
        return self._f(data)
