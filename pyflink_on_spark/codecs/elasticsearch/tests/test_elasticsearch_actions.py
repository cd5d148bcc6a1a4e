"""Records -> `_bulk` actions as PyFlink's MapElasticsearchEmitter makes them, hosts as
HttpHost.create reads them, and the backoff policies' delays."""
import json

import pytest

from pyflink_on_spark.codecs.elasticsearch.actions import (ActionError, EmitterSettings,
                                                           encode_action)
from pyflink_on_spark.codecs.elasticsearch.bulk import Host, backoff_delays, parse_host


def _lines(settings, record):
    data, description = encode_action(settings, record)
    first, second, rest = data.decode("utf-8").split("\n")
    assert rest == ""
    return json.loads(first), json.loads(second), description


def test_a_key_field_makes_an_upsert_of_the_whole_record_under_that_id():
    meta, body, description = _lines(EmitterSettings("users", key_field="id"),
                                     {"id": "7", "name": "ada"})
    assert meta == {"update": {"_index": "users", "_id": "7"}}
    assert body == {"doc": {"id": "7", "name": "ada"}, "upsert": {"id": "7", "name": "ada"}}
    assert description == 'update {[users][_doc][7], doc[{"id":"7","name":"ada"}]}'


def test_without_a_key_field_the_record_is_indexed_with_an_id_the_node_chooses():
    meta, body, description = _lines(EmitterSettings("users"), {"name": "ada", "n": 1.5})
    assert meta == {"index": {"_index": "users"}}
    assert description == 'index {[users][_doc][null], source[{"name":"ada","n":1.5}]}'
    assert body == {"name": "ada", "n": 1.5}


def test_a_dynamic_index_and_the_id_are_javas_to_string_of_the_fields():
    meta, _, _ = _lines(EmitterSettings("where", dynamic_index=True, key_field="k"),
                        {"where": "idx-1", "k": 3.0})
    assert meta == {"update": {"_index": "idx-1", "_id": "3.0"}}
    meta, _, _ = _lines(EmitterSettings("where", dynamic_index=True, key_field="k"),
                        {"where": True, "k": 10 ** 20 * 1.0})
    assert meta == {"update": {"_index": "true", "_id": "1.0E20"}}


def test_a_document_type_goes_with_each_action():
    meta, _, _ = _lines(EmitterSettings("users", doc_type="user"), {"a": "b"})
    assert meta == {"index": {"_index": "users", "_type": "user"}}


def test_values_json_has_no_type_for_become_their_text_forms():
    import datetime
    import decimal
    _, body, _ = _lines(EmitterSettings("i"), {"d": decimal.Decimal("1.25"),
                                              "t": datetime.date(2024, 1, 2), "b": b"\x00\xff"})
    assert body == {"d": 1.25, "t": "2024-01-02", "b": "AP8="}


def test_a_missing_index_or_key_field_and_a_record_that_is_no_dict_are_errors():
    with pytest.raises(ActionError, match="no value for 'k', the emitter's key field"):
        encode_action(EmitterSettings("i", key_field="k"), {"a": "b"})
    with pytest.raises(ActionError, match="no value for 'where', the emitter's index field"):
        encode_action(EmitterSettings("where", dynamic_index=True), {"a": "b"})
    with pytest.raises(ActionError, match="must be a dict .* Got a tuple"):
        encode_action(EmitterSettings("i"), ("a", "b"))


def test_hosts_read_as_httphost_create_reads_them():
    assert parse_host("localhost:9200") == Host("http", "localhost", 9200)
    assert parse_host("https://es.example:9243") == Host("https", "es.example", 9243)
    assert parse_host("http://es") == Host("http", "es", 80)
    with pytest.raises(ValueError, match="expected"):
        parse_host("ftp://es:21")


def test_backoff_delays_are_elasticsearchs():
    assert list(backoff_delays("NONE", -1, -1)) == []
    assert list(backoff_delays("CONSTANT", 3, 200)) == [0.2, 0.2, 0.2]
    # BackoffPolicy.exponentialBackoff: start + 10 * ((int) Math.exp(0.8 * i) - 1) ms
    assert list(backoff_delays("EXPONENTIAL", 4, 100)) == [0.1, 0.11, 0.13, 0.2]
