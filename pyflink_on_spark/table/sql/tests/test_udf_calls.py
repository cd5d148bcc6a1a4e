"""Calls of Python user-defined functions in Flink SQL (table/sql/udf_calls.py): resolved
as PyFlink 1.20.5 resolves them, translated to calls of their Spark functions."""
import pytest

from pyflink_on_spark.table.sql.errors import SqlValidationError, UnsupportedSqlError
from pyflink_on_spark.table.sql.translate import translate_query
from pyflink_on_spark.table.sql.udf_calls import FunctionSignature, mark_lateral_tables

TABLES = {'t': [('a', 'INT'), ('s', 'STRING')]}
FUNCTIONS = {
    'plus1': FunctionSignature('plus1', 'scalar', 'pyflink_udf_1', ('BIGINT',)),
    'words': FunctionSignature('words', 'table', 'pyflink_udf_2', ('STRING', 'INT'), False),
    'mysum': FunctionSignature('mysum', 'aggregate', 'pyflink_udf_3', ('BIGINT',)),
    'upper': FunctionSignature('upper', 'scalar', 'pyflink_udf_4', ('INT',), False),
    'lower': FunctionSignature('lower', 'scalar', 'pyflink_udf_5', ('INT',), True),
}


def _translate(sql):
    return translate_query(sql, TABLES, FUNCTIONS)


def test_scalar_calls_in_select_where_group_by_nested_and_any_case():
    r = _translate('SELECT PLUS1(a) AS k, COUNT(*) FROM t WHERE plus1(plus1(a)) > 2 '
                   'GROUP BY plus1(a)')
    assert r.sql == ('SELECT PYFLINK_UDF_1(`a`) AS `k`, COUNT(*) AS `EXPR$1` FROM t WHERE '
                     'PYFLINK_UDF_1(PYFLINK_UDF_1(`a`)) > 2 GROUP BY PYFLINK_UDF_1(`a`)')
    assert r.columns == (('k', 'BIGINT'), ('EXPR$1', 'BIGINT NOT NULL'))


def test_a_catalog_function_named_like_a_builtin_comes_after_it_a_system_one_before():
    # seen on PyFlink 1.20.5: create_temporary_function('split', ...) is shadowed by SPLIT
    assert _translate('SELECT UPPER(s) FROM t').columns == (('EXPR$0', 'STRING'),)
    r = _translate('SELECT LOWER(s) FROM t')
    assert 'PYFLINK_UDF_5' in r.sql and r.columns == (('EXPR$0', 'INT'),)


def test_lateral_table_with_aliases_cross_and_left_joins():
    r = _translate('SELECT a, w, n FROM t, LATERAL TABLE(words(s)) AS T(w, n) WHERE n > 1')
    assert r.sql == ('SELECT `a` AS `a`, `w` AS `w`, `n` AS `n` FROM t LATERAL VIEW '
                     'INLINE(PYFLINK_UDF_2(`s`)) T AS `w`, `n` WHERE `n` > 1')
    r = _translate('SELECT * FROM t CROSS JOIN LATERAL TABLE(words(s))')
    assert r.columns == (('a', 'INT'), ('s', 'STRING'), ('f0', 'STRING'), ('f1', 'INT'))
    assert 'LATERAL VIEW INLINE' in r.sql
    r = _translate('SELECT * FROM t LEFT JOIN LATERAL TABLE(words(s)) AS T(w, n) ON TRUE')
    assert 'LATERAL VIEW OUTER INLINE(PYFLINK_UDF_2(`s`)) T AS `w`, `n`' in r.sql


def test_lateral_table_errors():
    with pytest.raises(SqlValidationError, match="Function 'plus1' cannot be used as a table "
                                                 "function."):
        _translate('SELECT * FROM t, LATERAL TABLE(plus1(a))')
    with pytest.raises(UnsupportedSqlError, match='LEFT JOIN LATERAL TABLE ON'):
        _translate('SELECT * FROM t LEFT JOIN LATERAL TABLE(words(s)) AS T(w, n) ON n > 1')
    with pytest.raises(SqlValidationError, match='table function'):
        _translate('SELECT words(s) FROM t')


def test_aggregate_functions_only_where_aggregates_are_allowed():
    r = _translate('SELECT s, mysum(a) FROM t GROUP BY s')
    assert r.sql == 'SELECT `s` AS `s`, PYFLINK_UDF_3(`a`) AS `EXPR$1` FROM t GROUP BY `s`'
    with pytest.raises(SqlValidationError, match='Aggregate mysum is not allowed here'):
        _translate('SELECT a FROM t WHERE mysum(a) > 1')


def test_window_tvfs_are_told_apart_from_lateral_tables():
    assert mark_lateral_tables('SELECT * FROM t, LATERAL TABLE (f(x)), TABLE(TUMBLE(') == \
        'SELECT * FROM t, LATERAL _LATERAL_TABLE (f(x)), TABLE(TUMBLE('
