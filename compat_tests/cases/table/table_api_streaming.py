"""Table API methods over a converted stream in STREAMING mode: group_by(...).select gives
Flink's changelog (+I / -U / +U, nothing when a group's result is unchanged), an inner join
of bounded streams gives +I rows (printed sorted: their order follows the inputs' arrival),
limit without order_by the first rows, and order_by / offset without fetch fail when the
query runs, in Flink's words."""
import re

from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment
from pyflink.table.expressions import col

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)

t = t_env.from_data_stream(env.from_collection(
    [Row(id=1, product='apple', amount=3, price=0.5),
     Row(id=2, product='pear', amount=1, price=1.25),
     Row(id=3, product='apple', amount=7, price=0.5),
     Row(id=4, product=None, amount=2, price=2.0),
     Row(id=5, product='plum', amount=None, price=2.0)],
    type_info=Types.ROW_NAMED(['id', 'product', 'amount', 'price'],
                              [Types.INT(), Types.STRING(), Types.INT(), Types.DOUBLE()])))
colors = t_env.from_data_stream(env.from_collection(
    [Row(nid=1, name='apple', color='red'), Row(nid=2, name='pear', color='green'),
     Row(nid=3, name='kiwi', color='brown')],
    type_info=Types.ROW_NAMED(['nid', 'name', 'color'],
                              [Types.INT(), Types.STRING(), Types.STRING()])))


def show(label, make, ordered=True):
    print('==', label)
    try:
        table = make()
        table.print_schema()
        with table.execute().collect() as rows:
            rows = ['%s %r' % (r.get_row_kind(), r) for r in rows]
    except Exception as e:
        found = re.search(r'(?:ValidationException|TableException): (.*)', str(e))
        print('error:', found.group(1) if found else str(e).splitlines()[0])
        return
    for r in (rows if ordered else sorted(rows)):
        print(r)


show('group_by', lambda: t.group_by(col('product')).select(
    col('product'), col('amount').sum, col('id').count, col('price').avg, col('amount').max))
show('no keys', lambda: t.select(col('amount').sum, col('price').max))
show('where group_by', lambda: t.where(col('price') < 2).group_by(col('product'))
     .select(col('product'), col('amount').sum.alias('total')))
show('join', lambda: t.join(colors, col('product') == col('name')).select(
    col('id'), col('name'), col('color')), ordered=False)
show('limit', lambda: t.limit(2))
show('order_by', lambda: t.order_by(col('amount').desc).select(col('id'), col('amount')))
show('offset', lambda: t.offset(2))
