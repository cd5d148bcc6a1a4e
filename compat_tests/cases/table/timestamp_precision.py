"""A cast to TIMESTAMP(p) / TIMESTAMP_LTZ(p) keeps p digits of the second's fraction (of a
string, of a TIMESTAMP(6), an LTZ(3) to LTZ(0)); a from_data_stream Schema declaring
TIMESTAMP_LTZ(3) for an Instant field (TIMESTAMP_LTZ(9)) in a projection of the stream's
fields is that type, its values cut to milliseconds; a Schema column's type as SQL text.
Shapes of cc3213252/pyflink-learn's from_data_stream.py (its fifth table)."""
from pyflink.common.time import Instant
from pyflink.common.typeinfo import Types
from pyflink.common.types import Row
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import Schema, StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
casts = t_env.sql_query(
    "SELECT CAST('2022-01-01 00:00:01.987654' AS TIMESTAMP(3)) AS a, "
    "CAST('2022-01-01 00:00:01.987654' AS TIMESTAMP(0)) AS b, "
    "CAST(CAST('2022-01-01 00:00:01.987654' AS TIMESTAMP(6)) AS TIMESTAMP(3)) AS c, "
    "CAST('1969-12-31 23:59:59.987654' AS TIMESTAMP(3)) AS d, "
    "CAST(CAST(TO_TIMESTAMP_LTZ(1987, 3) AS TIMESTAMP_LTZ(0)) AS STRING) AS e")
casts.print_schema()
print([tuple(r) for r in casts.execute().collect()])

ds = env.from_collection(
    [Row("Alice", 12, Instant(1, 123456789)), Row("Bob", 5, Instant(2, 5))],
    type_info=Types.ROW_NAMED(["name", "score", "event_time"],
                              [Types.STRING(), Types.INT(), Types.INSTANT()]))
projected = t_env.from_data_stream(ds, Schema.new_builder()
                                   .column("event_time", "TIMESTAMP_LTZ(3)")
                                   .column("name", "STRING")
                                   .watermark("event_time", "SOURCE_WATERMARK()").build())
projected.print_schema()
t_env.to_data_stream(projected).print()
env.execute()
