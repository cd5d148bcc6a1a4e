"""Inserts into TableDescriptors (an anonymous table of each, its columns the inserted
table's when the descriptor declares none) and StatementSet.attach_as_datastream (the
inserts run by the DataStream environment's execute()); from_pandas with a list of
DataTypes. Shapes of cc3213252/pyflink-learn's create_statement_set.py and
pandas_to_pyflink.py."""
import pandas as pd

from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, Schema, StreamTableEnvironment, TableDescriptor
from pyflink.table.expressions import col

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
numbers = t_env.from_descriptor(
    TableDescriptor.for_connector("datagen").option("number-of-rows", "3")
    .option("fields.a.kind", "sequence").option("fields.a.start", "1")
    .option("fields.a.end", "3")
    .schema(Schema.new_builder().column("a", DataTypes.INT()).build()).build())

# attached: env.execute() runs the insert (a descriptor with a schema of its own names)
statements = t_env.create_statement_set()
statements.add_insert(
    TableDescriptor.for_connector("print").option("print-identifier", "attached")
    .schema(Schema.new_builder().column("x", DataTypes.BIGINT()).build()).build(),
    numbers.select(col("a") * 10))
statements.attach_as_datastream()
env.execute("attached inserts")
print("after execute")

# execute_insert of a descriptor without a schema: the table's columns
numbers.where(col("a") > 1).execute_insert(
    TableDescriptor.for_connector("print").option("print-identifier", "direct").build()).wait()
print("anonymous tables listed:", t_env.list_tables(), t_env.list_temporary_tables())

frame = pd.DataFrame({"k": [1, 2, 1], "v": [2.0, 1.0, 3.0]})
typed = t_env.from_pandas(frame, [DataTypes.BIGINT(), DataTypes.DOUBLE()])
typed.print_schema()
print(sorted(tuple(r) for r in typed.execute().collect()))
