"""Arithmetic (`+ - * / %`, unary `-`, MOD) as Flink types it and as Spark SQL computes the
same values: the result type from typing_rules.arithmetic_type (Flink's rules, seen on
PyFlink 1.20.5), the Spark expression written so that Spark derives that type too.

DECIMAL: Spark's decimal rules are Flink's (LogicalTypeMerging and Spark's DecimalPrecision
are both Hive's: the same precision, scale and 38-digit adjustment), but Spark types an
integer operand otherwise (BIGINT as DECIMAL(20, 0), an integer literal with the fewest
digits), which changes a quotient's scale: integer operands are cast to the DECIMAL Flink
computes them in (INT DECIMAL(10, 0)). A DECIMAL sum, difference or product beyond 38
digits is NULL on PyFlink (DECIMAL(20, 0) * DECIMAL(20, 0) of 99999999999999999999):
Spark's try_add / try_subtract / try_multiply give NULL there too.

Integers: Flink computes TINYINT / SMALLINT / INT / BIGINT arithmetic as Java does, wrapping
past the type's range (INT * 1000000000 of 7 is -1589934592 on PyFlink 1.20.5); Spark's ANSI
arithmetic fails the job there. The value is computed where it cannot overflow (BIGINT for the
narrower types, DECIMAL(19, 0) operands for BIGINT) and wrapped into the result type."""
from typing import Optional, Tuple

from sqlglot import exp

from pyflink_on_spark.table.sql.errors import SqlValidationError, UnsupportedSqlError
from pyflink_on_spark.table.sql.flink_types import spark_type_string
from pyflink_on_spark.table.sql.typing_rules import (
    ILLEGAL_NULL, arithmetic_type, as_decimal, calcite_type_name, is_integral, is_numeric,
    is_timestamp)
from pyflink_on_spark.table.types import (
    BigIntType, DataType, DataTypes, DateType, DecimalType, DoubleType, FloatType, IntType,
    SmallIntType, TinyIntType)

__all__ = ['arithmetic', 'negation', 'negated', 'mod_function', 'wrapped', 'integer_cast',
           'float_sum', 'sliced_sum', 'slice_id', 'OPERATORS']

OPERATORS = {exp.Add: '+', exp.Sub: '-', exp.Mul: '*', exp.Div: '/', exp.Mod: '%'}
_TRY = {'+': 'try_add', '-': 'try_subtract', '*': 'try_multiply'}
INTEGER_BITS = {TinyIntType: 8, SmallIntType: 16, IntType: 32, BigIntType: 64}
# an integer operand widened so that + - * of two cannot overflow (|x| < 2^63 * 2^63 < 10^38)
_WIDE_BIGINT = DataTypes.DECIMAL(19, 0)

Typed = Tuple[exp.Expression, Optional[DataType]]


def _cast(e: exp.Expression, dt: DataType) -> exp.Expression:
    return exp.Cast(this=e, to=exp.DataType.build(spark_type_string(dt), dialect='spark'))


def _is_null(node: exp.Expression) -> bool:
    while isinstance(node, exp.Paren):
        node = node.this
    return isinstance(node, exp.Null)


def _is_interval(node: exp.Expression) -> bool:
    """An interval literal, or arithmetic of intervals (INTERVAL '1' SECOND * n)."""
    while isinstance(node, (exp.Paren, exp.Neg)):
        node = node.this
    if isinstance(node, exp.Interval):
        return True
    if isinstance(node, (exp.Add, exp.Sub, exp.Mul, exp.Div)):
        return _is_interval(node.this) or _is_interval(node.expression)
    return False


def _is_datetime(dt: Optional[DataType]) -> bool:
    return is_timestamp(dt) or isinstance(dt, DateType)


def arithmetic(op: str, left: Typed, right: Typed, source: exp.Expression) -> Typed:
    """`left op right` (each a translated expression and its Flink type; `source` the Flink
    expression, for messages)."""
    (a, ta), (b, tb) = left, right
    if _is_null(source.this) or _is_null(source.expression):
        raise SqlValidationError(ILLEGAL_NULL)
    # datetime +/- an interval keeps the datetime's type; an interval times a number is an
    # interval (intervals have no type here: only a datetime may take them in)
    left_interval, right_interval = _is_interval(source.this), _is_interval(source.expression)
    if op in ('+', '-') and _is_datetime(ta) and right_interval:
        return _node(op, a, b), ta
    if op == '+' and _is_datetime(tb) and left_interval:
        return _node(op, a, b), tb
    if (left_interval and (right_interval and op in ('+', '-') or
                           op in ('*', '/') and is_numeric(tb)) or
            right_interval and op == '*' and is_numeric(ta)):
        return _node(op, a, b), None
    if ta is None or tb is None:
        raise UnsupportedSqlError('The type of %s is not derived by pyflink_on_spark (an '
                                  'operand of %s has no type here)' % (source.sql()[:80], op))
    result = arithmetic_type(op, ta, tb)
    if isinstance(result, DecimalType):
        # operands as the DECIMALs Flink computes in, so Spark derives the same type
        a = a if isinstance(ta, DecimalType) else _cast(a, as_decimal(ta))
        b = b if isinstance(tb, DecimalType) else _cast(b, as_decimal(tb))
        if op in _TRY:
            e = exp.Anonymous(this=_TRY[op], expressions=[a, b])
        else:
            e = _node(op, exp.Paren(this=a), exp.Paren(this=b))
        return _cast(e, result), result
    if is_integral(result) and op == '/':
        # Flink divides integers as Java does (truncating); Spark's '/' is a DOUBLE. Spark's
        # div is a BIGINT: MIN_VALUE / -1 of an INT wraps back to MIN_VALUE, as in Java
        div = exp.IntDiv(this=exp.Paren(this=a), expression=exp.Paren(this=b))
        if _not_minus_one(source.expression):
            return _cast(div, result), result
        if isinstance(result, BigIntType):
            # a BIGINT quotient past the range (MIN_VALUE / -1) fails Spark's div: Java's is
            # MIN_VALUE again (seen on PyFlink 1.20.5), the wrapped negation
            minus_one = exp.EQ(this=exp.Paren(this=b), expression=exp.Literal.number(-1))
            negated_a = wrapped(exp.Sub(this=exp.Literal.number(0),
                                        expression=_widened(a, result)), result)
            return exp.If(this=minus_one, true=negated_a, false=_cast(div, result)), result
        return wrapped(div, result), result
    if is_integral(result) and op == '%' and type(result) is not type(ta):
        # Flink types it by the divisor (BIGINT % INT is INT), Spark by the wider operand
        return _cast(_node(op, a, b), result), result
    if is_integral(result) and op in ('+', '-', '*'):
        return wrapped(_node(op, _widened(a, result), _widened(b, result)), result), result
    if isinstance(result, FloatType):
        # Flink computes FLOAT arithmetic in single precision, as Java's float (seen on
        # PyFlink 1.20.5: 1.1 * 3 of a FLOAT is 3.3000002, f / 3 of 1 0.33333334); Spark types
        # FLOAT * INT and every '/' a DOUBLE. The operands as FLOATs (an integer rounded as
        # Java converts it), the DOUBLE result rounded to a FLOAT: exact or one rounding in
        # 53 bits, then one in 24, which is the single-precision result (53 >= 2 * 24 + 2)
        return _cast(_node(op, _as_float(a, ta), _as_float(b, tb)), result), result
    return _node(op, a, b), result


def _as_float(e: exp.Expression, dt: DataType) -> exp.Expression:
    return e if isinstance(dt, FloatType) else _cast(e, DataTypes.FLOAT())


def wrapping_abs(e: exp.Expression, dt: DataType) -> exp.Expression:
    """ABS of an integer type as Java's Math.abs: MIN_VALUE stays MIN_VALUE (seen on PyFlink
    1.20.5 for TINYINT to BIGINT), where Spark's abs fails."""
    return wrapped(exp.Anonymous(this='abs', expressions=[_widened(e, dt)]), dt)


def _not_minus_one(node: exp.Expression) -> bool:
    """A number literal divisor (never negative: -1 is a negation): the quotient cannot
    overflow, only MIN_VALUE / -1 does."""
    while isinstance(node, exp.Paren):
        node = node.this
    return isinstance(node, exp.Literal) and not node.is_string


def _widened(e: exp.Expression, result: DataType) -> exp.Expression:
    """An integer operand as the type its operation cannot overflow in (module doc)."""
    if isinstance(result, BigIntType):
        return _cast(e, _WIDE_BIGINT)
    return _cast(e, DataTypes.BIGINT())


def wrapped(e: exp.Expression, result: DataType) -> exp.Expression:
    """`e` (an exact value: a BIGINT for a narrower result, a DECIMAL for a BIGINT one)
    wrapped into the integer type `result` as Java's two's complement arithmetic wraps
    it: ((e mod 2^n + 2^(n-1)) mod 2^n) - 2^(n-1), cast to the type (in its range: no ANSI
    error; e mod 2^n first, as e may be any BIGINT)."""
    half = 2 ** (INTEGER_BITS[type(result)] - 1)
    low = exp.Anonymous(this='pmod', expressions=[e, exp.Literal.number(2 * half)])
    value = exp.Sub(this=exp.Anonymous(this='pmod', expressions=[
        exp.Add(this=low, expression=exp.Literal.number(half)),
        exp.Literal.number(2 * half)]), expression=exp.Literal.number(half))
    return _cast(value, result)


def _node(op: str, a: exp.Expression, b: exp.Expression) -> exp.Expression:
    cls = next(c for c, o in OPERATORS.items() if o == op)
    return cls(this=a, expression=b)


def negation(operand: exp.Expression, dt: Optional[DataType]) -> Optional[DataType]:
    """The type of -x: x's (PyFlink 1.20.5: -TINYINT is TINYINT, -DECIMAL(10, 2) DECIMAL(10,
    2)); Calcite's error for a non-number."""
    if _is_null(operand):
        raise SqlValidationError(ILLEGAL_NULL)
    if dt is not None and not is_numeric(dt):
        raise SqlValidationError(
            "Cannot apply '-' to arguments of type '-<%s>'. Supported form(s): '-<NUMERIC>'\n"
            "'-<DATETIME_INTERVAL>'" % calcite_type_name(dt))
    return dt


def negated(source: exp.Expression, operand: exp.Expression, dt: Optional[DataType]) -> Typed:
    """-x (`source` the Flink operand, `operand` its translation): typed by negation; an
    integer's wraps as Java's does (-(-2147483648) is -2147483648), where Spark's ANSI
    negation fails. A literal's is left as it is (it cannot overflow)."""
    dt = negation(source, dt)
    neg = exp.Neg(this=operand)
    if not is_integral(dt) or _is_literal(source):
        return neg, dt
    # 0 - x, not -x: Spark types a DECIMAL(19, 0)'s negation DECIMAL(19, 0) and the pmod of
    # wrapped() then too, which cannot hold 2^64 - 10 (-(10) of a BIGINT failed the job);
    # a subtraction is DECIMAL(20, 0)
    return wrapped(exp.Sub(this=exp.Literal.number(0),
                           expression=_widened(operand, dt)), dt), dt


def integer_cast(e: exp.Expression, source: Optional[DataType], target: DataType
                 ) -> Optional[exp.Expression]:
    """CAST of an exact number to a narrower integer type, as Flink casts it (seen on
    PyFlink 1.20.5): the low bits kept, as Java's (int) of a long and BigDecimal.intValue()
    (truncated first) give them (CAST(3000000000 AS INT) is -1294967296, CAST(9999999999.5
    AS INT) 1410065407), where Spark's ANSI cast fails. None when Spark's cast is Flink's."""
    if not is_integral(target):
        return None
    if isinstance(source, (FloatType, DoubleType)):
        # Java's (int) / (long) of a double: saturated at the type's bounds (CAST(2.9e10 AS
        # INT) is 2147483647)
        bits = INTEGER_BITS[type(target)]
        return _cast(exp.Greatest(this=exp.Least(this=e, expressions=[
            exp.Literal.number(2 ** (bits - 1) - 1)]), expressions=[
                exp.Literal.number(-2 ** (bits - 1))]), target)
    if isinstance(source, DecimalType) and source.precision - source.scale > 18:
        # past BIGINT's range Spark's cast fails; Java's longValue() keeps the low 64 bits of
        # the truncated value (CAST(99999999999999999999 AS BIGINT) is 7766279631452241919)
        truncated = exp.If(this=exp.LT(this=e, expression=exp.Literal.number(0)),
                           true=exp.Anonymous(this='ceil', expressions=[e]),
                           false=exp.Anonymous(this='floor', expressions=[e]))
        # as DECIMAL(38, 0): wrapped()'s pmod is typed by its narrower operand, and must
        # hold values up to 2^64 (a negative one's remainder)
        return wrapped(_cast(truncated, DataTypes.DECIMAL(38, 0)), target)
    if isinstance(target, BigIntType):
        return None
    if isinstance(source, DecimalType):
        return wrapped(_cast(e, DataTypes.BIGINT()), target)
    if is_integral(source) and INTEGER_BITS[type(source)] > INTEGER_BITS[type(target)]:
        return wrapped(_cast(e, DataTypes.BIGINT()), target)
    return None


def _is_literal(node: exp.Expression) -> bool:
    while isinstance(node, exp.Paren):
        node = node.this
    return isinstance(node, exp.Literal)


def mod_function(left: Typed, right: Typed) -> Typed:
    """MOD(a, b): typed as a % b (PyFlink 1.20.5: MOD(INT, DECIMAL(10, 2)) is
    DECIMAL(10, 2)), Calcite's MOD error for other operands."""
    (a, ta), (b, tb) = left, right
    if ta is None or tb is None:
        raise SqlValidationError(ILLEGAL_NULL)
    try:
        return arithmetic('%', (exp.Paren(this=a), ta), (exp.Paren(this=b), tb),
                          exp.Mod(this=a, expression=b))
    except SqlValidationError:
        raise SqlValidationError(
            "Cannot apply 'MOD' to arguments of type 'MOD(<%s>, <%s>)'. Supported form(s): "
            "'MOD(<EXACT_NUMERIC>, <EXACT_NUMERIC>)'"
            % (calcite_type_name(ta), calcite_type_name(tb))) from None




def float_sum(inner: exp.Expression) -> exp.Expression:
    """SUM of a FLOAT as Flink computes it: single-precision additions, one value after the
    other (PyFlink 1.20.5's sliding_window example prints 86.399994 where the float of a
    double sum is 86.4). Spark has no single-precision sum: Spark's FLOAT additions over the
    group's values in their order (collect_list; collect_set for DISTINCT), NULLs skipped,
    NULL when there is none."""
    distinct = isinstance(inner, exp.Distinct)
    # the values as FLOATs (Spark may type a FLOAT expression wider: FLOAT * INT)
    values = exp.Anonymous(this='collect_set' if distinct else 'collect_list', expressions=[
        _cast(inner.expressions[0] if distinct else inner, DataTypes.FLOAT())])
    total = exp.Lambda(
        this=exp.Add(this=exp.Coalesce(this=exp.column('__acc'), expressions=[
            _cast(exp.Literal.number(0), DataTypes.FLOAT())]), expression=exp.column('__v')),
        expressions=[exp.to_identifier('__acc'), exp.to_identifier('__v')])
    return exp.Anonymous(this='aggregate', expressions=[
        values, _cast(exp.Null(), DataTypes.FLOAT()), total])


def slice_id(time_sql: str, ltz: bool, slice_ms: int) -> str:
    """The slice a row's time falls in, as a BIGINT (Spark SQL text): its epoch milliseconds
    over the slice length, floored, as window() aligns windows (a TIMESTAMP_NTZ's without a
    time zone)."""
    millis = ('unix_millis(%s)' % time_sql if ltz else
              "timestampdiff(MILLISECOND, TIMESTAMP_NTZ'1970-01-01 00:00:00', %s)" % time_sql)
    return 'FLOOR(%s / %d)' % (millis, slice_ms)


def sliced_sum(value_sql: str, sum_type: str, slice_sql: str, backward: bool) -> str:
    """A window's SUM as Flink's sliced window aggregates compute it (seen on PyFlink 1.20.5
    in STREAMING mode, docs/table.md): each slice's values added in arrival order, then the
    slices' sums merged one after another, the first slice first, or the last first when
    `backward` (a HOP window TVF). Spark SQL text over the group's (slice, value) pairs in
    their order (collect_list), NULLs skipped, NULL when there is none; `sum_type` FLOAT or
    DOUBLE, the type every addition is made in."""
    direction = '-' if backward else ''
    # (slice, position, value), sorted by slice (in merge order), then arrival position
    pairs = ('FILTER(TRANSFORM(COLLECT_LIST(STRUCT(%s AS s, CAST(%s AS %s) AS v)), '
             '(x, i) -> STRUCT(%sx.s AS s, i AS i, x.v AS v)), x -> x.v IS NOT NULL)'
             % (slice_sql, value_sql, sum_type, direction))
    null = 'CAST(NULL AS %s)' % sum_type

    def merged(a: str, b: str) -> str:
        return 'CASE WHEN %s IS NULL THEN %s WHEN %s IS NULL THEN %s ELSE %s + %s END' % (
            a, b, b, a, a, b)
    # the fold keeps (the merged slices, the current slice's sum, its slice)
    start = 'STRUCT(%s AS total, %s AS cur, CAST(NULL AS BIGINT) AS cs)' % (null, null)
    step = ('(acc, x) -> IF(acc.cs = x.s, STRUCT(acc.total AS total, acc.cur + x.v AS cur, '
            'acc.cs AS cs), STRUCT(%s AS total, x.v AS cur, x.s AS cs))'
            % merged('acc.total', 'acc.cur'))
    return 'AGGREGATE(ARRAY_SORT(%s), %s, %s, acc -> %s)' % (
        pairs, start, step, merged('acc.total', 'acc.cur'))
