"""create_temporary_view of streams and tables, sql_query projections and filters over them,
select / where / filter with expressions; results collected."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment
from pyflink.table.expressions import col, lit

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)

orders = env.from_collection(
    [Row(id=1, product='apple', amount=3, price=0.5),
     Row(id=2, product='pear', amount=1, price=1.25),
     Row(id=3, product='apple', amount=7, price=0.5),
     Row(id=4, product='plum', amount=2, price=2.0)],
    type_info=Types.ROW_NAMED(['id', 'product', 'amount', 'price'],
                              [Types.INT(), Types.STRING(), Types.INT(), Types.DOUBLE()]))
t_env.create_temporary_view("orders", orders)
print(t_env.list_temporary_views())


def show(table):
    table.print_schema()
    with table.execute().collect() as rows:
        for r in rows:
            print(repr(r))


show(t_env.sql_query("SELECT id, product FROM orders WHERE amount > 1"))
show(t_env.sql_query("SELECT product, amount * price AS total FROM orders WHERE product <> 'pear'"))
show(t_env.sql_query("SELECT id, UPPER(product) AS p, amount + 1 AS a FROM orders WHERE id IN (2, 4)"))
big = t_env.sql_query("SELECT * FROM orders WHERE amount >= 2")
t_env.create_temporary_view("big", big)
show(t_env.sql_query("SELECT id FROM big WHERE price < 1"))
table = t_env.from_path("orders")
show(table.where(col('id') > 1).select(col('product'), col('amount') * 2))
show(table.filter(col('product') == 'apple').select(col('id'), (col('price') + lit(1)).alias('p1')))
show(table.where((col('amount') > 1) & (col('price') > 1)))
res = t_env.execute_sql("SELECT id, amount FROM orders WHERE price = 0.5")
print(res.get_table_schema())
with res.collect() as rows:
    print([repr(r) for r in rows])
t_env.drop_temporary_view("big")
print(t_env.list_temporary_views())
