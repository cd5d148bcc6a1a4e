"""Elasticsearch (mirror of pyflink.datastream.connectors.elasticsearch, PyFlink 1.20).

Programs build an ElasticsearchSink with Elasticsearch6SinkBuilder / Elasticsearch7SinkBuilder
(the setters' checks and messages are Flink's, as observed on PyFlink 1.20.5 with
flink-sql-connector-elasticsearch7 3.0.1-1.17) and sink_to(...) it: the sink's Spark tasks
turn each record (a dict) into the bulk action PyFlink's MapElasticsearchEmitter makes and
send them to the node's HTTP `_bulk` API with Flink's flush settings and failure handling
(codecs/elasticsearch, runtime/operators/elasticsearch_sink.py).
"""
from __future__ import annotations

import abc
from enum import Enum
from typing import Any, Dict, List, Optional, Union

from pyflink_on_spark.codecs.elasticsearch.actions import EmitterSettings
from pyflink_on_spark.codecs.elasticsearch.bulk import BulkSettings
from pyflink_on_spark.common.typeinfo import MapTypeInfo, PickledBytesTypeInfo
from pyflink_on_spark.datastream.connectors._not_on_spark import require
from pyflink_on_spark.datastream.connectors.base import DeliveryGuarantee, Sink
from pyflink_on_spark.specs.sinks import ElasticsearchSinkSpec

__all__ = ['FlushBackoffType',
           'ElasticsearchEmitter',
           'Elasticsearch6SinkBuilder',
           'Elasticsearch7SinkBuilder',
           'ElasticsearchSink']

def _no_http_host_class(builder: str):
    raise NotImplementedError(
        "%s.get_http_host_class (a Java class) is not available on pyflink_on_spark: its sink "
        "talks to Elasticsearch over HTTP itself; pass the hosts to set_hosts as strings "
        "('http://host:9200')." % builder)


class FlushBackoffType(Enum):
    """How a failed bulk request is retried. (PyFlink 1.20's members are one-element tuples:
    `FlushBackoffType.CONSTANT.value == (0,)`; kept so that `.value` reads the same.)"""
    CONSTANT = (0,)
    EXPONENTIAL = (1,)
    NONE = (2,)


class ElasticsearchEmitter(object):
    """Turns each record (a dict) into an index request (Flink's MapElasticsearchEmitter)."""

    def __init__(self, j_emitter):
        self._j_emitter = j_emitter

    @staticmethod
    def static_index(index: str, key_field: str = None, doc_type: str = None) \
            -> 'ElasticsearchEmitter':
        require(index is not None, "index must not be null")
        return ElasticsearchEmitter({"index": index, "doc_type": doc_type,
                                     "key_field": key_field, "dynamic_index": False})

    @staticmethod
    def dynamic_index(index_field: str, key_field: str = None, doc_type: str = None) \
            -> 'ElasticsearchEmitter':
        require(index_field is not None, "index_field must not be null")
        return ElasticsearchEmitter({"index": index_field, "doc_type": doc_type,
                                     "key_field": key_field, "dynamic_index": True})


class ElasticsearchSinkBuilderBase(abc.ABC):
    """The settings both Elasticsearch versions' builders take."""

    @abc.abstractmethod
    def __init__(self):
        self._j_elasticsearch_sink_builder = None

    def _init_settings(self, version: int) -> None:
        self._version = version
        self._emitter: Optional[ElasticsearchEmitter] = None
        self._hosts: Optional[List[str]] = None
        self._settings: Dict[str, Any] = {"delivery_guarantee": DeliveryGuarantee.AT_LEAST_ONCE}

    @abc.abstractmethod
    def get_http_host_class(self):
        pass

    def set_emitter(self, emitter: ElasticsearchEmitter) -> 'ElasticsearchSinkBuilderBase':
        require(emitter is not None, "emitter must not be null")
        self._emitter = emitter
        return self

    def set_hosts(self, hosts: Union[str, List[str]]) -> 'ElasticsearchSinkBuilderBase':
        if not isinstance(hosts, list):
            hosts = [hosts]
        require(len(hosts) > 0, "Hosts cannot be empty.")
        for host in hosts:
            if not isinstance(host, str) or not host.strip():
                raise ValueError("Each host must be an address such as 'http://localhost:9200',"
                                 " got %r" % (host,))
        self._hosts = list(hosts)
        return self

    def set_delivery_guarantee(self, delivery_guarantee: DeliveryGuarantee) \
            -> 'ElasticsearchSinkBuilderBase':
        require(delivery_guarantee != DeliveryGuarantee.EXACTLY_ONCE,
                "Elasticsearch sink does not support the EXACTLY_ONCE guarantee.")
        self._settings["delivery_guarantee"] = delivery_guarantee
        return self

    def set_bulk_flush_max_actions(self, num_max_actions: int) -> 'ElasticsearchSinkBuilderBase':
        require(num_max_actions == -1 or num_max_actions > 0,
                "Max number of buffered actions must be larger than 0.")
        self._settings["bulk_flush_max_actions"] = num_max_actions
        return self

    def set_bulk_flush_max_size_mb(self, max_size_mb: int) -> 'ElasticsearchSinkBuilderBase':
        require(max_size_mb == -1 or max_size_mb > 0,
                "Max size of buffered actions must be larger than 0.")
        self._settings["bulk_flush_max_size_mb"] = max_size_mb
        return self

    def set_bulk_flush_interval(self, interval_millis: int) -> 'ElasticsearchSinkBuilderBase':
        require(interval_millis == -1 or interval_millis >= 0,
                "Interval (in milliseconds) between each flush must be larger than "
                "or equal to 0.")
        self._settings["bulk_flush_interval"] = interval_millis
        return self

    def set_bulk_flush_backoff_strategy(self,
                                        flush_backoff_type: FlushBackoffType,
                                        max_retries: int,
                                        delay_millis: int) -> 'ElasticsearchSinkBuilderBase':
        require(flush_backoff_type is not None, "flush_backoff_type must not be null")
        require(flush_backoff_type != FlushBackoffType.NONE,
                "FlushBackoffType#NONE does not require a configuration it is the default, "
                "retries and delay are ignored.")
        require(max_retries > 0, "Max number of backoff attempts must be larger than 0.")
        require(delay_millis >= 0, "Delay (in milliseconds) between each backoff attempt "
                                   "must be larger than or equal to 0.")
        self._settings["bulk_flush_backoff"] = (flush_backoff_type, max_retries, delay_millis)
        return self

    def set_connection_username(self, username: str) -> 'ElasticsearchSinkBuilderBase':
        require(username is not None, "username must not be null")
        self._settings["username"] = username
        return self

    def set_connection_password(self, password: str) -> 'ElasticsearchSinkBuilderBase':
        require(password is not None, "password must not be null")
        self._settings["password"] = password
        return self

    def set_connection_path_prefix(self, prefix: str) -> 'ElasticsearchSinkBuilderBase':
        require(prefix is not None, "prefix must not be null")
        self._settings["path_prefix"] = prefix
        return self

    def set_connection_request_timeout(self, timeout: int) -> 'ElasticsearchSinkBuilderBase':
        require(timeout >= 0, "Connection request timeout must be larger than or equal to 0.")
        self._settings["connection_request_timeout"] = timeout
        return self

    def set_connection_timeout(self, timeout: int) -> 'ElasticsearchSinkBuilderBase':
        require(timeout >= 0, "Connection timeout must be larger than or equal to 0.")
        self._settings["connection_timeout"] = timeout
        return self

    def set_socket_timeout(self, timeout: int) -> 'ElasticsearchSinkBuilderBase':
        require(timeout >= 0, "Socket timeout must be larger than or equal to 0.")
        self._settings["socket_timeout"] = timeout
        return self

    def build(self) -> 'ElasticsearchSink':
        require(self._emitter is not None, "No emitter is set (set_emitter).")
        require(self._hosts is not None, "No hosts are set (set_hosts).")
        sink = ElasticsearchSink(("elasticsearch", self._version))
        sink._version = self._version
        sink._emitter = self._emitter
        sink._hosts = list(self._hosts)
        sink._settings = dict(self._settings)
        return sink


class Elasticsearch6SinkBuilder(ElasticsearchSinkBuilderBase):
    def __init__(self):
        self._j_elasticsearch_sink_builder = None
        self._init_settings(6)

    def get_http_host_class(self):
        _no_http_host_class("Elasticsearch6SinkBuilder")


class Elasticsearch7SinkBuilder(ElasticsearchSinkBuilderBase):
    def __init__(self):
        self._j_elasticsearch_sink_builder = None
        self._init_settings(7)

    def get_http_host_class(self):
        _no_http_host_class("Elasticsearch7SinkBuilder")


class _NotAMap(object):
    """The converter of a stream not declared Types.MAP(...): PyFlink hands its Java sink each
    record as the declared type (an untyped stream's pickled bytes, a Row...), which its
    emitter casts to java.util.Map: the job fails at the first record (observed on PyFlink
    1.20.5 with an untyped stream of dicts: ClassCastException, class [B cannot be cast to
    class java.util.Map)."""

    def __init__(self, declared: Any) -> None:
        self.declared = "an untyped stream (pickled bytes)" if declared is None or \
            isinstance(declared, PickledBytesTypeInfo) else "declared %r" % (declared,)

    def __call__(self, value: Any) -> Any:
        raise TypeError("ElasticsearchSink: the stream is %s, not Types.MAP(...): PyFlink's "
                        "emitter takes each record as a java.util.Map and the job fails "
                        "(ClassCastException); declare the records' type, e.g. "
                        "map(..., output_type=Types.MAP(Types.STRING(), Types.STRING()))"
                        % self.declared)


class ElasticsearchSink(Sink):
    def __init__(self, j_elasticsearch_sink):
        super(ElasticsearchSink, self).__init__(sink=j_elasticsearch_sink)

    def _sink_definition(self, input_type: Any = None) -> ElasticsearchSinkSpec:
        emitter = self._emitter._j_emitter
        settings = self._settings
        backoff_type, retries, delay = settings.get("bulk_flush_backoff",
                                                    (FlushBackoffType.NONE, -1, -1))
        bulk = BulkSettings(
            hosts=tuple(self._hosts),
            max_actions=settings.get("bulk_flush_max_actions", 1000),
            max_size_mb=settings.get("bulk_flush_max_size_mb", -1),
            interval_ms=settings.get("bulk_flush_interval", -1),
            backoff_type=backoff_type.name, backoff_retries=retries, backoff_delay_ms=delay,
            username=settings.get("username"), password=settings.get("password"),
            path_prefix=settings.get("path_prefix"),
            connect_timeout_ms=settings.get("connection_timeout"),
            socket_timeout_ms=settings.get("socket_timeout"))
        if isinstance(input_type, MapTypeInfo):
            converter = input_type._python_converter()
        else:
            converter = _NotAMap(input_type)
        return ElasticsearchSinkSpec(
            emitter=EmitterSettings(emitter["index"], emitter["dynamic_index"],
                                    emitter["key_field"], emitter["doc_type"]),
            bulk=bulk, version=self._version, converter=converter)
