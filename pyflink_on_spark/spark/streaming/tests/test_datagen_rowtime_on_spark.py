"""An unbounded datagen table's WATERMARK column is its time attribute, as on PyFlink 1.20.5
(table/connector_tables.py _with_rowtime): to_data_stream's records carry the rowtime as
their timestamp, and a TUMBLE window aggregate over it fires as the generated time passes
its windows (MAX of a TIMESTAMP_LTZ, PyFlink's Instant, in its accumulator). Seen on
PyFlink: windows of 1 s, one row each, every ~1 s."""
import os
import time

from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.functions import ProcessFunction


def _lines(path):
    return open(path).read().splitlines() if os.path.exists(path) else []


def test_an_unbounded_datagen_tables_rowtime_stamps_records_and_fires_windows(spark,
                                                                              tmp_path):
    from pyflink_on_spark.table import StreamTableEnvironment

    class _Written(ProcessFunction):
        """Appends one line per record to `path` (a class of the test's own: shipped to the
        tasks by value)."""

        def __init__(self, path: str, line) -> None:
            self.path = path
            self.line = line

        def process_element(self, value, ctx):
            with open(self.path, "a") as f:
                f.write(self.line(value, ctx.timestamp()) + "\n")

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    t_env = StreamTableEnvironment.create(env)
    t_env.execute_sql(
        "CREATE TABLE g (k INT, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts - INTERVAL "
        "'100' MILLISECOND) WITH ('connector' = 'datagen', 'rows-per-second' = '40', "
        "'fields.k.min' = '1', 'fields.k.max' = '2')")
    (ts,) = [c for c in t_env.from_path("g")._resolved_columns() if c.name == "ts"]
    assert ts.rowtime
    rows, windows = str(tmp_path / "rows"), str(tmp_path / "windows")
    t_env.to_data_stream(t_env.from_path("g")).process(_Written(
        rows, lambda row, stamp: "%d %d" % (row.ts.to_epoch_milli(), stamp)))
    tumbling = t_env.sql_query(
        "SELECT window_start, window_time, COUNT(*) AS c, MAX(ts) AS m FROM TABLE(TUMBLE("
        "TABLE g, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY window_start, "
        "window_end, window_time")
    t_env.to_data_stream(tumbling).process(_Written(
        windows, lambda row, stamp: "%d %d %d %d" % (
            row.window_time.to_epoch_milli(), stamp, row.c, row.m.to_epoch_milli())))
    client = env.execute_async("an unbounded datagen table's windows")
    try:
        deadline = time.time() + 300      # generous: a loaded 2-core machine
        ended = client.get_job_execution_result()
        while len(_lines(windows)) < 2 and time.time() < deadline and not ended.done():
            time.sleep(0.2)
        assert not ended.done(), ended.result()
    finally:
        client.cancel().result()
    stamped = [tuple(map(int, line.split())) for line in _lines(rows)]
    assert stamped and all(rowtime == stamp for rowtime, stamp in stamped)
    fired = [tuple(map(int, line.split())) for line in _lines(windows)]
    assert len(fired) >= 2
    for window_time, stamp, count, largest in fired:
        # a window of [window_time - 999, window_time]: its records' rowtimes, its rows
        # stamped with window_time (Flink's window_time, the window's last millisecond)
        assert stamp == window_time and count >= 1
        assert window_time - 999 <= largest <= window_time
        assert count == sum(1 for rowtime, _ in stamped
                            if window_time - 999 <= rowtime <= window_time)
