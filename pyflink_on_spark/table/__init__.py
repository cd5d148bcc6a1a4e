"""pyflink.table in pyflink_on_spark: the Table API where DataStream programs reach for it,
run as Spark SQL (docs/table.md). Nothing here loads Spark or pandas: a table's result is
computed through the executor's entry point when it is asked for."""
from pyflink_on_spark.common.types import Row, RowKind
from pyflink_on_spark.table.environment_settings import EnvironmentSettings
from pyflink_on_spark.table.expression import Expression
from pyflink_on_spark.table.schema import Schema, TableSchema
from pyflink_on_spark.table.table import GroupedTable, Table
from pyflink_on_spark.table.table_descriptor import TableDescriptor
from pyflink_on_spark.table.table_environment import (StreamTableEnvironment, TableConfig,
                                                      TableEnvironment)
from pyflink_on_spark.table.table_result import ResultKind, TableResult
from pyflink_on_spark.table.types import DataTypes

__all__ = ['TableEnvironment', 'StreamTableEnvironment', 'Table', 'EnvironmentSettings',
           'TableConfig', 'GroupedTable', 'Schema', 'TableSchema', 'TableResult', 'Row',
           'RowKind', 'ResultKind', 'DataTypes', 'Expression', 'TableDescriptor']


def __getattr__(name):
    if not name[:1].isupper():
        raise AttributeError(name)   # tools probe lowercase names (pytest_plugins, ...)
    # other Table API classes: ImportError (not AttributeError) so that
    # `from pyflink.table import ScalarFunction` shows this text
    raise ImportError(
        "pyflink.table.%s is not supported by pyflink_on_spark yet: the Table API runs "
        "tables of DataStreams, pandas frames and SQL queries over them on Spark SQL "
        "(docs/table.md lists what runs)." % name)
