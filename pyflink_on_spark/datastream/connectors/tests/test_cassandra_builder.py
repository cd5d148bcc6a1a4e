"""CassandraSink's builder: the checks and messages of Flink's (observed on PyFlink 1.20.5 with
flink-connector-cassandra_2.12 3.0.0-1.16), build() attaching the "Cassandra Sink" node with
what its tasks run, and what does not run on Spark refused by name."""
import pytest

from pyflink_on_spark.common import Duration, Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.cassandra import (CassandraCommitter,
                                                              CassandraSink, ClusterBuilder,
                                                              ConsistencyLevel, MapperOptions)
from pyflink_on_spark.specs.sinks import CassandraSinkSpec

QUERY = "INSERT INTO ks.t (w) VALUES (?)"


def _stream(type_info=Types.STRING()):
    env = StreamExecutionEnvironment.get_execution_environment()
    return env, env.from_collection(["a"], type_info=Types.STRING()).map(lambda v: v,
                                                                       output_type=type_info)


def _sink_nodes(env):
    return [node for node in env._sinks if isinstance(node.spec, CassandraSinkSpec)]


def test_builder_checks_as_flinks():
    _, rows = _stream(Types.ROW([Types.STRING()]))
    builder = CassandraSink.add_sink(rows).set_host("localhost") \
        .set_mapper_options(MapperOptions().ttl(10).consistency_level(ConsistencyLevel.ONE))
    with pytest.raises(ValueError, match="Builder was already set"):
        builder.set_host("other")
    with pytest.raises(ValueError, match="Query must not be null or empty"):
        builder.build()
    with pytest.raises(ValueError, match="host information must be supplied"):
        CassandraSink.add_sink(rows).set_query("q").build()
    _, strings = _stream()
    with pytest.raises(ValueError, match="No support for the type of the given DataStream: "
                                         "String"):
        CassandraSink.add_sink(strings)
    with pytest.raises(ValueError, match="DataStream: PickledByteArrayTypeInfo"):
        CassandraSink.add_sink(strings.map(lambda v: v))
    # Flink checks the bound when build() creates the sink (CassandraSinkBaseConfig)
    builder.set_query(QUERY).set_max_concurrent_requests(0)
    with pytest.raises(ValueError, match="^Max concurrent requests is expected to be "
                                         "positive$"):
        builder.build()


def test_build_attaches_the_sink_with_its_settings():
    env, rows = _stream(Types.ROW([Types.STRING()]))
    sink = CassandraSink.add_sink(rows).set_query(QUERY).set_host("db.example", 9142) \
        .set_max_concurrent_requests(4, Duration.of_millis(2500)) \
        .enable_ignore_null_fields().build()
    assert isinstance(sink, CassandraSink)
    assert sink.name("to cassandra").set_parallelism(3) is sink
    [node] = _sink_nodes(env)
    assert node.name == "to cassandra" and node.parallelism == 3
    spec = node.spec
    assert (spec.query, spec.host, spec.port, spec.max_concurrent_requests,
            spec.max_concurrent_requests_timeout_ms, spec.ignore_null_fields) == \
        (QUERY, "db.example", 9142, 4, 2500, True)
    env2, tuples = _stream(Types.TUPLE([Types.STRING(), Types.INT()]))
    CassandraSink.add_sink(tuples).set_query(QUERY).set_host("h").build()
    [node] = _sink_nodes(env2)
    assert node.name == "Cassandra Sink"      # Flink's name for it
    assert (node.spec.port, node.spec.max_concurrent_requests,
            node.spec.max_concurrent_requests_timeout_ms, node.spec.ignore_null_fields) == \
        (9042, 2 ** 31 - 1, None, False)


def test_what_does_not_run_on_spark_is_refused_by_name():
    env, rows = _stream(Types.ROW([Types.STRING()]))
    builder = CassandraSink.add_sink(rows).set_query(QUERY)
    with pytest.raises(NotImplementedError, match="CassandraSinkBuilder.set_cluster_builder "
                                                  r"does not run.*set_host\(host, port\)"):
        builder.set_cluster_builder(ClusterBuilder(object()))
    with pytest.raises(NotImplementedError, match="CassandraSinkBuilder.enable_write_ahead_log "
                                                  "does not run.*at-least-once"):
        builder.enable_write_ahead_log(CassandraCommitter.default_checkpoint_committer(
            ClusterBuilder(object())))
    assert _sink_nodes(env) == []
