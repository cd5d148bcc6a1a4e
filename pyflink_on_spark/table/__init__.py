"""pyflink.table in pyflink_on_spark: the Table API where DataStream programs reach for it,
run as Spark SQL (docs/table.md). The Table API's classes load when first named: DataStream
jobs whose formats only take DataTypes (CsvSchema, Parquet row types) load none of them.
Nothing here loads Spark or pandas: a table's result is computed through the executor's
entry point when it is asked for."""
import importlib

from pyflink_on_spark.table.types import DataTypes

__all__ = ['TableEnvironment', 'StreamTableEnvironment', 'Table', 'EnvironmentSettings',
           'TableConfig', 'GroupedTable', 'Schema', 'TableSchema', 'TableResult', 'Row',
           'RowKind', 'ResultKind', 'DataTypes', 'Expression', 'TableDescriptor',
           'FormatDescriptor',
           'ScalarFunction', 'TableFunction', 'AggregateFunction', 'TableAggregateFunction',
           'FunctionContext', 'ExplainDetail', 'ChangelogMode', 'ListView', 'MapView']

# name -> the module that defines it
_HOMES = {
    'TableEnvironment': 'table.table_environment',
    'StreamTableEnvironment': 'table.table_environment',
    'TableConfig': 'table.table_environment',
    'Table': 'table.table', 'GroupedTable': 'table.table',
    'EnvironmentSettings': 'table.environment_settings',
    'Schema': 'table.schema', 'TableSchema': 'table.schema',
    'TableResult': 'table.table_result', 'ResultKind': 'table.table_result',
    'Expression': 'table.expression', 'TableDescriptor': 'table.table_descriptor',
    'FormatDescriptor': 'table.table_descriptor',
    'Row': 'common.types', 'RowKind': 'common.types',
    'ScalarFunction': 'table.udf', 'TableFunction': 'table.udf',
    'AggregateFunction': 'table.udf', 'TableAggregateFunction': 'table.udf',
    'FunctionContext': 'table.udf',
    'ExplainDetail': 'table.explain_detail',
    'ChangelogMode': 'table.changelog_mode',
    'ListView': 'table.data_view', 'MapView': 'table.data_view',
}


def __getattr__(name):
    home = _HOMES.get(name)
    if home is not None:
        value = getattr(importlib.import_module("pyflink_on_spark." + home), name)
        globals()[name] = value
        return value
    if not name[:1].isupper():
        raise AttributeError(name)   # tools probe lowercase names (pytest_plugins, ...)
    # other Table API classes: ImportError (not AttributeError) so that
    # `from pyflink.table import ScalarFunction` shows this text
    raise ImportError(
        "pyflink.table.%s is not supported by pyflink_on_spark yet: the Table API runs "
        "tables of DataStreams, pandas frames and SQL queries over them on Spark SQL "
        "(docs/table.md lists what runs)." % name)


def __dir__():
    return sorted(set(globals()) | set(_HOMES))
