"""A CreateTable's physical schema on Spark, its computed columns translated, its watermark."""
import pytest

from pyflink_on_spark.table.sql import (
    UnsupportedSqlError, parse_statement, physical_schema_ddl, table_query,
    watermark_delay_millis)

SRC = parse_statement(
    "CREATE TABLE src (id INT, name STRING, ts AS TO_TIMESTAMP_LTZ(id * 1000 + 500, 3), "
    "half AS id / 2, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = "
    "'datagen')")


def test_physical_schema_and_computed_columns():
    assert physical_schema_ddl(SRC) == '`id` INT, `name` STRING'
    query = table_query(SRC, 'src_physical')
    assert query.sql == (
        'SELECT `id` AS `id`, `name` AS `name`, TIMESTAMP_MILLIS(%s) AS `ts`, '
        'CAST((`id`) DIV (2) AS INT) AS `half` FROM `src_physical`' % (
            # INT arithmetic wraps as Java's (arithmetic.py): the BIGINT value wrapped
            'CAST(PMOD(PMOD(CAST(%s AS BIGINT) + CAST(500 AS BIGINT), 4294967296) + '
            '2147483648, 4294967296) - 2147483648 AS INT)' % (
                'CAST(PMOD(PMOD(CAST(`id` AS BIGINT) * CAST(1000 AS BIGINT), 4294967296) + '
                '2147483648, 4294967296) - 2147483648 AS INT)')))
    assert query.columns == (('id', 'INT'), ('name', 'STRING'), ('ts', 'TIMESTAMP_LTZ(3)'),
                             ('half', 'INT'))


@pytest.mark.parametrize('expression, delay', [
    ('ts', 0), ("ts - INTERVAL '5' SECOND", 5000), ("`ts` - INTERVAL '2' MINUTE", 120000)])
def test_watermark_delays(expression, delay):
    table = parse_statement("CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS %s) "
                            "WITH ()" % expression)
    assert watermark_delay_millis(table) == delay


def test_other_watermarks_and_metadata_are_refused():
    assert watermark_delay_millis(parse_statement('CREATE TABLE t (a INT) WITH ()')) is None
    with pytest.raises(UnsupportedSqlError, match='watermark expression'):
        watermark_delay_millis(parse_statement(
            "CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts + INTERVAL '1' SECOND) "
            "WITH ()"))
    with pytest.raises(UnsupportedSqlError, match='Metadata columns'):
        table_query(parse_statement('CREATE TABLE t (a INT, m INT METADATA) WITH ()'), 'v')
