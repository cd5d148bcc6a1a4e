"""parse_statement: Flink's DDL grammar, and Flink's own words for DDL it rejects (seen on
PyFlink 1.20.5)."""
import pytest

from pyflink_on_spark.table.sql import (
    Column, CreateTable, CreateView, DropTable, DropView, Insert, Metadata, Query,
    SqlValidationError, UnsupportedSqlError, Watermark, parse_statement)

FULL_DDL = """CREATE TEMPORARY TABLE IF NOT EXISTS `my tab` (
  id INT PRIMARY KEY NOT ENFORCED, -- the key
  `name` VARCHAR(10) COMMENT 'n',
  ts TIMESTAMP(3),
  cost AS price * 2,
  price DECIMAL(10,2),
  part BIGINT METADATA FROM 'partition' VIRTUAL,
  offs BIGINT METADATA,
  ltz TIMESTAMP(3) WITH LOCAL TIME ZONE,
  r ROW<x INT, `y z` STRING>,
  /* a watermark */ WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) COMMENT 'c' WITH ('connector' = 'datagen', 'fields.id.kind'='sequence', 'x'='it''s');"""


def test_create_table_reads_every_column_kind_and_clause():
    t = parse_statement(FULL_DDL)
    assert isinstance(t, CreateTable)
    assert (t.name, t.temporary, t.if_not_exists, t.comment) == ('my tab', True, True, 'c')
    assert t.columns == (
        Column('id', 'INT NOT NULL'),          # Flink makes primary key columns NOT NULL
        Column('name', 'VARCHAR(10)', comment='n'),
        Column('ts', 'TIMESTAMP(3)'),
        Column('cost', None, 'price * 2'),
        Column('price', 'DECIMAL(10, 2)'),
        Column('part', 'BIGINT', metadata=Metadata('partition', True)),
        Column('offs', 'BIGINT', metadata=Metadata(None, False)),
        Column('ltz', 'TIMESTAMP_LTZ(3)'),
        Column('r', 'ROW<`x` INT, `y z` STRING>'))
    assert t.watermark == Watermark('ts', "ts - INTERVAL '5' SECOND")
    assert t.primary_key == ('id',)
    assert t.options == {'connector': 'datagen', 'fields.id.kind': 'sequence', 'x': "it's"}
    assert [c.name for c in t.physical_columns] == ['id', 'name', 'ts', 'price', 'ltz', 'r']


def test_table_level_primary_key_and_partitions():
    t = parse_statement("CREATE TABLE db.t (a INT, b STRING, CONSTRAINT pk PRIMARY KEY (a, b) "
                        "NOT ENFORCED) PARTITIONED BY (b) WITH ()")
    assert (t.name, t.primary_key, t.partition_keys, t.options) == ('db.t', ('a', 'b'), ('b',),
                                                                   {})


def test_other_statements():
    assert parse_statement('CREATE TEMPORARY VIEW v (x) AS SELECT 1') == \
        CreateView('v', 'SELECT 1', True, False, ('x',))
    assert parse_statement('DROP TABLE IF EXISTS t') == DropTable('t', False, True)
    assert parse_statement('DROP TEMPORARY VIEW v') == DropView('v', True, False)
    assert parse_statement('INSERT INTO sink SELECT * FROM t') == \
        Insert('sink', 'SELECT * FROM t')
    assert parse_statement('INSERT OVERWRITE sink (a) VALUES (1)') == \
        Insert('sink', 'VALUES (1)', True, ('a',))
    assert parse_statement('  select 1 ;') == Query('select 1')
    assert parse_statement('WITH c AS (SELECT 1) SELECT * FROM c') == \
        Query('WITH c AS (SELECT 1) SELECT * FROM c')


@pytest.mark.parametrize('sql, named', [
    ('SHOW TABLES', 'SHOW TABLES'), ('ALTER TABLE t RENAME TO u', 'ALTER TABLE'),
    ("CREATE FUNCTION f AS 'x.Y'", 'CREATE FUNCTION'), ('USE CATALOG c', 'USE CATALOG'),
    ("CREATE TABLE t WITH ('connector'='blackhole') AS SELECT 1", 'CTAS'),
    ('CREATE TABLE t (a INT) LIKE u', 'LIKE'), ('EXPLAIN SELECT 1', 'EXPLAIN')])
def test_unsupported_statements_are_named(sql, named):
    with pytest.raises(UnsupportedSqlError, match=named):
        parse_statement(sql)


@pytest.mark.parametrize('sql, message', [
    ("CREATE TABLE a4 (id INT, WATERMARK FOR ts AS ts) WITH ('connector'='datagen')",
     "The rowtime attribute field 'ts' is not defined in the table schema, at line 1, "
     "column 40"),
    ("CREATE TABLE a6 (id INT, PRIMARY KEY (nope) NOT ENFORCED) WITH ('connector'='datagen')",
     "Primary key column 'nope' is not defined in the schema at line 1, column 39"),
    ("CREATE TABLE a5 (id INT, id STRING) WITH ('connector'='datagen')",
     "A regular Column named 'id' already exists in the table."),
    ("CREATE TABLE a7 (ts TIMESTAMP(3), WATERMARK FOR ts AS ts, WATERMARK FOR ts AS ts) "
     "WITH ('connector'='datagen')", 'Multiple WATERMARK statements is not supported yet.'),
    ("CREATE TABLE a8 (id INT PRIMARY KEY NOT ENFORCED, PRIMARY KEY (id) NOT ENFORCED) WITH "
     "('connector'='datagen')", 'Duplicate primary key definition'),
    ("CREATE TABLE a2 (id INT PRIMARY KEY) WITH ('connector'='datagen')",
     "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint"),
    ('SELECT 1; SELECT 2', 'only single statement supported'),
])
def test_flink_rejections_in_flinks_words(sql, message):
    with pytest.raises(SqlValidationError) as info:
        parse_statement(sql)
    assert str(info.value).startswith(message)


def test_position_counts_lines():
    sql = "CREATE TABLE a (\n  id INT,\n  WATERMARK FOR ts AS ts) WITH ()"
    with pytest.raises(SqlValidationError, match='at line 3, column 17'):
        parse_statement(sql)


def test_unterminated_string_is_a_parse_error():
    with pytest.raises(UnsupportedSqlError, match='unterminated string'):
        parse_statement("CREATE TABLE t (a INT) WITH ('k' = 'v)")
