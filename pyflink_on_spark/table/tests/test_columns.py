"""A stream's columns as Flink derives them from its type information (table/columns.py),
without Spark; seen on PyFlink 1.20.5."""
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.table.columns import stream_columns


def test_time_decimal_and_byte_fields_are_nullable_columns_of_flinks_types():
    columns, _ = stream_columns(Types.TUPLE([
        Types.INSTANT(), Types.SQL_TIMESTAMP(), Types.SQL_DATE(), Types.BIG_DEC(),
        Types.PRIMITIVE_ARRAY(Types.BYTE()), Types.INT()]))
    assert [c.text() for c in columns] == [
        "`f0` TIMESTAMP_LTZ(9)", "`f1` TIMESTAMP(9)", "`f2` DATE", "`f3` DECIMAL(38, 18)",
        "`f4` BYTES", "`f5` INT NOT NULL"]
    alone, _ = stream_columns(Types.INSTANT())
    assert [c.text() for c in alone] == ["`f0` TIMESTAMP_LTZ(9)"]
