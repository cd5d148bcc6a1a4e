"""An aggregate of a rowtime (MIN / MAX of it) is typed *ROWTIME* but is no time attribute:
to_data_stream of a window aggregate selecting it and not window_time gives its records no
timestamp; window_time stamps them with the window's last millisecond. In BATCH mode no
record gets one, not even of a selected rowtime column or window_time."""
from pyflink.common import Instant, Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import ProcessFunction
from pyflink.table import Schema, StreamTableEnvironment


class Stamps(ProcessFunction):
    def __init__(self, tag):
        self.tag = tag

    def process_element(self, row, ctx):
        yield "%s %s %s" % (self.tag, row, ctx.timestamp())


WINDOW = (" FROM TABLE(TUMBLE(TABLE g, DESCRIPTOR(ts), INTERVAL '2' SECOND)) "
          "GROUP BY k, window_start, window_end")
for tag, select in [("max", "SELECT k, window_end, MAX(ts) AS m"),
                    ("window_time", "SELECT k, window_time, COUNT(*) AS c"),
                    ("min", "SELECT k, MIN(ts) AS m, COUNT(*) AS c"),
                    ("batch", "SELECT k, window_time, COUNT(*) AS c"),
                    ("batch scan", None)]:
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    if tag.startswith("batch"):
        env.set_runtime_mode(RuntimeExecutionMode.BATCH)
    t_env = StreamTableEnvironment.create(env)
    ds = env.from_collection(
        [(1, Instant.of_epoch_milli(1000)), (1, Instant.of_epoch_milli(1500)),
         (2, Instant.of_epoch_milli(2500)), (1, Instant.of_epoch_milli(7000))],
        type_info=Types.ROW_NAMED(["k", "ts"], [Types.INT(), Types.INSTANT()]))
    t_env.create_temporary_view("g", t_env.from_data_stream(
        ds, Schema.new_builder().column("k", "INT").column("ts", "TIMESTAMP_LTZ(3)")
        .watermark("ts", "ts - INTERVAL '1' SECOND").build()))
    query = t_env.from_path("g") if select is None else t_env.sql_query(
        select + WINDOW + (", window_time" if tag in ("window_time", "batch") else ""))
    query.print_schema()
    t_env.to_data_stream(query).process(Stamps(tag), output_type=Types.STRING()).print()
    env.execute()
