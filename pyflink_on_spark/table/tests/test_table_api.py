"""The Table API's declarative side, without Spark: columns derived from stream types as
PyFlink 1.20.5 derives them, schema text, expressions as Spark SQL, tables as frozen
descriptions, refusals that name what is not supported."""
import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.stream_execution_environment import StreamExecutionEnvironment
from pyflink_on_spark.specs.tables import (RECORD_ATOMIC, RECORD_FIELDS, QueryTable,
                                           StreamTable, TableColumn)
from pyflink_on_spark.table import DataTypes, EnvironmentSettings, Schema, StreamTableEnvironment
from pyflink_on_spark.table.columns import schema_text, stream_columns
from pyflink_on_spark.table.expressions import col, lit


def test_tuple_fields_of_java_primitives_are_not_null_row_fields_nullable():
    columns, shape = stream_columns(Types.TUPLE([Types.INT(), Types.STRING(), Types.DOUBLE()]))
    assert shape == RECORD_FIELDS
    assert schema_text(columns) == "(\n  `f0` INT NOT NULL,\n  `f1` STRING,\n  `f2` DOUBLE NOT NULL\n)"
    columns, _ = stream_columns(Types.ROW_NAMED(["a", "b"], [Types.LONG(), Types.BOOLEAN()]))
    assert columns == (TableColumn("a", "BIGINT"), TableColumn("b", "BOOLEAN"))
    columns, shape = stream_columns(Types.LONG())
    assert shape == RECORD_ATOMIC and columns == (TableColumn("f0", "BIGINT", False),)


def test_untyped_and_unsupported_streams_are_refused_by_name():
    with pytest.raises(NotImplementedError, match="without type information"):
        stream_columns(None)
    # a tuple inside a field is a structured type on PyFlink 1.20.5, whose collect() fails
    with pytest.raises(NotImplementedError, match="TupleTypeInfo"):
        stream_columns(Types.TUPLE([Types.MAP(Types.STRING(), Types.TUPLE([Types.INT()]))]))


def test_list_array_map_and_row_fields_are_typed_as_flink_converts_them():
    # seen on PyFlink 1.20.5 (compat_tests/cases/table/nested_columns.py)
    columns, _ = stream_columns(Types.TUPLE([
        Types.LIST(Types.STRING()), Types.MAP(Types.LONG(), Types.LIST(Types.DOUBLE())),
        Types.BASIC_ARRAY(Types.BOOLEAN()), Types.PRIMITIVE_ARRAY(Types.INT()),
        Types.ROW_NAMED(["p"], [Types.INT()]), Types.LIST(Types.ROW_NAMED(["p"], [Types.INT()])),
        Types.LIST(Types.SQL_TIMESTAMP())]))
    assert [c.type_text() for c in columns] == [
        "ARRAY<STRING> NOT NULL", "MAP<BIGINT NOT NULL, ARRAY<DOUBLE NOT NULL>> NOT NULL",
        "ARRAY<BOOLEAN> NOT NULL", "ARRAY<INT NOT NULL> NOT NULL", "ROW<`p` INT> NOT NULL",
        "ARRAY<ROW<`p` INT> NOT NULL> NOT NULL", "ARRAY<TIMESTAMP(9)> NOT NULL"]
    columns, _ = stream_columns(Types.ROW_NAMED(["a", "g"], [
        Types.MAP(Types.INT(), Types.DOUBLE()),
        Types.ROW_NAMED(["p", "q"], [Types.INT(), Types.LIST(Types.INT())])]))
    assert [c.type_text() for c in columns] == [
        "MAP<INT NOT NULL, DOUBLE>", "ROW<`p` INT, `q` ARRAY<INT NOT NULL>>"]


def test_expressions_render_spark_sql_and_selects_name_unnamed_columns_as_flink():
    expression = ((col("a") + 1) * lit(2.5)) > col("b")
    assert expression.sql == "(((`a` + 1) * CAST(2.5 AS DOUBLE)) > `b`)"
    assert (col("p") == "it's").sql == "(`p` = 'it''s')"
    env = StreamExecutionEnvironment.get_execution_environment()
    t_env = StreamTableEnvironment.create(env)
    table = t_env.from_data_stream(env.from_collection(
        [(1, "x")], type_info=Types.TUPLE([Types.INT(), Types.STRING()])))
    query = table.where(col("f0") > 0).select(col("f1"), col("f0") * 2,
                                              col("f0").alias("n"))._description
    assert isinstance(query, QueryTable)
    # INT * INT wraps as Java's int does (arithmetic.py; test_integer_overflow.py)
    assert query.query.startswith(
        "SELECT `f1` AS `f1`, (CAST(PMOD(PMOD(CAST(`f0` AS BIGINT) * CAST(2 AS BIGINT), "
        "4294967296) + 2147483648, 4294967296) - 2147483648 AS INT)) AS `_c1`, `f0` AS `n` FROM")
    assert query.columns == (TableColumn("f1", "STRING"), TableColumn("_c1", "INT", False),
                             TableColumn("n", "INT", False))
    inner = query.inputs[0][1]
    assert isinstance(inner, QueryTable) and "WHERE (`f0` > 0)" in inner.query, inner.query
    assert isinstance(inner.inputs[0][1], StreamTable)


def test_from_data_stream_with_a_schema_names_and_types_columns():
    env = StreamExecutionEnvironment.get_execution_environment()
    t_env = StreamTableEnvironment.create(env)
    ds = env.from_collection([(1, "x")], type_info=Types.ROW_NAMED(
        ["id", "name"], [Types.INT(), Types.STRING()]))
    schema = Schema.new_builder().column("id", DataTypes.INT()) \
        .column("name", DataTypes.STRING()).build()
    table = t_env.from_data_stream(ds, schema)
    # seen on PyFlink 1.20.5: declared physical columns are the stream's fields by name
    tuples = env.from_collection([(1, "x")], type_info=Types.TUPLE([Types.INT(),
                                                                    Types.STRING()]))
    with pytest.raises(ValueError, match=r"^Unable to find a field named 'id' in the "
                                         r"physical data type.*are: \[f0, f1\]$"):
        t_env.from_data_stream(tuples, schema)
    assert table.get_schema().get_field_names() == ["id", "name"]
    assert str(table.get_schema()) == "root\n |-- id: INT\n |-- name: STRING\n"
    assert table.alias("x", "y").get_field_names() == ["x", "y"]
    # seen on PyFlink 1.20.5: a watermark on a column that is no timestamp, Flink's words
    watermarked = Schema.new_builder().column("id", DataTypes.INT()) \
        .column("name", DataTypes.STRING()).watermark("id", "id - 1").build()
    with pytest.raises(ValueError, match="Invalid data type of time field for watermark "
                                         "definition.*but the time field type is INT$"):
        t_env.from_data_stream(ds, watermarked)


def test_unsupported_methods_and_names_raise_naming_them():
    env = StreamExecutionEnvironment.get_execution_environment()
    t_env = StreamTableEnvironment.create(env)
    with pytest.raises(NotImplementedError, match="create_java_temporary_function"):
        t_env.create_java_temporary_function("f", "com.example.F")
    with pytest.raises(NotImplementedError, match="'hbase-2.2' connector"):
        t_env.execute_sql("CREATE TABLE t (a INT) WITH ('connector' = 'hbase-2.2')")
    with pytest.raises(NotImplementedError, match="kafka table of format 'avro'"):
        t_env.execute_sql("CREATE TABLE t (a INT) WITH ('connector' = 'kafka', "
                          "'format' = 'avro', 'topic' = 'x', "
                          "'properties.bootstrap.servers' = 'localhost:1')")
    with pytest.raises(ValueError, match="kafka table needs its value format"):
        t_env.execute_sql("CREATE TABLE t (a INT) WITH ('connector' = 'kafka')")
    with pytest.raises(ImportError, match="ModuleEntry"):
        from pyflink_on_spark.table import ModuleEntry  # noqa: F401,F811
    table = t_env.from_data_stream(env.from_collection([1], type_info=Types.INT()))
    with pytest.raises(TypeError, match="over_window takes over windows"):
        table.over_window(None)
    with pytest.raises(TypeError, match="group window"):
        table.window(None)


def test_grouping_queries_in_streaming_mode_update_and_feed_changelogs_only():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    ds = env.from_collection([(1, "x")], type_info=Types.TUPLE([Types.INT(), Types.STRING()]))
    streaming = StreamTableEnvironment.create(env)
    streaming.create_temporary_view("v", ds)
    grouped = streaming.sql_query("SELECT f1, SUM(f0) AS s FROM v GROUP BY f1")
    assert grouped._updates() and not streaming.sql_query("SELECT f1 FROM v")._updates()
    with pytest.raises(NotImplementedError, match="to_changelog_stream"):
        streaming.to_data_stream(grouped)
    assert streaming.to_changelog_stream(grouped) is not None       # built, not run
    # execute() / to_pandas() / INSERT read the keyed aggregate's changelog (its job's graph
    # built with the query, not run); an expression over an aggregate takes the one-task path
    assert grouped._description.keyed_changelog is None     # parallelism 1: one task
    env.set_parallelism(2)
    grouped = streaming.sql_query("SELECT f1, SUM(f0) AS s FROM v GROUP BY f1")
    keyed = grouped._description.keyed_changelog
    assert keyed.changelog and [c.name for c in keyed.columns] == ["f1", "s"]
    assert streaming.sql_query("SELECT f1, SUM(f0) + 1 AS s FROM v GROUP BY f1")._description \
        .keyed_changelog is None
    batch = StreamTableEnvironment.create(env, EnvironmentSettings.in_batch_mode())
    batch.create_temporary_view("v", ds)
    assert not batch.sql_query("SELECT f1, SUM(f0) AS s FROM v GROUP BY f1")._updates()


def test_creating_a_table_environment_loads_no_spark():
    import subprocess
    import sys
    code = ("import sys; from pyflink_on_spark.datastream import StreamExecutionEnvironment;"
            "from pyflink_on_spark.table import StreamTableEnvironment;"
            "env = StreamExecutionEnvironment.get_execution_environment();"
            "StreamTableEnvironment.create(env);"
            "print(any(m.startswith('pyspark') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


def test_datagen_tables_from_ddl_and_descriptors():
    from pyflink_on_spark.specs.tables import GeneratedTable
    from pyflink_on_spark.table import TableDescriptor
    from pyflink_on_spark.table.connector_tables import descriptor_ddl
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(3)
    t_env = StreamTableEnvironment.create(env)
    t_env.execute_sql("CREATE TABLE g (id INT NOT NULL, d AS id * 2) WITH ('connector' = "
                      "'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
                      "'fields.id.end' = '5')")
    table = t_env.from_path("g")
    assert [c.text() for c in table._resolved_columns()] == ["`id` INT NOT NULL",
                                                             "`d` INT NOT NULL AS `id` * 2"]
    generated = table._description.inputs[0][1]
    assert isinstance(generated, GeneratedTable) and generated.bounded
    assert generated.parallelism == 3
    assert sorted(v for s in range(3) for (v,) in generated.rows(s, 3)) == [1, 2, 3, 4, 5]
    descriptor = TableDescriptor.for_connector("datagen").schema(
        Schema.new_builder().column("x", DataTypes.BIGINT()).build()) \
        .option("rows-per-second", 5).build()
    assert descriptor_ddl("r", descriptor) == (
        "CREATE TEMPORARY TABLE `r` (`x` BIGINT) WITH ('rows-per-second' = '5', "
        "'connector' = 'datagen')")
    t_env.create_temporary_table("r", descriptor)
    # random, no number-of-rows: the table of an unbounded stream (table/datagen_streams.py)
    from pyflink_on_spark.spark.table_feeds import reads_unbounded
    assert reads_unbounded(t_env.from_path("r")._description)


def test_a_tables_columns_become_the_stream_types_pyflink_gives():
    # seen on PyFlink 1.20.5 (compat case table/to_data_stream_types)
    from pyflink_on_spark.common.typeinfo import LocalTimeTypeInfo, Types
    from pyflink_on_spark.table.table_environment import _type_info
    assert _type_info("VARCHAR(5)") == Types.STRING() == _type_info("CHAR(3)")
    assert _type_info("TIMESTAMP(3)") == LocalTimeTypeInfo(
        LocalTimeTypeInfo.TimeType.LOCAL_DATE_TIME) == _type_info("TIMESTAMP(6)")
    assert _type_info("DATE") == LocalTimeTypeInfo(LocalTimeTypeInfo.TimeType.LOCAL_DATE)
    assert _type_info("DECIMAL(5, 2)") == Types.BIG_DEC()
    assert _type_info("BYTES") == Types.PRIMITIVE_ARRAY(Types.BYTE())
    assert _type_info("TIMESTAMP_LTZ(3)") == Types.INSTANT()


def test_str_of_a_table_registers_it_once_under_the_next_unnamed_name():
    env = StreamExecutionEnvironment.get_execution_environment()
    t_env = StreamTableEnvironment.create(env)
    ds = env.from_collection([1], type_info=Types.INT())
    first, second = t_env.from_data_stream(ds), t_env.from_data_stream(ds)
    assert (str(first), str(first), "%s" % second) == \
        ("UnnamedTable$0", "UnnamedTable$0", "UnnamedTable$1")
    assert t_env.list_temporary_views() == t_env.list_tables() == \
        ["UnnamedTable$0", "UnnamedTable$1"]
    assert t_env.sql_query("SELECT f0 FROM %s" % second).get_schema().get_field_names() == \
        ["f0"]


def test_to_data_stream_of_the_table_from_data_stream_gave_keeps_the_streams_row_type():
    # seen on PyFlink 1.20.5: RowTypeInfo(k: String, v: Integer) for that very Table (with a
    # Schema of its columns too); ExternalTypeInfo<...> after alias, a query, from_path, or
    # for a tuple stream
    from pyflink_on_spark.common import Row
    from pyflink_on_spark.table import DataTypes, Schema
    env = StreamExecutionEnvironment.get_execution_environment()
    t_env = StreamTableEnvironment.create(env)
    row_type = Types.ROW_NAMED(["k", "v"], [Types.STRING(), Types.LIST(Types.INT())])
    stream = env.from_collection([Row("a", [1])], row_type)
    table = t_env.from_data_stream(stream)
    assert repr(t_env.to_data_stream(table).get_type()) == \
        "RowTypeInfo(k: String, v: ListTypeInfo<Integer>)"
    basic = env.from_collection([Row("a", 1)], Types.ROW_NAMED(["k", "v"], [Types.STRING(),
                                                                             Types.INT()]))
    schema = Schema.new_builder().column("k", DataTypes.STRING()) \
        .column("v", DataTypes.INT()).build()
    assert repr(t_env.to_data_stream(t_env.from_data_stream(basic, schema)).get_type()) == \
        "RowTypeInfo(k: String, v: Integer)"
    assert repr(t_env.to_data_stream(table.alias("x", "y")).get_type()) == \
        "ExternalTypeInfo<RowTypeInfo(x: String, y: ObjectArrayTypeInfo<Integer>)>"
    tuples = t_env.from_data_stream(env.from_collection(
        [("a", 1)], Types.TUPLE([Types.STRING(), Types.INT()])))
    assert repr(t_env.to_data_stream(tuples).get_type()) == \
        "ExternalTypeInfo<RowTypeInfo(f0: String, f1: Integer)>"


def test_from_pandas_with_a_list_of_data_types_names_columns_after_the_frame():
    # seen on PyFlink 1.20.5 (cc3213252/pyflink-learn's pandas_to_pyflink.py): the frame's
    # column names as text, the listed types paired with them as zip pairs them
    import pandas as pd
    t_env = StreamTableEnvironment.create(StreamExecutionEnvironment.get_execution_environment())
    named = t_env.from_pandas(pd.DataFrame({"x": [1.5, 2.5], "y": [3, 4]}),
                              [DataTypes.FLOAT(), DataTypes.INT()])
    assert schema_text(named._resolved_columns()) == "(\n  `x` FLOAT,\n  `y` INT\n)"
    assert named._description.rows == ((1.5, 3), (2.5, 4))
    unnamed = t_env.from_pandas(pd.DataFrame([[1.5, 3]]), [DataTypes.DOUBLE(), DataTypes.BIGINT()])
    assert [c.name for c in unnamed._resolved_columns()] == ["0", "1"]
    one = t_env.from_pandas(pd.DataFrame({"x": [1.5]}), [DataTypes.DOUBLE(), DataTypes.DOUBLE()])
    assert schema_text(one._resolved_columns()) == "(\n  `x` DOUBLE\n)"
