"""Event time across the bridge (issue 44): a rowtime computed from a field
(column_by_expression with TO_TIMESTAMP_LTZ) and watermark(col, "col - INTERVAL ..."), over a
Row stream and a tuple stream without timestamps, at parallelism 2 (window rows sorted; rows
out of order by less than the watermark's delay: PyFlink drops rows behind the watermark its SQL
watermark assigner emits as soon as it grows by 200 ms, the shim keeps every row);
print_schema / get_schema as PyFlink prints them; a keyed schema of physical columns plus a
virtual 'rowtime' metadata column; a query keeps a selected rowtime attribute."""
from pyflink.common import Row, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, Schema, StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
t_env = StreamTableEnvironment.create(env)


def show(title, sql):
    print("--", title)
    with t_env.execute_sql(sql).collect() as rows:
        for line in sorted(repr(r) for r in rows):
            print(line)


readings = env.from_collection(
    [Row(sensor="x", millis=1000, v=1.5), Row(sensor="y", millis=1200, v=2.0),
     Row(sensor="x", millis=3500, v=0.5), Row(sensor="y", millis=5200, v=4.0),
     Row(sensor="x", millis=4999, v=1.0), Row(sensor="y", millis=4300, v=3.0)],
    type_info=Types.ROW_NAMED(["sensor", "millis", "v"], [Types.STRING(), Types.LONG(),
                                                      Types.DOUBLE()]))
table = t_env.from_data_stream(readings, Schema.new_builder()
                               .column_by_expression('ts', "TO_TIMESTAMP_LTZ(millis, 3)")
                               .watermark('ts', "ts - INTERVAL '1' SECOND")
                               .build())
table.print_schema()
print(table.get_schema())
t_env.create_temporary_view("readings", table)
show("tumble", "SELECT sensor, window_start, window_end, COUNT(*) AS c, SUM(v) AS total "
     "FROM TABLE(TUMBLE(TABLE readings, DESCRIPTOR(ts), INTERVAL '2' SECOND)) "
     "GROUP BY sensor, window_start, window_end")
show("hop", "SELECT window_start, MAX(v) AS top FROM TABLE(HOP(TABLE readings, DESCRIPTOR(ts), "
     "INTERVAL '1' SECOND, INTERVAL '3' SECOND)) GROUP BY window_start, window_end")
show("group tumble", "SELECT sensor, TUMBLE_END(ts, INTERVAL '5' SECOND) AS e, AVG(v) AS mean "
     "FROM readings GROUP BY sensor, TUMBLE(ts, INTERVAL '5' SECOND)")
t_env.sql_query("SELECT sensor, ts FROM readings WHERE v > 1").print_schema()

pairs = env.from_collection([("k", 7000), ("k", 5500), ("j", 8000), ("k", 9100), ("j", 8500)],
                            type_info=Types.TUPLE([Types.STRING(), Types.LONG()]))
seconds = t_env.from_data_stream(pairs, Schema.new_builder()
                                 .column_by_expression('ts', "TO_TIMESTAMP_LTZ(f1, 3)")
                                 .watermark('ts', "ts - INTERVAL '2' SECOND")
                                 .build())
seconds.print_schema()
t_env.create_temporary_view("pairs", seconds)
show("pairs tumble", "SELECT f0, window_start, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE pairs, "
     "DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY f0, window_start, window_end")


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


stamped = pairs.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(SecondField()))
keyed = t_env.from_data_stream(stamped, Schema.new_builder()
                               .column('f0', DataTypes.STRING())
                               .column('f1', DataTypes.BIGINT())
                               .column_by_metadata('seen', DataTypes.TIMESTAMP_LTZ(3), 'rowtime',
                                                   True)
                               .watermark('seen', 'SOURCE_WATERMARK()')
                               .build())
keyed.print_schema()
print(keyed.get_schema())
t_env.create_temporary_view("keyed", keyed)
show("keyed rows", "SELECT f0, f1, CAST(seen AS TIMESTAMP(3)) AS seen3 FROM keyed")
show("keyed cumulate", "SELECT window_start, window_end, COUNT(*) AS c FROM TABLE(CUMULATE("
     "TABLE keyed, DESCRIPTOR(seen), INTERVAL '5' SECOND, INTERVAL '10' SECOND)) "
     "GROUP BY window_start, window_end")
