"""A datagen table (DDL and TableDescriptor) as the source of a DataStream job (issue 44,
pattern 1): sequences for deterministic rows, number-of-rows, a computed column, a query over
it, to_data_stream / to_append_stream into DataStream operators."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, Schema, StreamTableEnvironment, TableDescriptor

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(stream_execution_environment=env)

t_env.execute_sql("""
    CREATE TABLE orders (
        id BIGINT,
        amount INT,
        code STRING,
        total AS amount * 10
    ) WITH (
        'connector' = 'datagen',
        'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '8',
        'fields.amount.kind' = 'sequence', 'fields.amount.start' = '100',
        'fields.amount.end' = '200',
        'fields.code.kind' = 'sequence', 'fields.code.start' = '7', 'fields.code.end' = '20'
    )""")
orders = t_env.from_path("orders")
orders.print_schema()
ds = t_env.to_data_stream(orders)
ds.map(lambda r: "%d %d %s %d" % (r.id, r.amount, r.code, r.total),
       output_type=Types.STRING()).print()
env.execute("datagen ddl")

t_env.create_temporary_table(
    "numbers",
    TableDescriptor.for_connector("datagen")
                   .schema(Schema.new_builder()
                           .column("n", DataTypes.INT())
                           .column("flag", DataTypes.BOOLEAN())
                           .build())
                   .option("fields.n.kind", "sequence")
                   .option("fields.n.start", "1")
                   .option("fields.n.end", "100")
                   .option("number-of-rows", "6")
                   .build())
numbers = t_env.from_path("numbers")
numbers.print_schema()
odd = t_env.sql_query("SELECT n, n * n AS square FROM numbers WHERE MOD(n, 2) = 1")
appended = t_env.to_append_stream(odd, Types.TUPLE([Types.INT(), Types.INT()]))
appended.key_by(lambda t: t[0] % 2).reduce(lambda a, b: (b[0], a[1] + b[1])).print()
env.execute("datagen descriptor")
with t_env.execute_sql("SELECT COUNT(*) AS c FROM numbers").collect() as rows:
    print([r.get_row_kind().name for r in rows])
print(t_env.execute_sql("DROP TEMPORARY TABLE numbers").get_result_kind())
print(t_env.list_temporary_tables())
