"""The Flink SQL the relational Table methods write (table/table_queries.py), the columns
they give and Flink's errors for bad calls (as seen on PyFlink 1.20.5). No Spark runs:
tables of streams know their columns, queries are typed by the SQL translator."""
import re

import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.table import EnvironmentSettings, StreamTableEnvironment
from pyflink_on_spark.table.expressions import call, coalesce, col, concat, if_then_else, lit
from pyflink_on_spark.table.table_queries import java_hash_order
from pyflink_on_spark.table.types import DataTypes
from pyflink_on_spark.util.exceptions import TableException


def _tables(batch=True):
    env = StreamExecutionEnvironment.get_execution_environment()
    t_env = StreamTableEnvironment.create(
        env, EnvironmentSettings.in_batch_mode() if batch else None)
    orders = t_env.from_data_stream(env.from_collection(
        [(1, 'apple', 3, 0.5)],
        type_info=Types.ROW_NAMED(['id', 'product', 'amount', 'price'],
                                  [Types.INT(), Types.STRING(), Types.INT(),
                                   Types.DOUBLE()])))
    names = t_env.from_data_stream(env.from_collection(
        [(1, 'apple')], type_info=Types.TUPLE([Types.INT(), Types.STRING()]))) \
        .alias('nid', 'name')
    translated = t_env._translated

    def recording(query, inputs):      # keeps the Flink SQL a method wrote, on its table
        table = translated(query, inputs)
        table.flink_sql = query
        return table
    t_env._translated = recording
    return orders, names


def _schema(table):
    return [(c.name, c.sql_type + ('' if c.nullable else ' NOT NULL'))
            for c in table._resolved_columns()]


def _sql(table):
    return table.flink_sql


def test_grouped_select_names_aggregates_as_flink_does():
    t, _ = _tables()
    grouped = t.group_by(col('product')).select(
        col('product'), col('amount').sum.alias('s'), col('amount').sum + 1,
        col('id').count.distinct, col('price').avg, col('amount').max)
    assert _sql(grouped).startswith(
        "SELECT `product` AS `product`, SUM(`amount`) AS `s`, (SUM(`amount`) + 1) AS `_c2`, "
        "COUNT(DISTINCT `id`) AS `EXPR$1`, AVG(`price`) AS `EXPR$2`, MAX(`amount`) AS "
        "`EXPR$3` FROM") and _sql(grouped).endswith("GROUP BY `product`")
    assert _schema(grouped) == [('product', 'STRING'), ('s', 'INT'), ('_c2', 'INT'),
                                ('EXPR$1', 'BIGINT NOT NULL'), ('EXPR$2', 'DOUBLE'),
                                ('EXPR$3', 'INT')]
    # an aggregate select without group_by is one group
    assert _schema(t.select(col('amount').sum, col('price').max)) == [
        ('EXPR$0', 'INT'), ('EXPR$1', 'DOUBLE')]
    # the table's attribute gives the column, as in PyFlink (t.amount)
    assert _schema(t.group_by(t.product).select(t.amount.count)) == [
        ('EXPR$0', 'BIGINT NOT NULL')]


def test_unknown_and_ungrouped_columns_fail_in_flinks_words():
    t, _ = _tables()
    with pytest.raises(ValueError, match=r"^Cannot resolve field \[nope\], input field "
                       r"list:\[id, product, amount, price\]\.$"):
        t.group_by(col('product')).select(col('product'), col('nope').sum)
    with pytest.raises(ValueError, match=r"^Cannot resolve field \[price\], input field "
                       r"list:\[product\]\.$"):
        t.group_by(col('product')).select(col('product'), col('price'))
    with pytest.raises(ValueError, match=r"Cannot resolve field \[x\]"):
        t.where(col('x') > 1)
    with pytest.raises(AttributeError, match="no column named 'x'"):
        t.x


def test_joins_write_flink_joins_and_refuse_shared_names():
    t, n = _tables()
    joined = t.join(n, col('product') == col('name'))
    assert " INNER JOIN " in _sql(joined) and _sql(joined).endswith(
        "ON (`product` = `name`)")
    assert [c for c, _ in _schema(joined)] == ['id', 'product', 'amount', 'price', 'nid',
                                               'name']
    assert "CROSS JOIN" in _sql(t.join(n))
    assert _sql(t.left_outer_join(n)).endswith(" ON TRUE")
    assert " FULL JOIN " in _sql(t.full_outer_join(n, col('id') == col('nid')))
    assert " LEFT JOIN " in _sql(t.left_outer_join(
        n, (col('id') == col('nid')) & (col('amount') > 1)))
    with pytest.raises(ValueError, match=r"^Invalid join condition: \(`id` = \(`nid` \+ 2\)\)"
                       r"\. At least one equi-join predicate is required\.$"):
        t.full_outer_join(n, col('id') == col('nid') + 2)
    with pytest.raises(ValueError, match="equi-join"):
        t.right_outer_join(n, col('id') == col('amount'))
    with pytest.raises(ValueError, match=r"^join relations with ambiguous names: "
                       r"\[product, amount, price, id\]$"):
        t.join(t)
    assert java_hash_order(['id', 'product', 'amount', 'price']) == [
        'product', 'amount', 'price', 'id']


def test_streaming_refuses_outer_joins_set_operations_and_top_n_by_name():
    t, n = _tables(batch=False)
    assert " INNER JOIN " in _sql(t.join(n, col('id') == col('nid')))
    with pytest.raises(NotImplementedError, match="left_outer_join in STREAMING mode"):
        t.left_outer_join(n, col('id') == col('nid'))
    with pytest.raises(NotImplementedError, match="minus in STREAMING mode"):
        t.select(col('id')).minus(n.select(col('nid')))
    with pytest.raises(NotImplementedError, match="Top-N"):
        t.order_by(col('id')).fetch(2)
    # what PyFlink refuses only when it runs, refused when it runs (Flink's words)
    with pytest.raises(TableException, match="Sort on a non-time-attribute field is not "
                       "supported."):
        t.order_by(col('id')).select(col('id')).execute()
    with pytest.raises(TableException, match="FETCH is missed"):
        t.offset(1).to_pandas()
    assert _sql(t.limit(2)).endswith("LIMIT 2")


def test_sorting_offset_and_fetch_make_one_query():
    t, _ = _tables()
    assert _sql(t.order_by(col('amount').desc, col('id')).offset(1).fetch(2)).endswith(
        "ORDER BY `amount` DESC NULLS FIRST, `id` ASC NULLS LAST LIMIT 2 OFFSET 1")
    assert _sql(t.limit(3, 1)).endswith("LIMIT 3 OFFSET 1")
    with pytest.raises(TableException, match="Not support limitEnd is max value now!"):
        t.order_by(col('id')).offset(2).execute()
    with pytest.raises(ValueError, match="FETCH is already defined."):
        t.order_by(col('id')).fetch(2).fetch(1)


def test_set_operations_and_column_operations():
    t, n = _tables()
    two = t.select(col('id'), col('product'))
    assert " EXCEPT ALL SELECT " in _sql(two.minus_all(n))
    assert " INTERSECT SELECT " in _sql(two.intersect(n))
    assert " UNION SELECT " in _sql(two.union(n))
    with pytest.raises(ValueError, match="^The union operation on two tables of different "
                       "column sizes: 4 and 2 is not supported$"):
        t.union(n)
    added = t.add_columns((col('amount') + 1).alias('a1'), col('amount') * 2)
    assert [c for c, _ in _schema(added)][4:] == ['a1', '_c5']
    with pytest.raises(ValueError, match="^Ambiguous column name: id$"):
        t.add_columns(col('amount').alias('id'))
    replaced = t.add_or_replace_columns((col('amount') * 10).alias('amount'),
                                        lit(1).alias('one'))
    assert _schema(replaced) == [('id', 'INT'), ('product', 'STRING'), ('amount', 'INT'),
                                 ('price', 'DOUBLE'), ('one', 'INT NOT NULL')]
    assert [c for c, _ in _schema(t.rename_columns(col('id').alias('key')))] == [
        'key', 'product', 'amount', 'price']
    with pytest.raises(ValueError, match=r"^Cannot resolve field \[nope\]"):
        t.rename_columns(col('nope').alias('x'))
    assert [c for c, _ in _schema(t.drop_columns(col('price'), col('amount')))] == [
        'id', 'product']
    with pytest.raises(ValueError, match="^Field nope does not exist in source table$"):
        t.drop_columns(col('nope'))


def test_expression_methods_and_their_types():
    t, _ = _tables()
    table = t.select(
        col('amount').cast(DataTypes.BIGINT()), col('amount').between(2, 5),
        col('id').in_(1, 3), if_then_else(col('amount') > 2, 'big', 'small'),
        (col('amount') > 2).then(1, 0), col('amount').if_null(0), ~(col('amount') > 2),
        col('amount') % 2, col('product').upper_case, col('product').substring(2, 3),
        call('UPPER', col('product')), coalesce(col('amount'), 0), col('price').floor(),
        concat(col('product'), '!'), col('amount') ** 2, col('amount').is_null,
        col('product') + 'x')
    assert _schema(table) == [
        ('amount-BIGINT', 'BIGINT'), ('_c1', 'BOOLEAN'), ('_c2', 'BOOLEAN'),
        ('_c3', 'VARCHAR(5) NOT NULL'), ('_c4', 'INT NOT NULL'), ('_c5', 'INT NOT NULL'),
        ('_c6', 'BOOLEAN NOT NULL'), ('_c7', 'INT'), ('_c8', 'STRING'), ('_c9', 'STRING'),
        ('_c10', 'STRING'), ('_c11', 'INT NOT NULL'), ('_c12', 'DOUBLE'),
        ('_c13', 'STRING'), ('_c14', 'DOUBLE'), ('_c15', 'BOOLEAN NOT NULL'),
        ('_c16', 'STRING')]
    assert "(`amount` > 2) IS NOT TRUE" in _sql(table)     # PyFlink's ~ is isNotTrue
    assert "CONCAT(`product`, 'x')" in _sql(table)           # + of a string concatenates


def test_select_star_is_the_tables_columns_in_its_place():
    # seen on PyFlink 1.20.5: col('*') is the input's columns (a grouped select's keys), and
    # positions, so _c<n> names, count them
    t, _ = _tables()
    assert [n for n, _ in _schema(t.select(col('*')))] == ['id', 'product', 'amount', 'price']
    assert [n for n, _ in _schema(t.select(col('amount') + 1, col('*')))] == \
        ['_c0', 'id', 'product', 'amount', 'price']
    assert [n for n, _ in _schema(t.select(col('*'), col('amount') + 1))] == \
        ['id', 'product', 'amount', 'price', '_c4']
    assert [n for n, _ in _schema(t.where(col('id') > 0).select(
        col('*'), (col('amount') * 2).alias('twice')))][-1] == 'twice'
    assert _schema(t.group_by(col('product')).select(col('*'))) == [('product', 'STRING')]
    with pytest.raises(NotImplementedError,
                       match=r"select\(col\('\*'\)\) after group_by of an "):
        t.group_by(col('product').upper_case).select(col('*'))


def test_two_result_columns_of_one_name_are_ambiguous():
    # seen on PyFlink 1.20.5: ValidationException: Ambiguous column name: <the name>
    t, _ = _tables()
    for fields, name in [((col('id'), col('id')), 'id'),
                         ((col('id'), col('amount').alias('id')), 'id'),
                         ((col('*'), col('product')), 'product'),
                         ((col('*'), col('*')), 'id'),
                         ((col('id').alias('_c1'), col('id') + 1), '_c1')]:
        with pytest.raises(ValueError, match=r"^Ambiguous column name: %s$" % re.escape(name)):
            t.select(*fields)
    with pytest.raises(ValueError, match=r"^Ambiguous column name: EXPR\$0$"):
        t.group_by(col('product')).select(col('amount').sum, col('amount').sum)
    # unnamed expressions are named by position: never the same
    assert [n for n, _ in _schema(t.select(col('id') + 1, col('id') + 1))] == ['_c0', '_c1']
