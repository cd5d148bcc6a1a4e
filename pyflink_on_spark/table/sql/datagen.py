"""The `datagen` connector as a row generator, with Flink 1.20's semantics (seen on PyFlink
1.20.5):

- Each parallel subtask generates its own share. A `sequence` field from start to end is split
  as Flink's SequenceGenerator splits it: subtask i of p emits start + i, start + i + p, ...,
  `abs(end - start + 1) // p` values, one more when `abs(end - start + 1) % p > i` (so start >
  end still emits values, as Flink does). `number-of-rows` n is split the same way (n // p,
  one more for subtasks i < n % p; a negative n emits nothing).
- A subtask stops at its first exhausted sequence or when its share of number-of-rows is out;
  without number-of-rows and without sequences it never stops.
- Sequence values wrap to the column type's width (a TINYINT sequence 126..129 is 126, -128,
  ... as in Flink); STRING/VARCHAR/CHAR sequences are the numbers' decimal text, BYTES ones
  the 8-byte big-endian form of the number.
- `random` fields: integers uniform in [min, max] (defaults: the type's range), floating
  point and DECIMAL uniform in [min, max], strings of `length` characters, bytes of
  `length` bytes, BOOLEAN, timestamps between now - max-past ms and now, DATE / TIME the
  current date / time, ARRAY / MAP of `length` elements (element./key./value. options),
  ROW fields random with defaults; `null-rate` makes that share of values NULL. Random
  values cannot be compared with PyFlink's value for value (different generators and seeds):
  only their ranges, lengths and null rates agree.
- `rows-per-second` is a pacing hint (rows_per_second() below) the caller may apply; this
  module does not sleep.

Bad options raise SqlValidationError worded as Flink's ValidationException."""
import datetime
import math
import random
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from pyflink_on_spark.table.sql.errors import SqlValidationError, UnsupportedSqlError
from pyflink_on_spark.table.sql.flink_types import flink_type_string, parse_type
from pyflink_on_spark.table.sql.statements import CreateTable
from pyflink_on_spark.table.types import (
    ArrayType, BigIntType, BinaryType, BooleanType, CharType, DataType, DateType, DecimalType,
    DoubleType, FloatType, IntType, LocalZonedTimestampType, MapType, RowType, SmallIntType,
    TimestampType, TimeType, TinyIntType, VarBinaryType, VarCharType)

__all__ = ['datagen_rows', 'datagen_rows_at', 'rows_per_second', 'scan_parallelism',
           'validate_datagen', 'DatagenPlan']

_TABLE_OPTIONS = ('connector', 'number-of-rows', 'rows-per-second', 'scan.parallelism')
_INT_BITS = {TinyIntType: 8, SmallIntType: 16, IntType: 32, BigIntType: 64}
_DEFAULT_ROWS_PER_SECOND = 10000


def _java_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _java_mod(a: int, b: int) -> int:
    return a - b * _java_div(a, b)


def _wrap(value: int, bits: int) -> int:
    """value as a two's complement integer of the given width (Java's narrowing cast)."""
    mask = (1 << bits) - 1
    value &= mask
    return value - (1 << bits) if value >> (bits - 1) else value


def _share(total: int, subtask_index: int, parallelism: int) -> int:
    """How many of `total` items subtask_index gets (Flink's split: base, one more for the
    first total % parallelism subtasks)."""
    base = _java_div(total, parallelism)
    return base + 1 if _java_mod(total, parallelism) > subtask_index else base


class _Options:
    """The table's options; remembers which were read (Flink reports the others)."""

    def __init__(self, options: Dict[str, str]):
        self.options = dict(options)
        self.consumed = set()
        self.supported = set(_TABLE_OPTIONS)

    def get(self, key: str) -> Optional[str]:
        self.supported.add(key)
        if key in self.options:
            self.consumed.add(key)
        return self.options.get(key)

    def number(self, key: str, kind: Callable, default=None):
        text = self.get(key)
        if text is None:
            return default
        try:
            return kind(text.strip())
        except (ValueError, ArithmeticError):
            raise SqlValidationError("Could not parse value '%s' for key '%s'." % (text, key))

    def required(self, key: str, kind: Callable):
        value = self.number(key, kind)
        if value is None:
            raise SqlValidationError("Could not find required property '%s' for sequence "
                                     "generator." % key)
        return value

    def check_unconsumed(self) -> None:
        for k in _TABLE_OPTIONS:
            if k in self.options:
                self.consumed.add(k)
        unknown = sorted(k for k in self.options if k not in self.consumed)
        if unknown:
            raise SqlValidationError(
                "Unsupported options found for 'datagen'.\n\nUnsupported options:\n\n%s\n\n"
                "Supported options:\n\n%s" % ('\n'.join(unknown),
                                             '\n'.join(sorted(self.supported))))


def _integral(text: str) -> int:
    return int(text)


def _decimal(text: str) -> Decimal:
    return Decimal(text)


def _boolean(text: str) -> bool:
    if text.lower() not in ('true', 'false'):
        raise ValueError(text)
    return text.lower() == 'true'


@dataclass(frozen=True)
class _Sequence:
    start: int
    end: int
    convert: Callable[[int], Any]

    def values(self, subtask_index: int, parallelism: int) -> Tuple[int, Callable]:
        total = abs(self.end - self.start + 1)
        count = _share(total, subtask_index, parallelism)
        return count, (lambda k: self.convert(self.start + subtask_index + k * parallelism))


def _sequence(dt: DataType, prefix: str, opts: _Options) -> _Sequence:
    if type(dt) in _INT_BITS:
        bits = _INT_BITS[type(dt)]
        start = _wrap(opts.required(prefix + 'start', _integral), bits)
        end = _wrap(opts.required(prefix + 'end', _integral), bits)
        return _Sequence(start, end, lambda v: _wrap(v, bits))
    if isinstance(dt, (FloatType, DoubleType)):
        start = opts.required(prefix + 'start', float)
        end = opts.required(prefix + 'end', float)
        return _Sequence(int(start), int(end), float)
    if isinstance(dt, (VarCharType, CharType)):
        start = opts.required(prefix + 'start', _integral)
        end = opts.required(prefix + 'end', _integral)
        return _Sequence(start, end, str)
    if isinstance(dt, (VarBinaryType, BinaryType)):
        start = opts.required(prefix + 'start', _integral)
        end = opts.required(prefix + 'end', _integral)
        return _Sequence(start, end, lambda v: _wrap(v, 64).to_bytes(8, 'big', signed=True))
    if isinstance(dt, DecimalType):
        raise UnsupportedSqlError(
            "datagen: a 'sequence' DECIMAL field has no reference behaviour (PyFlink 1.20.5 "
            "fails it at run time with a ClassCastException, BigDecimal to DecimalData)")
    if isinstance(dt, (BooleanType, DateType, TimeType)):
        # Flink's sequence visitor has no generator for these: its start/end options are
        # then reported as unsupported
        return None
    raise SqlValidationError('Unsupported type: %s' % _type_text(dt))


def _type_text(dt: DataType) -> str:
    return flink_type_string(dt)


_INT_RANGE = {TinyIntType: (-2 ** 7, 2 ** 7 - 1), SmallIntType: (-2 ** 15, 2 ** 15 - 1),
              IntType: (-2 ** 31, 2 ** 31 - 1), BigIntType: (-2 ** 63, 2 ** 63 - 1)}
_FLOAT_RANGE = {FloatType: (1.401298464324817e-45, 3.4028234663852886e38),
                DoubleType: (5e-324, 1.7976931348623157e308)}
_HEX = '0123456789abcdef'    # Flink's random strings are lowercase hex digits
_MAX_LEN = 0x7fffffff


def _length(dt: DataType, name: str, prefix: str, opts: _Options) -> int:
    """`length` of a random string / bytes field: default 100, or the declared length of a
    VARCHAR(n) / VARBINARY(n), which it may not exceed."""
    declared = dt.length if dt.length != _MAX_LEN else None
    length = opts.number(prefix + 'length', _integral, declared or 100)
    if declared is not None and length > declared:
        raise SqlValidationError(
            "Custom length '%d' for variable-length type (VARCHAR/STRING/VARBINARY/BYTES) "
            "field '%s' should be shorter than '%d' defined in the schema."
            % (length, name, declared))
    return length


def _random_length(rng: random.Random, length: int, var_len: bool) -> int:
    # var-len lengths seen on PyFlink 1.20.5: 1 .. length - 1
    return rng.randint(1, max(length - 1, 1)) if var_len else length


def _random(dt: DataType, name: str, prefix: str,
            opts: _Options) -> Callable[[random.Random], Any]:
    """A function rng -> one random value of dt, reading exactly the options Flink's random
    generator reads for the type (the others are reported as unsupported)."""
    make = _random_value(dt, name, prefix, opts)
    if not _has_null_rate(dt):
        return make
    null_rate = opts.number(prefix + 'null-rate', float, 0.0)
    if not null_rate:
        return make
    return lambda rng: None if rng.random() < null_rate else make(rng)


def _random_value(dt: DataType, name: str, prefix: str,
                  opts: _Options) -> Callable[[random.Random], Any]:
    if type(dt) in _INT_RANGE:
        low, high = _INT_RANGE[type(dt)]
        lo = opts.number(prefix + 'min', _integral, low)
        hi = opts.number(prefix + 'max', _integral, high)
        _check_bounds(lo, hi)
        return lambda rng: rng.randint(lo, hi)
    if isinstance(dt, (FloatType, DoubleType)):
        # defaults seen on PyFlink 1.20.5: positive values up to the type's largest (Java's
        # MIN_VALUE, the smallest positive number, to MAX_VALUE)
        smallest, largest = _FLOAT_RANGE[type(dt)]
        lo = opts.number(prefix + 'min', float, smallest)
        hi = opts.number(prefix + 'max', float, largest)
        _check_bounds(lo, hi)
        if math.isfinite(hi - lo):
            return lambda rng: lo + (hi - lo) * rng.random()
        return lambda rng: (lo / 2 + (hi / 2 - lo / 2) * rng.random()) * 2
    if isinstance(dt, DecimalType):
        # defaults seen on PyFlink 1.20.5: from 0 to the largest value of DECIMAL(p, s)
        limit = Decimal(10) ** (dt.precision - dt.scale) - Decimal(1).scaleb(-dt.scale)
        lo = opts.number(prefix + 'min', _decimal, Decimal(0))
        hi = opts.number(prefix + 'max', _decimal, limit)
        _check_bounds(lo, hi)
        quantum = Decimal(1).scaleb(-dt.scale)
        return lambda rng: (lo + (hi - lo) * Decimal(rng.random())).quantize(quantum)
    if isinstance(dt, BooleanType):
        return lambda rng: rng.random() < 0.5
    if isinstance(dt, CharType):
        # CHAR(n): n hex digits; Flink reads no length option for it
        return lambda rng: ''.join(rng.choice(_HEX) for _ in range(dt.length))
    if isinstance(dt, VarCharType):
        length = _length(dt, name, prefix, opts)
        var_len = opts.number(prefix + 'var-len', _boolean, False)
        return lambda rng: ''.join(rng.choice(_HEX) for _ in range(
            _random_length(rng, length, var_len)))
    if isinstance(dt, (VarBinaryType, BinaryType)):
        length = _length(dt, name, prefix, opts)
        var_len = opts.number(prefix + 'var-len', _boolean, False)
        return lambda rng: bytes(rng.getrandbits(8) for _ in range(
            _random_length(rng, length, var_len)))
    if isinstance(dt, (TimestampType, LocalZonedTimestampType)):
        max_past = opts.number(prefix + 'max-past', _integral, 0)
        local = isinstance(dt, TimestampType)
        unit = 10 ** max(6 - dt.precision, 0)     # microseconds the precision keeps

        def timestamp(rng):
            now = datetime.datetime.now() if local else datetime.datetime.now(
                datetime.timezone.utc)
            value = now - datetime.timedelta(milliseconds=rng.randint(0, max(max_past, 0)))
            return value.replace(microsecond=value.microsecond // unit * unit)
        return timestamp
    if isinstance(dt, DateType):
        return lambda rng: datetime.date.today()
    if isinstance(dt, TimeType):
        return lambda rng: datetime.datetime.now().time().replace(microsecond=0)
    if isinstance(dt, MapType):
        length = opts.number(prefix + 'length', _integral, 3)
        key = _random(dt.key_type, name, prefix + 'key.', opts)
        value = _random(dt.value_type, name, prefix + 'value.', opts)
        return lambda rng: {key(rng): value(rng) for _ in range(length)}
    if isinstance(dt, ArrayType):
        length = opts.number(prefix + 'length', _integral, 3)
        element = _random(dt.element_type, name, prefix + 'element.', opts)
        return lambda rng: [element(rng) for _ in range(length)]
    if isinstance(dt, RowType):
        fields = [_random(f.data_type, f.name, prefix + f.name + '.', opts) for f in dt.fields]
        return lambda rng: tuple(f(rng) for f in fields)
    raise SqlValidationError('Unsupported type: %s' % _type_text(dt))


def _has_null_rate(dt: DataType) -> bool:
    # options seen on PyFlink 1.20.5: DATE, TIME and BYTES fields take no null-rate
    return not isinstance(dt, (DateType, TimeType, VarBinaryType, BinaryType))


def _check_bounds(lo, hi) -> None:
    if lo > hi:
        raise SqlValidationError('lower bound (%s) must be strictly less than upper bound (%s)'
                                 % (lo, hi))


@dataclass(frozen=True)
class DatagenPlan:
    """A validated datagen table: per physical column either a sequence or a random maker."""
    number_of_rows: Optional[int]
    rows_per_second: float
    fields: Tuple[Tuple[str, Any], ...]    # (kind, _Sequence or maker)


def validate_datagen(table: CreateTable) -> DatagenPlan:
    """Checks the table's options as Flink does; SqlValidationError for bad ones."""
    opts = _Options(table.options)
    number_of_rows = opts.number('number-of-rows', _integral)
    rps = opts.number('rows-per-second', _integral, _DEFAULT_ROWS_PER_SECOND)
    opts.number('scan.parallelism', _integral)
    fields = []
    for column in table.physical_columns:
        dt = parse_type(column.data_type)
        prefix = 'fields.%s.' % column.name
        kind = opts.get(prefix + 'kind') or 'random'
        if kind == 'sequence':
            seq = _sequence(dt, prefix, opts)
            fields.append(('sequence', seq))
        elif kind == 'random':
            fields.append(('random', _random(dt, column.name, prefix, opts)))
        else:
            raise SqlValidationError('Unsupported generator kind: %s' % kind)
    opts.check_unconsumed()
    for column, (kind, spec) in zip(table.physical_columns, fields):
        if kind == 'sequence' and spec is None:
            raise UnsupportedSqlError("datagen: field '%s' of type %s has no sequence generator"
                                      % (column.name, column.data_type))
    if any(c.metadata is not None for c in table.columns):
        raise SqlValidationError(
            "Table 'DataGenTableSource' declares metadata columns, but the underlying "
            "DynamicTableSource doesn't implement the SupportsReadingMetadata interface. "
            "Therefore, metadata cannot be read from the given source.")
    return DatagenPlan(number_of_rows, float(rps), tuple(fields))


def scan_parallelism(table: CreateTable) -> Optional[int]:
    """The table's `scan.parallelism` option: when set, the source's subtasks number this
    many (and split sequences among themselves) whatever the job's parallelism."""
    return _Options(table.options).number('scan.parallelism', _integral)


def rows_per_second(table: CreateTable, subtask_index: int, parallelism: int) -> float:
    """The pacing hint for one subtask: rows-per-second (default 10000) over the
    parallelism."""
    return validate_datagen(table).rows_per_second / parallelism


def datagen_rows(table: CreateTable, subtask_index: int, parallelism: int,
                 seed: Optional[int] = None) -> Iterator[tuple]:
    """The rows (tuples of the physical columns, in order) that subtask `subtask_index` of
    `parallelism` generates. Finite when number-of-rows is set or any field is a sequence."""
    if not 0 <= subtask_index < parallelism:
        raise ValueError('subtask_index %d outside 0..%d' % (subtask_index, parallelism - 1))
    plan = validate_datagen(table)
    return _rows(plan, subtask_index, parallelism, seed)


def datagen_rows_at(table: CreateTable, subtask_index: int, parallelism: int, start: int,
                    count: int) -> List[tuple]:
    """Rows start .. start + count - 1 of what subtask `subtask_index` of `parallelism`
    generates (an unbounded table's source generates its rows a micro-batch's share at a
    time: a sequence field's values depend on the position only, random ones are drawn
    afresh)."""
    if not 0 <= subtask_index < parallelism:
        raise ValueError('subtask_index %d outside 0..%d' % (subtask_index, parallelism - 1))
    return list(_rows(validate_datagen(table), subtask_index, parallelism, None, start,
                      count))


def _rows(plan: DatagenPlan, subtask_index: int, parallelism: int,
          seed: Optional[int], start: int = 0,
          count: Optional[int] = None) -> Iterator[tuple]:
    limits: List[int] = []
    if plan.number_of_rows is not None:
        limits.append(_share(plan.number_of_rows, subtask_index, parallelism))
    makers = []
    for kind, spec in plan.fields:
        if kind == 'sequence':
            total, value = spec.values(subtask_index, parallelism)
            limits.append(total)
            makers.append((True, value))
        else:
            makers.append((False, spec))
    rng = random.Random(seed if seed is None else seed * 7919 + subtask_index)
    if count is not None:
        limits.append(start + count)
    limit = min(limits) if limits else None
    k = start
    while limit is None or k < limit:
        yield tuple(make(k) if is_seq else make(rng) for is_seq, make in makers)
        k += 1
