"""Cassandra (mirror of pyflink.datastream.connectors.cassandra, PyFlink 1.20).

CassandraSink.add_sink(stream).set_query(cql).set_host(host, port).build() runs as on PyFlink
for streams of Types.ROW and Types.TUPLE: build() attaches the sink ("Cassandra Sink") to the
stream, and its Spark tasks prepare the query once per subtask and write each record's fields
to its `?` markers asynchronously with the DataStax Python driver (cassandra-driver), at most
set_max_concurrent_requests in flight, flushed at the end of input and of each micro-batch:
Flink's at-least-once CassandraSink (codecs/cassandra/writer.py). A failed write fails the
job, as Flink's default failure handler (and no_op()) does.

Builders check what Flink checks, with its messages (observed on PyFlink 1.20.5 with
flink-connector-cassandra 3.0.0-1.16). What does not run on Spark raises NotImplementedError
when called: set_cluster_builder (PyFlink's ClusterBuilder wraps a Java object) and
enable_write_ahead_log (Flink's write-ahead sink, exactly once for idempotent queries).
"""
from __future__ import annotations

from enum import Enum
from typing import Any, Dict, Optional

from pyflink_on_spark.codecs.cassandra.java_codecs import java_class
from pyflink_on_spark.common.time import Duration
from pyflink_on_spark.datastream.connectors._not_on_spark import not_on_spark, require
from pyflink_on_spark.specs.sinks import CassandraSinkSpec

__all__ = [
    'CassandraSink',
    'ConsistencyLevel',
    'MapperOptions',
    'ClusterBuilder',
    'CassandraCommitter',
    'CassandraFailureHandler'
]

_CLUSTER_BUILDER_ROUTE = ("PyFlink's ClusterBuilder wraps a Java ClusterBuilder, which "
                          "Spark's Python tasks cannot run: give the node with "
                          "set_host(host, port).")
_WRITE_AHEAD_LOG_ROUTE = ("Without it the sink is Flink's at-least-once CassandraSink: a "
                          "retried task writes its records again, which idempotent queries "
                          "(Cassandra's INSERT is an upsert) make harmless.")
# the name Flink gives the sink operator (CassandraSinkBuilder.createSink)
SINK_NAME = "Cassandra Sink"


class ConsistencyLevel(Enum):
    """The Cassandra driver's consistency levels (com.datastax.driver.core.ConsistencyLevel)."""
    ANY = 0
    ONE = 1
    TWO = 2
    THREE = 3
    QUORUM = 4
    ALL = 5
    LOCAL_QUORUM = 6
    EACH_QUORUM = 7
    SERIAL = 8
    LOCAL_SERIAL = 9
    LOCAL_ONE = 10


class MapperOptions(object):
    """Options of the driver's object mapper (Flink's SimpleMapperOptions); used for POJOs."""

    def __init__(self):
        self._options: Dict[str, Any] = {}

    def ttl(self, ttl: int) -> 'MapperOptions':
        self._options["ttl"] = ttl
        return self

    def timestamp(self, timestamp: int) -> 'MapperOptions':
        self._options["timestamp"] = timestamp
        return self

    def consistency_level(self, cl: ConsistencyLevel) -> 'MapperOptions':
        self._options["consistency_level"] = cl
        return self

    def tracing(self, enabled: bool) -> 'MapperOptions':
        self._options["tracing"] = enabled
        return self

    def save_null_fields(self, enabled: bool) -> 'MapperOptions':
        self._options["save_null_fields"] = enabled
        return self

    def if_not_exists(self, enabled: bool) -> 'MapperOptions':
        self._options["if_not_exists"] = enabled
        return self


class ClusterBuilder(object):
    """Wraps a Java ClusterBuilder in PyFlink; here it holds whatever the program passes."""

    def __init__(self, j_cluster_builder):
        self._j_cluster_builder = j_cluster_builder


class CassandraCommitter(object):
    """Where the write-ahead-log sink records completed checkpoints."""

    def __init__(self, j_checkpoint_committer):
        self._j_checkpoint_committer = j_checkpoint_committer

    @staticmethod
    def default_checkpoint_committer(builder: ClusterBuilder, key_space: str = None) \
            -> 'CassandraCommitter':
        return CassandraCommitter(("default", builder, key_space))


class CassandraFailureHandler(object):
    """What the sink does when a write fails."""

    def __init__(self, j_cassandra_failure_handler):
        self._j_cassandra_failure_handler = j_cassandra_failure_handler

    @staticmethod
    def no_op() -> 'CassandraFailureHandler':
        return CassandraFailureHandler("no_op")


def _record_kind(input) -> str:
    """Flink's CassandraSink.addSink picks its builder by the stream's type: rows, tuples
    (or POJOs / Scala products, which Python streams do not carry)."""
    from pyflink_on_spark.common.typeinfo import RowTypeInfo, TupleTypeInfo
    get_type = getattr(input, "get_type", None)
    if get_type is None:
        raise TypeError("CassandraSink.add_sink expects a DataStream, got %s"
                        % type(input).__name__)
    type_info = get_type()
    if isinstance(type_info, RowTypeInfo):
        return "row"
    if isinstance(type_info, TupleTypeInfo):
        return "tuple"
    # PyFlink names a stream without declared type PickledByteArrayTypeInfo here
    raise ValueError("No support for the type of the given DataStream: %s (CassandraSink "
                     "writes streams of Types.ROW / Types.TUPLE: declare the output type of "
                     "the operator before the sink)"
                     % ("PickledByteArrayTypeInfo" if type_info is None else type_info,))


def _field_class(type_info) -> Optional[str]:
    """The Java class a field of this type reaches Flink's sink as (None: not known here)."""
    descriptor = getattr(type_info, "_java_descriptor", None)
    return java_class(descriptor()) if descriptor is not None else None


class CassandraSink(object):
    """The sink a CassandraSinkBuilder built and attached to the stream."""

    def __init__(self, j_cassandra_sink):
        # the DataStreamSink of the sink's node (Flink's CassandraSink wraps its Java sink)
        self._j_cassandra_sink = j_cassandra_sink

    def name(self, name: str) -> 'CassandraSink':
        self._j_cassandra_sink.name(name)
        return self

    def uid(self, uid: str) -> 'CassandraSink':
        self._j_cassandra_sink.uid(uid)
        return self

    def set_uid_hash(self, uid_hash: str) -> 'CassandraSink':
        self._j_cassandra_sink.set_uid_hash(uid_hash)
        return self

    def set_parallelism(self, parallelism: int) -> 'CassandraSink':
        self._j_cassandra_sink.set_parallelism(parallelism)
        return self

    def disable_chaining(self) -> 'CassandraSink':
        self._j_cassandra_sink.disable_chaining()
        return self

    def slot_sharing_group(self, slot_sharing_group: str) -> 'CassandraSink':
        self._j_cassandra_sink.slot_sharing_group(slot_sharing_group)
        return self

    @staticmethod
    def add_sink(input) -> 'CassandraSinkBuilder':
        return CassandraSink.CassandraSinkBuilder((input, _record_kind(input)))

    class CassandraSinkBuilder(object):
        """Collects the sink's settings; build() checks them as Flink's sanity check does."""

        def __init__(self, j_cassandra_sink_builder):
            self._j_cassandra_sink_builder = j_cassandra_sink_builder
            self._query: Optional[str] = None
            self._cluster: Any = None
            self._mapper_options: Optional[MapperOptions] = None
            self._failure_handler: Optional[CassandraFailureHandler] = None
            self._max_concurrent_requests: Optional[tuple] = None
            self._ignore_null_fields = False

        def _set_cluster(self, cluster: Any) -> None:
            require(self._cluster is None,
                    "Builder was already set. You must use either setHost() or "
                    "setClusterBuilder().")
            self._cluster = cluster

        def set_query(self, query: str) -> 'CassandraSink.CassandraSinkBuilder':
            self._query = query
            return self

        def set_host(self, host: str, port: int = 9042) -> 'CassandraSink.CassandraSinkBuilder':
            self._set_cluster(("host", host, port))
            return self

        def set_cluster_builder(self, builder: ClusterBuilder) \
                -> 'CassandraSink.CassandraSinkBuilder':
            not_on_spark("CassandraSink.CassandraSinkBuilder.set_cluster_builder",
                         _CLUSTER_BUILDER_ROUTE)

        def enable_write_ahead_log(self, committer: CassandraCommitter = None) \
                -> 'CassandraSink.CassandraSinkBuilder':
            not_on_spark("CassandraSink.CassandraSinkBuilder.enable_write_ahead_log",
                         _WRITE_AHEAD_LOG_ROUTE)

        def set_mapper_options(self, options: MapperOptions) \
                -> 'CassandraSink.CassandraSinkBuilder':
            self._mapper_options = options
            return self

        def set_failure_handler(self, failure_handler: CassandraFailureHandler) \
                -> 'CassandraSink.CassandraSinkBuilder':
            self._failure_handler = failure_handler
            return self

        def set_max_concurrent_requests(self,
                                        max_concurrent_requests: int,
                                        duration: Duration = None) \
                -> 'CassandraSink.CassandraSinkBuilder':
            self._max_concurrent_requests = (
                max_concurrent_requests, None if duration is None else duration._to_millis())
            return self

        def enable_ignore_null_fields(self) -> 'CassandraSink.CassandraSinkBuilder':
            self._ignore_null_fields = True
            return self

        def build(self) -> 'CassandraSink':
            require(self._cluster is not None,
                    "Cassandra host information must be supplied using either setHost() or "
                    "setClusterBuilder().")
            require(bool(self._query), "Query must not be null or empty.")
            spec = self._spec()
            stream = self._j_cassandra_sink_builder[0]
            return CassandraSink(stream._sink(spec, SINK_NAME))

        def _spec(self) -> CassandraSinkSpec:
            """What the sink's tasks run; Flink's CassandraSinkBaseConfig checks (made when
            build() creates the sink)."""
            _, host, port = self._cluster
            requests, timeout_ms = self._max_concurrent_requests or (2 ** 31 - 1, None)
            require(requests > 0, "Max concurrent requests is expected to be positive")
            require(timeout_ms is None or timeout_ms >= 0,
                    "Max concurrent requests timeout is expected to be positive")
            stream = self._j_cassandra_sink_builder[0]
            type_info = stream._transformation.output_type
            return CassandraSinkSpec(
                query=self._query, host=host, port=port, max_concurrent_requests=requests,
                max_concurrent_requests_timeout_ms=timeout_ms,
                ignore_null_fields=self._ignore_null_fields,
                converter=type_info._python_converter(),
                field_classes=tuple(_field_class(t) for t in type_info.get_field_types()))
