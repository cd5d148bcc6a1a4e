"""Event time across the bridge (issue 44): from_data_stream with a 'rowtime' metadata column
(the records' timestamps, as the stream's timestamp assigner set them) and SOURCE_WATERMARK();
window TVFs (TUMBLE, HOP, CUMULATE, SESSION) and group windows over it. A bounded job's windows
fire at the end of its input: the out-of-order record (b, 2000) is in its window. Rows sorted
(window results come in key-hash order)."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, Schema, StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


clicks = env.from_collection(
    [("a", 1000), ("b", 1500), ("a", 4200), ("c", 6100), ("a", 9999), ("b", 2000)],
    type_info=Types.TUPLE([Types.STRING(), Types.LONG()]))
clicks = clicks.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(SecondField()))
table = t_env.from_data_stream(clicks, Schema.new_builder()
                               .column_by_metadata('rowtime', DataTypes.TIMESTAMP_LTZ(3))
                               .watermark('rowtime', 'SOURCE_WATERMARK()')
                               .build())
table.print_schema()
print(table.get_schema())
t_env.create_temporary_view("clicks", table)


def show(title, sql):
    print("--", title)
    with t_env.execute_sql(sql).collect() as rows:
        for line in sorted(repr(r) for r in rows):
            print(line)


show("rows", "SELECT f0, f1, CAST(rowtime AS TIMESTAMP(3)) AS rt FROM clicks")
show("tumble", "SELECT f0, window_start, window_end, CAST(window_time AS TIMESTAMP(3)) AS wt, "
     "COUNT(*) AS c, SUM(f1) AS s FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(rowtime), "
     "INTERVAL '5' SECOND)) GROUP BY f0, window_start, window_end, window_time")
show("hop", "SELECT window_start, window_end, COUNT(*) AS c, SUM(f1) AS s FROM TABLE(HOP("
     "TABLE clicks, DESCRIPTOR(rowtime), INTERVAL '2' SECOND, INTERVAL '4' SECOND)) "
     "GROUP BY window_start, window_end")
show("cumulate", "SELECT f0, window_start, window_end, COUNT(*) AS c FROM TABLE(CUMULATE("
     "TABLE clicks, DESCRIPTOR(rowtime), INTERVAL '2' SECOND, INTERVAL '6' SECOND)) "
     "GROUP BY f0, window_start, window_end")
show("session", "SELECT f0, window_start, window_end, COUNT(*) AS c FROM TABLE(SESSION("
     "TABLE clicks PARTITION BY f0, DESCRIPTOR(rowtime), INTERVAL '3' SECOND)) "
     "GROUP BY f0, window_start, window_end")
show("group tumble", "SELECT f0, TUMBLE_START(rowtime, INTERVAL '5' SECOND) AS s, "
     "TUMBLE_END(rowtime, INTERVAL '5' SECOND) AS e, COUNT(*) AS c FROM clicks "
     "GROUP BY f0, TUMBLE(rowtime, INTERVAL '5' SECOND)")
show("group session", "SELECT f0, SESSION_START(rowtime, INTERVAL '3' SECOND) AS s, "
     "SESSION_END(rowtime, INTERVAL '3' SECOND) AS e, COUNT(*) AS c FROM clicks "
     "GROUP BY f0, SESSION(rowtime, INTERVAL '3' SECOND)")
show("group hop", "SELECT HOP_START(rowtime, INTERVAL '5' SECOND, INTERVAL '10' SECOND) AS s, "
     "SUM(f1) AS total FROM clicks GROUP BY HOP(rowtime, INTERVAL '5' SECOND, "
     "INTERVAL '10' SECOND)")
