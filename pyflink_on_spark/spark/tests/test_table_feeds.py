"""Tables of unbounded streams join the job that reads them (spark/table_feeds.py): checked
on the compiled job, without Spark (jobs captured, not run)."""
import pytest

from pyflink_on_spark.spark.table_feeds import stateful_construct


def _captured(tmp_path, query, extra_view=False, changelog=False):
    """The compiled job of: monitored files -> from_data_stream -> `query` -> to_data_stream
    -> map -> execute_and_collect (captured, not run)."""
    from pyflink_on_spark.common import Duration, Types, WatermarkStrategy
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.datastream.connectors.file_system import FileSource, StreamFormat
    from pyflink_on_spark.spark.entry import capture_jobs
    from pyflink_on_spark.table import StreamTableEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    t_env = StreamTableEnvironment.create(env)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                                 str(tmp_path)) \
        .monitor_continuously(Duration.of_millis(200)).build()
    words = env.from_source(source, WatermarkStrategy.no_watermarks(), "files") \
        .map(lambda w: (w, len(w)), output_type=Types.TUPLE([Types.STRING(), Types.INT()]))
    t_env.create_temporary_view("words", t_env.from_data_stream(words))
    if extra_view:
        import pandas as pd
        t_env.create_temporary_view("held", t_env.from_pandas(pd.DataFrame({"f0": ["x"]})))
    table = t_env.sql_query(query)
    stream = (t_env.to_changelog_stream(table) if changelog else t_env.to_data_stream(table)).map(
        lambda row: str(row), output_type=Types.STRING())
    with capture_jobs() as jobs:
        with stream.execute_and_collect("table job"):
            pass
    (captured,) = jobs
    return captured


def test_a_stateless_query_of_an_unbounded_stream_reads_that_stages_rows_in_the_same_job(
        tmp_path):
    from pyflink_on_spark.specs.table_feeds import TableFeed
    from pyflink_on_spark.spark.streaming.sources import is_unbounded
    captured = _captured(tmp_path, "SELECT UPPER(f0) AS w, f1 * 2 AS n FROM words "
                                   "WHERE f1 > 2 UNION ALL SELECT f0, f1 FROM words")
    job = captured.job
    assert captured.unbounded and is_unbounded(job)
    (table_stage,) = [s for s in job.stages if s.source is not None
                      and isinstance(s.source.frame, TableFeed)]
    (feed,) = table_stage.source.frame.streams       # one stream, read twice by the query
    stream_stage = next(s for s in job.stages if s.spec.stage_id == feed.stage_id)
    assert stream_stage.spec.stage_id < table_stage.spec.stage_id
    # the stream's rows stay in Spark (no sink of the driver's) and the table stage is their
    # reader (its upstream), so the stream's stage is computed once per batch
    assert feed.edge_id in {e.edge_id for e in stream_stage.spec.exits}
    assert feed.edge_id not in {s.edge_id for s in stream_stage.sinks}
    # its exit sends the stream's watermarks too (no sink's exit), which the table's source
    # subtasks are fed, one per subtask of the stream's stage (runtime/fed_watermarks.py)
    (fed_exit,) = [e for e in stream_stage.spec.exits if e.edge_id == feed.edge_id]
    assert not fed_exit.to_driver
    assert feed.upstream_parallelism == stream_stage.spec.parallelism
    assert [(u.stage_id, u.edge_id) for u in table_stage.upstream] == \
        [(feed.stage_id, feed.edge_id)]
    assert job.consumer_counts()[feed.stage_id] == 1
    # the job's own collect sink still reaches the driver
    assert any(s.sinks for s in job.stages if s is not stream_stage)


def test_an_unrelated_bounded_view_of_the_environment_is_not_read(tmp_path):
    from pyflink_on_spark.spark.table_feeds import pruned
    from pyflink_on_spark.specs.table_feeds import TableFeed
    job = _captured(tmp_path, "SELECT f0 FROM words", extra_view=True).job
    feed = next(s.source.frame for s in job.stages
                if s.source is not None and isinstance(s.source.frame, TableFeed))
    assert [name for name, _ in feed.source.table.inputs] == ["words", "held"]
    assert [name for name, _ in pruned(feed.source.table).inputs] == ["words"]


@pytest.mark.parametrize("query, message", [
    ("SELECT f0 FROM words ORDER BY f0", "ORDER BY in a query over an unbounded table"),
    ("SELECT f0 FROM words UNION SELECT f0 FROM words",
     r"UNION \(without ALL\) in a query over an unbounded table"),
    ("SELECT f0, COUNT(*) + 1 FROM words GROUP BY f0",
     r"the select item COUNT\(\*\) \+ 1 .* in a grouping query over an unbounded table"),
    ("SELECT f0, COUNT(DISTINCT f1) FROM words GROUP BY f0",
     r"a DISTINCT aggregate .* in a grouping query over an unbounded table"),
])
def test_a_stateful_query_over_an_unbounded_stream_is_refused_naming_it(tmp_path, query,
                                                                        message):
    with pytest.raises(NotImplementedError, match="^" + message):
        _captured(tmp_path, query, changelog=True)


def test_a_grouping_query_over_an_unbounded_stream_keeps_its_groups_in_keyed_state(tmp_path):
    from pyflink_on_spark.specs.partitioning import KeyedPartitioning
    from pyflink_on_spark.specs.table_feeds import TableFeed
    job = _captured(tmp_path, "SELECT f0, COUNT(*) AS n FROM words GROUP BY f0",
                    changelog=True).job
    table_stage = next(s for s in job.stages if s.source is not None
                       and isinstance(s.source.frame, TableFeed))
    # the per-row query is a stateless table of the stream; a keyed exchange follows it
    assert "GROUP BY" not in table_stage.source.frame.source.table.query.upper()
    assert any(isinstance(e.partitioning, KeyedPartitioning) for e in table_stage.spec.exits)


def test_an_unbounded_stream_queried_with_a_bounded_table_is_refused(tmp_path):
    with pytest.raises(NotImplementedError, match="an unbounded stream and a RowsTable table"):
        _captured(tmp_path, "SELECT f0 FROM words UNION ALL SELECT f0 FROM held",
                  extra_view=True)


@pytest.mark.parametrize("sql, construct", [
    ("SELECT a, b + 1 FROM t WHERE a > 1", None),
    ("SELECT a FROM t UNION ALL SELECT b FROM u", None),
    ("SELECT * FROM (SELECT a FROM t WHERE a > 1) x WHERE a < 5", None),
    ("WITH x AS (SELECT a FROM t) SELECT a FROM x", None),
    ("SELECT a FROM t WHERE a IN (1, 2)", None),
    ("SELECT COUNT(*) FROM t", "an aggregate function"),
    ("SELECT a FROM t WHERE a IN (SELECT b FROM u)", "a subquery"),
    ("SELECT * FROM t JOIN u ON t.a = u.a", "a JOIN"),
    ("SELECT a FROM t LIMIT 3", "LIMIT"),
    ("SELECT ROW_NUMBER() OVER (ORDER BY a) FROM t", "an OVER window"),
    ("SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u)", "EXISTS"),
    ("SELECT w.start FROM (SELECT window(ts, '1 second') AS w FROM t)",
     "a window aggregate (TUMBLE / HOP / SESSION / CUMULATE)"),
])
def test_stateful_constructs_are_named(sql, construct):
    assert stateful_construct(sql) == construct
