"""Flink's result types of arithmetic, CASE / COALESCE / IF and ROUND (typing_rules.py,
arithmetic.py), and Flink's errors for operands it refuses. Every expected type and error
text here was seen on PyFlink 1.20.5 (sql_query over columns of these types, then
get_resolved_schema; the errors are raised by sql_query there too)."""
import pytest

from pyflink_on_spark.table.sql import SqlValidationError, UnsupportedSqlError, translate_query
from pyflink_on_spark.table.sql.typing_rules import adjusted_decimal, decimal_result
from pyflink_on_spark.table.types import DataTypes

TABLES = {'t': [
    ('s1', 'STRING'), ('s2', 'STRING'), ('d1', 'DECIMAL(10, 2)'), ('d2', 'DECIMAL(5, 3)'),
    ('i', 'INT'), ('b', 'BIGINT'), ('dbl', 'DOUBLE'), ('t', 'TINYINT'), ('sm', 'SMALLINT'),
    ('f', 'FLOAT'), ('d38', 'DECIMAL(38, 10)'), ('bo', 'BOOLEAN'), ('dt', 'DATE'),
    ('ts', 'TIMESTAMP(3)'), ('c', 'CHAR(3)'), ('vc', 'VARCHAR(5)'), ('d0', 'DECIMAL(20, 0)')]}


def type_of(expression: str) -> str:
    return translate_query('SELECT %s FROM t' % expression, TABLES).columns[0][1]


@pytest.mark.parametrize('expression, flink_type', [
    ('d1 + d2', 'DECIMAL(12, 3)'), ('d1 - d2', 'DECIMAL(12, 3)'),
    ('d1 * d2', 'DECIMAL(16, 5)'), ('d1 / d2', 'DECIMAL(19, 8)'), ('d1 % d2', 'DECIMAL(5, 3)'),
    ('MOD(d1, d2)', 'DECIMAL(5, 3)'), ('MOD(i, d1)', 'DECIMAL(10, 2)'),
    ('d1 + i', 'DECIMAL(13, 2)'), ('d1 * i', 'DECIMAL(21, 2)'), ('d1 / i', 'DECIMAL(21, 13)'),
    ('i / d1', 'DECIMAL(23, 11)'), ('d1 + b', 'DECIMAL(22, 2)'), ('d1 * b', 'DECIMAL(30, 2)'),
    ('b * d1', 'DECIMAL(30, 2)'), ('d1 - t', 'DECIMAL(11, 2)'), ('d1 * sm', 'DECIMAL(16, 2)'),
    ('d1 + 1', 'DECIMAL(13, 2)'), ('d1 * 2', 'DECIMAL(21, 2)'), ('d1 / 3', 'DECIMAL(21, 13)'),
    ('d1 + 1.5', 'DECIMAL(11, 2)'), ('d1 * 2.25', 'DECIMAL(14, 4)'),
    ('d1 * 2.0', 'DECIMAL(13, 3)'), ('1.5 + 2.25', 'DECIMAL(4, 2) NOT NULL'),
    ('2 * 3.5', 'DECIMAL(13, 1) NOT NULL'), ('d1 / d1', 'DECIMAL(23, 13)'),
    ('d1 + CAST(1 AS TINYINT)', 'DECIMAL(11, 2)'),
    # wider than 38 digits: the integral digits kept, at least 6 fraction digits
    ('d38 * d38', 'DECIMAL(38, 6)'), ('d38 / d38', 'DECIMAL(38, 6)'),
    ('d38 + d38', 'DECIMAL(38, 9)'), ('d38 * d1', 'DECIMAL(38, 6)'),
    ('d38 / d2', 'DECIMAL(38, 7)'), ('d38 * 2', 'DECIMAL(38, 6)'),
    ('d0 * d0', 'DECIMAL(38, 0)'), ('d0 / 7', 'DECIMAL(31, 11)'),
    ('d1 + i + b', 'DECIMAL(22, 2)'), ('(d1 + d2) * (d1 - d2)', 'DECIMAL(25, 6)'),
    ('CAST(i AS DECIMAL(5, 2)) * d1', 'DECIMAL(16, 4)'),
    ('-d1', 'DECIMAL(10, 2)'), ('-d0', 'DECIMAL(20, 0)'),
    # integers widen; % takes the divisor's type; / truncates in the wider type
    ('i + b', 'BIGINT'), ('i / i', 'INT'), ('i / b', 'BIGINT'), ('b / i', 'BIGINT'),
    ('t + sm', 'SMALLINT'), ('t * t', 'TINYINT'), ('t / t', 'TINYINT'),
    ('sm - sm', 'SMALLINT'), ('i % b', 'BIGINT'), ('b % i', 'INT'), ('-t', 'TINYINT'),
    ('CAST(d1 AS INT) + b', 'BIGINT'), ('CAST(NULL AS INT) + 1', 'INT'), ('ABS(i / 2)', 'INT'),
    # approximate numbers
    ('dbl + d1', 'DOUBLE'), ('f + d1', 'DOUBLE'), ('d1 * f', 'DOUBLE'), ('f + i', 'FLOAT'),
    ('f * f', 'FLOAT'), ('dbl / i', 'DOUBLE'), ('d1 + 1e0', 'DOUBLE'), ('d1 - 1e0', 'DOUBLE'),
    # FLOAT with DOUBLE: the left one (Calcite ranks them alike)
    ('f + dbl', 'FLOAT'), ('dbl + f', 'DOUBLE'), ('f * dbl', 'FLOAT'), ('f - dbl', 'FLOAT'),
    ('dbl - f', 'DOUBLE'), ('f / dbl', 'FLOAT'), ('f + 1e0', 'FLOAT'),
    ('f + CAST(1 AS DOUBLE)', 'FLOAT'), ('f + CAST(i AS DOUBLE)', 'FLOAT'),
    ('CASE WHEN i > 1 THEN f ELSE dbl END', 'FLOAT'),
    ('CASE WHEN i > 1 THEN dbl ELSE f END', 'DOUBLE'),
    ('CASE WHEN i > 1 THEN i WHEN i < 0 THEN f ELSE dbl END', 'FLOAT'),
    ('IF(i > 1, f, dbl)', 'FLOAT'), ('COALESCE(dbl, f)', 'DOUBLE'),
    # common types
    ('CASE WHEN i > 1 THEN d1 ELSE i END', 'DECIMAL(12, 2)'),
    ('CASE WHEN i > 1 THEN d1 ELSE dbl END', 'DOUBLE'),
    ('CASE WHEN i > 1 THEN d1 ELSE d2 END', 'DECIMAL(11, 3)'),
    ('CASE WHEN i > 1 THEN t ELSE b END', 'BIGINT'),
    ('CASE WHEN i > 1 THEN 1 ELSE 2.5 END', 'DECIMAL(11, 1) NOT NULL'),
    ('CASE WHEN i > 1 THEN d1 END', 'DECIMAL(10, 2)'),
    ('CASE WHEN i > 1 THEN i ELSE NULL END', 'INT'),
    ('CASE WHEN i > 1 THEN f ELSE i END', 'FLOAT'),
    ('CASE WHEN i > 1 THEN f ELSE d1 END', 'DOUBLE'),
    ('IF(i > 1, d1, i)', 'DECIMAL(12, 2)'), ('IF(i > 1, d1, d2)', 'DECIMAL(11, 3)'),
    ('COALESCE(d1, d2)', 'DECIMAL(11, 3)'), ('COALESCE(i, b)', 'BIGINT'),
    ('COALESCE(d1, i)', 'DECIMAL(12, 2)'), ('COALESCE(NULL, 1)', 'INT NOT NULL'),
    ('COALESCE(f, dbl)', 'DOUBLE'), ('GREATEST(i, b)', 'BIGINT'),
    ('GREATEST(d1, d2)', 'DECIMAL(11, 3)'), ('GREATEST(d1, i)', 'DECIMAL(12, 2)'),
    ('NULLIF(d1, 0)', 'DECIMAL(10, 2)'), ('ABS(d1)', 'DECIMAL(10, 2)'),
    ('ROUND(d1, 1)', 'DECIMAL(10, 1)'), ('ROUND(d1 / 3, 2)', 'DECIMAL(11, 2)'),
    ('s1 || s2', 'STRING'),
])
def test_result_types_are_flinks(expression, flink_type):
    assert type_of(expression) == flink_type


@pytest.mark.parametrize('expression, flink_type', [
    # seen on PyFlink 1.20.5: a CAST keeps its operand's NOT NULL, TRY_CAST is nullable
    ('CAST(1.1 AS FLOAT)', 'FLOAT NOT NULL'), ("CAST('12' AS INT)", 'INT NOT NULL'),
    ('CAST(nn AS BIGINT)', 'BIGINT NOT NULL'), ('CAST(nn AS STRING)', 'STRING NOT NULL'),
    ('CAST(nn AS DECIMAL(10, 2))', 'DECIMAL(10, 2) NOT NULL'),
    ('CAST(nn AS VARCHAR(3))', 'VARCHAR(3) NOT NULL'), ('CAST(nd AS FLOAT)', 'FLOAT NOT NULL'),
    ('TRY_CAST(nn AS STRING)', 'STRING'), ('CAST(NULL AS INT)', 'INT'),
    ('CAST(s1 AS INT)', 'INT'), ('CAST(f AS FLOAT)', 'FLOAT'), ('CAST(i AS FLOAT)', 'FLOAT')])
def test_a_cast_keeps_its_operands_not_null(expression, flink_type):
    tables = {'t': TABLES['t'] + [('nn', 'INT NOT NULL'), ('nd', 'DOUBLE NOT NULL')]}
    assert translate_query('SELECT %s FROM t' % expression, tables).columns[0][1] == flink_type


def test_aggregates_over_decimal_arithmetic():
    columns = translate_query('SELECT SUM(d1 * i), MAX(d1 + d2), SUM(i) / COUNT(*) FROM t',
                              TABLES).columns
    assert [c[1] for c in columns] == ['DECIMAL(38, 2)', 'DECIMAL(12, 3)', 'BIGINT']


def test_decimal_rules_without_sql():
    # LogicalTypeMerging's adjustment: integral digits kept, scale at least min(scale, 6)
    assert adjusted_decimal(77, 20) == DataTypes.DECIMAL(38, 6)
    assert adjusted_decimal(41, 0) == DataTypes.DECIMAL(38, 0)
    assert adjusted_decimal(39, 10) == DataTypes.DECIMAL(38, 9)
    assert decimal_result('/', DataTypes.DECIMAL(38, 10), DataTypes.DECIMAL(5, 3)) == \
        DataTypes.DECIMAL(38, 7)


def test_decimal_operands_are_the_decimals_flink_computes_in():
    # an integer operand as its Flink DECIMAL, so Spark's quotient has Flink's scale (Spark
    # would type the literal 3 as DECIMAL(1, 0) and give 6 fraction digits, not 13); sums
    # and products beyond 38 digits are NULL as on PyFlink (try_*)
    assert translate_query('SELECT d1 / 3, d1 * b FROM t', TABLES).sql == (
        'SELECT CAST((`d1`) / (CAST(3 AS DECIMAL(10, 0))) AS DECIMAL(21, 13)) AS `EXPR$0`, '
        'CAST(TRY_MULTIPLY(`d1`, CAST(`b` AS DECIMAL(19, 0))) AS DECIMAL(30, 2)) AS `EXPR$1` '
        'FROM t')


@pytest.mark.parametrize('expression, message', [
    ('s1 + s2', "Cannot apply '+' to arguments of type '<VARCHAR(2147483647)> + "
                "<VARCHAR(2147483647)>'. Supported form(s): '<NUMERIC> + <NUMERIC>'\n"
                "'<DATETIME_INTERVAL> + <DATETIME_INTERVAL>'\n'<DATETIME> + "
                "<DATETIME_INTERVAL>'\n'<DATETIME_INTERVAL> + <DATETIME>'"),
    ('s1 - i', "Cannot apply '-' to arguments of type '<VARCHAR(2147483647)> - <INTEGER>'. "
               "Supported form(s): '<NUMERIC> - <NUMERIC>'\n'<DATETIME_INTERVAL> - "
               "<DATETIME_INTERVAL>'\n'<DATETIME> - <DATETIME_INTERVAL>'"),
    ('s1 * 2', "Cannot apply '*' to arguments of type '<VARCHAR(2147483647)> * <INTEGER>'. "
               "Supported form(s): '<NUMERIC> * <NUMERIC>'\n'<DATETIME_INTERVAL> * "
               "<NUMERIC>'\n'<NUMERIC> * <DATETIME_INTERVAL>'"),
    ('s1 / 2', "Cannot apply '/' to arguments of type '<VARCHAR(2147483647)> / <INTEGER>'. "
               "Supported form(s): '<NUMERIC> / <NUMERIC>'\n'<DATETIME_INTERVAL> / "
               "<NUMERIC>'"),
    ('s1 % 2', "Cannot apply '%' to arguments of type '<VARCHAR(2147483647)> % <INTEGER>'. "
               "Supported form(s): '<EXACT_NUMERIC> % <EXACT_NUMERIC>'"),
    ('-s1', "Cannot apply '-' to arguments of type '-<VARCHAR(2147483647)>'. Supported "
            "form(s): '-<NUMERIC>'\n'-<DATETIME_INTERVAL>'"),
    ('MOD(s1, 2)', "Cannot apply 'MOD' to arguments of type 'MOD(<VARCHAR(2147483647)>, "
                   "<INTEGER>)'. Supported form(s): 'MOD(<EXACT_NUMERIC>, <EXACT_NUMERIC>)'"),
    ('CASE WHEN i > 1 THEN s1 ELSE i END',
     'Illegal mixing of types in CASE or COALESCE statement'),
    ('COALESCE(s1, i)', 'Invalid function call:\nCOALESCE(STRING, INT)'),
])
def test_refused_operands_in_flinks_words(expression, message):
    with pytest.raises(SqlValidationError) as info:
        type_of(expression)
    assert str(info.value) == message


@pytest.mark.parametrize('expression, operands', [
    # the first line of each message, seen on PyFlink 1.20.5 (the forms as above)
    ('s1 + 1', '<VARCHAR(2147483647)> + <INTEGER>'), ("i + '1'", '<INTEGER> + <CHAR(1)>'),
    ('bo + 1', '<BOOLEAN> + <INTEGER>'), ('dt + 1', '<DATE> + <INTEGER>'),
    ('c + vc', '<CHAR(3)> + <VARCHAR(5)>'), ('s1 + d1', '<VARCHAR(2147483647)> + <DECIMAL(10, 2)>'),
    ('s1 + f', '<VARCHAR(2147483647)> + <FLOAT>'), ('dbl - s1', '<DOUBLE> - <VARCHAR(2147483647)>'),
    ('b * s1', '<BIGINT> * <VARCHAR(2147483647)>'), ('t + s1', '<TINYINT> + <VARCHAR(2147483647)>'),
    ('sm + s1', '<SMALLINT> + <VARCHAR(2147483647)>'), ('ts * 2', '<TIMESTAMP(3)> * <INTEGER>'),
    ('bo * dbl', '<BOOLEAN> * <DOUBLE>'), ('i || s1', '<INTEGER> || <VARCHAR(2147483647)>'),
    ('d1 || s1', '<DECIMAL(10, 2)> || <VARCHAR(2147483647)>'),
])
def test_refused_operand_types_are_named_as_calcite_names_them(expression, operands):
    with pytest.raises(SqlValidationError) as info:
        type_of(expression)
    op = operands.split('> ')[1].split(' <')[0]
    assert str(info.value).startswith("Cannot apply '%s' to arguments of type '%s'. "
                                      "Supported form(s): " % (op, operands))


@pytest.mark.parametrize('expression', [
    'NULL', 'NULL + 1', 'd1 + NULL', 'i * NULL', 'UPPER(NULL)', 'ABS(NULL)', '-bo'])
def test_untyped_null_and_bad_negation_are_refused(expression):
    with pytest.raises(SqlValidationError) as info:
        type_of(expression)
    assert str(info.value) in ("Illegal use of 'NULL'", "Cannot apply '-' to arguments of "
                               "type '-<BOOLEAN>'. Supported form(s): '-<NUMERIC>'\n"
                               "'-<DATETIME_INTERVAL>'")


@pytest.mark.parametrize('expression', [
    'CASE WHEN i > 1 THEN dt ELSE ts END', 'CASE WHEN i > 1 THEN bo ELSE i END'])
def test_types_that_do_not_mix_in_case(expression):
    with pytest.raises(SqlValidationError, match='Illegal mixing of types in CASE'):
        type_of(expression)


def test_no_result_column_leaves_untyped():
    # a scalar subquery of two columns has no type: refused naming it, not a None type
    with pytest.raises(UnsupportedSqlError, match=r'SELECT .*i.* FROM t\) is not derived'):
        type_of('(SELECT i, b FROM t)')


def test_datetime_and_interval_arithmetic_keeps_the_datetime_type():
    # an interval has no type of its own here: it may only meet a datetime
    assert [c[1] for c in translate_query(
        "SELECT ts + b * INTERVAL '1' SECOND, ts - INTERVAL '1' SECOND, dt + INTERVAL '1' DAY, "
        "INTERVAL '2' SECOND + ts, ts + (INTERVAL '1' SECOND * 2) FROM t", TABLES).columns] == [
        'TIMESTAMP(3)', 'TIMESTAMP(3)', 'DATE', 'TIMESTAMP(3)', 'TIMESTAMP(3)']
    with pytest.raises(UnsupportedSqlError, match='is not derived'):
        type_of("i * INTERVAL '1' SECOND")


@pytest.mark.parametrize('expression, flink_type, spark', [
    # the Table API's + of two expressions (table/expression.py): Flink's `plus`, seen on
    # PyFlink 1.20.5: a string on the left concatenates ('ab7'), numbers add
    ('__TABLE_PLUS(s1, s2)', 'STRING', 'CONCAT(`s1`, `s2`)'),
    ('__TABLE_PLUS(s1, i)', 'STRING', 'CONCAT(`s1`, CAST(`i` AS STRING))'),
    # numbers add as SQL's + (integers wrap as Java's: arithmetic.py)
    ('__TABLE_PLUS(i, b)', 'BIGINT', 'CAST(PMOD(PMOD(CAST(`i` AS DECIMAL(19, 0)) + CAST(`b` AS '
     'DECIMAL(19, 0)), 18446744073709551616) + 9223372036854775808, 18446744073709551616) - '
     '9223372036854775808 AS BIGINT)'),
])
def test_table_api_plus(expression, flink_type, spark):
    translated = translate_query('SELECT %s FROM t' % expression, TABLES)
    assert translated.columns[0][1] == flink_type
    assert translated.sql == 'SELECT %s AS `EXPR$0` FROM t' % spark


@pytest.mark.parametrize('expression, message', [
    ('__TABLE_PLUS(i, s1)', 'Invalid function call:\nplus(INT, STRING)'),
    ('__TABLE_PLUS(d1, s1)', 'Invalid function call:\nplus(DECIMAL(10, 2), STRING)'),
])
def test_table_api_plus_refused_in_flinks_words(expression, message):
    with pytest.raises(SqlValidationError) as info:
        type_of(expression)
    assert str(info.value) == message


def test_values_with_a_null_in_the_first_row_take_the_column_type_of_another_row():
    assert translate_query('SELECT * FROM (VALUES (1, NULL), (2, 3)) AS v(a, b)',
                           {}).columns == (('a', 'INT NOT NULL'), ('b', 'INT'))
    with pytest.raises(SqlValidationError):      # no row types it: no untyped column
        translate_query('SELECT * FROM (VALUES (1, NULL), (2, NULL)) AS v(a, b)', {})
