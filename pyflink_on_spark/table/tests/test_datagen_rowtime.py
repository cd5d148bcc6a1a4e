"""A datagen table's watermarked column is a time attribute, bounded or not, as on PyFlink
1.20.5 (its schema: *ROWTIME* and the WATERMARK line; OVER windows ordered by it run in
STREAMING mode), and a stream's rowtime metadata column may be declared with a SQL type string;
without Spark (compat_tests/cases/table/over_windows_datagen.py / over_windows_rowtime.py
run them)."""
import pytest


def _t_env(parallelism=1):
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.table import StreamTableEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(parallelism)
    return env, StreamTableEnvironment.create(env)


_DDL = ("CREATE TABLE src (id BIGINT, k AS id %% 3, ts AS TO_TIMESTAMP_LTZ(id * 500, 3), "
        "WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen', %s)")


def test_a_bounded_datagen_tables_watermarked_column_is_its_time_attribute(capsys):
    _, t_env = _t_env()
    t_env.execute_sql(_DDL % "'number-of-rows' = '5', 'fields.id.kind' = 'sequence', "
                             "'fields.id.start' = '1', 'fields.id.end' = '5'")
    t_env.from_path("src").print_schema()
    assert capsys.readouterr().out.splitlines()[-3:] == [
        "  `ts` TIMESTAMP_LTZ(3) *ROWTIME* AS TO_TIMESTAMP_LTZ(`id` * 500, 3),",
        "  WATERMARK FOR `ts`: TIMESTAMP_LTZ(3) AS `ts` - INTERVAL '1' SECOND", ")"]
    over = t_env.sql_query("SELECT id, SUM(id) OVER (PARTITION BY k ORDER BY ts ROWS "
                           "BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM src")
    assert over._failure is None       # no 'ordering ... must be defined on a time attribute'
    assert [(c.name, c.sql_type) for c in over._resolved_columns()] == [
        ("id", "BIGINT"), ("s", "BIGINT")]


def test_an_unbounded_datagen_tables_watermarked_column_is_its_time_attribute():
    # its watermarks generated from the expression over the rows' rowtimes (a RowtimeTable),
    # as Flink's planner puts a watermark assigner after the datagen source
    from pyflink_on_spark.specs.tables import RowtimeTable
    _, t_env = _t_env()
    t_env.execute_sql(_DDL % "'rows-per-second' = '5'")
    table = t_env.from_path("src")
    (ts,) = [c for c in table._resolved_columns() if c.name == "ts"]
    assert ts.rowtime and ts.watermark == "`ts` - INTERVAL '1' SECOND"
    assert isinstance(table._description, RowtimeTable) and table._description.rowtime == "ts"
    over = t_env.sql_query("SELECT id, SUM(id) OVER (PARTITION BY k ORDER BY ts ROWS "
                           "BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM src")
    assert over._failure is None


def test_an_unbounded_datagen_tables_other_watermark_expressions_are_refused_by_name():
    _, t_env = _t_env()
    with pytest.raises(NotImplementedError, match="watermark expression .*ts. \\+ INTERVAL"):
        t_env.execute_sql("CREATE TABLE g (ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts + "
                          "INTERVAL '1' SECOND) WITH ('connector' = 'datagen')")


def test_a_rowtime_metadata_column_takes_a_sql_type_string():
    from pyflink_on_spark.common.typeinfo import Types
    from pyflink_on_spark.table import Schema
    env, t_env = _t_env()
    ds = env.from_collection([(1, "a")], type_info=Types.ROW_NAMED(
        ["t", "name"], [Types.LONG(), Types.STRING()]))
    table = t_env.from_data_stream(ds, Schema.new_builder()
                                   .column_by_metadata("rowtime", "TIMESTAMP_LTZ(3)")
                                   .watermark("rowtime", "SOURCE_WATERMARK()").build())
    (rowtime,) = [c for c in table._resolved_columns() if c.name == "rowtime"]
    assert rowtime.sql_type == "TIMESTAMP_LTZ(3)" and rowtime.rowtime
    with pytest.raises(NotImplementedError, match="TIMESTAMP_LTZ\\(3\\) on pyflink_on_spark"):
        t_env.from_data_stream(ds, Schema.new_builder()
                               .column_by_metadata("rowtime", "TIMESTAMP(3)").build())
