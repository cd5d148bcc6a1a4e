"""Kafka tables of the DDL (table/kafka_tables.py): a KafkaSource stream decoded into the
table's columns, as PyFlink 1.20.5's json format reads it (compat case kafka/table_source);
checked without Spark or a broker."""
import pytest

from pyflink_on_spark.table.kafka_tables import _CONVERTERS, _JsonRows

DDL = """CREATE TABLE orders (id INT, item STRING, qty BIGINT, price DOUBLE) WITH (
  'connector' = 'kafka', 'topic' = 'orders', 'properties.bootstrap.servers' = 'h:9092',
  'scan.startup.mode' = 'earliest-offset', %s'format' = '%s')"""


def _t_env():
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.table import StreamTableEnvironment
    return StreamTableEnvironment.create(StreamExecutionEnvironment.get_execution_environment())


def test_json_values_become_rows_missing_fields_null_unknown_ones_ignored():
    decode = _JsonRows(["id", "item", "qty"], [_CONVERTERS["INT"], _CONVERTERS["STRING"],
                                                _CONVERTERS["BIGINT"]])
    row = decode('{"id": 3, "item": {"a": 1}, "extra": true}')
    assert tuple(row) == (3, '{"a":1}', None) and row.as_dict()["item"] == '{"a":1}'
    with pytest.raises(ValueError, match="^Failed to deserialize JSON 'nope'"):
        decode("nope")


@pytest.mark.parametrize("bounded, unbounded", [
    ("'scan.bounded.mode' = 'latest-offset', ", False), ("", True)])
def test_a_kafka_table_is_the_table_of_a_kafka_stream(bounded, unbounded):
    from pyflink_on_spark.spark.table_feeds import reads_unbounded
    t_env = _t_env()
    t_env.execute_sql(DDL % (bounded, "json"))
    table = t_env.from_path("orders")
    assert [c.text() for c in table._resolved_columns()] == [
        "`id` INT", "`item` STRING", "`qty` BIGINT", "`price` DOUBLE"]
    assert reads_unbounded(table._description) == unbounded


@pytest.mark.parametrize("options, named", [
    ("", "format 'csv'"),
    ("'scan.startup.specific-offsets' = 'partition:0,offset:1', ",
     "scan.startup.specific-offsets"),
])
def test_what_is_not_built_is_refused_naming_it(options, named):
    fmt = "csv" if not options else "json"
    with pytest.raises(NotImplementedError, match=named):
        _t_env().execute_sql(DDL % (options, fmt))
