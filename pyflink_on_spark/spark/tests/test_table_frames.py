"""Tables on Spark (spark/table_frames.py): a stream's graph runs in Spark tasks and its
records become typed columns; a query over it runs as Spark SQL; a table read back by a
DataStream job arrives as its source's records."""
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.stream_execution_environment import StreamExecutionEnvironment
from pyflink_on_spark.table import StreamTableEnvironment
from pyflink_on_spark.table.expressions import col


def test_stream_to_table_to_query_to_stream(spark):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    t_env = StreamTableEnvironment.create(env)
    ds = env.from_collection([(1, "a"), (2, "b"), (3, "c")],
                             type_info=Types.TUPLE([Types.INT(), Types.STRING()])) \
        .map(lambda t: (t[0] * 10, t[1]), output_type=Types.TUPLE([Types.INT(), Types.STRING()]))
    table = t_env.from_data_stream(ds)
    pdf = table.where(col("f0") > 10).to_pandas()
    assert pdf.to_dict("list") == {"f0": [20, 30], "f1": ["b", "c"]}
    assert str(pdf.dtypes["f0"]) == "int32"
    t_env.create_temporary_view("v", table)
    query = t_env.sql_query("SELECT f1, f0 + 1 AS g FROM v WHERE f1 <> 'a'")
    out = t_env.to_data_stream(query).map(lambda r: "%s=%d" % (r.f1, r["g"]),
                                          output_type=Types.STRING())
    with out.execute_and_collect() as values:
        assert list(values) == ["b=21", "c=31"]


def test_a_rowtime_metadata_column_decodes_from_record_timestamp_pairs():
    # no Spark: the decoder of the collect sink's chunks, as its mapInArrow runs it
    import pyarrow as pa
    from pyflink_on_spark.runtime.boundary import dumps_records
    from pyflink_on_spark.spark.table_frames import _record_decoder, arrow_schema
    from pyflink_on_spark.specs.tables import TableColumn
    columns = (TableColumn("f0", "STRING"), TableColumn("f1", "BIGINT", False),
               TableColumn("rowtime", "TIMESTAMP_LTZ(3)", metadata=""))
    payload = dumps_records(([(("a", 1000), 1000), (("b", -1500), -1500)], None))
    batch = pa.RecordBatch.from_arrays([pa.array([payload], pa.binary())], ["payload"])
    out = list(_record_decoder(arrow_schema(columns), False, 2)([batch]))
    assert out[0].column(0).to_pylist() == ["a", "b"]
    assert out[0].column(2).cast(pa.int64()).to_pylist() == [1_000_000, -1_500_000]


def test_timestamp_ltz_values_become_instants_as_pyflink_gives_them():
    # seen on PyFlink 1.20.5: to_data_stream of a TIMESTAMP_LTZ(3) column, Instant<4, 200000000>
    import pyarrow as pa
    from pyflink_on_spark.common.time import Instant
    from pyflink_on_spark.spark.table_frames import _values
    column = pa.array([4_200_000, -1_500_000, None], pa.int64()).cast(
        pa.timestamp("us", tz="UTC"))
    assert _values(column) == [Instant(4, 200_000_000), Instant(-2, 500_000_000), None]
    assert repr(_values(column)[0]) == "Instant<4, 200000000>"
    naive = pa.array([1_000_000], pa.int64()).cast(pa.timestamp("us"))
    assert not isinstance(_values(naive)[0], Instant)


def test_a_rows_tables_frame_is_made_once_and_its_view_registered_once(spark, monkeypatch):
    # every query over a from_elements table reads the same rows: one DataFrame per session
    # and table, and its view is not registered again while it holds that frame
    from pyflink_on_spark.spark import table_frames
    from pyflink_on_spark.specs.tables import RowsTable, TableColumn
    rows = RowsTable((TableColumn("a", "INT"),), ((1,), (2,)))
    assert table_frames.table_frame(rows, spark) is table_frames.table_frame(rows, spark)
    registered = []
    real = table_frames._view_name
    monkeypatch.setattr(table_frames, "_view_name",
                        lambda name: registered.append(name) or real(name))
    frame = table_frames.table_frame(rows, spark)
    table_frames.register_view(spark, "once", frame)
    table_frames.register_view(spark, "once", frame)
    assert registered == ["once"]
    table_frames.register_view(spark, "once", spark.createDataFrame([], "a INT"))
    table_frames.register_view(spark, "once", frame)
    assert registered == ["once"] * 3
    assert [r.a for r in spark.sql("SELECT a FROM once").collect()] == [1, 2]


def test_queries_read_a_views_current_table_around_explain_and_a_replaced_view(spark):
    # explain registers a query's views as empty frames, and a view name may be bound to
    # another table: the next query still reads the view's current rows
    from pyflink_on_spark.table import EnvironmentSettings, TableEnvironment
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.create_temporary_view("t", t_env.from_elements([(1,), (2,)], ["a"]))

    def values():
        with t_env.sql_query("SELECT a * 10 AS b FROM t").execute().collect() as rows:
            return sorted(row[0] for row in rows)
    assert values() == [10, 20]
    assert "== Spark Plan ==" in t_env.sql_query("SELECT a FROM t").explain()
    assert values() == [10, 20]
    t_env.drop_temporary_view("t")
    t_env.create_temporary_view("t", t_env.from_elements([(7,)], ["a"]))
    assert values() == [70]


def _counts(t_env, env):
    """A bounded stream's grouping query in STREAMING mode (its rows update)."""
    pairs = env.from_collection([("a", 1), ("b", 2), ("a", 3), ("a", 4), ("b", 5)],
                                type_info=Types.ROW_NAMED(["k", "v"],
                                                          [Types.STRING(), Types.INT()]))
    t_env.create_temporary_view("v", t_env.from_data_stream(pairs))
    return t_env.sql_query("SELECT k, COUNT(*) AS c FROM v GROUP BY k")


# seen on PyFlink 1.20.5 at parallelism 1: the grouping query's changelog, renamed or not
_COUNT_CHANGES = [("+I", "a", 1), ("+I", "b", 1), ("-U", "a", 1), ("+U", "a", 2),
                  ("-U", "a", 2), ("+U", "a", 3), ("-U", "b", 1), ("+U", "b", 2)]


def test_an_alias_of_an_updating_table_is_its_changelog_renamed(spark):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    t_env = StreamTableEnvironment.create(env)
    renamed = _counts(t_env, env).alias("a", "b")
    assert renamed._updates()
    with t_env.to_changelog_stream(renamed).execute_and_collect() as rows:
        rows = list(rows)
    assert [(str(r.get_row_kind()), *r) for r in rows] == _COUNT_CHANGES
    assert all(r.as_dict().keys() == {"a", "b"} for r in rows)
    with t_env.to_retract_stream(renamed, Types.ROW_NAMED(
            ["x", "y"], [Types.STRING(), Types.LONG()])).execute_and_collect() as pairs:
        assert [(flag, tuple(r)) for flag, r in pairs] == [
            (kind in ("+I", "+U"), (k, c)) for kind, k, c in _COUNT_CHANGES]
    with renamed.execute().collect() as rows:
        assert [(str(r.get_row_kind()), *r) for r in rows] == _COUNT_CHANGES
    assert renamed.to_pandas().to_dict("list") == {"a": ["a", "b"], "b": [3, 2]}


def test_a_select_or_rename_of_an_updating_tables_columns_is_its_changelog_projected(spark):
    """Table.select / rename_columns / SQL over a view of a grouping query (STREAMING mode,
    bounded input): the grouping query inlined as a subquery, its changes projected
    (table/projected_changelog.py), a filter of its rows each change filtered."""
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    t_env = StreamTableEnvironment.create(env)
    counts = _counts(t_env, env)
    t_env.create_temporary_view("g", counts)
    for table, names in ((counts.select(col("k").alias("a"), col("c")), ["a", "c"]),
                         (counts.rename_columns(col("k").alias("a")), ["a", "c"]),
                         (t_env.sql_query("SELECT c, k AS a FROM g"), ["c", "a"])):
        assert table._updates()
        with t_env.to_changelog_stream(table).execute_and_collect() as rows:
            rows = [(str(r.get_row_kind()), list(r.as_dict().items())) for r in rows]
        assert rows == [(kind, [(n, {"a": k, "c": c}[n]) for n in names])
                        for kind, k, c in _COUNT_CHANGES]
    with counts.select(col("k"), col("c") + 1).execute().collect() as rows:
        assert [(str(r.get_row_kind()), *r) for r in rows] == [
            (kind, k, c + 1) for kind, k, c in _COUNT_CHANGES]
    # Flink prunes the aggregates the projection does not read: the key alone is +I per key
    with t_env.to_changelog_stream(counts.select(col("k"))).execute_and_collect() as rows:
        assert [(str(r.get_row_kind()), *r) for r in rows] == [("+I", "a"), ("+I", "b")]
    # a filter drops each change that fails it on its own (PyFlink 1.20.5: +U with no +I)
    with t_env.to_changelog_stream(counts.filter(col("c") > 1)).execute_and_collect() as rows:
        assert [(str(r.get_row_kind()), *r) for r in rows] == [
            (kind, k, c) for kind, k, c in _COUNT_CHANGES if c > 1]
