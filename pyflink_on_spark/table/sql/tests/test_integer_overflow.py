"""Integer arithmetic wraps as Java's does (arithmetic.py): the Spark expressions the
translator writes, evaluated here by a small evaluator of the node kinds they use with Spark's
ANSI rules (a cast to an integer type out of its range, and BIGINT arithmetic past 64 bits,
fail), give Java's wrapped values. The values were seen on PyFlink 1.20.5 (docs/table.md;
ABS, BIGINT division and DECIMAL casts to BIGINT by the same probe over these columns, except
CAST(dz AS INT), which follows from the rule)."""
from decimal import Decimal, localcontext

import pytest
import sqlglot
from sqlglot import exp

from pyflink_on_spark.table.sql import translate_query

TABLES = {'t': [('a', 'INT'), ('b', 'INT'), ('big', 'BIGINT'), ('t', 'TINYINT'),
                ('s', 'SMALLINT'), ('m', 'INT'), ('l', 'BIGINT'), ('dd', 'DECIMAL(11, 1)'),
                ('bm', 'BIGINT'), ('n', 'INT'), ('tm', 'TINYINT'), ('sm', 'SMALLINT'),
                ('dz', 'DECIMAL(20, 0)'), ('dp', 'DECIMAL(21, 1)'), ('dn', 'DECIMAL(21, 1)')]}
ROWS = [{'a': 2147483647, 'b': 1, 'big': 9223372036854775807, 't': 127, 's': 32767,
         'm': -2147483648, 'l': 3000000000, 'dd': Decimal('9999999999.5'),
         'bm': -2 ** 63, 'n': -1, 'tm': -128, 'sm': -32768,
         'dz': Decimal('99999999999999999999'), 'dp': Decimal('12345678901234567890.7'),
         'dn': Decimal('-12345678901234567890.7')},
        {'a': 2147483000, 'b': 1000, 'big': 10, 't': 1, 's': 2, 'm': 5, 'l': -3000000000,
         'dd': Decimal('-1.5')}]
ROW = ROWS[0]
_RANGE = {'TINYINT': 8, 'SMALLINT': 16, 'INT': 32, 'BIGINT': 64}


class AnsiOverflow(ArithmeticError):
    pass


def _int_range(name: str, value):
    bits = _RANGE[name]
    if not -2 ** (bits - 1) <= value < 2 ** (bits - 1):
        raise AnsiOverflow('%s out of %s' % (value, name))
    return int(value)


def evaluate(node: exp.Expression, row: dict):
    """The value Spark computes for `node` (ANSI mode): integers as Python ints checked
    against BIGINT after each operation, DECIMALs as Decimals."""
    if isinstance(node, exp.Paren):
        return evaluate(node.this, row)
    if isinstance(node, exp.Literal):
        return float(node.this) if 'e' in node.this.lower() else int(node.this)
    if isinstance(node, (exp.Greatest, exp.Least)):
        values = [evaluate(a, row) for a in [node.this] + node.expressions]
        return max(values) if isinstance(node, exp.Greatest) else min(values)
    if isinstance(node, exp.Count):
        return sum(evaluate(node.this, r) is not None for r in ROWS)
    if isinstance(node, exp.Nullif):
        value = evaluate(node.this, row)
        return None if value == evaluate(node.expression, row) else value
    if isinstance(node, exp.Column):
        return row[node.name]
    if isinstance(node, exp.Cast):
        value = evaluate(node.this, row)
        to = node.to.sql(dialect='spark').upper()
        if to.startswith('DECIMAL'):
            return Decimal(value)
        if isinstance(value, (Decimal, float)):   # Spark truncates toward zero
            value = int(value)
        return _int_range(to.replace('INTEGER', 'INT'), value)
    if isinstance(node, exp.Neg):
        return _checked(-evaluate(node.this, row))
    if isinstance(node, exp.IntDiv):
        x, y = evaluate(node.this, row), evaluate(node.expression, row)
        q = abs(x) // abs(y)
        return _int_range('BIGINT', q if (x >= 0) == (y >= 0) else -q)
    if isinstance(node, (exp.Add, exp.Sub, exp.Mul)):
        x, y = evaluate(node.this, row), evaluate(node.expression, row)
        value = x + y if isinstance(node, exp.Add) else x - y if isinstance(node, exp.Sub) \
            else x * y
        return value if isinstance(x, Decimal) or isinstance(y, Decimal) else _checked(value)
    if isinstance(node, exp.Sum):      # over all ROWS (an aggregate query)
        values = [evaluate(node.this, r) for r in ROWS]
        total = sum(values[1:], values[0])
        return total if isinstance(total, Decimal) else _checked(total)
    if isinstance(node, exp.Anonymous) and node.name.lower() == 'pmod':
        x, y = (evaluate(a, row) for a in node.expressions)
        remainder = x % y       # a Decimal's has the dividend's sign; Spark's pmod is >= 0
        return remainder + y if remainder < 0 else remainder
    if isinstance(node, exp.Abs):
        x = evaluate(node.this, row)
        return abs(x) if isinstance(x, Decimal) else _checked(abs(x))
    if isinstance(node, (exp.Ceil, exp.Floor)):
        return evaluate(node.this, row).to_integral_value(
            rounding='ROUND_CEILING' if isinstance(node, exp.Ceil) else 'ROUND_FLOOR')
    if isinstance(node, exp.If):      # only the branch taken is evaluated, as in Spark
        return evaluate(node.args['true'] if evaluate(node.this, row)
                        else node.args['false'], row)
    if isinstance(node, (exp.EQ, exp.LT)):
        x, y = evaluate(node.this, row), evaluate(node.expression, row)
        return x == y if isinstance(node, exp.EQ) else x < y
    raise AssertionError('not evaluated here: %r' % node)


def _checked(value):
    if isinstance(value, int):
        _int_range('BIGINT', value)     # a BIGINT result of Spark's arithmetic
    return value


def spark_value(expression: str):
    query = translate_query('SELECT %s AS v FROM t' % expression, TABLES)
    select = sqlglot.parse_one(query.sql, read='spark')
    with localcontext() as context:
        context.prec = 38           # Spark's DECIMAL(38, 0)
        return evaluate(select.expressions[0].unalias(), ROW), query.columns[0][1]


def java(value: int, bits: int) -> int:
    return (value + 2 ** (bits - 1)) % 2 ** bits - 2 ** (bits - 1)


@pytest.mark.parametrize('expression, value, flink_type', [
    ('a + b', java(2147483648, 32), 'INT'),
    ('a * 1000000000', java(2147483647 * 1000000000, 32), 'INT'),
    ('a - m', java(2147483647 + 2147483648, 32), 'INT'),
    ('m - b', 2147483647, 'INT'),
    ('big + 1', -9223372036854775808, 'BIGINT'),
    ('big * big', 1, 'BIGINT'),
    ('big + a', java(9223372036854775807 + 2147483647, 64), 'BIGINT'),
    ('t + t', -2, 'TINYINT'), ('t * t', 1, 'TINYINT'), ('s * s', 1, 'SMALLINT'),
    ('t + 1', 128, 'INT'), ('-m', -2147483648, 'INT'), ('0 - m', -2147483648, 'INT'),
    ('m / -1', -2147483648, 'INT'), ('a + b + big', java(-2147483648 + 2 ** 63 - 1, 64),
                                      'BIGINT'),
    ('(a + b) / 2', -1073741824, 'INT'), ('-5', -5, 'INT NOT NULL'),
    # casts to a narrower integer keep the low bits (a DECIMAL truncated first)
    ('CAST(l AS INT)', -1294967296, 'INT'), ('CAST(big AS INT)', -1, 'INT'),
    ('CAST(a AS TINYINT)', -1, 'TINYINT'), ('CAST(a AS SMALLINT)', -1, 'SMALLINT'),
    ('CAST(dd AS INT)', 1410065407, 'INT'), ('CAST(t + t AS INT)', -2, 'INT'),
    ('CAST(a AS BIGINT) * b', 2147483647, 'BIGINT'),
    # a double's saturates, as Java's (int) / (long) of a double (a literal's cast NOT NULL)
    ('CAST(2.9e10 AS INT)', 2147483647, 'INT NOT NULL'),
    ('CAST(-1e20 AS BIGINT)', -9223372036854775808, 'BIGINT NOT NULL'),
    # ABS as Java's Math.abs: MIN_VALUE stays MIN_VALUE in each integer type
    ('ABS(m)', -2147483648, 'INT'), ('ABS(bm)', -9223372036854775808, 'BIGINT'),
    ('ABS(tm)', -128, 'TINYINT'), ('ABS(sm)', -32768, 'SMALLINT'), ('ABS(n)', 1, 'INT'),
    ('ABS(m) + 1', -2147483647, 'INT'),
    # a BIGINT quotient past the range: MIN_VALUE / -1 is MIN_VALUE
    ('bm / n', -9223372036854775808, 'BIGINT'), ('bm / -1', -9223372036854775808, 'BIGINT'),
    ('big / n', -9223372036854775807, 'BIGINT'), ('m / n', -2147483648, 'INT'),
    # a DECIMAL past BIGINT's range: the low 64 bits of the truncated value
    ('CAST(dz AS BIGINT)', 7766279631452241919, 'BIGINT'),
    ('CAST(dp AS BIGINT)', -6101065172474983726, 'BIGINT'),
    ('CAST(dn AS BIGINT)', 6101065172474983726, 'BIGINT'),
    ('CAST(dz AS INT)', java(99999999999999999999, 32), 'INT'),
])
def test_integer_arithmetic_wraps_as_java_does(expression, value, flink_type):
    got, typed = spark_value(expression)
    assert (got, typed) == (value, flink_type)


@pytest.mark.parametrize('expression, value, flink_type', [
    ('SUM(a)', -649, 'INT'), ('SUM(big)', -9223372036854775799, 'BIGINT'),
    ('SUM(t)', -128, 'TINYINT'), ('SUM(s)', -32767, 'SMALLINT'), ('SUM(a + b)', 352, 'INT'),
    ('SUM(CAST(a AS BIGINT))', 4294966647, 'BIGINT'), ('SUM(m)', -2147483643, 'INT'),
    # AVG: the BIGINT sum (wrapped for a BIGINT) divided by the count, truncated
    ('AVG(a)', 2147483323, 'INT'), ('AVG(big)', -4611686018427387899, 'BIGINT'),
    ('AVG(m)', -1073741821, 'INT'), ('AVG(t)', 64, 'TINYINT'),
])
def test_integer_sums_wrap_as_java_does(expression, value, flink_type):
    assert spark_value(expression) == (value, flink_type)
