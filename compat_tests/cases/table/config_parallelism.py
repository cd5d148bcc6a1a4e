"""The table config's parallelism.default (PyFlink's word_count example sets it to 1): the
table program's operators run at it, so a print table's lines have no subtask prefix, and a
grouping query's changelog comes in one subtask's order."""
from pyflink.table import (DataTypes, EnvironmentSettings, Schema, TableDescriptor,
                           TableEnvironment)
from pyflink.table.expressions import col, lit

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
words = t_env.from_elements([(w,) for w in "to be or not to be that is".split()], ['word'])
t_env.create_temporary_table('sink', TableDescriptor.for_connector('print').schema(
    Schema.new_builder().column('word', DataTypes.STRING())
    .column('n', DataTypes.BIGINT()).build()).build())
words.group_by(col('word')).select(col('word'), lit(1).count).execute_insert('sink').wait()
