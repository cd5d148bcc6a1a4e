"""Flink type strings -> the shim's DataTypes, Flink's summary form, Spark SQL types."""
import pytest

from pyflink_on_spark.table.sql import (
    UnsupportedSqlError, flink_type_string, to_data_type, to_spark_type)
from pyflink_on_spark.table.types import DataTypes

CASES = [
    ('INT', DataTypes.INT(), 'INT', 'INT'),
    ('integer not null', DataTypes.INT(False), 'INT NOT NULL', 'INT'),
    ('BIGINT', DataTypes.BIGINT(), 'BIGINT', 'BIGINT'),
    ('TINYINT', DataTypes.TINYINT(), 'TINYINT', 'TINYINT'),
    ('SMALLINT', DataTypes.SMALLINT(), 'SMALLINT', 'SMALLINT'),
    ('STRING', DataTypes.STRING(), 'STRING', 'STRING'),
    ('VARCHAR(2147483647)', DataTypes.STRING(), 'STRING', 'STRING'),
    ('VARCHAR(3)', DataTypes.VARCHAR(3), 'VARCHAR(3)', 'STRING'),
    ('CHAR(2)', DataTypes.CHAR(2), 'CHAR(2)', 'STRING'),
    ('BOOLEAN', DataTypes.BOOLEAN(), 'BOOLEAN', 'BOOLEAN'),
    ('DOUBLE', DataTypes.DOUBLE(), 'DOUBLE', 'DOUBLE'),
    ('FLOAT', DataTypes.FLOAT(), 'FLOAT', 'FLOAT'),
    ('DECIMAL(10,2)', DataTypes.DECIMAL(10, 2), 'DECIMAL(10, 2)', 'DECIMAL(10,2)'),
    ('DECIMAL', DataTypes.DECIMAL(10, 0), 'DECIMAL(10, 0)', 'DECIMAL(10,0)'),
    ('DATE', DataTypes.DATE(), 'DATE', 'DATE'),
    ('TIMESTAMP(3)', DataTypes.TIMESTAMP(3), 'TIMESTAMP(3)', 'TIMESTAMP_NTZ'),
    ('TIMESTAMP', DataTypes.TIMESTAMP(6), 'TIMESTAMP(6)', 'TIMESTAMP_NTZ'),
    ('TIMESTAMP(3) WITH LOCAL TIME ZONE', DataTypes.TIMESTAMP_LTZ(3), 'TIMESTAMP_LTZ(3)',
     'TIMESTAMP'),
    ('TIMESTAMP_LTZ(3)', DataTypes.TIMESTAMP_LTZ(3), 'TIMESTAMP_LTZ(3)', 'TIMESTAMP'),
    ('BYTES', DataTypes.BYTES(), 'BYTES', 'BINARY'),
    ('ARRAY<INT NOT NULL>', DataTypes.ARRAY(DataTypes.INT(False)), 'ARRAY<INT NOT NULL>',
     'ARRAY<INT>'),
    ('MAP<STRING, BIGINT>', DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT()),
     'MAP<STRING, BIGINT>', 'MAP<STRING,BIGINT>'),
    ('ROW<a INT, `b c` STRING>', DataTypes.ROW([DataTypes.FIELD('a', DataTypes.INT()),
                                                DataTypes.FIELD('b c', DataTypes.STRING())]),
     'ROW<`a` INT, `b c` STRING>', 'STRUCT<`a`:INT,`b c`:STRING>'),
]


@pytest.mark.parametrize('text, data_type, flink, spark', CASES)
def test_type_strings(text, data_type, flink, spark):
    dt = to_data_type(text)
    assert repr(dt) == repr(data_type)
    assert flink_type_string(dt) == flink
    assert to_spark_type(text) == spark


def test_time_has_no_spark_column_type():
    assert flink_type_string(to_data_type('TIME')) == 'TIME(0)'
    with pytest.raises(UnsupportedSqlError, match='TIME'):
        to_spark_type('TIME')      # Spark 4.x: [UNSUPPORTED_TIME_TYPE]


@pytest.mark.parametrize('text', ['INTERVAL SECOND', 'RAW', 'MULTISET<INT>', 'INT INT'])
def test_unknown_types_are_refused(text):
    with pytest.raises(UnsupportedSqlError):
        to_data_type(text)
