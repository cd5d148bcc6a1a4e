"""ElasticsearchSink against a real Elasticsearch 7.17 node (the session's `elasticsearch`
fixture): documents written from the sink's Spark tasks through `_bulk` and read back (upserts
by key, a dynamic index, ids the node chooses), a rejected document failing the job with the
action and the node's reason, and a node that is down failing it at once naming host:port."""
import time

import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.elasticsearch import (Elasticsearch6SinkBuilder,
                                                                  Elasticsearch7SinkBuilder,
                                                                  ElasticsearchEmitter)
from pyflink_on_spark.runtime.errors import JobExecutionError
from pyflink_on_spark.tests.elasticsearch_server import request, search_all

STRINGS = Types.MAP(Types.STRING(), Types.STRING())


def _run(records, type_info, emitter, url, builder=Elasticsearch7SinkBuilder, parallelism=2,
         **settings):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(parallelism)
    sink = builder().set_emitter(emitter).set_hosts([url])
    for name, value in settings.items():
        getattr(sink, "set_" + name)(*value if isinstance(value, tuple) else (value,))
    env.from_collection(records, type_info=type_info).sink_to(sink.build())
    env.execute("elasticsearch sink")


def _documents(url, index):
    return sorted((hit["_index"], hit["_id"], hit["_source"]) for hit in search_all(url, index))


def test_records_with_a_key_are_upserted_by_id_in_bulks(spark, elasticsearch):
    records = [{"id": str(i % 7), "name": "v%d" % i} for i in range(20)]
    _run(records, STRINGS, ElasticsearchEmitter.static_index("t_static", "id"), elasticsearch,
         parallelism=1, bulk_flush_max_actions=3)
    # one subtask, records in order: each id holds its last record
    assert _documents(elasticsearch, "t_static") == [
        ("t_static", str(k), {"id": str(k), "name": "v%d" % max(i for i in range(20)
                                                                    if i % 7 == k)})
        for k in range(7)]


def test_a_dynamic_index_takes_each_records_field_and_ids_come_from_the_node(spark,
                                                                             elasticsearch):
    records = [{"where": "t_dyn_%s" % ("a" if i % 2 else "b"), "n": str(i)} for i in range(10)]
    _run(records, STRINGS,
         ElasticsearchEmitter.dynamic_index("where"), elasticsearch,
         bulk_flush_max_actions=-1, bulk_flush_interval=50)
    documents = _documents(elasticsearch, "t_dyn_*")
    assert sorted((index, source["n"]) for index, _, source in documents) == sorted(
        ("t_dyn_%s" % ("a" if i % 2 else "b"), str(i)) for i in range(10))
    assert len({doc_id for _, doc_id, _ in documents}) == 10


def test_an_elasticsearch6_builder_sends_its_document_type(spark, elasticsearch):
    _run([{"id": "1", "name": "ada"}], STRINGS,
         ElasticsearchEmitter.static_index("t_es6", "id", "person"), elasticsearch,
         builder=Elasticsearch6SinkBuilder, parallelism=1)
    hits = search_all(elasticsearch, "t_es6")
    assert [(h["_type"], h["_id"], h["_source"]) for h in hits] == \
        [("person", "1", {"id": "1", "name": "ada"})]


def test_a_rejected_document_fails_the_job_naming_action_status_and_reason(spark,
                                                                           elasticsearch):
    request(elasticsearch + "/t_typed", "PUT",
            b'{"mappings": {"properties": {"n": {"type": "long"}}}}')
    records = [{"id": "1", "n": "12"}, {"id": "2", "n": "not a number"}]
    with pytest.raises(JobExecutionError) as failure:
        _run(records, STRINGS, ElasticsearchEmitter.static_index("t_typed", "id"),
             elasticsearch, parallelism=1)
    message = str(failure.value)
    assert "Single action update {[t_typed][_doc][2], doc[" in message
    assert "of bulk request failed with status 400: mapper_parsing_exception" in message
    assert "not a number" in message
    # the other action of the same bulk was written (Flink's writer too reports afterwards)
    assert [doc_id for _, doc_id, _ in _documents(elasticsearch, "t_typed")] == ["1"]


def test_a_node_that_is_down_fails_the_job_at_once_naming_host_and_port(spark):
    from pyflink_on_spark.tests.elasticsearch_server import free_port
    port = free_port()
    started = time.monotonic()
    with pytest.raises(JobExecutionError) as failure:
        _run([{"id": "1"}], STRINGS, ElasticsearchEmitter.static_index("t_down", "id"),
             "http://127.0.0.1:%d" % port, parallelism=1)
    assert "Complete bulk has failed: no Elasticsearch node answered at 127.0.0.1:%d " \
           "(ConnectionRefusedError" % port in str(failure.value)
    assert "check set_hosts" in str(failure.value)
    assert time.monotonic() - started < 60


def test_an_untyped_stream_fails_the_job_as_pyflinks_cast_to_map_does(spark, elasticsearch):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.from_collection([{"id": "1"}]).sink_to(
        Elasticsearch7SinkBuilder().set_hosts([elasticsearch])
        .set_emitter(ElasticsearchEmitter.static_index("t_untyped", "id")).build())
    with pytest.raises(JobExecutionError, match="an untyped stream .pickled bytes., not "
                                                "Types.MAP"):
        env.execute("untyped")
    assert search_all(elasticsearch, "t_untyped") == []
