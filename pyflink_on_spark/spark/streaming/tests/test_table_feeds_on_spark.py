"""A table of an unbounded stream inside an unbounded job (spark/streaming/table_feeds.py):
its per-row query runs in every micro-batch, a grouping query's aggregates and a window
aggregate's windows are keyed state (table/group_aggregates.py, table/window_aggregates.py),
and the job restarted from its checkpoint goes on where it
stopped: the source's files read once, the groups' state restored."""
import glob
import os
import time

from pyflink_on_spark.common import Configuration, Duration, Encoder, Types, WatermarkStrategy
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.file_system import FileSink, FileSource, StreamFormat


def _lines(out_dir):
    return sorted(line for p in glob.glob(os.path.join(out_dir, "**", "part-*"), recursive=True)
                  for line in open(p).read().splitlines())


def _wait_for(predicate, timeout=600):   # generous: a loaded 2-core machine
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError("timed out")


def _add(in_dir, name, text):
    with open(os.path.join(in_dir, "." + name), "w") as f:
        f.write(text)
    os.rename(os.path.join(in_dir, "." + name), os.path.join(in_dir, name))


def _start(in_dir, out_dir, checkpoints):
    from pyflink_on_spark.table import StreamTableEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.enable_checkpointing(100)
    env.configure(Configuration().set_string("state.checkpoints.dir", "file://" + checkpoints))
    t_env = StreamTableEnvironment.create(env)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), in_dir) \
        .monitor_continuously(Duration.of_millis(100)).build()
    fruits = env.from_source(source, WatermarkStrategy.no_watermarks(), "files").map(
        lambda line: (line.split(",")[0], int(line.split(",")[1])),
        output_type=Types.TUPLE([Types.STRING(), Types.INT()]))
    t_env.create_temporary_view("fruits", t_env.from_data_stream(fruits).alias("name", "qty"))
    # a grouping query: its per-row part a query of each micro-batch's rows, its
    # aggregates keyed state of the same job
    totals = t_env.sql_query("SELECT UPPER(name) AS name, COUNT(*) AS n, SUM(qty) AS total "
                             "FROM fruits WHERE qty > 4 GROUP BY UPPER(name)")
    t_env.to_changelog_stream(totals) \
        .map(lambda row: "%s %s %d %d" % (row.get_row_kind(), row.name, row.n, row.total),
             output_type=Types.STRING()) \
        .sink_to(FileSink.for_row_format(out_dir, Encoder.simple_string_encoder()).build())
    # a window aggregate: the rows' event time computed from qty (seconds), a SQL watermark
    # 1 s behind; its windows' accumulators and timers keyed state of the same job
    from pyflink_on_spark.table import Schema
    timed = t_env.from_data_stream(fruits, Schema.new_builder().column_by_expression(
        "ts", "TO_TIMESTAMP_LTZ(CAST(f1 AS BIGINT) * 1000, 3)")
        .watermark("ts", "ts - INTERVAL '1' SECOND").build())
    t_env.create_temporary_view("timed", timed)
    windows = t_env.sql_query(
        "SELECT window_start, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE timed, DESCRIPTOR(ts), "
        "INTERVAL '10' SECOND)) GROUP BY window_start, window_end")
    t_env.to_data_stream(windows) \
        .map(lambda row: "W %d %d" % (row.window_start.second, row.n),
             output_type=Types.STRING()) \
        .sink_to(FileSink.for_row_format(os.path.join(out_dir, "windows"),
                                         Encoder.simple_string_encoder()).build())
    return env.execute_async("table of an unbounded stream")


def test_a_grouping_query_of_an_unbounded_stream_resumes_its_groups_after_a_restart(
        spark, tmp_path):
    in_dir, out_dir, checkpoints = (str(tmp_path / d) for d in ("in", "out", "ckpt"))
    os.makedirs(in_dir)
    _add(in_dir, "a.txt", "apple,3\nbanana,12\ncherry,7\n")
    client = _start(in_dir, out_dir, checkpoints)
    try:
        _wait_for(lambda: len(_lines(out_dir)) >= 3)
    finally:
        client.cancel().result()
    # the watermark went to 11 s at banana (12 s), as Flink's SQL watermark assigner emits
    # it: cherry (7 s) came behind it, dropped from its fired window [0 s, 10 s)
    assert _lines(out_dir) == ["+I BANANA 1 12", "+I CHERRY 1 7", "W 0 1"]
    _add(in_dir, "b.txt", "banana,20\ndate,1\nfig,25\n")    # arrives while the job is down
    client = _start(in_dir, out_dir, checkpoints)
    try:
        _wait_for(lambda: len(_lines(out_dir)) >= 7)
    finally:
        client.cancel().result()
    # the group went on from its restored state; a.txt was not read again; the window
    # [10 s, 20 s) kept banana (12 s) across the restart and fired when fig (25 s) took
    # the watermark to 24 s; date (1 s) came behind it
    assert _lines(out_dir) == ["+I BANANA 1 12", "+I CHERRY 1 7", "+I FIG 1 25",
                               "+U BANANA 2 32", "-U BANANA 1 12", "W 0 1", "W 10 1"]
