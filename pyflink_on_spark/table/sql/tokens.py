"""A small tokenizer for Flink SQL statements: enough to split DDL into its parts while
keeping each part's source text (computed columns, watermark expressions and queries are
handed on as the text the user wrote)."""
from dataclasses import dataclass
from typing import List

# (the query-text test lives with the table specs: the Spark layer reads queries' inputs too)
from pyflink_on_spark.specs.tables import mentions
from pyflink_on_spark.table.sql.errors import UnsupportedSqlError

__all__ = ['Token', 'mentions', 'tokenize', 'unquote_string']


@dataclass(frozen=True)
class Token:
    kind: str     # 'word' (keyword or plain identifier), 'quoted' (`identifier`), 'string',
    #               'number', 'symbol'
    text: str     # word: as written; quoted: the name; string: the value; symbol: the symbol
    start: int    # offsets into the statement's text
    end: int

    def is_word(self, *words: str) -> bool:
        return self.kind == 'word' and self.text.upper() in words


_SYMBOLS_2 = ('<=', '>=', '<>', '!=', '||', '::')


def unquote_string(body: str) -> str:
    return body.replace("''", "'")


def tokenize(sql: str) -> List[Token]:
    tokens: List[Token] = []
    i, n = 0, len(sql)
    while i < n:
        c = sql[i]
        if c.isspace():
            i += 1
        elif sql.startswith('--', i):
            j = sql.find('\n', i)
            i = n if j < 0 else j + 1
        elif sql.startswith('/*', i):
            j = sql.find('*/', i + 2)
            if j < 0:
                raise UnsupportedSqlError('SQL parse error: unterminated comment /* ...')
            i = j + 2
        elif c == "'":
            j = _closing_quote(sql, i, "'", "string literal")
            tokens.append(Token('string', unquote_string(sql[i + 1:j]), i, j + 1))
            i = j + 1
        elif c == '`':
            j = _closing_quote(sql, i, '`', "quoted identifier")
            tokens.append(Token('quoted', sql[i + 1:j].replace('``', '`'), i, j + 1))
            i = j + 1
        elif c.isalpha() or c == '_' or c == '$':
            j = i + 1
            while j < n and (sql[j].isalnum() or sql[j] in '_$'):
                j += 1
            tokens.append(Token('word', sql[i:j], i, j))
            i = j
        elif c.isdigit() or (c == '.' and i + 1 < n and sql[i + 1].isdigit()):
            j = i + 1
            while j < n and (sql[j].isdigit() or sql[j] == '.'):
                j += 1
            if j < n and sql[j] in 'eE' and j + 1 < n and (sql[j + 1].isdigit()
                                                          or sql[j + 1] in '+-'):
                j += 2
                while j < n and sql[j].isdigit():
                    j += 1
            tokens.append(Token('number', sql[i:j], i, j))
            i = j
        else:
            two = sql[i:i + 2]
            if two in _SYMBOLS_2:
                tokens.append(Token('symbol', two, i, i + 2))
                i += 2
            else:
                tokens.append(Token('symbol', c, i, i + 1))
                i += 1
    return tokens


def _closing_quote(sql: str, start: int, quote: str, what: str) -> int:
    """Where the quoted text opened at ``start`` closes (a doubled quote stands for one)."""
    j = start + 1
    while True:
        j = sql.find(quote, j)
        if j < 0:
            raise UnsupportedSqlError('SQL parse error: unterminated %s at offset %d'
                                      % (what, start))
        if not sql.startswith(quote * 2, j):
            return j
        j += 2
