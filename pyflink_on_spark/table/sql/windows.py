"""Flink's windowing in a query, found before the SQL parser sees it:

- window table-valued functions `TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), size [, offset]))`,
  `HOP(TABLE t, DESCRIPTOR(ts), slide, size [, offset])`, `CUMULATE(...)`, `SESSION(...)`:
  each is replaced by a placeholder table name whose columns are t's plus window_start,
  window_end, window_time; after translation the placeholder becomes a Spark derived table
  built on Spark's window() (spark_window_table);
- interval literals (`INTERVAL '10' SECOND`) as milliseconds, for group windows too."""
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Dict, List, Optional, Tuple

from pyflink_on_spark.table.sql.errors import SqlValidationError, UnsupportedSqlError
from pyflink_on_spark.table.sql.tokens import Token, tokenize

__all__ = ['WindowTvf', 'extract_window_tvfs', 'interval_millis', 'spark_duration',
           'placeholder_name']

_UNIT_MS = {'SECOND': 1000, 'SECONDS': 1000, 'MINUTE': 60000, 'MINUTES': 60000,
            'HOUR': 3600000, 'HOURS': 3600000, 'DAY': 86400000, 'DAYS': 86400000}
_TVFS = ('TUMBLE', 'HOP', 'CUMULATE', 'SESSION')


@dataclass(frozen=True)
class WindowTvf:
    kind: str                       # TUMBLE, HOP, CUMULATE, SESSION
    table: str
    time_column: str
    size_ms: int                    # TUMBLE/HOP/CUMULATE size (max size), SESSION gap
    slide_ms: Optional[int] = None  # HOP slide, CUMULATE step
    offset_ms: int = 0
    partition_keys: Tuple[str, ...] = ()


def placeholder_name(index: int) -> str:
    return '__flink_window_%d__' % index


def interval_millis(text: str) -> int:
    """`INTERVAL '10' SECOND` (also MINUTE, HOUR, DAY; a decimal count of seconds) in ms."""
    m = re.fullmatch(r"\s*INTERVAL\s+'\s*(-?[0-9]+(?:\.[0-9]+)?)\s*'\s+([A-Za-z]+)\s*", text,
                     re.IGNORECASE)
    if not m or m.group(2).upper() not in _UNIT_MS:
        raise UnsupportedSqlError('The interval %r is not supported by pyflink_on_spark '
                                  "(write INTERVAL 'n' SECOND / MINUTE / HOUR / DAY)"
                                  % text.strip())
    millis = Decimal(m.group(1)) * _UNIT_MS[m.group(2).upper()]
    if millis != millis.to_integral_value():
        raise UnsupportedSqlError('The interval %r is finer than a millisecond' % text.strip())
    return int(millis)


def spark_duration(millis: int) -> str:
    """A Spark window() duration string."""
    return '%d milliseconds' % millis


def _split_args(tokens: List[Token], sql: str) -> List[Tuple[int, int]]:
    """(start, end) token index ranges of the top-level comma-separated arguments."""
    args, depth, begin = [], 0, 0
    for i, tok in enumerate(tokens):
        if tok.kind == 'symbol' and tok.text == '(':
            depth += 1
        elif tok.kind == 'symbol' and tok.text == ')':
            depth -= 1
        elif tok.kind == 'symbol' and tok.text == ',' and depth == 0:
            args.append((begin, i))
            begin = i + 1
    args.append((begin, len(tokens)))
    return args


def _matching_close(tokens: List[Token], open_index: int) -> int:
    depth = 0
    for i in range(open_index, len(tokens)):
        tok = tokens[i]
        if tok.kind == 'symbol' and tok.text == '(':
            depth += 1
        elif tok.kind == 'symbol' and tok.text == ')':
            depth -= 1
            if depth == 0:
                return i
    raise UnsupportedSqlError('SQL parse error: unbalanced parentheses')


def _text(sql: str, tokens: List[Token], begin: int, end: int) -> str:
    return sql[tokens[begin].start:tokens[end - 1].end]


def _parse_tvf(kind: str, inner: List[Token], sql: str) -> WindowTvf:
    args = _split_args(inner, sql)
    for b, e in args:
        if e - b >= 2 and inner[b + 1].kind == 'symbol' and inner[b + 1].text == '=':
            raise UnsupportedSqlError('Named arguments (name => value) of the window function '
                                      '%s are not supported by pyflink_on_spark' % kind)
    if not args or args[0][1] - args[0][0] < 2 or not inner[args[0][0]].is_word('TABLE'):
        raise UnsupportedSqlError('The window function %s takes TABLE name as its first '
                                  'argument here' % kind)
    b, e = args[0]
    table_tokens = inner[b + 1:e]
    partition: Tuple[str, ...] = ()
    for i, tok in enumerate(table_tokens):
        if tok.is_word('PARTITION'):
            if kind != 'SESSION':
                raise SqlValidationError('PARTITION BY in the window function %s: only SESSION '
                                         'takes it' % kind)
            partition = tuple(t.text for t in table_tokens[i + 2:]
                              if t.kind in ('word', 'quoted'))
            table_tokens = table_tokens[:i]
            break
    if not table_tokens or any(t.kind not in ('word', 'quoted') and t.text != '.'
                               for t in table_tokens):
        raise UnsupportedSqlError('The window function %s takes a table name (TABLE name) '
                                  'here, not a query' % kind)
    table = ''.join(t.text for t in table_tokens)
    b, e = args[1] if len(args) > 1 else (0, 0)
    desc = inner[b:e]
    if len(desc) != 4 or not desc[0].is_word('DESCRIPTOR') or desc[2].kind not in ('word',
                                                                                    'quoted'):
        raise UnsupportedSqlError('The window function %s takes DESCRIPTOR(time_column) as '
                                  'its second argument' % kind)
    time_column = desc[2].text
    intervals = [interval_millis(_text(sql, inner, b, e)) for b, e in args[2:]]
    expected = {'TUMBLE': (1, 2), 'HOP': (2, 3), 'CUMULATE': (2, 3), 'SESSION': (1, 1)}[kind]
    if not expected[0] <= len(intervals) <= expected[1]:
        raise SqlValidationError('The window function %s takes %d to %d intervals, found %d'
                                 % (kind, expected[0], expected[1], len(intervals)))
    if kind == 'TUMBLE':
        return WindowTvf(kind, table, time_column, intervals[0], None,
                         intervals[1] if len(intervals) > 1 else 0)
    if kind == 'SESSION':
        return WindowTvf(kind, table, time_column, intervals[0], partition_keys=partition)
    slide, size = intervals[0], intervals[1]
    return WindowTvf(kind, table, time_column, size, slide,
                     intervals[2] if len(intervals) > 2 else 0)


def extract_window_tvfs(sql: str) -> Tuple[str, Dict[str, WindowTvf]]:
    """The query with each window TVF replaced by a placeholder table name, and the TVFs by
    placeholder."""
    found: Dict[str, WindowTvf] = {}
    while True:
        tokens = tokenize(sql)
        hit = None
        for i in range(len(tokens) - 3):
            if (tokens[i].is_word('TABLE') and tokens[i + 1].text == '('
                    and tokens[i + 1].kind == 'symbol' and tokens[i + 2].kind == 'word'
                    and tokens[i + 3].text == '('):
                name = tokens[i + 2].text.upper()
                if name in _TVFS:
                    hit = i
                    break
                raise UnsupportedSqlError('The table function %s (in TABLE(...)) is not '
                                          'supported by pyflink_on_spark' % name)
        if hit is None:
            return sql, found
        kind = tokens[hit + 2].text.upper()
        inner_close = _matching_close(tokens, hit + 3)
        outer_close = _matching_close(tokens, hit + 1)
        if outer_close != inner_close + 1:
            raise UnsupportedSqlError('SQL parse error: TABLE(%s(...)) expected' % kind)
        tvf = _parse_tvf(kind, tokens[hit + 4:inner_close], sql)
        name = placeholder_name(len(found) + 1)
        found[name] = tvf
        sql = sql[:tokens[hit].start] + name + sql[tokens[outer_close].end:]
