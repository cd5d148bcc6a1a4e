"""Flink built-in functions that have a Spark SQL equivalent with the same meaning, each with
its Flink result type. A function missing here fails the translation, naming it."""
from typing import Callable, Dict, List, Optional, Tuple

from sqlglot import exp

from pyflink_on_spark.table.sql.arithmetic import wrapping_abs
from pyflink_on_spark.table.sql.collection_functions import COLLECTION_FUNCTIONS
from pyflink_on_spark.table.sql.errors import SqlValidationError, UnsupportedSqlError
from pyflink_on_spark.table.sql.flink_types import spark_type_string
from pyflink_on_spark.table.sql.json_functions import JSON_FUNCTIONS
from pyflink_on_spark.table.sql.typing_rules import (
    common_type, is_integral, is_string, round_decimal)
from pyflink_on_spark.table.types import (
    DataType, DataTypes, DecimalType, DoubleType, FloatType)

__all__ = ['translate_function', 'is_builtin', 'AGGREGATES']

Arg = Tuple[exp.Expression, Optional[DataType]]
Result = Tuple[exp.Expression, Optional[DataType]]

AGGREGATES = ('COUNT', 'SUM', 'AVG', 'MIN', 'MAX')


def call(name: str, *args: exp.Expression) -> exp.Expression:
    return exp.Anonymous(this=name, expressions=list(args))


def cast(e: exp.Expression, spark_type: str) -> exp.Expression:
    return exp.Cast(this=e, to=exp.DataType.build(spark_type, dialect='spark'))


def lit(value) -> exp.Expression:
    if isinstance(value, str):
        return exp.Literal.string(value)
    return exp.Literal.number(value)


def _arity(name: str, args: List[Arg], low: int, high: int) -> None:
    if not low <= len(args) <= high:
        raise SqlValidationError('The function %s takes %s arguments, found %d'
                                 % (name, low if low == high else '%d to %d' % (low, high),
                                    len(args)))


def _same(spark_name: str, result: Callable[[List[Arg]], Optional[DataType]], low: int,
          high: int):
    def handler(name: str, args: List[Arg]) -> Result:
        _arity(name, args, low, high)
        return call(spark_name, *[a for a, _ in args]), result(args)
    return handler


def _abs(name: str, args: List[Arg]) -> Result:
    _arity(name, args, 1, 1)
    (a, dt), = args
    if dt is not None and is_integral(dt):
        return wrapping_abs(a, dt), dt
    return call('abs', a), dt


def _string(_args) -> DataType:
    return DataTypes.STRING()


def _int(_args) -> DataType:
    return DataTypes.INT()


def _bigint(_args) -> DataType:
    return DataTypes.BIGINT()


def _double(_args) -> DataType:
    return DataTypes.DOUBLE()


def _first(args) -> Optional[DataType]:
    return args[0][1]


def _common(args, name: str = 'COALESCE') -> Optional[DataType]:
    """The arguments' common type (typing_rules.common_type: COALESCE(DECIMAL(10, 2), INT) is
    DECIMAL(12, 2) on PyFlink 1.20.5); arguments that do not mix are refused in Flink's
    words (COALESCE(STRING, INT))."""
    types = [t for _, t in args if t is not None]
    result = common_type(types)
    if types and result is None:
        raise _invalid_call(name, args)
    return result.nullable() if result is not None else None


def _invalid_call(name: str, args) -> SqlValidationError:
    from pyflink_on_spark.table.sql.flink_types import flink_type_string
    return SqlValidationError('Invalid function call:\n%s(%s)' % (name, ', '.join(
        'NULL' if t is None else flink_type_string(t.nullable()) for _, t in args)))


def _mod(name: str, args: List[Arg]) -> Result:
    # Java's remainder (sign of the dividend) in both engines; typed as % (arithmetic.py)
    from pyflink_on_spark.table.sql.arithmetic import mod_function
    _arity(name, args, 2, 2)
    return mod_function(*args)


def _floor_ceil(spark_name: str):
    def handler(name: str, args: List[Arg]) -> Result:
        _arity(name, args, 1, 1)
        (a, ta), = args
        e = call(spark_name, a)
        # Spark's FLOOR/CEIL of a DOUBLE is a BIGINT; Flink keeps the argument's type
        if isinstance(ta, (DoubleType, FloatType)):
            return cast(e, 'DOUBLE' if isinstance(ta, DoubleType) else 'FLOAT'), ta
        if is_integral(ta):
            return a, ta
        if isinstance(ta, DecimalType):
            # FLOOR(-999.99) is -1000: one more digit than the integral part
            precision = min(ta.precision - ta.scale + 1, 38)
            return cast(e, 'DECIMAL(%d,0)' % precision), DataTypes.DECIMAL(precision, 0)
        raise UnsupportedSqlError('%s of %s is not supported by pyflink_on_spark' % (name, ta))
    return handler


def _round(name: str, args: List[Arg]) -> Result:
    _arity(name, args, 1, 2)
    e, dt = call('ROUND', *[a for a, _ in args]), args[0][1]
    if isinstance(dt, DecimalType):
        # Flink's LogicalTypeMerging.findRoundDecimalType (PyFlink 1.20.5: ROUND of a
        # DECIMAL(10, 2) to 1 digit is DECIMAL(10, 1), of a DECIMAL(21, 13) to 2 DECIMAL(11, 2))
        digits = int(args[1][0].name) if len(args) > 1 and isinstance(
            args[1][0], exp.Literal) else 0
        dt = round_decimal(dt, digits)
        return cast(e, spark_type_string(dt)), dt
    return e, dt


def _timestamp_pattern(args: List[Arg], index: int, default: str) -> exp.Expression:
    return args[index][0] if len(args) > index else lit(default)


def try_cast_text(e: exp.Expression, spark_type: str) -> exp.Expression:
    """TRY_CAST(e AS type) (sqlglot writes a TryCast as CAST for Spark: spelled out)."""
    return exp.Var(this='TRY_CAST(%s AS %s)' % (e.sql(dialect='spark'), spark_type))


def _to_timestamp(name: str, args: List[Arg]) -> Result:
    # Flink: NULL for text that does not parse; TIMESTAMP(3) without time zone. Without a
    # format it also takes '2024-01-02' and '2024-01-02 03:04:05.5' (PyFlink 1.20.5), as
    # Spark's cast to TIMESTAMP_NTZ does
    _arity(name, args, 1, 2)
    if len(args) == 1:
        return try_cast_text(args[0][0], 'TIMESTAMP_NTZ'), DataTypes.TIMESTAMP(3)
    parsed = call('try_to_timestamp', args[0][0], args[1][0])
    return cast(parsed, 'TIMESTAMP_NTZ'), DataTypes.TIMESTAMP(3)


def _to_date(name: str, args: List[Arg]) -> Result:
    _arity(name, args, 1, 2)
    parsed = call('try_to_timestamp', args[0][0], _timestamp_pattern(args, 1, 'yyyy-MM-dd'))
    return cast(parsed, 'DATE'), DataTypes.DATE()


def _to_timestamp_ltz(name: str, args: List[Arg]) -> Result:
    _arity(name, args, 1, 2)
    precision = int(args[1][0].name) if len(args) > 1 and isinstance(
        args[1][0], exp.Literal) else 3
    if precision == 3:
        return call('timestamp_millis', args[0][0]), DataTypes.TIMESTAMP_LTZ(3)
    if precision == 0:
        return call('timestamp_seconds', args[0][0]), DataTypes.TIMESTAMP_LTZ(0)
    raise UnsupportedSqlError('TO_TIMESTAMP_LTZ with precision %d is not supported by '
                              'pyflink_on_spark (0 or 3)' % precision)


def _date_format(name: str, args: List[Arg]) -> Result:
    _arity(name, args, 2, 2)
    (a, ta), (f, _) = args
    if is_string(ta):     # text that is no timestamp formats as NULL (PyFlink 1.20.5)
        a = try_cast_text(a, 'TIMESTAMP_NTZ')
    return call('date_format', a, f), DataTypes.STRING()


def _from_unixtime(name: str, args: List[Arg]) -> Result:
    _arity(name, args, 1, 2)
    return call('from_unixtime', *[a for a, _ in args]), DataTypes.STRING()


def _unix_timestamp(name: str, args: List[Arg]) -> Result:
    _arity(name, args, 0, 2)
    if not args:
        return call('unix_timestamp'), DataTypes.BIGINT()
    text = args[0][0]
    parsed = call('try_to_timestamp', text, _timestamp_pattern(args, 1, 'yyyy-MM-dd HH:mm:ss'))
    # Flink gives Long.MIN_VALUE for text that does not parse (seen on PyFlink 1.20.5)
    seconds = call('coalesce', call('unix_timestamp', parsed),
                   exp.Literal.number(-9223372036854775808))
    return exp.If(this=exp.Is(this=text.copy(), expression=exp.Null()), true=exp.Null(),
                  false=seconds), DataTypes.BIGINT()


def _concat(name: str, args: List[Arg]) -> Result:
    if not args:
        raise SqlValidationError('The function CONCAT takes at least 1 argument, found 0')
    return call('concat', *[_as_string(a, t) for a, t in args]), DataTypes.STRING()


def _concat_ws(name: str, args: List[Arg]) -> Result:
    if len(args) < 2:
        raise SqlValidationError('The function CONCAT_WS takes at least 2 arguments, found %d'
                                 % len(args))
    return call('concat_ws', *[_as_string(a, t) for a, t in args]), DataTypes.STRING()


def _as_string(e: exp.Expression, t: Optional[DataType]) -> exp.Expression:
    return e if t is None or is_string(t) else cast(e, 'STRING')


def _coalesce(name: str, args: List[Arg]) -> Result:
    if not args:
        raise SqlValidationError('The function COALESCE takes at least 1 argument, found 0')
    # NOT NULL when any argument is (PyFlink 1.20.5: COALESCE(INT, 0) is INT NOT NULL)
    result = _common(args)
    if result is not None and any(t is not None and not t._nullable for _, t in args):
        result = result.not_null()
    e = call('coalesce', *[a for a, _ in args])
    # Spark's common type of a DECIMAL and a BIGINT differs from Flink's (arithmetic.py)
    return _decimal_cast(e, result), result


def _decimal_cast(e: exp.Expression, dt: Optional[DataType]) -> exp.Expression:
    return cast(e, spark_type_string(dt)) if isinstance(dt, DecimalType) else e


def _hour(name: str, args: List[Arg]) -> Result:
    # Flink's HOUR is a BIGINT, Spark's an INT
    _arity(name, args, 1, 1)
    return cast(call('hour', args[0][0]), 'BIGINT'), DataTypes.BIGINT()


def _greatest_least(spark_name: str):
    def handler(name: str, args: List[Arg]) -> Result:
        # Flink: NULL when any argument is NULL (GREATEST(2, NULL) is NULL on PyFlink 1.20.5);
        # Spark's GREATEST / LEAST skip NULLs
        if len(args) < 2:
            raise SqlValidationError('The function %s takes at least 2 arguments, found %d'
                                     % (name, len(args)))
        any_null = exp.or_(*[exp.Is(this=a.copy(), expression=exp.Null()) for a, _ in args])
        result = _common(args, name)
        return _decimal_cast(exp.If(this=any_null, true=exp.Null(),
                                    false=call(spark_name, *[a for a, _ in args])), result), result
    return handler


def _date_part(spark_name: str):
    def handler(name: str, args: List[Arg]) -> Result:
        # Flink's YEAR(ts), MONTH(ts), ... are BIGINTs, Spark's INTs
        _arity(name, args, 1, 1)
        return cast(call(spark_name, args[0][0]), 'BIGINT'), DataTypes.BIGINT()
    return handler


def _locate(name: str, args: List[Arg]) -> Result:
    # 1-based position, 0 when absent, 1 for '' (PyFlink 1.20.5 and Spark)
    _arity(name, args, 2, 2)
    return call('locate', args[0][0], args[1][0]), DataTypes.INT()


def _regexp_extract(name: str, args: List[Arg]) -> Result:
    # Flink: NULL when the pattern does not match; Spark's REGEXP_EXTRACT gives ''
    if len(args) != 3:
        raise UnsupportedSqlError('REGEXP_EXTRACT without its group index is not supported by '
                                  'pyflink_on_spark: write REGEXP_EXTRACT(s, pattern, index)')
    (s, _), (pattern, _), (index, _) = args
    matches = exp.RegexpLike(this=s.copy(), expression=pattern.copy())
    return exp.If(this=matches, true=call('regexp_extract', s, pattern, index),
                  false=exp.Null()), DataTypes.STRING()


def _sign(name: str, args: List[Arg]) -> Result:
    # Flink's SIGN keeps the argument's type (SIGN(-2) is the INT -1); Spark's is a DOUBLE
    _arity(name, args, 1, 1)
    (a, ta), = args
    e = call('sign', a)
    return (cast(e, spark_type_string(ta)) if ta is not None else e), ta


def _table_plus(name: str, args: List[Arg]) -> Result:
    """The Table API's `+` of two expressions (table/expression.py): seen on PyFlink 1.20.5,
    a string on the left concatenates the right as a string (col('s') + col('i') is 'ab7',
    col('s1') + col('s2') 'abcd'), numbers add as SQL's +, other operands fail with
    `Invalid function call:\nplus(INT, STRING)`."""
    from pyflink_on_spark.table.sql.arithmetic import arithmetic
    from pyflink_on_spark.table.sql.flink_types import flink_type_string
    _arity(name, args, 2, 2)
    (a, ta), (b, tb) = args
    if is_string(ta):
        return call('concat', a, _as_string(b, tb)), DataTypes.STRING()
    try:
        return arithmetic('+', (a, ta), (b, tb), exp.Add(this=a, expression=b))
    except SqlValidationError:
        raise SqlValidationError('Invalid function call:\nplus(%s, %s)' % tuple(
            'NULL' if t is None else flink_type_string(t.nullable()) for t in (ta, tb))) \
            from None


def _cardinality(name: str, args: List[Arg]) -> Result:
    """CARDINALITY of an ARRAY or MAP: its number of elements, NULL of NULL (seen on PyFlink
    1.20.5: 2 for [1, 2], 0 for {} and []); Spark's size(NULL) is -1 outside ANSI mode, so
    the NULL is spelled out."""
    from pyflink_on_spark.table.types import ArrayType, MapType
    _arity(name, args, 1, 1)
    (a, dt), = args
    if not isinstance(dt, (ArrayType, MapType)):
        raise UnsupportedSqlError('CARDINALITY of a value that is not an ARRAY or a MAP is '
                                  'not supported by pyflink_on_spark')
    counted = exp.Case(ifs=[exp.If(this=exp.Is(this=a.copy(), expression=exp.Null()),
                                   true=exp.Null())], default=call('size', a))
    return counted, DataTypes.INT(dt._nullable)


_FUNCTIONS: Dict[str, Callable[[str, List[Arg]], Result]] = {
    'CARDINALITY': _cardinality,
    'CHAR_LENGTH': _same('char_length', _int, 1, 1),
    'CHARACTER_LENGTH': _same('char_length', _int, 1, 1),
    'UPPER': _same('upper', _string, 1, 1),
    'LOWER': _same('lower', _string, 1, 1),
    'CONCAT': _concat,
    'CONCAT_WS': _concat_ws,
    'COALESCE': _coalesce,
    'NULLIF': _same('nullif', _first, 2, 2),
    'IFNULL': _same('coalesce', _first, 2, 2),
    'REPLACE': _same('replace', _string, 3, 3),
    'LPAD': _same('lpad', _string, 3, 3),
    'RPAD': _same('rpad', _string, 3, 3),
    'LTRIM': _same('ltrim', _string, 1, 1),
    'RTRIM': _same('rtrim', _string, 1, 1),
    'REPEAT': _same('repeat', _string, 2, 2),
    'INITCAP': _same('initcap', _string, 1, 1),
    'REVERSE': _same('reverse', _string, 1, 1),
    'REGEXP_REPLACE': _same('regexp_replace', _string, 3, 3),
    'SQRT': _same('sqrt', _double, 1, 1),
    'EXP': _same('exp', _double, 1, 1),
    'LN': _same('ln', _double, 1, 1),
    'LOG10': _same('log10', _double, 1, 1),
    'PI': _same('pi', _double, 0, 0),
    'SIGN': _sign,
    'HOUR': _hour,
    'YEAR': _date_part('year'),
    'QUARTER': _date_part('quarter'),
    'MONTH': _date_part('month'),
    'WEEK': _date_part('weekofyear'),
    'DAYOFYEAR': _date_part('dayofyear'),
    'DAYOFMONTH': _date_part('dayofmonth'),
    'DAYOFWEEK': _date_part('dayofweek'),
    'MINUTE': _date_part('minute'),
    'SECOND': _date_part('second'),
    'LOCATE': _locate,
    'REGEXP_EXTRACT': _regexp_extract,
    'LEFT': _same('left', _string, 2, 2),
    'RIGHT': _same('right', _string, 2, 2),
    'MD5': _same('md5', _string, 1, 1),
    'GREATEST': _greatest_least('greatest'),
    'LEAST': _greatest_least('least'),
    'MOD': _mod,
    'POWER': _same('power', _double, 2, 2),
    'ABS': _abs,
    'ROUND': _round,
    'FLOOR': _floor_ceil('floor'),
    'CEIL': _floor_ceil('ceil'),
    'CEILING': _floor_ceil('ceil'),
    'DATE_FORMAT': _date_format,
    'TO_TIMESTAMP': _to_timestamp,
    'TO_DATE': _to_date,
    'TO_TIMESTAMP_LTZ': _to_timestamp_ltz,
    'FROM_UNIXTIME': _from_unixtime,
    'UNIX_TIMESTAMP': _unix_timestamp,
    '__TABLE_PLUS': _table_plus,
}
# JSON_VALUE, JSON_QUERY, JSON_EXISTS, IS JSON, JSON_STRING, JSON_OBJECT, JSON_ARRAY as
# json_syntax.py rewrites them
_FUNCTIONS.update(JSON_FUNCTIONS)
# ELEMENT, ARRAY_CONTAINS, ..., MAP_FROM_ARRAYS (collection_functions.py)
_FUNCTIONS.update(COLLECTION_FUNCTIONS)

def niladic(name: str) -> Optional[Result]:
    upper = name.upper()
    if upper == 'CURRENT_TIMESTAMP':
        return call('current_timestamp'), DataTypes.TIMESTAMP_LTZ(3, False)
    if upper == 'LOCALTIMESTAMP':
        return call('localtimestamp'), DataTypes.TIMESTAMP(3, False)
    if upper == 'CURRENT_DATE':
        return call('current_date'), DataTypes.DATE(False)
    return None


def is_builtin(name: str) -> bool:
    """Whether `name` is a Flink built-in function this layer translates (a user function
    registered by create_temporary_function under such a name comes after it)."""
    upper = name.upper()
    return upper in _FUNCTIONS or upper in AGGREGATES or upper == 'NOW'


def translate_function(name: str, args: List[Arg]) -> Result:
    """A Flink scalar function call as its Spark equivalent and Flink result type."""
    upper = name.upper()
    handler = _FUNCTIONS.get(upper)
    if handler is None:
        if upper == 'NOW' and not args:
            return niladic('CURRENT_TIMESTAMP')
        raise UnsupportedSqlError('The Flink SQL function %s has no faithful Spark SQL '
                                  'translation in pyflink_on_spark' % upper)
    return handler(upper, args)

