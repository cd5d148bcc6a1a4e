"""Flink's result types for expressions (what the translation casts Spark's results back to,
so that values and the output schema are Flink's): numeric promotion, literals, aggregates."""
from typing import Optional, Sequence

from pyflink_on_spark.table.sql.errors import SqlValidationError

from pyflink_on_spark.table.types import (
    BigIntType, CharType, DataType, DataTypes, DecimalType, DoubleType, FloatType,
    IntType, LocalZonedTimestampType, SmallIntType, TimestampType, TinyIntType, VarCharType)

__all__ = ['is_integral', 'is_numeric', 'is_string', 'is_timestamp', 'numeric_result',
           'literal_number_type', 'STRING', 'BOOLEAN', 'arithmetic_type', 'decimal_result',
           'adjusted_decimal', 'as_decimal', 'common_type', 'cannot_apply', 'calcite_type_name',
           'ILLEGAL_NULL', 'round_decimal']

STRING = DataTypes.STRING()
BOOLEAN = DataTypes.BOOLEAN()
_INTEGRAL_RANK = {TinyIntType: 1, SmallIntType: 2, IntType: 3, BigIntType: 4}


def is_integral(dt: Optional[DataType]) -> bool:
    return type(dt) in _INTEGRAL_RANK


def is_numeric(dt: Optional[DataType]) -> bool:
    return is_integral(dt) or isinstance(dt, (FloatType, DoubleType, DecimalType))


def is_string(dt: Optional[DataType]) -> bool:
    return isinstance(dt, (VarCharType, CharType))


def is_timestamp(dt: Optional[DataType]) -> bool:
    return isinstance(dt, (TimestampType, LocalZonedTimestampType))


def _nullable(dt: DataType, *inputs: Optional[DataType]) -> DataType:
    if any(i is None or i._nullable for i in inputs):
        return dt.nullable()
    return dt.not_null()


def numeric_result(a: Optional[DataType], b: Optional[DataType]) -> Optional[DataType]:
    """The type of a + b, a - b, a * b for numbers; None when either is no number. The
    callers that need an answer use arithmetic_type, which refuses in Flink's words."""
    if not (is_numeric(a) and is_numeric(b)):
        return None
    return arithmetic_type('+', a, b)


# Calcite's precision of an integer type as a DECIMAL (DECIMAL + INT is DECIMAL + DECIMAL(10, 0))
_INTEGRAL_DIGITS = {TinyIntType: 3, SmallIntType: 5, IntType: 10, BigIntType: 19}
MAX_PRECISION = 38
_MINIMUM_ADJUSTED_SCALE = 6


def as_decimal(dt: DataType) -> DecimalType:
    """An exact number as the DECIMAL Flink computes it in (INT is DECIMAL(10, 0))."""
    if isinstance(dt, DecimalType):
        return dt
    return DataTypes.DECIMAL(_INTEGRAL_DIGITS[type(dt)], 0, dt._nullable)


def adjusted_decimal(precision: int, scale: int) -> DecimalType:
    """Flink's LogicalTypeMerging.adjustPrecisionScale: a result wider than 38 digits keeps
    its integral digits and at least 6 fraction digits (PyFlink 1.20.5: DECIMAL(38, 10) *
    DECIMAL(38, 10) is DECIMAL(38, 6), + is DECIMAL(38, 9))."""
    if precision <= MAX_PRECISION:
        return DataTypes.DECIMAL(precision, scale)
    digits = precision - scale
    return DataTypes.DECIMAL(MAX_PRECISION, max(MAX_PRECISION - digits,
                                                min(scale, _MINIMUM_ADJUSTED_SCALE)))


def decimal_result(op: str, a: DecimalType, b: DecimalType) -> DecimalType:
    """Flink's LogicalTypeMerging find{Addition,Multiplication,Division,Modulo}DecimalType
    (seen on PyFlink 1.20.5: DECIMAL(10, 2) op DECIMAL(5, 3) is (12, 3) for + and -, (16, 5)
    for *, (19, 8) for /, (5, 3) for %)."""
    p1, s1, p2, s2 = a.precision, a.scale, b.precision, b.scale
    if op in ('+', '-'):
        scale = max(s1, s2)
        return adjusted_decimal(max(p1 - s1, p2 - s2) + scale + 1, scale)
    if op == '*':
        return adjusted_decimal(p1 + p2 + 1, s1 + s2)
    if op == '/':
        scale = max(_MINIMUM_ADJUSTED_SCALE, s1 + p2 + 1)
        return adjusted_decimal(p1 - s1 + s2 + scale, scale)
    if op == '%':
        scale = max(s1, s2)
        return adjusted_decimal(min(p1 - s1, p2 - s2) + scale, scale)
    raise ValueError(op)


def round_decimal(dt: DecimalType, digits: int) -> DecimalType:
    """Flink's LogicalTypeMerging.findRoundDecimalType: ROUND(DECIMAL(p, s), r); rounding
    may add a digit."""
    if digits >= dt.scale:
        result = DataTypes.DECIMAL(dt.precision, dt.scale)
    elif digits < 0:
        result = DataTypes.DECIMAL(min(MAX_PRECISION, 1 + dt.precision - dt.scale), 0)
    else:
        result = DataTypes.DECIMAL(1 + dt.precision - dt.scale + digits, digits)
    return result if dt._nullable else result.not_null()


_SUPPORTED_FORMS = {   # Calcite's text of each operator's forms (PyFlink 1.20.5)
    '+': ("'<NUMERIC> + <NUMERIC>'\n'<DATETIME_INTERVAL> + <DATETIME_INTERVAL>'\n"
          "'<DATETIME> + <DATETIME_INTERVAL>'\n'<DATETIME_INTERVAL> + <DATETIME>'"),
    '-': ("'<NUMERIC> - <NUMERIC>'\n'<DATETIME_INTERVAL> - <DATETIME_INTERVAL>'\n"
          "'<DATETIME> - <DATETIME_INTERVAL>'"),
    '*': ("'<NUMERIC> * <NUMERIC>'\n'<DATETIME_INTERVAL> * <NUMERIC>'\n"
          "'<NUMERIC> * <DATETIME_INTERVAL>'"),
    '/': "'<NUMERIC> / <NUMERIC>'\n'<DATETIME_INTERVAL> / <NUMERIC>'",
    '%': "'<EXACT_NUMERIC> % <EXACT_NUMERIC>'",
    '||': "'<STRING> || <STRING>'",
}


def calcite_type_name(dt: DataType) -> str:
    """A type as Calcite's messages print it (INT is INTEGER, STRING VARCHAR(2147483647))."""
    if isinstance(dt, VarCharType):
        return 'VARCHAR(%d)' % dt.length
    if isinstance(dt, IntType):
        return 'INTEGER'
    from pyflink_on_spark.table.sql.flink_types import flink_type_string
    return flink_type_string(dt.nullable())


def cannot_apply(op: str, a: DataType, b: DataType) -> SqlValidationError:
    """Calcite's error for an operator over operand types it has no form for."""
    return SqlValidationError(
        "Cannot apply '%s' to arguments of type '<%s> %s <%s>'. Supported form(s): %s"
        % (op, calcite_type_name(a), op, calcite_type_name(b), _SUPPORTED_FORMS[op]))


ILLEGAL_NULL = "Illegal use of 'NULL'"


def arithmetic_type(op: str, a: DataType, b: DataType) -> DataType:
    """Flink's type of `a op b` (op one of + - * / %) for two numbers; Calcite's error
    (SqlValidationError, Flink's text) for other operands. Seen on PyFlink 1.20.5: integers
    widen to the wider type (INT + BIGINT is BIGINT, TINYINT * TINYINT TINYINT, INT / INT the
    truncated INT) but % has the divisor's type; FLOAT and DOUBLE win over integers, give
    DOUBLE with a DECIMAL, and of the two the left one wins (Calcite ranks them alike: FLOAT
    + DOUBLE is FLOAT, DOUBLE + FLOAT DOUBLE, f + 1e0 FLOAT); DECIMAL with DECIMAL or an
    integer per decimal_result."""
    if not (is_numeric(a) and is_numeric(b)) or op == '%' and not (
            _exact(a) and _exact(b)):
        raise cannot_apply(op, a, b)
    approximate = [t for t in (a, b) if isinstance(t, (FloatType, DoubleType))]
    if approximate:
        decimal = isinstance(a, DecimalType) or isinstance(b, DecimalType)
        result: DataType = DataTypes.DOUBLE() if decimal else type(approximate[0])()
    elif isinstance(a, DecimalType) or isinstance(b, DecimalType):
        result = decimal_result(op, as_decimal(a), as_decimal(b))
    elif op == '%':
        result = type(b)()
    else:
        wider = a if _INTEGRAL_RANK[type(a)] >= _INTEGRAL_RANK[type(b)] else b
        result = type(wider)()
    return _nullable(result, a, b)


def _exact(dt: DataType) -> bool:
    return is_integral(dt) or isinstance(dt, DecimalType)


def common_type(types: Sequence[DataType], calcite: bool = False) -> Optional[DataType]:
    """Calcite's least restrictive type of CASE branches / COALESCE / GREATEST arguments
    (nullable; the caller decides NOT NULL), None when they do not mix. Seen on PyFlink
    1.20.5: TINYINT and BIGINT give BIGINT, FLOAT and INT FLOAT, FLOAT or DOUBLE and a
    DECIMAL DOUBLE, DECIMAL(10, 2) and INT DECIMAL(12, 2), DECIMAL(10, 2) and DECIMAL(5, 3)
    DECIMAL(11, 3); a STRING and an INT, a BOOLEAN and an INT, a DATE and a TIMESTAMP do
    not mix. A FLOAT and a DOUBLE: a DOUBLE (COALESCE(f, d), Flink's own type inference),
    but with `calcite` (CASE and IF, typed by Calcite, which ranks the two alike) the first
    of them (CASE WHEN ... THEN f ELSE d END is FLOAT, ... THEN d ELSE f END DOUBLE, CASE of
    an INT, a FLOAT and a DOUBLE FLOAT, IF(c, f, d) FLOAT)."""
    if not types:
        return None
    if all(is_numeric(t) for t in types):
        decimal = any(isinstance(t, DecimalType) for t in types)
        approximate = [t for t in types if isinstance(t, (FloatType, DoubleType))]
        if approximate:
            if decimal or not calcite and any(isinstance(t, DoubleType) for t in types):
                return DataTypes.DOUBLE()
            return type(approximate[0])()
        if decimal:
            decimals = [as_decimal(t) for t in types]
            scale = max(d.scale for d in decimals)
            digits = max(d.precision - d.scale for d in decimals)
            return DataTypes.DECIMAL(min(digits + scale, MAX_PRECISION), scale)
        return type(max(types, key=lambda t: _INTEGRAL_RANK[type(t)]))()
    if all(is_string(t) for t in types):
        return DataTypes.STRING()
    first = types[0]
    if all(type(t) is type(first) for t in types):
        return first.nullable()
    return None


def literal_number_type(text: str) -> DataType:
    """INT, BIGINT, DECIMAL(p, s) or DOUBLE, as Flink types a numeric literal."""
    lowered = text.lower()
    if 'e' in lowered:
        return DataTypes.DOUBLE(False)
    if '.' in text:
        whole, frac = text.split('.', 1)
        digits = len(whole.lstrip('0')) + len(frac)
        return DataTypes.DECIMAL(max(digits, len(frac), 1), len(frac), False)
    value = int(text)
    if value <= 2 ** 31 - 1:
        return DataTypes.INT(False)
    if value <= 2 ** 63 - 1:
        return DataTypes.BIGINT(False)
    return DataTypes.DECIMAL(len(text), 0, False)


def boolean_of(*inputs: Optional[DataType]) -> DataType:
    return _nullable(DataTypes.BOOLEAN(), *inputs)
