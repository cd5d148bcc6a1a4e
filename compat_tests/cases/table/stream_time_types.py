"""from_data_stream of a stream with INSTANT, SQL_TIMESTAMP, SQL_DATE, BIG_DEC and byte-array
fields (PyFlink's own tumble_window example declares Instants): their column types
(TIMESTAMP_LTZ(9), TIMESTAMP(9), DATE, DECIMAL(38, 18), BYTES, all nullable), printed values,
and a query casting and comparing them."""
import datetime
import decimal

from pyflink.common import Types
from pyflink.common.time import Instant
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
ds = env.from_collection(
    [(Instant.of_epoch_milli(1500), datetime.datetime(2020, 1, 2, 3, 4, 5, 123000),
      datetime.date(2020, 1, 2), decimal.Decimal('1.25'), b'ab', 1),
     (Instant.of_epoch_milli(86400000 + 250), datetime.datetime(2021, 6, 7, 8, 9, 10),
      datetime.date(2021, 6, 7), decimal.Decimal('-3'), b'', 2)],
    type_info=Types.ROW_NAMED(['moment', 'ts', 'd', 'amount', 'raw', 'n'],
                              [Types.INSTANT(), Types.SQL_TIMESTAMP(), Types.SQL_DATE(),
                               Types.BIG_DEC(), Types.PRIMITIVE_ARRAY(Types.BYTE()),
                               Types.INT()]))
table = t_env.from_data_stream(ds)
table.print_schema()
table.execute().print()
t_env.create_temporary_view("t", table)
t_env.sql_query(
    "SELECT n, CAST(moment AS TIMESTAMP(3)) AS m3, CAST(ts AS DATE) AS ts_date, d > DATE '2020-06-01' "
    "AS later, amount > 0 AS positive FROM t").execute().print()
tuples = env.from_collection([(Instant.of_epoch_milli(2500), 7)],
                             type_info=Types.TUPLE([Types.INSTANT(), Types.INT()]))
t_env.from_data_stream(tuples).print_schema()
