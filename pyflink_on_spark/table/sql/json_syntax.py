"""Flink's JSON function syntax (SQL/JSON: `JSON_VALUE(doc, path RETURNING INT DEFAULT 0 ON
EMPTY NULL ON ERROR)`, `JSON_QUERY(... WITH CONDITIONAL ARRAY WRAPPER EMPTY ARRAY ON
EMPTY)`, `JSON_EXISTS(... TRUE ON ERROR)`, `JSON_OBJECT(KEY 'k' VALUE v ABSENT ON NULL)`,
`JSON_ARRAY(v ... NULL ON NULL)`, `x IS [NOT] JSON [VALUE | SCALAR | ARRAY | OBJECT]`)
rewritten, before sqlglot parses the query, as plain calls whose clauses are string
arguments (`__JSON_VALUE(doc, '$.a', 'INT', 'DEFAULT', 0, 'NULL')`), which json_functions.py
translates. The rewrite works on tokens, innermost call first."""
from typing import List, Optional, Tuple

from pyflink_on_spark.table.sql.errors import SqlValidationError, UnsupportedSqlError
from pyflink_on_spark.table.sql.tokens import Token, tokenize

__all__ = ['rewrite_json_syntax', 'PREFIX']

PREFIX = '__'
_CALLS = ('JSON_VALUE', 'JSON_QUERY', 'JSON_EXISTS', 'JSON_OBJECT', 'JSON_ARRAY')


def _quote(text: str) -> str:
    return "'%s'" % text.replace("'", "''")


def _split(tokens: List[Token]) -> List[List[Token]]:
    """Top-level comma-separated arguments (each a token list)."""
    args: List[List[Token]] = [[]]
    depth = 0
    for tok in tokens:
        if tok.kind == 'symbol' and tok.text == '(':
            depth += 1
        elif tok.kind == 'symbol' and tok.text == ')':
            depth -= 1
        if tok.kind == 'symbol' and tok.text == ',' and depth == 0:
            args.append([])
        else:
            args[-1].append(tok)
    return args


def _close(tokens: List[Token], open_index: int) -> int:
    depth = 0
    for i in range(open_index, len(tokens)):
        if tokens[i].kind == 'symbol' and tokens[i].text == '(':
            depth += 1
        elif tokens[i].kind == 'symbol' and tokens[i].text == ')':
            depth -= 1
            if depth == 0:
                return i
    raise UnsupportedSqlError('SQL parse error: unbalanced parentheses')


class _Clauses(object):
    """The words after a JSON function's path, read one clause at a time."""

    def __init__(self, sql: str, tokens: List[Token], function: str) -> None:
        self.sql, self.tokens, self.i, self.function = sql, tokens, 0, function

    def done(self) -> bool:
        return self.i >= len(self.tokens)

    def peek(self, *words: str) -> bool:
        return not self.done() and self.tokens[self.i].is_word(*words)

    def take(self, *words: str) -> str:
        if not self.peek(*words):
            raise self.error()
        self.i += 1
        return self.tokens[self.i - 1].text.upper()

    def error(self) -> UnsupportedSqlError:
        rest = self.sql[self.tokens[self.i].start:self.tokens[-1].end] if not self.done() \
            else ''
        return UnsupportedSqlError('%s: the clause %r is not supported by pyflink_on_spark'
                                   % (self.function, rest))

    def text_until(self, *stops: Tuple[str, str]) -> str:
        """The text up to the first top-level pair of words in `stops` (ON EMPTY...)."""
        depth, start = 0, self.i
        while not self.done():
            tok = self.tokens[self.i]
            if tok.kind == 'symbol' and tok.text in '()':
                depth += 1 if tok.text == '(' else -1
            elif depth == 0 and self.i + 1 < len(self.tokens) and any(
                    tok.is_word(a) and self.tokens[self.i + 1].is_word(b) for a, b in stops):
                break
            self.i += 1
        if self.i == start:
            raise self.error()
        return self.sql[self.tokens[start].start:self.tokens[self.i - 1].end]


def _path(sql: str, arg: List[Token], function: str) -> Tuple[str, List[Token]]:
    if not arg or arg[0].kind != 'string':
        raise UnsupportedSqlError('%s: pyflink_on_spark takes the JSON path as a string '
                                  'literal' % function)
    return arg[0].text, arg[1:]


def _behaviour(c: _Clauses, words: Tuple[str, ...], what: str) -> Optional[List[str]]:
    """`NULL | ERROR | DEFAULT expr ... ON EMPTY | ON ERROR` (`words` the behaviours) when the
    next clause is one for `what`, as SQL arguments; None otherwise."""
    start = c.i
    if c.done():
        return None
    if c.peek('DEFAULT') and 'DEFAULT' in words:
        c.take('DEFAULT')
        expr = c.text_until(('ON', 'EMPTY'), ('ON', 'ERROR'))
        out = [_quote('DEFAULT'), expr]
    elif c.peek('EMPTY') and 'EMPTY' in words:
        c.take('EMPTY')
        out = [_quote('EMPTY ' + c.take('ARRAY', 'OBJECT'))]
    elif c.peek(*words):
        out = [_quote(c.take(*words))]
    else:
        raise c.error()
    c.take('ON')
    if not c.peek(what):
        c.i = start      # the other clause (ON ERROR before ON EMPTY is Flink's error)
        return None
    c.take(what)
    return out


def _json_value(sql: str, args: List[List[Token]]) -> str:
    if len(args) != 2:
        raise SqlValidationError('JSON_VALUE takes a JSON string and a path (and clauses)')
    path, rest = _path(sql, args[1], 'JSON_VALUE')
    c = _Clauses(sql, rest, 'JSON_VALUE')
    returning = 'STRING'
    if c.peek('RETURNING'):
        c.take('RETURNING')
        returning = _type_text(c)
    words = ('NULL', 'ERROR', 'DEFAULT')
    on_empty = _behaviour(c, words, 'EMPTY') or [_quote('NULL')]
    on_error = _behaviour(c, words, 'ERROR') or [_quote('NULL')]
    if not c.done():
        raise c.error()
    return '%sJSON_VALUE(%s)' % (PREFIX, ', '.join(
        [_text(sql, args[0]), _quote(path), _quote(returning)] + on_empty + on_error))


def _type_text(c: _Clauses) -> str:
    """RETURNING's type: the words up to the first ON EMPTY / ON ERROR clause."""
    start, depth = c.i, 0
    while not c.done():
        tok = c.tokens[c.i]
        if tok.kind == 'symbol' and tok.text in '()':
            depth += 1 if tok.text == '(' else -1
        elif depth == 0 and tok.is_word('NULL', 'ERROR', 'DEFAULT'):
            break
        c.i += 1
    if c.i == start:
        raise c.error()
    return c.sql[c.tokens[start].start:c.tokens[c.i - 1].end]


def _json_query(sql: str, args: List[List[Token]]) -> str:
    if len(args) != 2:
        raise SqlValidationError('JSON_QUERY takes a JSON string and a path (and clauses)')
    path, rest = _path(sql, args[1], 'JSON_QUERY')
    c = _Clauses(sql, rest, 'JSON_QUERY')
    if c.peek('RETURNING'):
        raise UnsupportedSqlError('JSON_QUERY ... RETURNING is not supported by '
                                  'pyflink_on_spark (its result is a STRING)')
    wrapper = 'WITHOUT'
    if c.peek('WITHOUT'):
        c.take('WITHOUT')
        if c.peek('ARRAY'):
            c.take('ARRAY')
        c.take('WRAPPER')
    elif c.peek('WITH'):
        c.take('WITH')
        wrapper = 'UNCONDITIONAL'
        if c.peek('CONDITIONAL', 'UNCONDITIONAL'):
            wrapper = c.take('CONDITIONAL', 'UNCONDITIONAL')
        if c.peek('ARRAY'):
            c.take('ARRAY')
        c.take('WRAPPER')
    words = ('NULL', 'ERROR', 'EMPTY')
    on_empty = _behaviour(c, words, 'EMPTY') or [_quote('NULL')]
    on_error = _behaviour(c, words, 'ERROR') or [_quote('NULL')]
    if not c.done():
        raise c.error()
    return '%sJSON_QUERY(%s)' % (PREFIX, ', '.join(
        [_text(sql, args[0]), _quote(path), _quote(wrapper)] + on_empty + on_error))


def _json_exists(sql: str, args: List[List[Token]]) -> str:
    if len(args) != 2:
        raise SqlValidationError('JSON_EXISTS takes a JSON string and a path (and ON ERROR)')
    path, rest = _path(sql, args[1], 'JSON_EXISTS')
    c = _Clauses(sql, rest, 'JSON_EXISTS')
    on_error = _behaviour(c, ('TRUE', 'FALSE', 'UNKNOWN', 'ERROR'), 'ERROR') or \
        [_quote('FALSE')]
    if not c.done():
        raise c.error()
    return '%sJSON_EXISTS(%s)' % (PREFIX, ', '.join(
        [_text(sql, args[0]), _quote(path)] + on_error))


def _on_null(sql: str, args: List[List[Token]], default: str) -> Tuple[str, List[List[Token]]]:
    """The trailing `NULL ON NULL` / `ABSENT ON NULL` of JSON_OBJECT / JSON_ARRAY."""
    last = args[-1] if args else []
    if len(last) >= 3 and last[-1].is_word('NULL') and last[-2].is_word('ON') and \
            last[-3].is_word('NULL', 'ABSENT'):
        args = args[:-1] + ([last[:-3]] if last[:-3] else [])
        return last[-3].text.upper(), args
    return default, args


def _json_object(sql: str, args: List[List[Token]]) -> str:
    on_null, args = _on_null(sql, [a for a in args if a] if args != [[]] else [], 'NULL')
    out = [_quote(on_null)]
    for arg in args:
        if arg and arg[0].is_word('KEY'):
            arg = arg[1:]
        split = [i for i, t in enumerate(arg) if t.is_word('VALUE')]
        if not split:
            raise UnsupportedSqlError('JSON_OBJECT: pyflink_on_spark reads its entries as '
                                      '[KEY] key VALUE value; got %r' % _text(sql, arg))
        out += [_text(sql, arg[:split[0]]), _text(sql, arg[split[0] + 1:])]
    return '%sJSON_OBJECT(%s)' % (PREFIX, ', '.join(out))


def _json_array(sql: str, args: List[List[Token]]) -> str:
    on_null, args = _on_null(sql, [a for a in args if a] if args != [[]] else [], 'ABSENT')
    return '%sJSON_ARRAY(%s)' % (PREFIX, ', '.join([_quote(on_null)] +
                                                   [_text(sql, a) for a in args]))


def _text(sql: str, tokens: List[Token]) -> str:
    if not tokens:
        raise UnsupportedSqlError('SQL parse error: an empty argument')
    return sql[tokens[0].start:tokens[-1].end]


_REWRITE = {'JSON_VALUE': _json_value, 'JSON_QUERY': _json_query, 'JSON_EXISTS': _json_exists,
            'JSON_OBJECT': _json_object, 'JSON_ARRAY': _json_array}


def _operand_start(tokens: List[Token], end: int) -> int:
    """The first token of the operand ending at tokens[end] (IS JSON's left side): a name
    (a.b), a literal, or a parenthesized expression or call."""
    tok = tokens[end]
    if tok.kind == 'symbol' and tok.text == ')':
        depth, i = 0, end
        while i >= 0:
            if tokens[i].kind == 'symbol' and tokens[i].text == ')':
                depth += 1
            elif tokens[i].kind == 'symbol' and tokens[i].text == '(':
                depth -= 1
                if depth == 0:
                    break
            i -= 1
        if i > 0 and tokens[i - 1].kind in ('word', 'quoted') and not tokens[i - 1].is_word(
                'AND', 'OR', 'NOT', 'WHERE', 'SELECT', 'ON', 'WHEN', 'THEN', 'ELSE'):
            i -= 1      # a call
        return i
    if tok.kind in ('word', 'quoted', 'string', 'number'):
        i = end
        while i >= 2 and tokens[i - 1].kind == 'symbol' and tokens[i - 1].text == '.' and \
                tokens[i - 2].kind in ('word', 'quoted'):
            i -= 2
        return i
    raise UnsupportedSqlError('IS JSON: pyflink_on_spark reads its operand as a column, a '
                              'literal, a call or a parenthesized expression')


def _rewrite_is_json(sql: str, tokens: List[Token]) -> Optional[str]:
    for i in range(len(tokens) - 1, 0, -1):
        if not tokens[i].is_word('JSON'):
            continue
        j = i - 1
        negated = tokens[j].is_word('NOT')
        if negated:
            j -= 1
        if j < 1 or not tokens[j].is_word('IS'):
            continue
        kind, last = 'VALUE', i
        if i + 1 < len(tokens) and tokens[i + 1].is_word('VALUE', 'SCALAR', 'ARRAY', 'OBJECT'):
            kind, last = tokens[i + 1].text.upper(), i + 1
        start = _operand_start(tokens, j - 1)
        operand = sql[tokens[start].start:tokens[j - 1].end]
        call = '(%s%sIS_JSON(%s, %s))' % ('NOT ' if negated else '', PREFIX, operand,
                                          _quote(kind))
        return sql[:tokens[start].start] + call + sql[tokens[last].end:]
    return None


def rewrite_json_syntax(sql: str) -> str:
    """`sql` with Flink's JSON function syntax as plain calls (unchanged without any)."""
    if 'JSON' not in sql.upper():
        return sql
    while True:
        tokens = tokenize(sql)
        found = None
        for i in range(len(tokens) - 2, -1, -1):
            tok = tokens[i]
            if tok.kind == 'word' and tok.text.upper() in _CALLS and \
                    tokens[i + 1].kind == 'symbol' and tokens[i + 1].text == '(':
                found = i
                break
        if found is None:
            rewritten = _rewrite_is_json(sql, tokens)
            if rewritten is None:
                return sql
            sql = rewritten
            continue
        close = _close(tokens, found + 1)
        name = tokens[found].text.upper()
        call = _REWRITE[name](sql, _split(tokens[found + 2:close]))
        sql = sql[:tokens[found].start] + call + sql[tokens[close].end:]
