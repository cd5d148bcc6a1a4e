"""Group-by aggregates over a converted stream in BATCH mode: the final rows (row kind +I),
collected, to pandas, and as a changelog stream feeding the DataStream job."""
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.table import EnvironmentSettings, StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.set_runtime_mode(RuntimeExecutionMode.BATCH)
t_env = StreamTableEnvironment.create(env, EnvironmentSettings.in_batch_mode())

sales = env.from_collection(
    [('apple', 3, 0.5), ('pear', 1, 1.25), ('apple', 7, 0.5), ('plum', 2, 2.0),
     ('pear', 4, 1.0)],
    type_info=Types.ROW_NAMED(['product', 'amount', 'price'],
                              [Types.STRING(), Types.INT(), Types.DOUBLE()]))
t_env.create_temporary_view("sales", sales)

counts = t_env.sql_query(
    "SELECT product, COUNT(*) AS n, MAX(price) AS top FROM sales GROUP BY product "
    "ORDER BY product")
counts.print_schema()
with counts.execute().collect() as rows:
    for r in rows:
        print(repr(r), r.get_row_kind())
print(t_env.sql_query("SELECT product, AVG(price) AS p FROM sales GROUP BY product "
                      "ORDER BY p DESC").to_pandas())
changes = t_env.to_changelog_stream(counts)
changes.map(lambda r: '%s %s' % (r.get_row_kind(), r), output_type=Types.STRING()).print()
env.execute("batch_group_by")
