"""Flink's JSON functions: their SQL/JSON syntax rewritten into plain calls (json_syntax.py)
and translated to Spark SQL over VARIANT (json_functions.py); the Table API's methods write
the same SQL."""
import pytest

from pyflink_on_spark.table.sql import UnsupportedSqlError, translate_query
from pyflink_on_spark.table.sql.json_functions import spark_path
from pyflink_on_spark.table.sql.json_syntax import rewrite_json_syntax

TABLES = {'t': [('id', 'INT'), ('doc', 'STRING')]}


@pytest.mark.parametrize('flink, rewritten', [
    ("JSON_VALUE(doc, '$.a')", "__JSON_VALUE(doc, '$.a', 'STRING', 'NULL', 'NULL')"),
    ("JSON_VALUE(doc, '$.a' RETURNING INT DEFAULT 7 ON EMPTY DEFAULT 8 ON ERROR)",
     "__JSON_VALUE(doc, '$.a', 'INT', 'DEFAULT', 7, 'DEFAULT', 8)"),
    ("JSON_VALUE(doc, 'strict $.a' RETURNING DECIMAL(10, 2) ERROR ON ERROR)",
     "__JSON_VALUE(doc, 'strict $.a', 'DECIMAL(10, 2)', 'NULL', 'ERROR')"),
    ("JSON_QUERY(doc, '$.o' WITH CONDITIONAL ARRAY WRAPPER EMPTY ARRAY ON EMPTY EMPTY OBJECT "
     "ON ERROR)", "__JSON_QUERY(doc, '$.o', 'CONDITIONAL', 'EMPTY ARRAY', 'EMPTY OBJECT')"),
    ("JSON_QUERY(doc, '$.o' WITH WRAPPER)",
     "__JSON_QUERY(doc, '$.o', 'UNCONDITIONAL', 'NULL', 'NULL')"),
    ("JSON_EXISTS(doc, 'strict $.z' UNKNOWN ON ERROR)",
     "__JSON_EXISTS(doc, 'strict $.z', 'UNKNOWN')"),
    ("JSON_OBJECT(KEY 'k' VALUE JSON_ARRAY(1, 'b' NULL ON NULL), 'd' VALUE doc ABSENT ON NULL)",
     "__JSON_OBJECT('ABSENT', 'k', __JSON_ARRAY('NULL', 1, 'b'), 'd', doc)"),
    ("JSON_OBJECT()", "__JSON_OBJECT('NULL')"),
    ("JSON_ARRAY()", "__JSON_ARRAY('ABSENT')"),
    ("t.doc IS NOT JSON OBJECT", "(NOT __IS_JSON(t.doc, 'OBJECT'))"),
    ("UPPER(doc) IS JSON", "(__IS_JSON(UPPER(doc), 'VALUE'))"),
])
def test_sql_json_syntax_is_rewritten_as_plain_calls(flink, rewritten):
    assert rewrite_json_syntax("SELECT %s FROM t" % flink) == "SELECT %s FROM t" % rewritten


@pytest.mark.parametrize('path, spark', [
    ('$.a.b', ('STRICT', '$.a.b')),
    ('lax $.a[0]', ('LAX', '$.a[0]')),
    ("strict $['a.b'][2]", ('STRICT', "$['a.b'][2]")),
    ('$', ('STRICT', '$')),
])
def test_paths_map_to_variant_paths(path, spark):
    assert spark_path(path) == spark


@pytest.mark.parametrize('path', ['$.a[*]', '$..a', '$.a.length()', 'a', '$[?(@.a)]',
                                  '$[-1]'])
def test_paths_variant_cannot_read_are_refused_naming_them(path):
    with pytest.raises(UnsupportedSqlError, match='JSON path'):
        spark_path(path)


def test_json_value_reads_a_scalar_with_flinks_empty_and_error_rules():
    r = translate_query("SELECT JSON_VALUE(doc, '$.a') AS v FROM t", TABLES)
    assert r.columns == (('v', 'STRING'),)
    assert "try_parse_json(`doc`)" in r.sql and "variant_get(try_parse_json(`doc`), '$.a')" \
        in r.sql


def test_json_functions_of_the_table_api_write_flinks_sql():
    from pyflink_on_spark.table.expression import JsonQueryWrapper, JsonType
    from pyflink_on_spark.table.expressions import col
    assert col('d').json_value('$.a').sql == \
        "JSON_VALUE(`d`, '$.a' RETURNING STRING NULL ON EMPTY NULL ON ERROR)"
    assert col('d').json_query('$.o', JsonQueryWrapper.CONDITIONAL_ARRAY).sql == \
        "JSON_QUERY(`d`, '$.o' WITH CONDITIONAL ARRAY WRAPPER NULL ON EMPTY NULL ON ERROR)"
    assert col('d').is_json(JsonType.OBJECT).sql == "(`d` IS JSON OBJECT)"


def test_json_value_returning_types_seen_running_on_pyflink():
    r = translate_query("SELECT JSON_VALUE(doc, '$.a' RETURNING INT DEFAULT 7 ON EMPTY) AS v "
                        "FROM t", TABLES)
    assert r.columns == (('v', 'INT'),)
    # a value of another Java class fails the job with Java's ClassCastException text
    assert "variant_get(variant_get(try_parse_json(`doc`), '$.a'), '$', 'int')" in r.sql
    assert "cannot be cast to class java.lang.Integer" in r.sql
    for returning in ('BIGINT', 'DECIMAL(10, 2)', 'SMALLINT', 'FLOAT'):
        with pytest.raises(UnsupportedSqlError, match="Unsupported type '%s' for RETURNING"
                           % returning.replace('(', r'\(').replace(')', r'\)')):
            translate_query("SELECT JSON_VALUE(doc, '$.a' RETURNING %s) FROM t" % returning,
                            TABLES)


def test_json_object_keys_are_sorted_and_the_last_of_a_repeated_key_wins():
    r = translate_query("SELECT JSON_OBJECT('k' VALUE id, 'd' VALUE doc, 'k' VALUE 2) FROM t",
                        TABLES)
    assert r.sql == ("SELECT to_json(named_struct('d', CAST(`doc` AS VARIANT), 'k', CAST(2 AS "
                     "VARIANT)), map('ignoreNullFields', 'false')) AS `EXPR$0` FROM t")
    assert r.columns == (('EXPR$0', 'STRING NOT NULL'),)
    with pytest.raises(UnsupportedSqlError, match='JSON_OBJECT of a DATE'):
        translate_query("SELECT JSON_OBJECT('d' VALUE DATE '2024-01-02') FROM t", TABLES)
