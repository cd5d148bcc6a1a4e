"""Table API methods over converted streams in BATCH mode: group_by(...).select with
aggregate expressions (names EXPR$n / _cN, types, NULL groups), joins (inner, cross, outer
with NULL padding), order_by / offset / fetch / limit (NULLs last ascending, first
descending), add / replace / rename / drop columns, union / minus / intersect [all],
expression methods, and Flink's errors for bad calls. Rows whose order Flink does not define
are printed sorted."""
import re

from pyflink.common import Row, Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.table import DataTypes, EnvironmentSettings, StreamTableEnvironment
from pyflink.table.expressions import call, coalesce, col, concat, if_then_else, lit

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.set_runtime_mode(RuntimeExecutionMode.BATCH)
t_env = StreamTableEnvironment.create(env, EnvironmentSettings.in_batch_mode())

orders = t_env.from_data_stream(env.from_collection(
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
a = t_env.from_data_stream(env.from_collection(
    [(1, 'x'), (2, 'y'), (2, 'y'), (3, 'z')], type_info=Types.TUPLE([Types.INT(), Types.STRING()])))
b = t_env.from_data_stream(env.from_collection(
    [(2, 'y'), (3, 'z'), (3, 'z'), (4, 'w')], type_info=Types.TUPLE([Types.INT(), Types.STRING()])))


def show(label, make, ordered=False):
    print('==', label)
    try:
        table = make()
        table.print_schema()
        with table.execute().collect() as rows:
            rows = [repr(r) for r in rows]
    except Exception as e:
        found = re.search(r'(?:ValidationException|TableException): (.*)', str(e))
        print('error:', found.group(1) if found else str(e).splitlines()[0])
        return
    for r in (rows if ordered else sorted(rows)):
        print(r)


t = orders
show('group_by', lambda: t.group_by(col('product')).select(
    col('product'), col('amount').sum, col('id').count, col('price').avg, col('amount').max,
    col('amount').min))
show('group_by names', lambda: t.group_by(t.product, t.price).select(
    col('amount').sum.alias('s'), col('amount').sum + 1, col('price').max,
    col('id').count.distinct, t.price))
show('no keys', lambda: t.select(col('amount').sum, col('price').max, col('amount').sum.distinct))
show('ungrouped column', lambda: t.group_by(col('product')).select(col('product'), col('id')))
show('ungrouped with aggregate', lambda: t.group_by(col('product')).select(
    col('id'), col('amount').sum))
show('unknown column', lambda: t.select(col('nope').sum))

show('join', lambda: t.join(colors, col('product') == col('name')).select(
    col('id'), col('name'), col('color')))
show('left outer join', lambda: t.left_outer_join(colors, col('product') == col('name')))
show('right outer join', lambda: t.right_outer_join(colors, col('product') == col('name'))
     .select(col('id'), col('nid'), col('color')))
show('full outer join', lambda: t.full_outer_join(
    colors, (col('id') == col('nid')) & (col('amount') > 1)).select(col('id'), col('name')))
show('ambiguous join', lambda: t.join(t))

show('order_by desc', lambda: t.order_by(col('amount').desc).select(col('id'), col('amount')),
     ordered=True)
show('order_by two fetch', lambda: t.order_by(col('product'), col('id').desc).fetch(3)
     .select(col('id'), col('product')), ordered=True)
show('limit offset', lambda: t.order_by(col('amount')).limit(3, 1).select(col('id')),
     ordered=True)
show('offset alone', lambda: t.order_by(col('id')).offset(2))
show('fetch twice', lambda: t.order_by(col('id')).fetch(2).fetch(1))

show('add_columns', lambda: t.add_columns((col('amount') + 1).alias('a1'),
                                          concat(col('product'), '!').alias('p2'),
                                          col('amount') * 2))
show('replace rename drop', lambda: t.add_or_replace_columns(
    (col('amount') * 10).alias('amount'), lit(1).alias('one'))
     .rename_columns(col('id').alias('key')).drop_columns(col('price')))
show('add existing', lambda: t.add_columns(col('amount').alias('id')))
show('rename unknown', lambda: t.rename_columns(col('nope').alias('x')))
show('drop unknown', lambda: t.drop_columns(col('nope')))

show('union', lambda: a.union(b))
show('minus_all', lambda: a.minus_all(b))
show('intersect', lambda: a.intersect(b))
show('union sizes', lambda: a.union(colors))

show('expressions', lambda: t.select(
    col('id'), col('amount').cast(DataTypes.BIGINT()), col('price').cast(DataTypes.STRING()),
    col('amount').between(2, 5), col('id').in_(1, 3, 5), col('amount').not_between(2, 5),
    if_then_else(col('amount') > 2, 'big', 'small'), (col('amount') > 2).then(1, 0),
    col('product').upper_case, col('product').char_length, col('product').substring(2, 3),
    col('price').round(0), col('amount') ** 2, -col('amount'), col('amount').if_null(0),
    col('product').like('p%'), ~(col('amount') > 2), col('product') + 'x'))
show('more expressions', lambda: t.select(
    call('UPPER', col('product')), call('ABS', col('amount') - 5), coalesce(col('amount'), 0),
    col('product').replace('a', 'A'), col('amount') / 2, col('price').floor(),
    col('price').ceil(), col('amount').is_null, (col('amount') > 2).is_true,
    col('amount') % 2, col('amount').try_cast(DataTypes.STRING()),
    col('amount').cast(DataTypes.BIGINT()).cast(DataTypes.STRING()),
    col('amount').alias('x').cast(DataTypes.DOUBLE())))
show('typed literal', lambda: t.select(lit(5, DataTypes.BIGINT())))
