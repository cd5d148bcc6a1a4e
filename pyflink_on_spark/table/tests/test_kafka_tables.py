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


WATERMARKED = """CREATE TABLE clicks (k STRING, ts %s, WATERMARK FOR ts AS %s) WITH (
  'connector' = 'kafka', 'topic' = 'clicks', 'properties.bootstrap.servers' = 'h:9092',
  'scan.startup.mode' = 'earliest-offset', %s'format' = 'json')"""


@pytest.mark.parametrize("bounded", ["'scan.bounded.mode' = 'latest-offset', ", ""])
def test_a_kafka_tables_watermark_makes_its_column_the_rowtime_of_sql_watermarks(bounded):
    # seen on PyFlink 1.20.5 (compat case kafka/table_watermark_windows): *ROWTIME* and the
    # WATERMARK line; the watermarks are the SQL watermark's rowtime - delay, generated in
    # the kafka source per partition (kafka/table_partition_watermarks), emitted
    # periodically as Flink's kafka source does, not as soon as they grow, and passed on
    # by the table (runtime/fed_watermarks.py)
    from pyflink_on_spark.specs.tables import RowtimeTable
    from pyflink_on_spark.table.kafka_tables import _Rowtime, kafka_sink
    from pyflink_on_spark.table.window_aggregates import (
        SourceWatermarks, SqlWatermarks, TableWatermarks, table_watermarks)
    from pyflink_on_spark.graph.transformations import SourceTransformation
    t_env = _t_env()
    t_env.execute_sql(WATERMARKED % ("TIMESTAMP(3)", "ts - INTERVAL '1.5' SECOND", bounded))
    table = t_env.from_path("clicks")
    assert [c.text() for c in table._resolved_columns()] == [
        "`k` STRING", "`ts` TIMESTAMP(3) *ROWTIME*"]
    assert isinstance(table._description, RowtimeTable) and table._description.rowtime == "ts"
    strategy = table_watermarks(table._description, "clicks")
    assert isinstance(strategy, TableWatermarks) and not strategy.emits_on_growth
    assert not isinstance(strategy, SqlWatermarks)
    assert isinstance(strategy, SourceWatermarks) and strategy.passes_watermarks
    node = table._description.input.sinks[0]
    while not isinstance(node, SourceTransformation):
        (node,) = node.inputs
    source = node.watermark_strategy
    assert source._kind == "bounded_out_of_orderness"
    assert source._max_out_of_orderness_ms == 1499        # Flink's: no extra ms
    assert isinstance(source._timestamp_assigner, _Rowtime)
    assert kafka_sink(t_env, "clicks") is not None      # still an INSERT target


def test_a_kafka_tables_watermark_prints_as_pyflinks(capsys):
    t_env = _t_env()
    t_env.execute_sql(WATERMARKED % ("TIMESTAMP_LTZ(3)", "ts", ""))
    t_env.from_path("clicks").print_schema()
    assert capsys.readouterr().out == (
        "(\n  `k` STRING,\n  `ts` TIMESTAMP_LTZ(3) *ROWTIME*,\n"
        "  WATERMARK FOR `ts`: TIMESTAMP_LTZ(3) AS `ts`\n)\n")


@pytest.mark.parametrize("column_type, expression, error, words", [
    # seen on PyFlink 1.20.5: Flink's words for a time field of another type
    ("INT", "ts - 1", "SqlValidationError",
     "Invalid data type of time field for watermark definition. The field must be of type "
     "TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the "
     "time field type is INT"),
    # accepted by PyFlink 1.20.5 (ts + INTERVAL printed as written): not generated here
    ("TIMESTAMP(3)", "ts + INTERVAL '1' SECOND", "NotImplementedError",
     "WATERMARK FOR ts AS ts + INTERVAL '1' SECOND of the kafka table clicks"),
    ("TIMESTAMP(3)", "SOURCE_WATERMARK()", "NotImplementedError",
     "WATERMARK FOR ts AS SOURCE_WATERMARK()"),
])
def test_a_watermark_not_generated_is_refused_at_create_table(column_type, expression, error,
                                                             words):
    with pytest.raises(Exception) as raised:
        _t_env().execute_sql(WATERMARKED % (column_type, expression, ""))
    assert type(raised.value).__name__ == error and words in str(raised.value)
