"""Kafka tables of the DDL (table/kafka_tables.py): a KafkaSource stream decoded into the
table's columns (compat case kafka/table_source), and a KafkaSink of the rows an INSERT
writes (kafka/table_sink); checked without Spark or a broker."""
import pytest


DDL = """CREATE TABLE orders (id INT, item STRING, qty BIGINT, price DOUBLE) WITH (
  'connector' = 'kafka', 'topic' = 'orders', 'properties.bootstrap.servers' = 'h:9092',
  'scan.startup.mode' = 'earliest-offset', %s'format' = '%s')"""


def _t_env():
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.table import StreamTableEnvironment
    return StreamTableEnvironment.create(StreamExecutionEnvironment.get_execution_environment())


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
    ("", "format 'avro'"),
    ("'scan.startup.specific-offsets' = 'partition:0,offset:1', ",
     "scan.startup.specific-offsets"),
])
def test_what_is_not_built_is_refused_naming_it(options, named):
    fmt = "avro" if not options else "json"
    with pytest.raises(NotImplementedError, match=named):
        _t_env().execute_sql(DDL % (options, fmt))


def test_an_insert_into_a_kafka_table_is_a_kafka_sink_of_the_formats_values():
    from pyflink_on_spark.table.kafka_tables import kafka_sink
    from pyflink_on_spark.table.table_sinks import StreamInsert, table_insert
    t_env = _t_env()
    # written to only: no group.id for the default group-offsets start (reading it fails)
    t_env.execute_sql(DDL.replace("'scan.startup.mode' = 'earliest-offset', ", "")
                      % ("'sink.delivery-guarantee' = 'exactly-once', "
                         "'sink.transactional-id-prefix' = 'tx', ", "csv"))
    target = kafka_sink(t_env, "orders")
    assert target.fmt == "csv" and [c.name for c in target.columns] == [
        "id", "item", "qty", "price"]
    spec = target.sink()._sink_definition(None)
    assert spec.transactional_id_prefix == "tx" and spec.records.topic == "orders"
    assert spec.records.value_serializer((1, "a b", 2, 0.5)) == b'1,"a b",2,0.5'
    t_env.execute_sql("CREATE TABLE src (a INT, b STRING, c BIGINT, d DOUBLE) WITH ("
                      "'connector' = 'datagen', 'number-of-rows' = '3')")
    insert = table_insert(t_env, "orders", t_env.from_path("src"))
    assert isinstance(insert, StreamInsert) and insert.name == "orders"
