"""Upsert-kafka tables of the DDL (table/upsert_kafka_tables.py): their options checked as
Flink's factory checks them, the (key, value) records of a changelog's rows, the buffering
writer (runtime/operators/upsert_kafka_sink.py) and what stays refused; checked without a
broker (compat case kafka/table_upsert runs INSERTs against one)."""
import pytest

from pyflink_on_spark.common.types import Row, RowKind
from pyflink_on_spark.specs.tables import TableColumn
from pyflink_on_spark.table.table_connectors import FlinkRejects
from pyflink_on_spark.table.upsert_kafka_tables import UpsertRecord, checked_options

COLUMNS = (TableColumn("k", "STRING", False), TableColumn("c", "BIGINT", True))
JSON = {"connector": "upsert-kafka", "topic": "t", "properties.bootstrap.servers": "h:9092",
        "key.format": "json", "value.format": "json"}


def _row(kind, *values):
    row = Row(*values)
    row.set_row_kind(kind)
    return row


@pytest.mark.parametrize("change, primary_key, text", [
    ({}, (), "'upsert-kafka' tables require to define a PRIMARY KEY constraint."),
    ({"key.format": None}, ("k",), "Could not find required sink format 'key.format'."),
    ({"value.format": None}, ("k",), "Could not find required sink format 'value.format'."),
    ({"value.fields-include": "NONE"}, ("k",),
     "Invalid value for option 'value.fields-include'."),
    ({"topic": None}, ("k",), "Flink Kafka sink currently only supports single topic, but "
                              "got 'topic': null."),
    ({"properties.bootstrap.servers": None}, ("k",), "Missing required options are:"),
    ({"key.fields-prefix": "key_"}, ("k",), "A key prefix is not allowed when option "
                                            "'value.fields-include' is set to 'ALL'."),
    ({"key.fields-prefix": "key_", "value.fields-include": "EXCEPT_KEY"}, ("k",),
     "All fields in 'key.fields' must be prefixed with 'key_' when option "
     "'key.fields-prefix' is set but field 'k' is not prefixed."),
    ({"sink.buffer-flush.max-rows": "10"}, ("k",),
     "'sink.buffer-flush.max-rows' and 'sink.buffer-flush.interval' must be set to be "
     "greater than zero together to enable sink buffer flushing."),
    ({"sink.delivery-guarantee": "exactly-once"}, ("k",),
     "sink.transactional-id-prefix must be specified when using "
     "DeliveryGuarantee.EXACTLY_ONCE."),
    ({"value.format": "raw"}, ("k",), "The 'raw' format only supports single physical "
                                      "column. However the defined schema contains multiple "
                                      "physical columns: [`k` STRING NOT NULL, `c` BIGINT]"),
])
def test_options_flink_rejects_in_its_words(change, primary_key, text):
    """Seen on PyFlink 1.20.5 (the cause under `Unable to create a sink for writing
    table ...`, which refusal_error puts first)."""
    options = {k: v for k, v in dict(JSON, **change).items() if v is not None}
    with pytest.raises(FlinkRejects) as failure:
        checked_options(options, COLUMNS, primary_key)
    assert text in str(failure.value)


def test_an_unknown_option_lists_flinks_supported_options():
    with pytest.raises(FlinkRejects) as failure:
        checked_options(dict(JSON, **{"bogus": "1", "key.fields": "k"}), COLUMNS, ("k",))
    text = str(failure.value)
    assert text.startswith("Unsupported options found for 'upsert-kafka'.\n\nUnsupported "
                           "options:\n\nbogus\nkey.fields\n\nSupported options:\n\nconnector\n")
    assert "\nvalue.json.ignore-parse-errors\n" in text and "csv" not in text


@pytest.mark.parametrize("change, named", [
    ({"value.json.encode.ignore-null-fields": "true"}, "value.json.encode.ignore-null-fields"),
    ({"key.format": "avro"}, "format 'avro'"),
    ({"sink.delivery-guarantee": "exactly-once", "sink.transactional-id-prefix": "p",
      "sink.buffer-flush.max-rows": "2", "sink.buffer-flush.interval": "1s"}, "exactly-once"),
])
def test_what_does_not_run_is_refused_by_name(change, named):
    with pytest.raises(NotImplementedError, match=named):
        checked_options(dict(JSON, **change), COLUMNS, ("k",))


def test_options_map_to_the_records():
    options = checked_options(dict(JSON, **{
        "key.format": "csv", "value.format": "csv", "value.csv.field-delimiter": "|",
        "sink.buffer-flush.max-rows": "5", "sink.buffer-flush.interval": "2 s",
        "sink.parallelism": "2", "properties.acks": "all"}), COLUMNS, ("k",))
    assert (options.max_rows, options.interval_ms, options.parallelism) == (5, 2000, 2)
    assert options.value_options == (("csv.field-delimiter", "|"),)
    assert options.properties == (("acks", "all"), ("bootstrap.servers", "h:9092"))
    assert (options.key_indexes, options.value_indexes) == ((0,), (0, 1))


def test_rows_are_key_and_value_and_a_delete_is_a_tombstone():
    """Seen on PyFlink 1.20.5 with a plain consumer: key {"k":"a"}, value {"k":"a","c":1};
    -D a null value."""
    encode = UpsertRecord(checked_options(dict(JSON), COLUMNS, ("k",)), COLUMNS)
    assert encode(_row(RowKind.INSERT, "a", 1)) == (b'{"k":"a"}', b'{"k":"a","c":1}')
    assert encode(_row(RowKind.UPDATE_AFTER, "a", 2)) == (b'{"k":"a"}', b'{"k":"a","c":2}')
    assert encode(_row(RowKind.DELETE, "a", 2)) == (b'{"k":"a"}', None)
    with pytest.raises(ValueError, match="Column 'k' is NOT NULL, however, a null value is "
                                         "being written into it."):
        encode(_row(RowKind.INSERT, None, 1))


def test_except_key_a_prefix_and_csv_keys():
    """Seen on PyFlink 1.20.5: EXCEPT_KEY leaves the key out of the value ('{}' when nothing
    is left), a key prefix is stripped from the key's field names, csv keys are quoted as
    csv values are (`"b,x"`), fields of a two-column key in the PRIMARY KEY's order."""
    columns = (TableColumn("key_k", "STRING", False), TableColumn("k", "STRING", True),
               TableColumn("c", "BIGINT", True))
    prefixed = UpsertRecord(checked_options(dict(JSON, **{
        "key.fields-prefix": "key_", "value.fields-include": "EXCEPT_KEY"}),
        columns, ("key_k",)), columns)
    assert prefixed(Row("a", "a", 1)) == (b'{"k":"a"}', b'{"k":"a","c":1}')
    csv = UpsertRecord(checked_options(dict(JSON, **{
        "key.format": "csv", "value.format": "csv", "value.fields-include": "EXCEPT_KEY"}),
        COLUMNS, ("k",)), COLUMNS)
    assert csv(Row("b,x", 1)) == (b'"b,x"', b"1")
    key_only = (TableColumn("k", "STRING", False),)
    assert UpsertRecord(checked_options(dict(JSON, **{"value.fields-include": "EXCEPT_KEY"}),
                                        key_only, ("k",)), key_only)(Row("a")) == \
        (b'{"k":"a"}', b"{}")
    two = (TableColumn("k", "STRING", False), TableColumn("j", "INT", False),
           TableColumn("c", "BIGINT", True))
    assert UpsertRecord(checked_options(dict(JSON), two, ("j", "k")), two)(
        Row("a", 1, 2))[0] == b'{"j":1,"k":"a"}'
    raw = UpsertRecord(checked_options(dict(JSON, **{"key.format": "raw"}), COLUMNS, ("k",)),
                       COLUMNS)
    assert raw(Row("a", 1)) == (b"a", b'{"k":"a","c":1}')


class _Writer:
    def __init__(self):
        self.records, self.flushes = [], 0

    def write(self, topic, key, value, timestamp=None):
        self.records.append((key, value))

    def flush(self):
        self.flushes += 1


def _buffering(max_rows, interval_ms):
    from pyflink_on_spark.runtime.operators.upsert_kafka_sink import (
        UpsertBufferKafkaSinkOperator)
    from pyflink_on_spark.specs.sinks import KafkaUpsertBufferSinkSpec
    spec = KafkaUpsertBufferSinkSpec(properties=(), value_serializer=lambda r: r[1],
                                     key_serializer=lambda r: r[0], topic="t",
                                     max_rows=max_rows, interval_ms=interval_ms)
    operator = UpsertBufferKafkaSinkOperator(spec)
    operator.writer = _Writer()
    return operator


def test_the_buffer_keeps_each_keys_last_record_until_max_rows_keys():
    """As PyFlink 1.20.5's ReducingUpsertWriter: max-rows 2 over a, b, a, c, a, b, d wrote
    every record (each flush at 2 keys); a buffer of 100 wrote a's last once (a tombstone is
    a record like another)."""
    operator = _buffering(2, 3600000)
    for key, value in [(b"a", b"1"), (b"b", b"1"), (b"a", b"2"), (b"c", b"1"), (b"a", b"3"),
                       (b"b", b"2"), (b"d", b"1")]:
        operator.process_element((key, value), None)
    assert len(operator.writer.records) == 6
    operator.end_input()
    assert operator.writer.records[-1] == (b"d", b"1") and operator.writer.flushes == 1
    operator = _buffering(100, 3600000)
    for key, value in [(b"a", b"1"), (b"b", b"1"), (b"a", b"2"), (b"b", None)]:
        operator.process_element((key, value), None)
    assert operator.writer.records == []
    operator.flush()                # a micro-batch's end
    assert operator.writer.records == [(b"a", b"2"), (b"b", None)]


def test_the_buffer_is_written_when_the_interval_passed():
    operator = _buffering(100, 1000)
    operator.process_element((b"a", b"1"), None)
    operator.advance_processing_time(operator.last_flush + 999)
    assert operator.writer.records == []
    operator.advance_processing_time(operator.last_flush + 1000)
    assert operator.writer.records == [(b"a", b"1")]


def _t_env():
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.table import StreamTableEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    return StreamTableEnvironment.create(env)


def _upsert_ddl(name, columns):
    return ("CREATE TABLE %s (%s) WITH ('connector' = 'upsert-kafka', 'topic' = 't', "
            "'properties.bootstrap.servers' = 'h:9092', 'key.format' = 'json', "
            "'value.format' = 'json')" % (name, columns))


def test_the_upsert_key_of_a_grouping_query():
    from pyflink_on_spark.table.upsert_kafka_tables import upsert_key
    t_env = _t_env()
    t_env.execute_sql("CREATE TABLE g (k STRING, j INT, v INT) WITH ('connector' = "
                      "'datagen', 'number-of-rows' = '3')")
    assert upsert_key(t_env.sql_query("SELECT k, SUM(v) FROM g GROUP BY k")) == {0}
    assert upsert_key(t_env.sql_query(
        "SELECT k AS key_k, k, COUNT(*) FROM (VALUES ('a')) AS t(k) GROUP BY k")) == {0}
    assert upsert_key(t_env.sql_query(
        "SELECT COUNT(*), k FROM (VALUES ('a', 1)) AS t(k, j) GROUP BY k, j")) is None
    assert upsert_key(t_env.sql_query("SELECT k, v FROM g")) is None


def test_an_updating_query_of_an_unknown_upsert_key_is_refused():
    """Flink puts a SinkUpsertMaterializer before the sink when the query's upsert key is
    not within the primary key, one without an upsert key when it has none: the shim runs
    the first (MaterializedUpserts) and refuses a query whose upsert key it does not tell."""
    t_env = _t_env()
    t_env.execute_sql("CREATE TABLE g (k STRING, v BIGINT) WITH ('connector' = 'datagen', "
                      "'number-of-rows' = '3')")
    t_env.execute_sql(_upsert_ddl("u", "c BIGINT, k STRING, PRIMARY KEY (c) NOT ENFORCED"))
    with pytest.raises(NotImplementedError, match="SinkUpsertMaterializer without an upsert"):
        t_env.execute_sql("INSERT INTO u SELECT SUM(v) AS c, MAX(k) FROM g GROUP BY k")
    t_env.execute_sql(_upsert_ddl("w", "k STRING, total INT, PRIMARY KEY (k) NOT ENFORCED"))
    with pytest.raises(NotImplementedError, match="BIGINT -> INT need a cast"):
        t_env.execute_sql("INSERT INTO w SELECT k, SUM(v) FROM g GROUP BY k")


class _State:
    def __init__(self):
        self.held = None

    def value(self):
        return self.held

    def update(self, value):
        self.held = value

    def clear(self):
        self.held = None


def test_materialized_upserts_are_flinks_sink_upsert_materializer():
    """Seen on PyFlink 1.20.5: `SELECT COUNT(*) AS c, k ... GROUP BY k` of a, b, a, c, a, b,
    b, c into a table keyed by c wrote 1:{1,a}, 1:{1,b}, 2:{2,a}, 1:{1,c}, 2:null, 3:{3,a},
    2:{2,b}, 2:null, 3:{3,b}, 1:null, 2:{2,c} (the changelog below, keyed by c)."""
    from pyflink_on_spark.table.upsert_kafka_tables import MaterializedUpserts
    columns = (TableColumn("c", "BIGINT", False), TableColumn("k", "STRING", True))
    encode = UpsertRecord(checked_options(dict(JSON), columns, ("c",)), columns)
    states = {}
    materialized = MaterializedUpserts((1,), encode)
    counts, written = {}, []
    for k in "abacabbc":
        before = counts.get(k)
        counts[k] = (before or 0) + 1
        changes = [] if before is None else [(RowKind.UPDATE_BEFORE, before)]
        changes.append((RowKind.INSERT if before is None else RowKind.UPDATE_AFTER, counts[k]))
        for kind, c in changes:
            materialized.state = states.setdefault(c, _State())     # keyed by c
            written.extend(materialized.process_element(_row(kind, c, k), None))
    assert [(key.decode(), value and value.decode()) for key, value in written] == [
        ('{"c":1}', '{"c":1,"k":"a"}'), ('{"c":1}', '{"c":1,"k":"b"}'),
        ('{"c":2}', '{"c":2,"k":"a"}'), ('{"c":1}', '{"c":1,"k":"c"}'), ('{"c":2}', None),
        ('{"c":3}', '{"c":3,"k":"a"}'), ('{"c":2}', '{"c":2,"k":"b"}'), ('{"c":2}', None),
        ('{"c":3}', '{"c":3,"k":"b"}'), ('{"c":1}', None), ('{"c":2}', '{"c":2,"k":"c"}')]


def test_a_tombstone_is_a_null_row_of_the_raw_format_and_no_row_else():
    """Seen on PyFlink 1.20.5 (compat case kafka/table_upsert): a kafka table of the raw
    format reads a tombstone as NULL."""
    from pyflink_on_spark.table.kafka_formats import RowDecoder, table_value_schema
    tombstone = table_value_schema()._deserialize(None)
    assert table_value_schema()._deserialize(b"x") == "x"
    assert tuple(RowDecoder("raw", ["v"], ["STRING"], {})(tombstone)) == (None,)
    assert RowDecoder("json", ["v"], ["STRING"], {})(tombstone) is None


def test_a_table_flink_rejects_fails_when_written_in_flinks_words():
    t_env = _t_env()
    t_env.execute_sql(_upsert_ddl("u", "k STRING, c BIGINT"))
    with pytest.raises(ValueError) as failure:
        t_env.execute_sql("INSERT INTO u VALUES ('a', 1)")
    assert str(failure.value).startswith(
        "Unable to create a sink for writing table 'default_catalog.default_database.u'.\n\n"
        "Table options are:\n\n'connector'='upsert-kafka'\n")
    assert str(failure.value).endswith("update or delete on which keys.")


def test_reading_an_upsert_kafka_table_is_refused(spark):
    t_env = _t_env()
    t_env.execute_sql(_upsert_ddl("u", "k STRING, c BIGINT, PRIMARY KEY (k) NOT ENFORCED"))
    assert [c.text() for c in t_env.from_path("u")._resolved_columns()] == [
        "`k` STRING NOT NULL", "`c` BIGINT"]
    with pytest.raises(NotImplementedError, match="reading an upsert-kafka table"):
        with t_env.execute_sql("SELECT * FROM u").collect() as rows:
            list(rows)


def test_a_table_descriptor_declares_one_too():
    from pyflink_on_spark.table import DataTypes, Schema, TableDescriptor
    from pyflink_on_spark.table.upsert_kafka_tables import upsert_kafka_sink
    t_env = _t_env()
    t_env.create_temporary_table("u", TableDescriptor.for_connector("upsert-kafka").schema(
        Schema.new_builder().column("k", DataTypes.STRING().not_null())
        .column("c", DataTypes.BIGINT()).primary_key("k").build())
        .option("topic", "t").option("properties.bootstrap.servers", "h:9092")
        .option("key.format", "csv").option("value.format", "json").build())
    sink = upsert_kafka_sink(t_env, "u")
    assert (sink.options.key_format, sink.options.key_indexes) == ("csv", (0,))
