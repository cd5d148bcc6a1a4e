"""SUM of a FLOAT in single precision, as Flink sums it (arithmetic.float_sum): the Spark
expression the translator writes, evaluated here with Spark's FLOAT additions (numpy's
float32), gives the values seen on PyFlink 1.20.5 (sums of the rows below in this order);
AVG of a FLOAT is Spark's double average cast to FLOAT, as Flink's (a double sum)."""
import numpy as np
import pytest
import sqlglot
from sqlglot import exp

from pyflink_on_spark.table.sql import translate_query

TABLES = {'t': [('name', 'STRING'), ('price', 'FLOAT')]}
GROUPS = {   # rows in arrival order (PyFlink 1.20.5: batch GROUP BY name, from_elements)
    'Alice': [110.1, 20.0, 13.1, 20.1], 'Bob': [30.2, 53.1, 3.1, 16.1],
    'Carl': [0.1, 0.2, 0.3, None], 'Dan': [16777216.0, 1.0, 1.0, 3.3], 'Eve': [None]}


def evaluate(node: exp.Expression, values: list, scope: dict):
    if isinstance(node, exp.Paren):
        return evaluate(node.this, values, scope)
    if isinstance(node, (exp.Column, exp.Identifier)):     # a lambda's variable
        return scope[node.name]
    if isinstance(node, exp.Null):
        return None
    if isinstance(node, exp.Literal):
        return float(node.this)
    if isinstance(node, (exp.Cast, exp.TryCast)):
        value = evaluate(node.this, values, scope)
        assert node.to.sql(dialect='spark') == 'FLOAT'
        return None if value is None else np.float32(value)
    if isinstance(node, exp.Coalesce):
        for e in [node.this] + node.expressions:
            value = evaluate(e, values, scope)
            if value is not None:
                return value
        return None
    if isinstance(node, exp.Add):
        x, y = evaluate(node.this, values, scope), evaluate(node.expression, values, scope)
        assert isinstance(x, np.float32) and isinstance(y, np.float32)   # FLOAT + FLOAT
        return np.float32(x + y)
    if isinstance(node, exp.ArrayAgg) or isinstance(node, exp.Anonymous) and \
            node.name.lower() == 'collect_list':
        return [np.float32(v) for v in values if v is not None]
    if isinstance(node, exp.Reduce):         # Spark's aggregate(array, start, merge)
        items, start, merge = node.this, node.args['initial'], node.args['merge']
        acc = evaluate(start, values, scope)
        names = [i.name for i in merge.expressions]
        for item in evaluate(items, values, scope):
            acc = evaluate(merge.this, values, {names[0]: acc, names[1]: item})
        return acc
    raise AssertionError('not evaluated here: %r' % node)


@pytest.mark.parametrize('name, seen', [
    ('Alice', '163.30002'), ('Bob', '102.5'), ('Carl', '0.6'), ('Dan', '1.677722E7'),
    ('Eve', None)])
def test_a_float_sum_adds_in_single_precision(name, seen):
    query = translate_query('SELECT SUM(price) AS s FROM t GROUP BY name', TABLES)
    assert query.columns == (('s', 'FLOAT'),)
    select = sqlglot.parse_one(query.sql, read='spark')
    total = evaluate(select.expressions[0].unalias(), GROUPS[name], {})
    # Java's Float.toString of the value PyFlink printed (16777220.0 is 1.677722E7)
    assert (None if total is None else repr(float(total)) if abs(total) < 1e7 else
            '%.7gE7' % (total / 1e7)) == (seen if seen is None or 'E' in seen
                                        else repr(float(np.float32(seen))))


def test_a_float_sum_adds_the_values_in_their_order():
    # single precision depends on the order: 30.2, 53.1, 3.1 is 86.4, 53.1, 3.1, 30.2
    # 86.399994 (PyFlink's sliding_window example: its window's slices in time order)
    query = translate_query('SELECT SUM(price) FROM t', TABLES)
    select = sqlglot.parse_one(query.sql, read='spark')
    assert evaluate(select.expressions[0].unalias(), [30.2, 53.1, 3.1], {}) == \
        np.float32(86.4)
    assert evaluate(select.expressions[0].unalias(), [53.1, 3.1, 30.2], {}) == \
        np.float32(86.399994)


def test_over_a_window_and_in_a_running_changelog_the_values_are_collected_over_it():
    from pyflink_on_spark.spark.table_changelog import running_query
    tables = {'t': [('k', 'STRING'), ('f', 'FLOAT'), ('ts', 'TIMESTAMP(3)')]}
    over = translate_query('SELECT SUM(f) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN '
                           'UNBOUNDED PRECEDING AND CURRENT ROW) FROM t', tables).sql
    assert 'AGGREGATE(COLLECT_LIST(CAST(`f` AS FLOAT)) OVER (PARTITION BY `k` ORDER BY `ts`' \
        in over
    grouped = translate_query('SELECT k, SUM(f) AS s FROM t GROUP BY k', tables).sql
    assert 'AGGREGATE(COLLECT_LIST(CAST(`f` AS FLOAT)) OVER (PARTITION BY `k` ORDER BY ' \
        '__pyflink_seq' in running_query(grouped)[0]


def spark_value(node: exp.Expression, row: dict):
    """A FLOAT expression's value as Spark computes it: FLOAT + - * FLOAT in single
    precision, '/' in double, a CAST to FLOAT rounding to single."""
    if isinstance(node, exp.Paren):
        return spark_value(node.this, row)
    if isinstance(node, exp.Column):
        return row[node.name]
    if isinstance(node, exp.Literal):
        return float(node.this) if '.' in node.this else int(node.this)
    if isinstance(node, exp.Cast):
        value = spark_value(node.this, row)
        target = node.to.sql(dialect='spark')
        return np.float32(value) if target == 'FLOAT' else int(value)
    x, y = spark_value(node.this, row), spark_value(node.expression, row)
    if isinstance(node, exp.Div):
        return np.float64(x) / np.float64(y)
    assert isinstance(x, np.float32) and isinstance(y, np.float32), node.sql()
    return {exp.Add: np.add, exp.Sub: np.subtract, exp.Mul: np.multiply}[type(node)](x, y)


@pytest.mark.parametrize('expression, f, seen', [
    # seen on PyFlink 1.20.5: to_data_stream's values (the single's own value)...
    ('f * 3', 1.1, 3.3000001907348633), ('f * 3', 2.2, 6.600000381469727),
    ('f * 3', 0.1, 0.30000001192092896),
    # ... and collect()'s (Float.toString's text, table_result.collected_float)
    ('f / 3', 1.0, '0.33333334'), ('f / 3', 2.0, '0.6666667'),
    ('f * CAST(1.1 AS FLOAT)', 3.0, '3.3000002'), ('f + f', 1.1, '2.2')])
def test_float_arithmetic_is_single_precision(expression, f, seen):
    query = translate_query('SELECT %s AS x FROM t' % expression, {'t': [('f', 'FLOAT')]})
    assert query.columns == (('x', 'FLOAT'),)
    select = sqlglot.parse_one(query.sql, read='spark')
    value = spark_value(select.expressions[0].unalias(), {'f': np.float32(f)})
    assert isinstance(value, np.float32)
    if isinstance(seen, str):
        from pyflink_on_spark.table.table_result import collected_float
        assert collected_float(float(value)) == float(seen)
    else:
        assert float(value) == seen


WINDOWED = {'t': [('k', 'STRING'), ('ts', 'TIMESTAMP(3)'), ('f', 'FLOAT'), ('d', 'DOUBLE'),
                  ('amount', 'DECIMAL(10, 2)')]}


def _window_sql(query: str, streaming: bool = True) -> str:
    return translate_query(query, WINDOWED, streaming=streaming).sql


@pytest.mark.parametrize('source, backward, slice_ms', [
    # seen on PyFlink 1.20.5 (compat case table/hop_float_sums) in STREAMING mode: a HOP TVF
    # merges its slices' sums from the last, CUMULATE and a HOP group window from the first
    ("TABLE(HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)) "
     "GROUP BY k, window_start, window_end", True, 2000),
    ("TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '3' SECOND)) "
     "GROUP BY k, window_start, window_end", False, 1000),
    # a group window's panes: gcd(slide, size)
    ("t GROUP BY k, HOP(ts, INTERVAL '2' SECOND, INTERVAL '3' SECOND)", False, 1000)])
def test_hop_and_cumulate_windows_sum_floats_by_slices(source, backward, slice_ms):
    sql = _window_sql('SELECT k, SUM(f) AS sf, SUM(d) AS sd, AVG(d) AS ad FROM ' + source)
    slices = ("FLOOR(timestampdiff(MILLISECOND, TIMESTAMP_NTZ'1970-01-01 00:00:00', `ts`) "
              "/ %d) AS s" % slice_ms)
    assert sql.count(slices) == 3
    assert sql.count('STRUCT(-x.s AS s') == (3 if backward else 0)
    assert 'CAST(`f` AS FLOAT) AS v' in sql and sql.count('CAST(`d` AS DOUBLE) AS v') == 2


def test_in_batch_mode_window_tvfs_add_row_by_row_and_group_windows_by_panes():
    """Seen on PyFlink 1.20.5 in BATCH mode: HOP and CUMULATE TVFs add in arrival order
    (2^24, 1, 1 is 16777216.0, 1, 1, 2^24 16777218.0), as one slice, a HOP group window by
    panes."""
    for tvf in ("HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '3' SECOND)",
                "CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '3' SECOND)"):
        sql = _window_sql('SELECT k, SUM(f) FROM TABLE(%s) GROUP BY k, window_start, '
                          'window_end' % tvf, streaming=False)
        assert 'STRUCT(0 AS s, CAST(`f` AS FLOAT) AS v)' in sql and '-x.s' not in sql
    assert 'STRUCT(x.s AS s' in _window_sql(
        "SELECT k, SUM(f) FROM t GROUP BY k, HOP(ts, INTERVAL '1' SECOND, INTERVAL '3' SECOND)",
        streaming=False)


@pytest.mark.parametrize('query', [
    "SELECT k, SUM(f) FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' SECOND)) "
    "GROUP BY k, window_start, window_end",
    "SELECT k, SUM(amount), SUM(DISTINCT f) FROM TABLE(HOP(TABLE t, DESCRIPTOR(ts), "
    "INTERVAL '1' SECOND, INTERVAL '3' SECOND)) GROUP BY k, window_start, window_end",
    "SELECT k, SUM(f) FROM t GROUP BY k",
    "SELECT s FROM (SELECT k, SUM(f) AS s FROM t GROUP BY k) AS g, TABLE(HOP(TABLE t, "
    "DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '3' SECOND)) AS w",
    "SELECT k, SUM(f) OVER (PARTITION BY k ORDER BY ts) FROM TABLE(HOP(TABLE t, "
    "DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '3' SECOND))"])
def test_other_sums_are_not_sliced(query):
    assert 'STRUCT(x.s AS s' not in _window_sql(query) and \
        'STRUCT(-x.s AS s' not in _window_sql(query)
