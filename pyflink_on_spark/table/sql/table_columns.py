"""A CreateTable's full row on Spark: the physical columns as a source delivers them, plus the
computed columns translated like any query expression."""
from pyflink_on_spark.table.sql.errors import UnsupportedSqlError
from pyflink_on_spark.table.sql.statements import CreateTable
from pyflink_on_spark.table.sql.table_schema import quote
from pyflink_on_spark.table.sql.translate import SparkQuery, translate_query

__all__ = ['table_query']


def table_query(table: CreateTable, physical_view: str) -> SparkQuery:
    """Spark SQL selecting the table's columns in declared order from a view holding its
    physical columns: computed columns (`c AS expr`) translated as query expressions, with
    their Flink types. Metadata columns are refused (no source here provides them)."""
    if any(c.metadata is not None for c in table.columns):
        raise UnsupportedSqlError('Metadata columns (%s) are not supported by pyflink_on_spark'
                                  % ', '.join(c.name for c in table.columns
                                              if c.metadata is not None))
    physical = [(c.name, c.data_type) for c in table.physical_columns]
    items = []
    for c in table.columns:
        items.append(quote(c.name) if c.is_physical
                     else '%s AS %s' % (c.expression, quote(c.name)))
    query = 'SELECT %s FROM %s' % (', '.join(items), quote(physical_view))
    return translate_query(query, {physical_view: physical})
