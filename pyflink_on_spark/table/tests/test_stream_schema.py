"""from_data_stream(ds, Schema) with event time, without Spark: the columns, print_schema /
get_schema texts and refusals as PyFlink 1.20.5 gives them (compat case
table/event_time_windows records the same on PyFlink)."""
import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.stream_execution_environment import StreamExecutionEnvironment
from pyflink_on_spark.specs.tables import QueryTable, RowtimeTable, StreamTable
from pyflink_on_spark.table import DataTypes, Schema, StreamTableEnvironment
from pyflink_on_spark.table.columns import schema_text


def _env():
    env = StreamExecutionEnvironment.get_execution_environment()
    ds = env.from_collection([("a", 1000)], type_info=Types.TUPLE([Types.STRING(),
                                                                     Types.LONG()]))
    return StreamTableEnvironment.create(env), ds


def test_a_rowtime_metadata_column_reads_the_record_timestamps():
    t_env, ds = _env()
    table = t_env.from_data_stream(ds, Schema.new_builder()
                                   .column_by_metadata("rowtime", DataTypes.TIMESTAMP_LTZ(3))
                                   .watermark("rowtime", "SOURCE_WATERMARK()").build())
    description = table._description
    assert isinstance(description, StreamTable) and description.timestamp_column == 2
    # the stream feeding the table pairs each record with its timestamp
    assert description.sinks[0].inputs[0].name != ds._transformation.name
    assert schema_text(table._resolved_columns()) == (
        "(\n  `f0` STRING,\n  `f1` BIGINT NOT NULL,\n"
        "  `rowtime` TIMESTAMP_LTZ(3) *ROWTIME* METADATA,\n"
        "  WATERMARK FOR `rowtime`: TIMESTAMP_LTZ(3) AS SOURCE_WATERMARK()\n)")
    assert str(table.get_schema()) == (
        "root\n |-- f0: STRING\n |-- f1: BIGINT NOT NULL\n"
        " |-- rowtime: TIMESTAMP_LTZ(3) *ROWTIME* METADATA\n"
        " |-- WATERMARK FOR rowtime: TIMESTAMP_LTZ(3) AS `SOURCE_WATERMARK`()\n")
    keyed = t_env.from_data_stream(ds, Schema.new_builder().column_by_metadata(
        "ts", DataTypes.TIMESTAMP_LTZ(3), "rowtime", True).build())
    assert keyed._resolved_columns()[2].text() == \
        "`ts` TIMESTAMP_LTZ(3) METADATA FROM 'rowtime' VIRTUAL"


def test_a_computed_rowtime_is_a_query_that_fails_null_rowtimes():
    t_env, ds = _env()
    table = t_env.from_data_stream(ds, Schema.new_builder()
                                   .column_by_expression("ts", "TO_TIMESTAMP_LTZ(f1, 3)")
                                   .watermark("ts", "ts - INTERVAL '1' SECOND").build())
    assert isinstance(table._description, RowtimeTable)
    assert isinstance(table._description.input, QueryTable)
    assert table._resolved_columns()[2].text() == \
        "`ts` TIMESTAMP_LTZ(3) *ROWTIME* AS TO_TIMESTAMP_LTZ(f1, 3)"
    assert str(table.get_schema()).splitlines()[3:] == [
        " |-- ts: TIMESTAMP_LTZ(3) *ROWTIME* AS TO_TIMESTAMP_LTZ(`f1`, 3)",
        " |-- WATERMARK FOR ts: TIMESTAMP_LTZ(3) AS `ts` - INTERVAL '1' SECOND"]
    # a query keeps the rowtime attribute of a column it selects, and a window's
    # window_time is one (seen on PyFlink 1.20.5)
    t_env.create_temporary_view("t", table)
    query = t_env.sql_query("SELECT f0, ts FROM t")
    assert [c.rowtime for c in query._resolved_columns()] == [False, True]
    window = t_env.sql_query(
        "SELECT window_start, window_time, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE t, "
        "DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY window_start, window_end, window_time")
    assert [c.rowtime for c in window._resolved_columns()] == [False, True, False]
    cast = t_env.sql_query("SELECT CAST(ts AS TIMESTAMP(3)) AS t3 FROM t")
    assert not cast._resolved_columns()[0].rowtime


def test_event_time_declarations_pyflink_refuses_and_those_not_built():
    t_env, ds = _env()
    with pytest.raises(ValueError, match=r"^Invalid column name 'zz' for rowtime attribute "
                                         r"in watermark declaration. Available columns are: "
                                         r"\[f0, f1\]$"):
        t_env.from_data_stream(ds, Schema.new_builder()
                               .watermark("zz", "SOURCE_WATERMARK()").build())
    with pytest.raises(ValueError, match="time field type is BIGINT NOT NULL$"):
        t_env.from_data_stream(ds, Schema.new_builder()
                               .watermark("f1", "SOURCE_WATERMARK()").build())
    with pytest.raises(ValueError, match="^Invalid metadata key 'ts' in column 'ts'"):
        t_env.from_data_stream(ds, Schema.new_builder().column_by_metadata(
            "ts", DataTypes.TIMESTAMP_LTZ(3)).build())
    with pytest.raises(NotImplementedError, match="TIMESTAMP_LTZ\\(3\\)"):
        t_env.from_data_stream(ds, Schema.new_builder().column_by_metadata(
            "rowtime", DataTypes.TIMESTAMP(3)).build())
    with pytest.raises(NotImplementedError, match="SOURCE_WATERMARK"):
        t_env.from_data_stream(ds, Schema.new_builder()
                               .column_by_metadata("rowtime", DataTypes.TIMESTAMP_LTZ(3))
                               .watermark("rowtime", "rowtime + 1").build())


def test_physical_columns_of_sql_type_strings_are_their_data_types():
    # seen on PyFlink 1.20.5 (cc3213252/pyflink-learn's create_temporary_view.py): column('f0',
    # 'BIGINT') is column('f0', DataTypes.BIGINT()), NOT NULL and parameters kept
    t_env, ds = _env()
    by_text = t_env.from_data_stream(ds, Schema.new_builder().column("f0", "VARCHAR(3)")
                                     .column("f1", "bigint NOT NULL").build())
    by_type = t_env.from_data_stream(ds, Schema.new_builder()
                                     .column("f0", DataTypes.VARCHAR(3))
                                     .column("f1", DataTypes.BIGINT().not_null()).build())
    assert schema_text(by_text._resolved_columns()) == schema_text(by_type._resolved_columns())
    assert [(c.name, c.sql_type, c.nullable) for c in by_text._resolved_columns()] == [
        ("f0", "VARCHAR(3)", True), ("f1", "BIGINT", False)]


def test_a_projections_declared_type_other_than_the_fields_is_a_cast_to_it():
    # seen on PyFlink 1.20.5 (cc3213252/pyflink-learn's from_data_stream.py): event_time
    # declared TIMESTAMP_LTZ(3) for an Instant field (TIMESTAMP_LTZ(9)), fields reordered
    from pyflink_on_spark.common.time import Instant
    env = StreamExecutionEnvironment.get_execution_environment()
    ds = env.from_collection([("a", Instant(1, 5))], type_info=Types.ROW_NAMED(
        ["name", "event_time"], [Types.STRING(), Types.INSTANT()]))
    t_env = StreamTableEnvironment.create(env)
    table = t_env.from_data_stream(ds, Schema.new_builder()
                                   .column("event_time", "TIMESTAMP_LTZ(3)")
                                   .column("name", "STRING")
                                   .watermark("event_time", "SOURCE_WATERMARK()").build())
    assert schema_text(table._resolved_columns()).splitlines()[1:3] == [
        "  `event_time` TIMESTAMP_LTZ(3) *ROWTIME*,", "  `name` STRING"]
    assert "CAST(`event_time` AS TIMESTAMP_LTZ(3))" in table._description.flink_query
