"""RabbitMQ (mirror of pyflink.datastream.connectors.rabbitmq, PyFlink 1.20).

Programs build RMQConnectionConfig, RMQSource and RMQSink as on PyFlink (build() checks and
messages as observed on PyFlink 1.20.5 with flink-sql-connector-rabbitmq 3.0.0-1.16), and
they run (docs/connectors.md, "RabbitMQ"):

* RMQSink: the sink's Spark tasks publish each record, serialized by its SerializationSchema,
  to the queue (default exchange, the queue's name as routing key) through pika, with
  publisher confirms awaited at the end of input and of each micro-batch (at least once).
* RMQSource: an unbounded, non-parallel source (as Flink's). The driver consumes the queue;
  each micro-batch's messages are written to the job's checkpoint before they are processed
  (in Spark tasks) and acknowledged only once the batch's checkpoint completed. With
  use_correlation_id, messages whose correlation id a batch not yet acknowledged holds are
  dropped, as Flink's MultipleIdsMessageAcknowledgingSourceBase drops them (exactly once
  across a crash); without, at least once (spark/streaming/rabbitmq_queue.py).
"""
from __future__ import annotations

from typing import Any, Dict, Optional

from pyflink_on_spark.common.serialization import DeserializationSchema, SerializationSchema
from pyflink_on_spark.datastream.connectors._not_on_spark import require
from pyflink_on_spark.datastream.functions import SinkFunction, SourceFunction

__all__ = [
    'RMQConnectionConfig',
    'RMQSource',
    'RMQSink'
]

class RMQConnectionConfig(object):
    """How to reach the broker: a URI, or host / port / virtual host / user / password."""

    def __init__(self, j_rmq_connection_config):
        self._j_rmq_connection_config = j_rmq_connection_config

    def _get(self, name: str) -> Any:
        return self._j_rmq_connection_config.get(name)

    def get_host(self) -> str:
        return self._get("host")

    def get_port(self) -> int:
        port = self._get("port")
        if port is None:   # Java unboxes a null Integer here (NullPointerException)
            raise ValueError("The port is not set: this connection config was built from a URI "
                             "(get_uri()).")
        return port

    def get_virtual_host(self) -> str:
        return self._get("virtual_host")

    def get_user_name(self) -> str:
        return self._get("user_name")

    def get_password(self) -> str:
        return self._get("password")

    def get_uri(self) -> str:
        return self._get("uri")

    def get_network_recovery_interval(self) -> int:
        return self._get("network_recovery_interval")

    def is_automatic_recovery(self) -> bool:
        return self._get("automatic_recovery")

    def is_topology_recovery(self) -> bool:
        return self._get("topology_recovery")

    def get_connection_timeout(self) -> int:
        return self._get("connection_timeout")

    def get_requested_channel_max(self) -> int:
        return self._get("requested_channel_max")

    def get_requested_frame_max(self) -> int:
        return self._get("requested_frame_max")

    def get_requested_heartbeat(self) -> int:
        return self._get("requested_heartbeat")

    class Builder(object):
        """Collects the settings; build() checks them as Flink's RMQConnectionConfig does."""

        def __init__(self):
            self._settings: Dict[str, Any] = {}

        def _set(self, name: str, value: Any) -> 'RMQConnectionConfig.Builder':
            self._settings[name] = value
            return self

        def set_port(self, port: int) -> 'RMQConnectionConfig.Builder':
            return self._set("port", port)

        def set_host(self, host: str) -> 'RMQConnectionConfig.Builder':
            return self._set("host", host)

        def set_virtual_host(self, vhost: str) -> 'RMQConnectionConfig.Builder':
            return self._set("virtual_host", vhost)

        def set_user_name(self, user_name: str) -> 'RMQConnectionConfig.Builder':
            return self._set("user_name", user_name)

        def set_password(self, password: str) -> 'RMQConnectionConfig.Builder':
            return self._set("password", password)

        def set_uri(self, uri: str) -> 'RMQConnectionConfig.Builder':
            return self._set("uri", uri)

        def set_topology_recovery_enabled(
                self, topology_recovery_enabled: bool) -> 'RMQConnectionConfig.Builder':
            return self._set("topology_recovery", topology_recovery_enabled)

        def set_requested_heartbeat(
                self, requested_heartbeat: int) -> 'RMQConnectionConfig.Builder':
            return self._set("requested_heartbeat", requested_heartbeat)

        def set_requested_frame_max(
                self, requested_frame_max: int) -> 'RMQConnectionConfig.Builder':
            return self._set("requested_frame_max", requested_frame_max)

        def set_requested_channel_max(
                self, requested_channel_max: int) -> 'RMQConnectionConfig.Builder':
            return self._set("requested_channel_max", requested_channel_max)

        def set_network_recovery_interval(
                self, network_recovery_interval: int) -> 'RMQConnectionConfig.Builder':
            return self._set("network_recovery_interval", network_recovery_interval)

        def set_connection_timeout(self, connection_timeout: int) -> 'RMQConnectionConfig.Builder':
            return self._set("connection_timeout", connection_timeout)

        def set_automatic_recovery(self, automatic_recovery: bool) -> 'RMQConnectionConfig.Builder':
            return self._set("automatic_recovery", automatic_recovery)

        def set_prefetch_count(self, prefetch_count: int) -> 'RMQConnectionConfig.Builder':
            return self._set("prefetch_count", prefetch_count)

        def build(self) -> 'RMQConnectionConfig':
            settings = dict(self._settings)
            if settings.get("uri") is None:
                # without a URI, Flink requires every part of the address
                for name, text in (("host", "host"), ("port", "port"),
                                   ("virtual_host", "virtualHost"), ("user_name", "username"),
                                   ("password", "password")):
                    require(settings.get(name) is not None, "%s can not be null" % text)
            else:
                # a URI carries the address: Flink keeps only the URI then
                for name in ("host", "port", "virtual_host", "user_name", "password"):
                    settings.pop(name, None)
            return RMQConnectionConfig(settings)


def _check_config(connection_config: Any) -> None:
    if not isinstance(connection_config, RMQConnectionConfig):
        raise TypeError("connection_config must be an RMQConnectionConfig "
                        "(RMQConnectionConfig.Builder()...build()), got %s"
                        % type(connection_config).__name__)


def _schema_type(schema: Any):
    """The type a DeserializationSchema produces (Flink's getProducedType), None if unknown."""
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


def _python_codec(schema: Any, method: str, what: str):
    """The schema's Python (de)serializing function, or NotImplementedError naming it."""
    found = getattr(schema, method, None)
    if found is None:
        raise NotImplementedError(
            "%s cannot %s RabbitMQ messages in pyflink_on_spark; use SimpleStringSchema, "
            "JsonRowSerializationSchema / JsonRowDeserializationSchema, CsvRow... or "
            "AvroRow...(avro_schema_string=...)" % (type(schema).__name__, what))
    return found


class RMQSource(SourceFunction):
    """Reads a queue, unbounded; a non-parallel source (parallelism 1), as Flink's."""

    _non_parallel = True

    def __init__(self,
                 connection_config: 'RMQConnectionConfig',
                 queue_name: str,
                 use_correlation_id: bool,
                 deserialization_schema: DeserializationSchema
                 ):
        _check_config(connection_config)
        self._connection_config = connection_config
        self._queue_name: Optional[str] = queue_name
        self._use_correlation_id = use_correlation_id
        self._deserialization_schema = deserialization_schema
        # a Java-backed SourceFunction in PyFlink: here its settings stand for the Java object
        self._j_function = ("rabbitmq", queue_name)

    def _source_definition(self):
        from pyflink_on_spark.specs.sources import RabbitMQSourceSpec
        decode = _python_codec(self._deserialization_schema, "_deserialize", "deserialize")
        settings = self._connection_config._j_rmq_connection_config
        return RabbitMQSourceSpec(connection=tuple(sorted(settings.items())),
                                  queue_name=self._queue_name,
                                  use_correlation_id=bool(self._use_correlation_id),
                                  value_decoder=decode)

    @property
    def _produced_type(self):
        return _schema_type(self._deserialization_schema)


class RMQSink(SinkFunction):
    """Publishes each record to the queue, from the sink's tasks (at least once)."""

    _sink_name = "RMQSink"

    def __init__(self, connection_config: 'RMQConnectionConfig',
                 queue_name: str, serialization_schema: SerializationSchema):
        _check_config(connection_config)
        self._connection_config = connection_config
        self._queue_name = queue_name
        self._serialization_schema = serialization_schema
        self._j_function = ("rabbitmq", queue_name)

    def _sink_definition(self, input_type: Any = None):
        from pyflink_on_spark.specs.sinks import RabbitMQSinkSpec
        serialize = _python_codec(self._serialization_schema, "_serialize", "serialize")
        settings = self._connection_config._j_rmq_connection_config
        converter = input_type._python_converter() if input_type is not None else None
        return RabbitMQSinkSpec(connection=tuple(sorted(settings.items())),
                                queue_name=self._queue_name, serializer=serialize,
                                converter=converter)
