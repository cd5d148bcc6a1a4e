"""What sink_to(ElasticsearchSink) puts in the job: the emitter's and the builder's settings as
the sink's tasks read them (Flink's defaults where the program sets nothing)."""
import pytest

from pyflink_on_spark.codecs.elasticsearch.actions import EmitterSettings
from pyflink_on_spark.codecs.elasticsearch.bulk import BulkSettings
from pyflink_on_spark.common import Types
from pyflink_on_spark.datastream.connectors.elasticsearch import (Elasticsearch6SinkBuilder,
                                                                  Elasticsearch7SinkBuilder,
                                                                  ElasticsearchEmitter,
                                                                  FlushBackoffType)
from pyflink_on_spark.specs.sinks import ElasticsearchSinkSpec

STRINGS = Types.MAP(Types.STRING(), Types.STRING())


def test_flinks_defaults_when_only_hosts_and_emitter_are_set():
    sink = Elasticsearch7SinkBuilder().set_hosts("localhost:9200") \
        .set_emitter(ElasticsearchEmitter.static_index("users", "id")).build()
    spec = sink._sink_definition(STRINGS)
    assert isinstance(spec, ElasticsearchSinkSpec) and spec.version == 7
    assert spec.emitter == EmitterSettings("users", False, "id", None)
    assert spec.bulk == BulkSettings(hosts=("localhost:9200",), max_actions=1000,
                                     max_size_mb=-1, interval_ms=-1, backoff_type="NONE")
    assert spec.converter is not None


def test_every_setting_reaches_the_writer():
    sink = Elasticsearch6SinkBuilder().set_hosts(["http://a:9200", "http://b:9200"]) \
        .set_emitter(ElasticsearchEmitter.dynamic_index("where", None, "doc")) \
        .set_bulk_flush_max_actions(5).set_bulk_flush_max_size_mb(2) \
        .set_bulk_flush_interval(300) \
        .set_bulk_flush_backoff_strategy(FlushBackoffType.EXPONENTIAL, 4, 100) \
        .set_connection_username("u").set_connection_password("p") \
        .set_connection_path_prefix("/es").set_connection_timeout(2000) \
        .set_socket_timeout(5000).build()
    spec = sink._sink_definition(STRINGS)
    assert spec.version == 6
    assert spec.emitter == EmitterSettings("where", True, None, "doc")
    assert spec.bulk == BulkSettings(
        hosts=("http://a:9200", "http://b:9200"), max_actions=5, max_size_mb=2,
        interval_ms=300, backoff_type="EXPONENTIAL", backoff_retries=4, backoff_delay_ms=100,
        username="u", password="p", path_prefix="/es", connect_timeout_ms=2000,
        socket_timeout_ms=5000)


def test_a_stream_not_declared_a_map_fails_at_its_first_record_as_on_pyflink():
    sink = Elasticsearch7SinkBuilder().set_hosts("localhost:9200") \
        .set_emitter(ElasticsearchEmitter.static_index("users")).build()
    for declared, named in [(None, "an untyped stream"), (Types.PICKLED_BYTE_ARRAY(),
                                                          "an untyped stream"),
                            (Types.ROW([Types.STRING()]), "declared RowTypeInfo")]:
        convert = sink._sink_definition(declared).converter
        with pytest.raises(TypeError, match="the stream is %s.*, not Types.MAP.*"
                                            "ClassCastException" % named):
            convert({"a": "b"})
