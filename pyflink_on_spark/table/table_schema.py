"""pyflink.table.table_schema: TableSchema (defined in table/schema.py)."""
from pyflink_on_spark.table.schema import TableSchema

__all__ = ['TableSchema']
