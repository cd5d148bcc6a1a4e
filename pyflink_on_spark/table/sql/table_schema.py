"""A CreateTable on Spark without query translation: its physical columns as a Spark schema,
its watermark as a delay."""
import re
from typing import Optional

from pyflink_on_spark.table.sql.errors import SqlValidationError, UnsupportedSqlError
from pyflink_on_spark.table.sql.flink_types import spark_type_string, to_data_type
from pyflink_on_spark.table.sql.statements import CreateTable
from pyflink_on_spark.table.sql.windows import interval_millis

__all__ = ['physical_schema_ddl', 'watermark_delay_millis', 'quote']


def quote(name: str) -> str:
    return '`%s`' % name.replace('`', '``')


def physical_schema_ddl(table: CreateTable) -> str:
    """The physical columns as a Spark schema string ("`id` INT, `ts` TIMESTAMP_NTZ"), for
    the DataFrame a source delivers."""
    return ', '.join('%s %s' % (quote(c.name), spark_type_string(to_data_type(c.data_type)))
                     for c in table.physical_columns)


_WATERMARK = re.compile(r"\s*`?([^`\s]+)`?\s*(?:-\s*(INTERVAL\s+'[^']*'\s+\w+))?\s*",
                        re.IGNORECASE)


def watermark_delay_millis(table: CreateTable) -> Optional[int]:
    """The watermark's delay behind its column: `ts` is 0, `ts - INTERVAL '5' SECOND` 5000;
    None without a watermark. Other watermark expressions are refused."""
    if table.watermark is None:
        return None
    m = _WATERMARK.fullmatch(table.watermark.expression)
    if not m or m.group(1) != table.watermark.column:
        raise UnsupportedSqlError(
            "The watermark expression %r is not supported by pyflink_on_spark (write "
            "`%s` or `%s - INTERVAL 'n' SECOND`)" % (table.watermark.expression,
                                                     table.watermark.column,
                                                     table.watermark.column))
    delay = interval_millis(m.group(2)) if m.group(2) else 0
    if delay < 0:
        raise SqlValidationError('A watermark delay cannot be negative: %r'
                                 % table.watermark.expression)
    return delay
