"""Flink's result types for expressions (what the translation casts Spark's results back to,
so that values and the output schema are Flink's): numeric promotion, literals, aggregates."""
from typing import Optional

from pyflink_on_spark.table.types import (
    BigIntType, CharType, DataType, DataTypes, DecimalType, DoubleType, FloatType,
    IntType, LocalZonedTimestampType, SmallIntType, TimestampType, TinyIntType, VarCharType)

__all__ = ['is_integral', 'is_numeric', 'is_string', 'is_timestamp', 'numeric_result',
           'literal_number_type', 'STRING', 'BOOLEAN']

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
    """The type of a + b, a - b, a * b for numbers (Calcite's least restrictive type)."""
    if not (is_numeric(a) and is_numeric(b)):
        return None
    if isinstance(a, DoubleType) or isinstance(b, DoubleType):
        return _nullable(DataTypes.DOUBLE(), a, b)
    if isinstance(a, FloatType) or isinstance(b, FloatType):
        return _nullable(DataTypes.FLOAT(), a, b)
    if isinstance(a, DecimalType) or isinstance(b, DecimalType):
        return None     # decimal arithmetic precision: left to Spark (not cast)
    wider = a if _INTEGRAL_RANK[type(a)] >= _INTEGRAL_RANK[type(b)] else b
    return _nullable(type(wider)(), a, b)


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
