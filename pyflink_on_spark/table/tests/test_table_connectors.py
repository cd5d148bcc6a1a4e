"""The WITH options of filesystem / print / blackhole tables (no Spark)."""
import pytest

from pyflink_on_spark.specs.table_connectors import refusal_error
from pyflink_on_spark.specs.tables import TableColumn
from pyflink_on_spark.table.table_connectors import FlinkRejects, connector_description

COLUMNS = (TableColumn("a", "INT"),)


def test_csv_options_are_read_by_their_flink_names():
    table = connector_description("t", {
        "connector": "filesystem", "path": "file:///tmp/x", "format": "csv",
        "csv.field-delimiter": ";", "csv.allow-comments": "true",
        "csv.ignore-parse-errors": "true", "csv.null-literal": "NULL"}, COLUMNS)
    assert table.path == "/tmp/x" and table.file_format == "csv"
    assert dict(table.read_options) == {"field-delimiter": ";", "allow-comments": "true",
                                        "ignore-parse-errors": "true", "null-literal": "NULL"}
    assert dict(table.write_options) == {"sep": ";", "nullValue": "NULL"}


def test_csv_options_the_writer_does_not_follow_are_marked():
    table = connector_description("t", {
        "connector": "filesystem", "path": "/x", "format": "csv",
        "csv.escape-character": "\\", "csv.disable-quote-character": "false"}, COLUMNS)
    assert dict(table.read_options) == {"escape-character": "\\",
                                        "disable-quote-character": "false"}
    assert table.write_options == (("unwritten", "csv.escape-character"),)


def test_options_without_a_faithful_meaning_are_refused_by_name():
    with pytest.raises(NotImplementedError, match="'csv.field-delimiter' of the filesystem"):
        connector_description("t", {"connector": "filesystem", "path": "/x", "format": "csv",
                                    "csv.field-delimiter": ";;"}, COLUMNS)
    with pytest.raises(NotImplementedError, match="'csv.ignore-parse-errors' of the"):
        connector_description("t", {"connector": "filesystem", "path": "/x", "format": "csv",
                                    "csv.ignore-parse-errors": "yes"}, COLUMNS)
    with pytest.raises(NotImplementedError, match="'csv.write-bigdecimal-in-scientific"):
        connector_description("t", {"connector": "filesystem", "path": "/x", "format": "csv",
                                    "csv.write-bigdecimal-in-scientific-notation": "true"},
                              COLUMNS)
    with pytest.raises(NotImplementedError, match="json.timestamp-format.standard"):
        connector_description("t", {"connector": "filesystem", "path": "/x", "format": "json",
                                    "json.timestamp-format.standard": "ISO-8601"}, COLUMNS)
    with pytest.raises(NotImplementedError, match="format 'avro'"):
        connector_description("t", {"connector": "filesystem", "path": "/x",
                                    "format": "avro"}, COLUMNS)
    with pytest.raises(NotImplementedError, match="'path' of the filesystem"):
        connector_description("t", {"connector": "filesystem", "path": "s3://b/x",
                                    "format": "csv"}, COLUMNS)


def test_options_flink_rejects():
    with pytest.raises(FlinkRejects, match="'bogus' is not an option of the print"):
        connector_description("t", {"connector": "print", "bogus": "1"}, COLUMNS)
    with pytest.raises(FlinkRejects, match="needs the 'path'"):
        connector_description("t", {"connector": "filesystem", "format": "csv"}, COLUMNS)


def test_print_options():
    table = connector_description("t", {"connector": "print", "print-identifier": "out",
                                        "sink.parallelism": "2"}, COLUMNS)
    assert (table.identifier, table.parallelism, table.standard_error) == ("out", 2, False)


def test_a_refused_table_fails_in_flinks_words():
    table = connector_description("t", {"connector": "blackhole"}, COLUMNS)
    from dataclasses import replace
    refused = replace(table, refusal="'x' is not an option", refused_by_flink=True,
                      options=(("connector", "blackhole"), ("x", "1")))
    error = refusal_error(refused, sink=True)
    assert isinstance(error, ValueError)
    assert str(error).startswith(
        "Unable to create a sink for writing table 'default_catalog.default_database.t'.\n\n"
        "Table options are:\n\n'connector'='blackhole'\n'x'='1'")


def test_partitioned_tables_are_refused():
    from pyflink_on_spark.table.sql import parse_statement
    from pyflink_on_spark.table.table_connectors import connector_table
    statement = parse_statement(
        "CREATE TABLE t (a INT, p STRING) PARTITIONED BY (p) WITH ('connector' = "
        "'filesystem', 'path' = '/x', 'format' = 'csv')")
    with pytest.raises(NotImplementedError, match=r"PARTITIONED BY p"):
        connector_table(statement, None)


def test_a_table_flink_rejects_is_created_and_fails_when_written():
    from pyflink_on_spark.table.table_environment import TableEnvironment
    from pyflink_on_spark.table.table_sinks import table_insert
    t_env = TableEnvironment()
    t_env.execute_sql("CREATE TABLE bad (a INT) WITH ('connector' = 'print', 'bogus' = '1')")
    with pytest.raises(ValueError, match="Unable to create a sink for writing table "
                                         "'default_catalog.default_database.bad'"):
        table_insert(t_env, "bad", t_env.from_path("bad"))


def test_reading_a_sink_only_table_fails_on_the_driver_before_any_spark_job():
    """connector_frame refuses it without touching the session (no Spark task fails with
    Spark's `Aborting task` log and JVM stack first), in Flink's words."""
    from pyflink_on_spark.spark.table_connectors import connector_frame
    table = connector_description("p", {"connector": "print"}, COLUMNS)
    with pytest.raises(ValueError, match="^Unable to create a source for reading table "
                                         "'default_catalog.default_database.p'"):
        connector_frame(table, session=None)


@pytest.mark.parametrize("query, parallelism", [
    # seen on PyFlink 1.20.5: INSERT INTO a print table at an environment parallelism of 2
    ("VALUES (1), (2), (3)", 1),
    ("SELECT x * 2 FROM (VALUES (1), (2), (3)) AS v(x) WHERE x > 1", 1),
    ("SELECT x FROM e", 2), ("SELECT x FROM g", 2),
    ("SELECT x % 2, COUNT(*) FROM (VALUES (1), (2), (3)) AS v(x) GROUP BY x % 2", 2),
    ("SELECT x FROM (VALUES (CAST(10 AS BIGINT))) AS v(x) UNION ALL SELECT x FROM g", 1),
    ("SELECT x FROM g UNION ALL SELECT x FROM (VALUES (CAST(10 AS BIGINT))) AS v(x)", 2),
    ("SELECT x FROM (VALUES (CAST(10 AS BIGINT))) AS v(x) UNION ALL SELECT x FROM e", 1),
    ("SELECT x FROM e ORDER BY x LIMIT 2", 1), ("SELECT DISTINCT x FROM e", 2),
    ("SELECT e.x FROM e JOIN g ON e.x = g.x", 2), ("SELECT x FROM s", 1),
    ("SELECT x FROM s2", 2),
])
def test_a_sink_takes_the_parallelism_of_its_input(query, parallelism):
    from pyflink_on_spark.common import Types
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.table import StreamTableEnvironment
    from pyflink_on_spark.table.table_sinks import input_parallelism
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    t_env = StreamTableEnvironment.create(env)
    t_env.execute_sql("CREATE TABLE g (x BIGINT) WITH ('connector' = 'datagen', "
                      "'fields.x.kind' = 'sequence', 'fields.x.start' = '1', "
                      "'fields.x.end' = '6', 'scan.parallelism' = '1')")
    t_env.create_temporary_view("e", t_env.from_elements([(1,), (2,), (3,)], ["x"]))
    t_env.create_temporary_view("s", t_env.from_data_stream(
        env.from_collection([1, 2, 3], Types.LONG())).alias("x"))
    t_env.create_temporary_view("s2", t_env.from_data_stream(env.from_collection(
        [1, 2, 3], Types.LONG()).map(lambda v: v, Types.LONG())).alias("x"))
    table = t_env.sql_query(query)
    assert input_parallelism(table._description, 2, 2) == parallelism
