"""OVER windows (table/sql/over_windows.py): Flink's over aggregates as Spark window
functions over the same frame, typed as the grouping aggregates; what Flink's STREAMING
planner refuses kept as the query's failure (PyFlink 1.20.5's words, raised when it runs)."""
import pytest

from pyflink_on_spark.table.sql import SqlValidationError, UnsupportedSqlError, translate_query
from pyflink_on_spark.table.sql.over_windows import (
    ASCENDING, DIFFERENT_WINDOWS, FOLLOWING, SINGLE_TIME_COLUMN, TIME_ORDER)

TABLES = {'t': [('name', 'STRING'), ('price', 'INT'), ('w8', 'DOUBLE'), ('millis', 'BIGINT'),
                ('ts', 'TIMESTAMP_LTZ(3) *ROWTIME*')]}


def translate(query: str):
    return translate_query(query, TABLES)


def test_rows_frame_maps_to_the_same_spark_frame_with_flinks_sum_type():
    r = translate('SELECT name, SUM(price) OVER (PARTITION BY name ORDER BY ts ROWS BETWEEN 1 '
                  'PRECEDING AND CURRENT ROW) AS s FROM t')
    assert r.sql == (
        'SELECT `name` AS `name`, CAST(PMOD(SUM(CAST(`price` AS BIGINT)) OVER (PARTITION BY '
        '`name` ORDER BY `ts` ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) + 2147483648, '
        '4294967296) - 2147483648 AS INT) AS `s` FROM t')
    assert r.columns == (('name', 'STRING'), ('s', 'INT'))
    assert r.failure is None and r.over_window


def test_range_interval_frame_and_every_aggregate_call_takes_the_window():
    r = translate("SELECT AVG(price) OVER w, COUNT(*) OVER w, MAX(w8) OVER w FROM t WINDOW w "
                  "AS (PARTITION BY name ORDER BY ts RANGE BETWEEN INTERVAL '1' SECOND "
                  "PRECEDING AND CURRENT ROW)")
    frame = ("OVER (PARTITION BY `name` ORDER BY `ts` RANGE BETWEEN INTERVAL '1' SECOND "
             "PRECEDING AND CURRENT ROW)")
    # AVG of an INT: the BIGINT sum over the count, truncated (both over the window)
    assert r.sql == (
        'SELECT CAST(SUM(CAST(`price` AS BIGINT)) %s DIV NULLIF(COUNT(`price`) %s, 0) AS INT) '
        'AS `EXPR$0`, COUNT(*) %s AS `EXPR$1`, MAX(`w8`) %s AS `EXPR$2` FROM t'
        % (frame, frame, frame, frame))
    assert r.columns == (('EXPR$0', 'INT'), ('EXPR$1', 'BIGINT NOT NULL'),
                         ('EXPR$2', 'DOUBLE'))
    assert r.failure is None


def test_a_named_window_may_be_refined_and_must_exist():
    r = translate('SELECT SUM(w8) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) '
                  'FROM t WINDOW w AS (PARTITION BY name ORDER BY ts)')
    assert 'OVER (PARTITION BY `name` ORDER BY `ts` ROWS BETWEEN UNBOUNDED PRECEDING AND ' \
        'CURRENT ROW)' in r.sql
    with pytest.raises(SqlValidationError, match="Window 'v' not found"):
        translate('SELECT SUM(w8) OVER v FROM t WINDOW w AS (ORDER BY ts)')


@pytest.mark.parametrize('query, failure', [
    ('SELECT SUM(price) OVER (PARTITION BY name ORDER BY millis) FROM t', TIME_ORDER),
    ('SELECT SUM(price) OVER (PARTITION BY name ORDER BY ts DESC) FROM t', ASCENDING),
    ('SELECT SUM(price) OVER (PARTITION BY name) FROM t', SINGLE_TIME_COLUMN),
    ('SELECT SUM(price) OVER (PARTITION BY name ORDER BY ts, millis) FROM t',
     SINGLE_TIME_COLUMN),
    ('SELECT SUM(price) OVER (PARTITION BY name ORDER BY ts ROWS BETWEEN 1 PRECEDING AND 1 '
     'FOLLOWING) FROM t', FOLLOWING),
    ('SELECT SUM(price) OVER (PARTITION BY name ORDER BY ts ROWS BETWEEN 2 PRECEDING AND 1 '
     'PRECEDING) FROM t', FOLLOWING),
    ('SELECT SUM(price) OVER (PARTITION BY name ORDER BY ts), COUNT(*) OVER (ORDER BY ts) '
     'FROM t', DIFFERENT_WINDOWS),
])
def test_shapes_flinks_streaming_planner_refuses_fail_when_the_query_runs(query, failure):
    assert translate(query).failure == failure


@pytest.mark.parametrize('query, named', [
    ('SELECT ROW_NUMBER() OVER (PARTITION BY name) FROM t', 'ROW_NUMBER'),
    ('SELECT NTILE(2) OVER (PARTITION BY name ORDER BY ts) FROM t', 'NTILE'),
    ('SELECT LAG(price) OVER (PARTITION BY name ORDER BY ts) FROM t', 'LAG'),
    ('SELECT SUM(DISTINCT price) OVER (PARTITION BY name ORDER BY ts) FROM t', 'DISTINCT'),
    ("SELECT SUM(price) OVER (ORDER BY ts ROWS BETWEEN INTERVAL '1' SECOND PRECEDING AND "
     "CURRENT ROW) FROM t", 'ROWS BETWEEN INTERVAL'),
])
def test_ranking_offset_and_distinct_over_are_refused_by_name(query, named):
    with pytest.raises(UnsupportedSqlError, match=named):
        translate(query)


def test_a_number_range_over_a_timestamp_is_flinks_validation_error():
    with pytest.raises(SqlValidationError, match='Data Type mismatch between ORDER BY and '
                                                 'RANGE clause'):
        translate('SELECT SUM(price) OVER (ORDER BY ts RANGE BETWEEN 2 PRECEDING AND CURRENT '
                  'ROW) FROM t')


def test_a_query_with_over_windows_is_insert_only():
    from pyflink_on_spark.spark.table_changelog import is_updating
    r = translate('SELECT name, COUNT(*) OVER (PARTITION BY name ORDER BY ts) FROM t')
    assert not is_updating(r.sql)
    assert is_updating(translate('SELECT name, COUNT(*) FROM t GROUP BY name').sql)


def test_streaming_rows_come_in_the_time_order_flink_emits_them():
    r = translate('SELECT name, MAX(price) OVER w AS m FROM t WINDOW w AS (PARTITION BY name '
                  'ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)')
    assert r.emit_ordered_sql == r.sql + ' ORDER BY `ts` NULLS LAST'
    # not for windows Flink refuses, nor for a query with an order of its own
    assert translate('SELECT SUM(price) OVER (ORDER BY millis) FROM t').emit_ordered_sql is None
    assert translate('SELECT SUM(price) OVER (ORDER BY ts) AS s FROM t ORDER BY s') \
        .emit_ordered_sql is None


def test_row_number_is_sparks_numbering_and_a_ranking_streaming_refuses():
    r = translate('SELECT name, rn FROM (SELECT name, ROW_NUMBER() OVER (PARTITION BY name '
                  'ORDER BY price DESC) AS rn FROM t) WHERE rn <= 2')
    assert 'ROW_NUMBER() OVER (PARTITION BY `name` ORDER BY `price` DESC) AS `rn`' in r.sql
    assert r.columns == (('name', 'STRING'), ('rn', 'BIGINT NOT NULL'))   # seen on PyFlink
    assert r.ranking == 'ROW_NUMBER' and not r.over_window
    assert translate('SELECT SUM(price) OVER (ORDER BY ts) FROM t').ranking is None
    with pytest.raises(SqlValidationError, match='takes no arguments'):
        translate('SELECT ROW_NUMBER(price) OVER (ORDER BY ts) FROM t')


@pytest.mark.parametrize('function', ['RANK', 'DENSE_RANK'])
def test_rank_and_dense_rank_are_sparks_too(function):
    # seen on PyFlink 1.20.5 in BATCH mode: ties share a rank, NULLs first for ASC, last
    # for DESC, BIGINT NOT NULL (compat table/rank_batch)
    r = translate('SELECT name, r FROM (SELECT name, %s() OVER (PARTITION BY name ORDER BY '
                  'price DESC) AS r FROM t) WHERE r <= 2' % function)
    assert '%s() OVER (PARTITION BY `name` ORDER BY `price` DESC) AS `r`' % function in r.sql
    assert r.columns == (('name', 'STRING'), ('r', 'BIGINT NOT NULL'))
    assert r.ranking == function and not r.over_window
    with pytest.raises(SqlValidationError, match="Invalid number of arguments to function "
                                                 "'%s'. Was expecting 0 arguments" % function):
        translate('SELECT %s(price) OVER (ORDER BY ts) FROM t' % function)


def test_row_number_runs_in_batch_mode_and_is_refused_by_name_in_streaming():
    from pyflink_on_spark.table import EnvironmentSettings, TableEnvironment
    query = ('SELECT k, rn FROM (SELECT k, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v) '
             'AS rn FROM t) WHERE rn = 1')
    for settings in (EnvironmentSettings.in_batch_mode(),
                     EnvironmentSettings.in_streaming_mode()):
        t_env = TableEnvironment.create(settings)
        t_env.create_temporary_view('t', t_env.from_elements([('a', 1)], ['k', 'v']))
        if settings.is_streaming_mode():
            with pytest.raises(NotImplementedError, match=r'ROW_NUMBER\(\) OVER \(...\) in '
                                                          'STREAMING mode .* Top-N'):
                t_env.sql_query(query)
        else:
            assert t_env.sql_query(query).get_schema().get_field_names() == ['k', 'rn']
