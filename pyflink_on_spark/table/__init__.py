"""pyflink.table in pyflink_on_spark: only the data types (DataTypes) that DataStream formats
take (CsvSchema, ParquetColumnarRowInputFormat, ParquetBulkWriters, OrcBulkWriters). The
Table API / SQL is not supported: use Spark SQL for relational work."""
from pyflink_on_spark.table.types import DataTypes

__all__ = ['DataTypes']


def __getattr__(name):
    if not name[:1].isupper():
        raise AttributeError(name)   # tools probe lowercase names (pytest_plugins, ...)
    # Table API classes: ImportError (not AttributeError) so that
    # `from pyflink.table import TableEnvironment` shows this text
    raise ImportError(
        "pyflink.table.%s is not supported by pyflink_on_spark: only DataTypes (for "
        "DataStream formats) exists; the Table API / SQL does not run on Spark here (use "
        "Spark SQL for relational work)." % name)
