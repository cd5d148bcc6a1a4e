"""Kinesis (mirror of pyflink.datastream.connectors.kinesis, PyFlink 1.20).

Programs build FlinkKinesisConsumer, KinesisStreamsSink and KinesisFirehoseSink as on PyFlink
(the consumer's and the Data Streams sink's checks and messages as observed on PyFlink 1.20.5
with flink-sql-connector-kinesis 4.0.0-1.16; Firehose's builder was not available to check);
adding one to a job raises NotImplementedError naming the Spark-side route: a Kinesis source
for Spark Structured Streaming (awslabs' spark-sql-kinesis-connector) for the consumer and the
Data Streams sink, and for Firehose (which Spark has no connector for) files written where the
delivery stream would put them.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Union

from pyflink_on_spark.common.serialization import DeserializationSchema, SerializationSchema
from pyflink_on_spark.common.watermark_strategy import AssignerWithPeriodicWatermarksWrapper
from pyflink_on_spark.datastream.connectors._not_on_spark import (UnmappedSink,
                                                                  UnmappedSource, require,
                                                                  string_properties)
from pyflink_on_spark.datastream.connectors.base import Sink
from pyflink_on_spark.datastream.functions import SourceFunction

__all__ = [
    'KinesisShardAssigner',
    'KinesisDeserializationSchema',
    'WatermarkTracker',
    'PartitionKeyGenerator',
    'FlinkKinesisConsumer',
    'KinesisStreamsSink',
    'KinesisStreamsSinkBuilder',
    'KinesisFirehoseSink',
    'KinesisFirehoseSinkBuilder'
]

_STREAMS_ROUTE = ("On Spark, Kinesis Data Streams are read and written with a Kinesis "
                  "connector for Structured Streaming (awslabs' spark-sql-kinesis-connector, "
                  "format 'aws-kinesis'; Amazon EMR 7.1+ ships it): run that part as a Spark "
                  "job of its own, or bridge the stream into Kafka (no Kinesis endpoint can "
                  "run where pyflink_on_spark is tested, so it maps none). Kafka runs here: "
                  "KafkaSource / FlinkKafkaConsumer (bounded and unbounded) and KafkaSink / "
                  "FlinkKafkaProducer.")
_FIREHOSE_ROUTE = ("Spark has no Firehose connector: Firehose delivers to S3, so write those "
                   "files directly with FileSink (s3a:// paths through Spark's Hadoop "
                   "filesystems).")


class KinesisShardAssigner(object):
    """Which consumer subtask reads which shard."""

    def __init__(self, j_kinesis_shard_assigner):
        self._j_kinesis_shard_assigner = j_kinesis_shard_assigner

    @staticmethod
    def default_shard_assigner() -> 'KinesisShardAssigner':
        return KinesisShardAssigner("default")

    @staticmethod
    def uniform_shard_assigner() -> 'KinesisShardAssigner':
        return KinesisShardAssigner("uniform")


class KinesisDeserializationSchema(object):
    """Wraps a Java KinesisDeserializationSchema in PyFlink (record plus stream metadata)."""

    def __init__(self, j_kinesis_deserialization_schema):
        self._j_kinesis_deserialization_schema = j_kinesis_deserialization_schema


class WatermarkTracker(object):
    """Aligns the consumer subtasks' watermarks through a global aggregate."""

    def __init__(self, j_watermark_tracker):
        self._j_watermark_tracker = j_watermark_tracker

    @staticmethod
    def job_manager_watermark_tracker(
            aggregate_name: str, log_accumulator_interval_millis: int = -1) -> 'WatermarkTracker':
        return WatermarkTracker(("job_manager", aggregate_name, log_accumulator_interval_millis))


class FlinkKinesisConsumer(UnmappedSource, SourceFunction):
    """The legacy Kinesis Data Streams consumer (a SourceFunction, for env.add_source)."""

    _connector_name = "FlinkKinesisConsumer"
    _spark_route = _STREAMS_ROUTE

    def __init__(self,
                 streams: Union[str, List[str]],
                 deserializer: Union[DeserializationSchema, KinesisDeserializationSchema],
                 config_props: Dict
                 ):
        properties = string_properties("config_props", config_props)
        if isinstance(streams, str):
            streams = [streams]
        require(streams is not None, "streams can not be null")
        streams = list(streams)
        require(len(streams) != 0, "must be consuming at least 1 stream")
        require("" not in streams, "stream names cannot be empty Strings")
        require(deserializer is not None, "deserializer can not be null")
        require("aws.region" in properties or "aws.endpoint" in properties,
                "For FlinkKinesisConsumer AWS region ('aws.region') and/or AWS endpoint "
                "('aws.endpoint') must be set in the config.")
        self._streams = streams
        self._deserializer = deserializer
        self._config_props = properties
        self._shard_assigner: Optional[KinesisShardAssigner] = None
        self._periodic_watermark_assigner = None
        self._watermark_tracker: Optional[WatermarkTracker] = None
        # a Java-backed SourceFunction in PyFlink: here its settings stand for the Java object
        self._j_function = ("kinesis_consumer", tuple(streams))

    def set_shard_assigner(self, shard_assigner: KinesisShardAssigner) -> 'FlinkKinesisConsumer':
        self._shard_assigner = shard_assigner
        return self

    def set_periodic_watermark_assigner(
        self,
        periodic_watermark_assigner: AssignerWithPeriodicWatermarksWrapper) \
            -> 'FlinkKinesisConsumer':
        self._periodic_watermark_assigner = periodic_watermark_assigner
        return self

    def set_watermark_tracker(self, watermark_tracker: WatermarkTracker) -> 'FlinkKinesisConsumer':
        self._watermark_tracker = watermark_tracker
        return self


class PartitionKeyGenerator(object):
    """Chooses each record's partition key (fixed: one per subtask; random)."""

    def __init__(self, j_partition_key_generator):
        self._j_partition_key_generator = j_partition_key_generator

    @staticmethod
    def fixed() -> 'PartitionKeyGenerator':
        return PartitionKeyGenerator("fixed")

    @staticmethod
    def random() -> 'PartitionKeyGenerator':
        return PartitionKeyGenerator("random")


class _AsyncSinkSettings(object):
    """The batching settings of Flink's async sinks (defaults of the Kinesis sinks)."""

    def __init__(self, defaults: Dict[str, int]):
        self._defaults = dict(defaults)
        self._values: Dict[str, Any] = {}
        self._fail_on_error = False
        self._client_properties: Dict[str, str] = {}

    def set(self, name: str, value: int) -> None:
        self._values[name] = value

    def resolved(self) -> Dict[str, int]:
        # Flink's builders take these as given (build() accepted a batch size of 0 and a
        # buffer smaller than a batch on PyFlink 1.20.5): the writer would use them
        values = dict(self._defaults)
        values.update(self._values)
        return values


_KDS_DEFAULTS = {"max_batch_size": 500, "max_in_flight_requests": 50,
                 "max_buffered_requests": 10000, "max_batch_size_in_bytes": 5 * 1024 * 1024,
                 "max_time_in_buffer_ms": 5000, "max_record_size_in_bytes": 1024 * 1024}
_FIREHOSE_DEFAULTS = {"max_batch_size": 500, "max_in_flight_requests": 50,
                      "max_buffered_requests": 10000, "max_batch_size_in_bytes": 4 * 1024 * 1024,
                      "max_time_in_buffer_ms": 5000, "max_record_size_in_bytes": 1000 * 1024}


class KinesisStreamsSink(UnmappedSink, Sink):
    _connector_name = "KinesisStreamsSink"
    _spark_route = _STREAMS_ROUTE

    def __init__(self, j_kinesis_streams_sink):
        super(KinesisStreamsSink, self).__init__(sink=j_kinesis_streams_sink)

    @staticmethod
    def builder() -> 'KinesisStreamsSinkBuilder':
        return KinesisStreamsSinkBuilder()


class KinesisStreamsSinkBuilder(object):
    def __init__(self):
        self._settings = _AsyncSinkSettings(_KDS_DEFAULTS)
        self._stream_name: Optional[str] = None
        self._serialization_schema: Optional[SerializationSchema] = None
        self._partition_key_generator: Optional[PartitionKeyGenerator] = None

    def set_stream_name(self, stream_name: Union[str, List[str]]) -> 'KinesisStreamsSinkBuilder':
        if not isinstance(stream_name, str):
            # PyFlink hands the value to the Java setStreamName(String)
            raise TypeError("set_stream_name takes one stream name (str), got %r"
                            % (stream_name,))
        self._stream_name = stream_name
        return self

    def set_serialization_schema(self, serialization_schema: SerializationSchema) \
            -> 'KinesisStreamsSinkBuilder':
        self._serialization_schema = serialization_schema
        return self

    def set_partition_key_generator(self, partition_key_generator: PartitionKeyGenerator) \
            -> 'KinesisStreamsSinkBuilder':
        self._partition_key_generator = partition_key_generator
        return self

    def set_fail_on_error(self, fail_on_error: bool) -> 'KinesisStreamsSinkBuilder':
        self._settings._fail_on_error = fail_on_error
        return self

    def set_kinesis_client_properties(self, kinesis_client_properties: Dict) \
            -> 'KinesisStreamsSinkBuilder':
        self._settings._client_properties = string_properties("kinesis_client_properties",
                                                              kinesis_client_properties)
        return self

    def set_max_batch_size(self, max_batch_size: int) -> 'KinesisStreamsSinkBuilder':
        self._settings.set("max_batch_size", max_batch_size)
        return self

    def set_max_in_flight_requests(self, max_in_flight_requests: int) \
            -> 'KinesisStreamsSinkBuilder':
        self._settings.set("max_in_flight_requests", max_in_flight_requests)
        return self

    def set_max_buffered_requests(self, max_buffered_requests: int) -> 'KinesisStreamsSinkBuilder':
        self._settings.set("max_buffered_requests", max_buffered_requests)
        return self

    def set_max_batch_size_in_bytes(self, max_batch_size_in_bytes: int) \
            -> 'KinesisStreamsSinkBuilder':
        self._settings.set("max_batch_size_in_bytes", max_batch_size_in_bytes)
        return self

    def set_max_time_in_buffer_ms(self, max_time_in_buffer_ms: int) -> 'KinesisStreamsSinkBuilder':
        self._settings.set("max_time_in_buffer_ms", max_time_in_buffer_ms)
        return self

    def set_max_record_size_in_bytes(self, max_record_size_in_bytes: int) \
            -> 'KinesisStreamsSinkBuilder':
        self._settings.set("max_record_size_in_bytes", max_record_size_in_bytes)
        return self

    def build(self) -> 'KinesisStreamsSink':
        # the checks of Flink's builder, in its order (messages as on PyFlink 1.20.5)
        require(self._serialization_schema is not None,
                "No SerializationSchema was supplied to the KinesisStreamsSinkElementConverter "
                "builder.")
        require(self._partition_key_generator is not None,
                "No PartitionKeyGenerator lambda was supplied to the "
                "KinesisStreamsSinkElementConverter builder.")
        require(self._stream_name is not None,
                "The stream name must not be null when initializing the KDS Sink.")
        require(self._stream_name != "",
                "The stream name must be set when initializing the KDS Sink.")
        sink = KinesisStreamsSink(("kinesis_streams", self._stream_name))
        sink._settings = self._settings.resolved()
        return sink


class KinesisFirehoseSink(UnmappedSink, Sink):
    _connector_name = "KinesisFirehoseSink"
    _spark_route = _FIREHOSE_ROUTE

    def __init__(self, j_kinesis_firehose_sink):
        super(KinesisFirehoseSink, self).__init__(sink=j_kinesis_firehose_sink)

    @staticmethod
    def builder() -> 'KinesisFirehoseSinkBuilder':
        return KinesisFirehoseSinkBuilder()


class KinesisFirehoseSinkBuilder(object):
    def __init__(self):
        self._settings = _AsyncSinkSettings(_FIREHOSE_DEFAULTS)
        self._delivery_stream_name: Optional[str] = None
        self._serialization_schema: Optional[SerializationSchema] = None

    def set_delivery_stream_name(self, delivery_stream_name: str) -> 'KinesisFirehoseSinkBuilder':
        self._delivery_stream_name = delivery_stream_name
        return self

    def set_serialization_schema(self, serialization_schema: SerializationSchema) \
            -> 'KinesisFirehoseSinkBuilder':
        self._serialization_schema = serialization_schema
        return self

    def set_fail_on_error(self, fail_on_error: bool) -> 'KinesisFirehoseSinkBuilder':
        self._settings._fail_on_error = fail_on_error
        return self

    def set_firehose_client_properties(self, firehose_client_properties: Dict) \
            -> 'KinesisFirehoseSinkBuilder':
        self._settings._client_properties = string_properties("firehose_client_properties",
                                                              firehose_client_properties)
        return self

    def set_max_batch_size(self, max_batch_size: int) -> 'KinesisFirehoseSinkBuilder':
        self._settings.set("max_batch_size", max_batch_size)
        return self

    def set_max_in_flight_requests(self, max_in_flight_requests: int) \
            -> 'KinesisFirehoseSinkBuilder':
        self._settings.set("max_in_flight_requests", max_in_flight_requests)
        return self

    def set_max_buffered_requests(self, max_buffered_requests: int) -> 'KinesisFirehoseSinkBuilder':
        self._settings.set("max_buffered_requests", max_buffered_requests)
        return self

    def set_max_batch_size_in_bytes(self, max_batch_size_in_bytes: int) \
            -> 'KinesisFirehoseSinkBuilder':
        self._settings.set("max_batch_size_in_bytes", max_batch_size_in_bytes)
        return self

    def set_max_time_in_buffer_ms(self, max_time_in_buffer_ms: int) -> 'KinesisFirehoseSinkBuilder':
        self._settings.set("max_time_in_buffer_ms", max_time_in_buffer_ms)
        return self

    def set_max_record_size_in_bytes(self, max_record_size_in_bytes: int) \
            -> 'KinesisFirehoseSinkBuilder':
        self._settings.set("max_record_size_in_bytes", max_record_size_in_bytes)
        return self

    def build(self) -> 'KinesisFirehoseSink':
        require(self._serialization_schema is not None,
                "No SerializationSchema was supplied (set_serialization_schema).")
        require(bool(self._delivery_stream_name),
                "The delivery stream name must be set when initializing the Firehose Sink.")
        sink = KinesisFirehoseSink(("kinesis_firehose", self._delivery_stream_name))
        sink._settings = self._settings.resolved()
        return sink
