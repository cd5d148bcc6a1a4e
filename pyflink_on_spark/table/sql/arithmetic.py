"""Arithmetic (`+ - * / %`, unary `-`, MOD) as Flink types it and as Spark SQL computes the
same values: the result type from typing_rules.arithmetic_type (Flink's rules, seen on
PyFlink 1.20.5), the Spark expression written so that Spark derives that type too.

DECIMAL: Spark's decimal rules are Flink's (LogicalTypeMerging and Spark's DecimalPrecision
are both Hive's: the same precision, scale and 38-digit adjustment), but Spark types an
integer operand otherwise (BIGINT as DECIMAL(20, 0), an integer literal with the fewest
digits), which changes a quotient's scale: integer operands are cast to the DECIMAL Flink
computes them in (INT DECIMAL(10, 0)). A DECIMAL sum, difference or product beyond 38
digits is NULL on PyFlink (DECIMAL(20, 0) * DECIMAL(20, 0) of 99999999999999999999):
Spark's try_add / try_subtract / try_multiply give NULL there too."""
from typing import Optional, Tuple

from sqlglot import exp

from pyflink_on_spark.table.sql.errors import SqlValidationError, UnsupportedSqlError
from pyflink_on_spark.table.sql.flink_types import spark_type_string
from pyflink_on_spark.table.sql.typing_rules import (
    ILLEGAL_NULL, arithmetic_type, as_decimal, calcite_type_name, is_integral, is_numeric,
    is_timestamp)
from pyflink_on_spark.table.types import DataType, DateType, DecimalType

__all__ = ['arithmetic', 'negation', 'mod_function', 'OPERATORS']

OPERATORS = {exp.Add: '+', exp.Sub: '-', exp.Mul: '*', exp.Div: '/', exp.Mod: '%'}
_TRY = {'+': 'try_add', '-': 'try_subtract', '*': 'try_multiply'}

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
        # Flink divides integers as Java does (truncating); Spark's '/' is a DOUBLE
        div = exp.IntDiv(this=exp.Paren(this=a), expression=exp.Paren(this=b))
        return _cast(div, result), result
    if is_integral(result) and op == '%' and type(result) is not type(ta):
        # Flink types it by the divisor (BIGINT % INT is INT), Spark by the wider operand
        return _cast(_node(op, a, b), result), result
    return _node(op, a, b), result


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

