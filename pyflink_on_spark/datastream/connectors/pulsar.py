"""Pulsar (mirror of pyflink.datastream.connectors.pulsar, PyFlink 1.20).

Programs build PulsarSource / PulsarSink with PyFlink's builders (build() checks what Flink's
builders check, with their messages, as observed on PyFlink 1.20.5 with
flink-sql-connector-pulsar 4.0.0-1.17); from_source / sink_to raise
NotImplementedError: the Spark-side route is the pulsar-spark connector
(io.streamnative.connectors:pulsar-spark-connector_2.13, format "pulsar").
"""
from __future__ import annotations

import warnings
from enum import Enum
from typing import Any, Dict, List, Optional, Union

from pyflink_on_spark.common.config_options import ConfigOption
from pyflink_on_spark.common.serialization import DeserializationSchema, SerializationSchema
from pyflink_on_spark.common.time import Duration
from pyflink_on_spark.datastream.connectors._not_on_spark import (UnmappedSink,
                                                                  UnmappedSource, require)
from pyflink_on_spark.datastream.connectors.base import DeliveryGuarantee, Sink, Source

__all__ = [
    'PulsarSource',
    'PulsarSourceBuilder',
    'StartCursor',
    'StopCursor',
    'RangeGenerator',
    'PulsarSink',
    'PulsarSinkBuilder',
    'MessageDelayer',
    'TopicRoutingMode'
]

_ROUTE = ("On Spark, read and write Pulsar topics with the pulsar-spark connector (package "
          "io.streamnative.connectors:pulsar-spark-connector_2.13, format 'pulsar' with "
          "service.url / admin.url / topics); within pyflink_on_spark, Kafka works: "
          "KafkaSource (bounded) / KafkaSink.")


class StartCursor(object):
    """Where a subscription starts reading."""

    def __init__(self, _j_start_cursor):
        self._j_start_cursor = _j_start_cursor

    @staticmethod
    def default_start_cursor() -> 'StartCursor':
        return StartCursor.earliest()

    @staticmethod
    def earliest() -> 'StartCursor':
        return StartCursor(("earliest",))

    @staticmethod
    def latest() -> 'StartCursor':
        return StartCursor(("latest",))

    @staticmethod
    def from_message_id(message_id: bytes, inclusive: bool = True) -> 'StartCursor':
        return StartCursor(("message_id", bytes(message_id), inclusive))

    @staticmethod
    def from_publish_time(timestamp: int) -> 'StartCursor':
        return StartCursor(("publish_time", timestamp))


class StopCursor(object):
    """Where reading a topic ends (never, for an unbounded source)."""

    def __init__(self, _j_stop_cursor):
        self._j_stop_cursor = _j_stop_cursor

    @staticmethod
    def default_stop_cursor() -> 'StopCursor':
        return StopCursor.never()

    @staticmethod
    def never() -> 'StopCursor':
        return StopCursor(("never",))

    @staticmethod
    def latest() -> 'StopCursor':
        return StopCursor(("latest",))

    @staticmethod
    def at_event_time(timestamp: int) -> 'StopCursor':
        return StopCursor(("at_event_time", timestamp))

    @staticmethod
    def after_event_time(timestamp: int) -> 'StopCursor':
        return StopCursor(("after_event_time", timestamp))

    @staticmethod
    def at_publish_time(timestamp: int) -> 'StopCursor':
        return StopCursor(("at_publish_time", timestamp))

    @staticmethod
    def after_publish_time(timestamp: int) -> 'StopCursor':
        return StopCursor(("after_publish_time", timestamp))

    @staticmethod
    def at_message_id(message_id: bytes) -> 'StopCursor':
        return StopCursor(("at_message_id", bytes(message_id)))

    @staticmethod
    def after_message_id(message_id: bytes) -> 'StopCursor':
        return StopCursor(("after_message_id", bytes(message_id)))


class RangeGenerator(object):
    """Which key hash ranges a Key_Shared subscription reads."""

    def __init__(self, j_range_generator):
        self._j_range_generator = j_range_generator

    @staticmethod
    def full() -> 'RangeGenerator':
        return RangeGenerator(("full",))

    @staticmethod
    def fixed_key(support_null_key: bool = False,
                  keys: Optional[Union[str, List[str]]] = None,
                  key_bytes: Optional[bytes] = None,
                  ordering_key_bytes: Optional[bytes] = None) -> 'RangeGenerator':
        if isinstance(keys, str):
            keys = [keys]
        return RangeGenerator(("fixed_key", support_null_key, tuple(keys or ()), key_bytes,
                               ordering_key_bytes))


def _auth_params(auth_params_string: Union[str, Dict[str, str]]) -> Union[str, Dict[str, str]]:
    if isinstance(auth_params_string, str):
        return auth_params_string
    return dict(auth_params_string.items())


def _require_config(config: Dict[str, Any], key: str) -> None:
    require(config.get(key) is not None,
            "Config option Key: '%s' , default: null (fallback keys: []) is not provided for "
            "pulsar client." % key)


def _config_key(key: Union[str, ConfigOption]) -> str:
    if isinstance(key, ConfigOption):
        warnings.warn("set_config(key: ConfigOption, value) is deprecated. "
                      "Use set_config(key: str, value) instead.",
                      DeprecationWarning, stacklevel=3)
        return key._key()
    return key


class PulsarSource(UnmappedSource, Source):
    _connector_name = "PulsarSource"
    _spark_route = _ROUTE

    def __init__(self, j_pulsar_source):
        super(PulsarSource, self).__init__(source=j_pulsar_source)

    @staticmethod
    def builder() -> 'PulsarSourceBuilder':
        return PulsarSourceBuilder()


class PulsarSourceBuilder(object):
    """Collects a PulsarSource's settings; build() checks what Flink's builder requires."""

    def __init__(self):
        self._config: Dict[str, Any] = {}
        self._topics: Optional[List[str]] = None
        self._topic_pattern: Optional[str] = None
        self._range_generator: Optional[RangeGenerator] = None
        self._start_cursor = StartCursor.default_start_cursor()
        self._stop_cursor = StopCursor.default_stop_cursor()
        self._bounded = False
        self._deserialization_schema: Optional[DeserializationSchema] = None

    def set_admin_url(self, admin_url: str) -> 'PulsarSourceBuilder':
        self._config["pulsar.admin.adminUrl"] = admin_url
        return self

    def set_service_url(self, service_url: str) -> 'PulsarSourceBuilder':
        self._config["pulsar.client.serviceUrl"] = service_url
        return self

    def set_subscription_name(self, subscription_name: str) -> 'PulsarSourceBuilder':
        self._config["pulsar.consumer.subscriptionName"] = subscription_name
        return self

    def set_topics(self, topics: Union[str, List[str]]) -> 'PulsarSourceBuilder':
        if not isinstance(topics, list):
            topics = [topics]
        self._check_no_subscriber("topics")
        self._topics = list(topics)
        return self

    def set_topic_pattern(self, topic_pattern: str) -> 'PulsarSourceBuilder':
        self._check_no_subscriber("topic pattern")
        self._topic_pattern = topic_pattern
        return self

    def _check_no_subscriber(self, wanted: str) -> None:
        # Flink's builder takes one subscriber, once (messages as observed on PyFlink 1.20)
        existing = ("TopicListSubscriber" if self._topics is not None else
                    "TopicPatternSubscriber" if self._topic_pattern is not None else None)
        require(existing is None, "Cannot use %s for consumption because a %s is already set "
                                  "for consumption" % (wanted, existing))

    def set_consumer_name(self, consumer_name: str) -> 'PulsarSourceBuilder':
        self._config["pulsar.consumer.consumerName"] = consumer_name
        return self

    def set_range_generator(self, range_generator: RangeGenerator) -> 'PulsarSourceBuilder':
        self._range_generator = range_generator
        return self

    def set_start_cursor(self, start_cursor: StartCursor) -> 'PulsarSourceBuilder':
        self._start_cursor = start_cursor
        return self

    def set_unbounded_stop_cursor(self, stop_cursor: StopCursor) -> 'PulsarSourceBuilder':
        self._stop_cursor, self._bounded = stop_cursor, False
        return self

    def set_bounded_stop_cursor(self, stop_cursor: StopCursor) -> 'PulsarSourceBuilder':
        self._stop_cursor, self._bounded = stop_cursor, True
        return self

    def set_deserialization_schema(self, deserialization_schema: DeserializationSchema) \
            -> 'PulsarSourceBuilder':
        self._deserialization_schema = deserialization_schema
        return self

    def set_authentication(self,
                           auth_plugin_class_name: str,
                           auth_params_string: Union[str, Dict[str, str]]) \
            -> 'PulsarSourceBuilder':
        self._config["pulsar.client.authPluginClassName"] = auth_plugin_class_name
        self._config["pulsar.client.authParams"] = _auth_params(auth_params_string)
        return self

    def set_config(self, key: Union[str, ConfigOption], value) -> 'PulsarSourceBuilder':
        self._config[_config_key(key)] = value
        return self

    def set_config_with_dict(self, config: Dict) -> 'PulsarSourceBuilder':
        warnings.warn("set_config_with_dict is deprecated. Use set_properties instead.",
                      DeprecationWarning, stacklevel=2)
        self.set_properties(config)
        return self

    def set_properties(self, config: Dict) -> 'PulsarSourceBuilder':
        self._config.update(config)
        return self

    def build(self) -> 'PulsarSource':
        # the checks of Flink's builder, in its order
        require(self._topics is not None or self._topic_pattern is not None,
                "No topic names or topic pattern are provided.")
        require(self._deserialization_schema is not None,
                "deserializationSchema should be set.")
        for key in ("pulsar.admin.adminUrl", "pulsar.client.serviceUrl",
                    "pulsar.consumer.subscriptionName"):
            _require_config(self._config, key)
        source = PulsarSource(("pulsar", tuple(self._topics or ()), self._topic_pattern))
        source._config = dict(self._config)
        source._bounded = self._bounded
        return source


class TopicRoutingMode(Enum):
    """How the sink picks a partition for each message."""
    ROUND_ROBIN = 0
    MESSAGE_KEY_HASH = 1
    CUSTOM = 2


class MessageDelayer(object):
    """Delays delivery of each sent message to consumers."""

    def __init__(self, _j_message_delayer):
        self._j_message_delayer = _j_message_delayer

    @staticmethod
    def never() -> 'MessageDelayer':
        return MessageDelayer(("never",))

    @staticmethod
    def fixed(duration: Duration) -> 'MessageDelayer':
        return MessageDelayer(("fixed", duration))


class PulsarSink(UnmappedSink, Sink):
    _connector_name = "PulsarSink"
    _spark_route = _ROUTE

    def __init__(self, j_pulsar_sink):
        super(PulsarSink, self).__init__(sink=j_pulsar_sink)

    @staticmethod
    def builder() -> 'PulsarSinkBuilder':
        return PulsarSinkBuilder()


class PulsarSinkBuilder(object):
    """Collects a PulsarSink's settings; build() checks what Flink's builder requires."""

    def __init__(self):
        self._config: Dict[str, Any] = {}
        self._topics: Optional[List[str]] = None
        self._delivery_guarantee = DeliveryGuarantee.NONE
        self._topic_routing_mode: Optional[TopicRoutingMode] = None
        self._topic_router: Optional[str] = None
        self._serialization_schema: Optional[SerializationSchema] = None
        self._message_delayer = MessageDelayer.never()

    def set_admin_url(self, admin_url: str) -> 'PulsarSinkBuilder':
        self._config["pulsar.admin.adminUrl"] = admin_url
        return self

    def set_service_url(self, service_url: str) -> 'PulsarSinkBuilder':
        self._config["pulsar.client.serviceUrl"] = service_url
        return self

    def set_producer_name(self, producer_name: str) -> 'PulsarSinkBuilder':
        self._config["pulsar.producer.producerName"] = producer_name
        return self

    def set_topics(self, topics: Union[str, List[str]]) -> 'PulsarSinkBuilder':
        if not isinstance(topics, list):
            topics = [topics]
        self._topics = list(topics)
        return self

    def set_delivery_guarantee(self, delivery_guarantee: DeliveryGuarantee) -> 'PulsarSinkBuilder':
        require(delivery_guarantee is not None, "delivery_guarantee must not be null")
        self._delivery_guarantee = delivery_guarantee
        return self

    def set_topic_routing_mode(self, topic_routing_mode: TopicRoutingMode) -> 'PulsarSinkBuilder':
        require(topic_routing_mode != TopicRoutingMode.CUSTOM,
                "CUSTOM mode should be set by using setTopicRouter method.")
        self._topic_routing_mode = topic_routing_mode
        return self

    def set_topic_router(self, topic_router_class_name: str) -> 'PulsarSinkBuilder':
        # PyFlink loads and instantiates this Java class: there is no JVM to load it from here
        self._topic_router = topic_router_class_name
        self._topic_routing_mode = TopicRoutingMode.CUSTOM
        return self

    def set_serialization_schema(self, serialization_schema: SerializationSchema) \
            -> 'PulsarSinkBuilder':
        self._serialization_schema = serialization_schema
        return self

    def set_authentication(self,
                           auth_plugin_class_name: str,
                           auth_params_string: Union[str, Dict[str, str]]) \
            -> 'PulsarSinkBuilder':
        self._config["pulsar.client.authPluginClassName"] = auth_plugin_class_name
        self._config["pulsar.client.authParams"] = _auth_params(auth_params_string)
        return self

    def delay_sending_message(self, message_delayer: MessageDelayer) -> 'PulsarSinkBuilder':
        self._message_delayer = message_delayer
        return self

    def set_config(self, key: str, value) -> 'PulsarSinkBuilder':
        self._config[key] = value
        return self

    def set_properties(self, config: Dict) -> 'PulsarSinkBuilder':
        self._config.update(config)
        return self

    def build(self) -> 'PulsarSink':
        # the checks of Flink's builder, in its order
        require(self._serialization_schema is not None, "serializationSchema must be set.")
        require(bool(self._topics) or self._topic_router is not None,
                "No topic names or custom topic router are provided.")
        for key in ("pulsar.admin.adminUrl", "pulsar.client.serviceUrl"):
            _require_config(self._config, key)
        if self._delivery_guarantee == DeliveryGuarantee.EXACTLY_ONCE:
            # Flink's builder switches Pulsar transactions on for this guarantee
            self._config["pulsar.client.enableTransaction"] = True
        sink = PulsarSink(("pulsar", tuple(self._topics or ())))
        sink._config = dict(self._config)
        return sink
