"""Flink SQL for pyflink_on_spark's Table API: parsing, types, the datagen connector and the
translation of queries to Spark SQL. Pure Python (sqlglot for query parsing); no Spark here.

Statements
    parse_statement(sql) -> CreateTable | CreateView | DropTable | DropView | Insert | Query
        CreateTable(name, columns, watermark, primary_key, options, temporary,
                    if_not_exists, partition_keys, comment)
            columns: Column(name, data_type, expression, metadata, comment), data_type in
            Flink's summary form ('INT NOT NULL', 'TIMESTAMP(3)', 'ROW<`a` INT>'), None for a
            computed column (`name AS expression`, expression its SQL text); metadata a
            Metadata(key, virtual) for `METADATA [FROM 'key'] [VIRTUAL]`.
            watermark: Watermark(column, expression) or None. Primary key columns are made
            NOT NULL, as Flink does. options: dict of the WITH clause.
        CreateView(name, query, temporary, if_not_exists, column_names)
        DropTable / DropView(name, temporary, if_exists)
        Insert(target, query, overwrite, column_names)
        Query(sql)
    Anything else (ALTER, SHOW, CREATE FUNCTION, CTAS, LIKE, ...) raises UnsupportedSqlError
    naming it; statements Flink rejects raise SqlValidationError in Flink's words.

Types
    to_data_type(type_string) -> the shim's DataType (pyflink_on_spark.table.types)
    to_spark_type(type_string) -> a Spark SQL type string (TIMESTAMP(p) -> TIMESTAMP_NTZ,
        TIMESTAMP_LTZ(p) -> TIMESTAMP, CHAR/VARCHAR -> STRING, BYTES -> BINARY,
        ROW<...> -> STRUCT<...>; TIME has no Spark column type: UnsupportedSqlError)
    flink_type_string(data_type) -> Flink's summary form

datagen
    datagen_rows(create_table, subtask_index, parallelism, seed=None) -> iterator of tuples
        of the physical columns, for one parallel subtask, as Flink splits sequences and
        number-of-rows (see datagen.py). Random values are not PyFlink's value for value.
    rows_per_second(create_table, subtask_index, parallelism) -> the pacing hint per subtask
    scan_parallelism(create_table) -> the `scan.parallelism` option or None: when set, the
        source runs (and splits its sequences) with that many subtasks
    validate_datagen(create_table) -> raises SqlValidationError for options Flink rejects

Queries
    to_spark_sql(query, tables) -> Spark SQL text with the same meaning
    translate_query(query, tables, functions=None) -> SparkQuery(sql, columns): also the
        result columns as
        (name, Flink type string, None where this layer does not derive Flink's type, e.g.
        DECIMAL arithmetic); unnamed expressions are named EXPR$<position> as in Flink
    tables maps each table / view name the query reads to its columns: (name, Flink type
    string) pairs or CreateTable columns with a type. The caller registers every input as a
    Spark temporary view of the same name; TIMESTAMP columns must be Spark TIMESTAMP_NTZ and
    TIMESTAMP_LTZ ones Spark TIMESTAMP (to_spark_type). Constructs without a faithful
    mapping raise UnsupportedSqlError naming them; see docs/table_sql.md.

Tables on Spark
    physical_schema_ddl(create_table) -> "`id` INT, `ts` TIMESTAMP_NTZ": the Spark schema of
        the physical columns (what a source's DataFrame holds)
    table_query(create_table, physical_view) -> SparkQuery selecting every column in declared
        order from a view of the physical columns, computed columns translated
    watermark_delay_millis(create_table) -> the WATERMARK's delay (`ts - INTERVAL '5' SECOND`
        is 5000, `ts` 0), None without one; other watermark expressions refused
"""
from pyflink_on_spark.table.sql.datagen import (
    datagen_rows, rows_per_second, scan_parallelism, validate_datagen)
from pyflink_on_spark.table.sql.ddl import parse_statement
from pyflink_on_spark.table.sql.errors import SqlValidationError, UnsupportedSqlError
from pyflink_on_spark.table.sql.flink_types import (
    flink_type_string, to_data_type, to_spark_type)
from pyflink_on_spark.table.sql.table_schema import physical_schema_ddl, watermark_delay_millis
from pyflink_on_spark.table.sql.statements import (
    Column, CreateTable, CreateView, DropTable, DropView, Insert, Metadata, Query, Watermark)
from typing import Mapping, Optional

# the query translation (and sqlglot) loads when first used: DDL and datagen need neither


def to_spark_sql(query: str, tables: Mapping) -> str:
    """A Flink SQL query as Spark SQL text with the same meaning (translate.py)."""
    from pyflink_on_spark.table.sql.translate import to_spark_sql as translate
    return translate(query, tables)


def translate_query(query: str, tables: Mapping, functions: Optional[Mapping] = None,
                    streaming: bool = False):
    """The query as a SparkQuery(sql, columns) (translate.py); `functions` the user-defined
    functions it may call (udf_calls.py FunctionSignature by lowercase name); `streaming`
    the environment's mode."""
    from pyflink_on_spark.table.sql.translate import translate_query as translate
    return translate(query, tables, functions, streaming)


def table_query(create_table: CreateTable, physical_view: str):
    """The table's columns in declared order over a view of its physical columns, computed
    columns translated (table_columns.py)."""
    from pyflink_on_spark.table.sql.table_columns import table_query as build
    return build(create_table, physical_view)


def __getattr__(name: str):
    if name == 'SparkQuery':
        from pyflink_on_spark.table.sql.translate import SparkQuery
        return SparkQuery
    raise AttributeError(name)

__all__ = ['parse_statement', 'CreateTable', 'CreateView', 'DropTable', 'DropView', 'Insert',
           'Query', 'Column', 'Metadata', 'Watermark', 'UnsupportedSqlError',
           'SqlValidationError', 'to_data_type', 'to_spark_type', 'flink_type_string',
           'datagen_rows', 'rows_per_second', 'scan_parallelism', 'validate_datagen',
           'to_spark_sql', 'table_query', 'physical_schema_ddl', 'watermark_delay_millis',
           'translate_query', 'SparkQuery']
