"""A DataStream program that imports the Table API and creates a StreamTableEnvironment it
never uses (issue 44, pattern 4): the import and the creation must work."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import (DataTypes, EnvironmentSettings, Row, RowKind, Schema,
                           StreamTableEnvironment, Table, TableEnvironment)

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
t_env2 = StreamTableEnvironment.create(env, environment_settings=EnvironmentSettings.in_streaming_mode())
settings = EnvironmentSettings.new_instance().in_batch_mode().build()
print(settings.is_streaming_mode(), EnvironmentSettings.in_streaming_mode().is_streaming_mode())
print(settings.get_built_in_catalog_name(), settings.get_built_in_database_name())
print(t_env.get_current_catalog(), t_env.get_current_database())
schema = Schema.new_builder().column("id", DataTypes.INT()).column("name", DataTypes.STRING()).build()
print(isinstance(t_env, TableEnvironment), Table.__name__)
row = Row(1, "a")
print(row.get_row_kind(), RowKind.UPDATE_AFTER, Row.of_kind(RowKind.DELETE, 1, "a"))
env.from_collection([1, 2, 3], type_info=Types.INT()).map(lambda x: x * 10, Types.INT()).print()
env.execute("table_import_only")
