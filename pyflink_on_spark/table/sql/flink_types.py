"""Flink SQL type strings (`INT`, `DECIMAL(10, 2)`, `ROW<a INT, b STRING>`, ...): parsed to the
shim's DataTypes (pyflink_on_spark/table/types.py), rendered back in Flink's own summary form
(`VARCHAR(2147483647)` is `STRING`, `TIMESTAMP(3) WITH LOCAL TIME ZONE` is `TIMESTAMP_LTZ(3)`),
and mapped to the Spark SQL type that holds the same values."""
from typing import List, Optional, Tuple

from pyflink_on_spark.table.sql.errors import UnsupportedSqlError
from pyflink_on_spark.table.sql.tokens import Token, tokenize
from pyflink_on_spark.table.types import (
    ArrayType, BigIntType, BinaryType, BooleanType, CharType, DataType, DataTypes, DateType,
    DecimalType, DoubleType, FloatType, IntType, LocalZonedTimestampType, MapType, RowField,
    RowType, SmallIntType, TimestampType, TimeType, TinyIntType, VarBinaryType, VarCharType)

__all__ = ['parse_type', 'parse_type_tokens', 'flink_type_string', 'spark_type_string',
           'to_data_type', 'to_spark_type']

_MAX_LEN = 0x7fffffff
_SIMPLE = {
    'INT': DataTypes.INT, 'INTEGER': DataTypes.INT, 'BIGINT': DataTypes.BIGINT,
    'TINYINT': DataTypes.TINYINT, 'SMALLINT': DataTypes.SMALLINT,
    'BOOLEAN': DataTypes.BOOLEAN, 'DOUBLE': DataTypes.DOUBLE, 'FLOAT': DataTypes.FLOAT,
    'REAL': DataTypes.FLOAT, 'DATE': DataTypes.DATE, 'STRING': DataTypes.STRING,
    'BYTES': DataTypes.BYTES,
}


class _Reader:
    def __init__(self, tokens: List[Token], pos: int, text: str):
        self.tokens, self.pos, self.text = tokens, pos, text

    def peek(self, ahead: int = 0):
        i = self.pos + ahead
        return self.tokens[i] if i < len(self.tokens) else None

    def next(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise UnsupportedSqlError('SQL parse error: type %r ends early' % self.text)
        self.pos += 1
        return tok

    def expect(self, symbol: str) -> None:
        tok = self.next()
        if tok.kind != 'symbol' or tok.text != symbol:
            raise UnsupportedSqlError('SQL parse error: expected %r in type %r, found %r'
                                      % (symbol, self.text, tok.text))

    def at(self, symbol: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind == 'symbol' and tok.text == symbol

    def at_word(self, *words: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.is_word(*words)

    def int_arg(self) -> int:
        tok = self.next()
        if tok.kind != 'number' or not tok.text.isdigit():
            raise UnsupportedSqlError('SQL parse error: expected a number in type %r, found %r'
                                      % (self.text, tok.text))
        return int(tok.text)

    def optional_args(self) -> List[int]:
        if not self.at('('):
            return []
        self.next()
        args = [self.int_arg()]
        while self.at(','):
            self.next()
            args.append(self.int_arg())
        self.expect(')')
        return args


def _parse(r: _Reader) -> DataType:
    tok = r.next()
    if tok.kind != 'word':
        raise UnsupportedSqlError('SQL parse error: expected a type name in %r, found %r'
                                  % (r.text, tok.text))
    name = tok.text.upper()
    if name in _SIMPLE:
        if name == 'DOUBLE' and r.at_word('PRECISION'):
            r.next()
        dt = _SIMPLE[name]()
    elif name in ('VARCHAR', 'CHAR', 'BINARY', 'VARBINARY'):
        args = r.optional_args()
        length = args[0] if args else (_MAX_LEN if name.startswith('VAR') else 1)
        dt = {'VARCHAR': DataTypes.VARCHAR, 'CHAR': DataTypes.CHAR,
              'BINARY': DataTypes.BINARY, 'VARBINARY': DataTypes.VARBINARY}[name](length)
    elif name in ('DECIMAL', 'DEC', 'NUMERIC'):
        args = r.optional_args()
        dt = DataTypes.DECIMAL(args[0] if args else 10, args[1] if len(args) > 1 else 0)
    elif name == 'TIME':
        args = r.optional_args()
        dt = DataTypes.TIME(args[0] if args else 0)
        if r.at_word('WITHOUT'):
            _words(r, 'WITHOUT', 'TIME', 'ZONE')
    elif name == 'TIMESTAMP':
        args = r.optional_args()
        precision = args[0] if args else 6
        if r.at_word('WITH'):
            _words(r, 'WITH', 'LOCAL', 'TIME', 'ZONE')
            dt = DataTypes.TIMESTAMP_LTZ(precision)
        else:
            if r.at_word('WITHOUT'):
                _words(r, 'WITHOUT', 'TIME', 'ZONE')
            dt = DataTypes.TIMESTAMP(precision)
    elif name == 'TIMESTAMP_LTZ':
        args = r.optional_args()
        dt = DataTypes.TIMESTAMP_LTZ(args[0] if args else 6)
    elif name == 'ARRAY':
        r.expect('<')
        element = _parse(r)
        r.expect('>')
        dt = DataTypes.ARRAY(element)
    elif name == 'MAP':
        r.expect('<')
        key = _parse(r)
        r.expect(',')
        value = _parse(r)
        r.expect('>')
        dt = DataTypes.MAP(key, value)
    elif name == 'ROW':
        close = '>' if r.at('<') else ')'
        r.next()
        fields = []
        while not r.at(close):
            ftok = r.next()
            if ftok.kind not in ('word', 'quoted'):
                raise UnsupportedSqlError('SQL parse error: expected a field name in %r'
                                          % r.text)
            ftype = _parse(r)
            description = None
            if r.peek() is not None and r.peek().kind == 'string':
                description = r.next().text
            fields.append(RowField(ftok.text, ftype, description))
            if r.at(','):
                r.next()
        r.next()
        dt = DataTypes.ROW(fields)
    else:
        raise UnsupportedSqlError('The Flink SQL type %s is not supported by pyflink_on_spark'
                                  % name)
    if r.at_word('NOT') and r.peek(1) is not None and r.peek(1).is_word('NULL'):
        r.pos += 2
        dt = dt.not_null()
    elif r.at_word('NULL'):
        r.pos += 1
    return dt


def _words(r: _Reader, *words: str) -> None:
    for w in words:
        tok = r.next()
        if not tok.is_word(w):
            raise UnsupportedSqlError('SQL parse error: expected %s in type %r' % (w, r.text))


def parse_type_tokens(tokens: List[Token], pos: int, text: str) -> Tuple[DataType, int]:
    """Parses one type starting at tokens[pos]; returns it and the position after it."""
    r = _Reader(tokens, pos, text)
    dt = _parse(r)
    return dt, r.pos


def parse_type(text: str) -> DataType:
    """A Flink SQL type string as the shim's DataType."""
    tokens = tokenize(text)
    dt, pos = parse_type_tokens(tokens, 0, text)
    if pos != len(tokens):
        raise UnsupportedSqlError('SQL parse error: unexpected %r after the type in %r'
                                  % (tokens[pos].text, text))
    return dt


def _quote(name: str) -> str:
    return '`%s`' % name.replace('`', '``')


ROWTIME = ' *ROWTIME*'


def as_rowtime(dt: DataType) -> DataType:
    """A copy of a timestamp type marked as a rowtime attribute (an event-time column: a
    watermark's, a window's window_time). A column reference keeps the mark (the same type
    object); a CAST or a function making a new type drops it, as Flink's planner does (seen
    on PyFlink 1.20.5: `SELECT f0, rowtime` and MAX(rowtime) keep *ROWTIME*)."""
    from copy import copy
    marked = copy(dt)
    marked._rowtime = True
    return marked


def is_rowtime(dt: Optional[DataType]) -> bool:
    return getattr(dt, '_rowtime', False)


def as_materialized(dt: DataType) -> DataType:
    """A rowtime type an aggregate made of a rowtime (MIN / MAX): Flink's planner still
    types it *ROWTIME* (print_schema shows it), but materializes it: no time attribute, its
    records are not stamped with it (seen on PyFlink 1.20.5: to_data_stream of a window
    aggregate selecting MAX(ts) and not window_time gives no timestamp)."""
    from copy import copy
    marked = copy(dt)
    marked._materialized_rowtime = True
    return marked


def is_materialized(dt: Optional[DataType]) -> bool:
    return getattr(dt, '_materialized_rowtime', False)


def parse_column_type(text: str) -> DataType:
    """A column's type as the Table API hands it to the translator: Flink's type text, with
    ' *ROWTIME*' after it for a rowtime attribute."""
    if text.endswith(ROWTIME):
        return as_rowtime(parse_type(text[:-len(ROWTIME)]))
    return parse_type(text)


def flink_type_string(dt: DataType) -> str:
    """Flink's summary form of a type (what DESCRIBE and error texts print; a rowtime
    attribute's `TIMESTAMP_LTZ(3) NOT NULL *ROWTIME*`)."""
    suffix = ('' if dt._nullable else ' NOT NULL') + (ROWTIME if is_rowtime(dt) else '')
    if isinstance(dt, VarCharType):
        body = 'STRING' if dt.length == _MAX_LEN else 'VARCHAR(%d)' % dt.length
    elif isinstance(dt, CharType):
        body = 'CHAR(%d)' % dt.length
    elif isinstance(dt, VarBinaryType):
        body = 'BYTES' if dt.length == _MAX_LEN else 'VARBINARY(%d)' % dt.length
    elif isinstance(dt, BinaryType):
        body = 'BINARY(%d)' % dt.length
    elif isinstance(dt, DecimalType):
        body = 'DECIMAL(%d, %d)' % (dt.precision, dt.scale)
    elif isinstance(dt, TimeType):
        body = 'TIME(%d)' % dt.precision
    elif isinstance(dt, LocalZonedTimestampType):
        body = 'TIMESTAMP_LTZ(%d)' % dt.precision
    elif isinstance(dt, TimestampType):
        body = 'TIMESTAMP(%d)' % dt.precision
    elif isinstance(dt, MapType):
        body = 'MAP<%s, %s>' % (flink_type_string(dt.key_type), flink_type_string(dt.value_type))
    elif isinstance(dt, ArrayType):
        body = 'ARRAY<%s>' % flink_type_string(dt.element_type)
    elif isinstance(dt, RowType):
        body = 'ROW<%s>' % ', '.join('%s %s' % (_quote(f.name), flink_type_string(f.data_type))
                                     for f in dt.fields)
    elif isinstance(dt, (TinyIntType, SmallIntType, IntType, BigIntType, BooleanType,
                         DoubleType, FloatType, DateType)):
        body = type(dt).type_name()
    else:
        raise UnsupportedSqlError('The type %r has no Flink SQL form here' % (dt,))
    return body + suffix


def spark_type_string(dt: DataType) -> str:
    """The Spark SQL type holding the same values. Flink TIMESTAMP (no time zone) is Spark's
    TIMESTAMP_NTZ; TIMESTAMP_LTZ (an instant) is Spark's TIMESTAMP. CHAR/VARCHAR are STRING
    (Spark keeps no length on DataFrame columns); BINARY/VARBINARY/BYTES are BINARY.
    Nullability is not part of a Spark type string."""
    if isinstance(dt, (VarCharType, CharType)):
        return 'STRING'
    if isinstance(dt, (VarBinaryType, BinaryType)):
        return 'BINARY'
    if isinstance(dt, DecimalType):
        if dt.precision > 38:
            raise UnsupportedSqlError('DECIMAL(%d, %d): Spark decimals hold 38 digits at most'
                                      % (dt.precision, dt.scale))
        return 'DECIMAL(%d,%d)' % (dt.precision, dt.scale)
    if isinstance(dt, TimeType):
        raise UnsupportedSqlError('The Flink SQL type TIME(%d) has no Spark SQL column type '
                                  'here' % dt.precision)
    if isinstance(dt, LocalZonedTimestampType):
        return 'TIMESTAMP'
    if isinstance(dt, TimestampType):
        return 'TIMESTAMP_NTZ'
    if isinstance(dt, MapType):
        return 'MAP<%s,%s>' % (spark_type_string(dt.key_type), spark_type_string(dt.value_type))
    if isinstance(dt, ArrayType):
        return 'ARRAY<%s>' % spark_type_string(dt.element_type)
    if isinstance(dt, RowType):
        return 'STRUCT<%s>' % ','.join('%s:%s' % (_quote(f.name), spark_type_string(f.data_type))
                                       for f in dt.fields)
    names = {TinyIntType: 'TINYINT', SmallIntType: 'SMALLINT', IntType: 'INT',
             BigIntType: 'BIGINT', BooleanType: 'BOOLEAN', DoubleType: 'DOUBLE',
             FloatType: 'FLOAT', DateType: 'DATE'}
    if type(dt) in names:
        return names[type(dt)]
    raise UnsupportedSqlError('The type %r has no Spark SQL form here' % (dt,))


def to_data_type(type_string: str) -> DataType:
    """A Flink type string as the shim's DataType (DataTypes.INT(), ...)."""
    return parse_type(type_string)


def to_spark_type(type_string: str) -> str:
    """A Flink type string as a Spark SQL type string."""
    return spark_type_string(parse_type(type_string))
