"""parse_statement: one Flink SQL statement -> a statement dataclass (statements.py), with
Flink's DDL grammar as the reference: physical, computed (`AS expr`) and metadata columns,
`WATERMARK FOR ts AS expr`, `[CONSTRAINT name] PRIMARY KEY (...) NOT ENFORCED`,
`PARTITIONED BY (...)`, `WITH ('k' = 'v')`, backquoted identifiers, comments. Anything else
raises UnsupportedSqlError naming the statement."""
from typing import List, Optional, Tuple

from pyflink_on_spark.table.sql.errors import SqlValidationError, UnsupportedSqlError
from pyflink_on_spark.table.sql.flink_types import flink_type_string, parse_type_tokens
from pyflink_on_spark.table.sql.statements import (
    Column, CreateTable, CreateView, DropTable, DropView, Insert, Metadata, Query, Watermark)
from pyflink_on_spark.table.sql.tokens import Token, tokenize

__all__ = ['parse_statement']

# words that begin a statement pyflink_on_spark does not run, with how many words name it
_UNSUPPORTED_HEADS = ('ALTER', 'USE', 'SHOW', 'DESCRIBE', 'DESC', 'EXPLAIN', 'SET', 'RESET',
                      'LOAD', 'UNLOAD', 'EXECUTE', 'BEGIN', 'END', 'ANALYZE', 'DELETE',
                      'UPDATE', 'TRUNCATE', 'CALL', 'ADD', 'REMOVE', 'JAR')


class _Parser:
    def __init__(self, sql: str):
        self.sql = sql
        self.tokens = tokenize(sql)
        # a trailing ';' ends the statement (execute_sql accepts it)
        while self.tokens and self.tokens[-1].kind == 'symbol' and self.tokens[-1].text == ';':
            self.tokens.pop()
        for tok in self.tokens:
            if tok.kind == 'symbol' and tok.text == ';':
                # Flink's words (execute_sql takes one statement)
                raise SqlValidationError('only single statement supported')
        self.pos = 0

    # -- token access
    def peek(self, ahead: int = 0) -> Optional[Token]:
        i = self.pos + ahead
        return self.tokens[i] if i < len(self.tokens) else None

    def next(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise UnsupportedSqlError('SQL parse error: the statement ends early: %r'
                                      % self.sql.strip())
        self.pos += 1
        return tok

    def at_word(self, *words: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.is_word(*words)

    def at(self, symbol: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind == 'symbol' and tok.text == symbol

    def accept_words(self, *words: str) -> bool:
        """Consumes the words if they come next (all of them), else nothing."""
        for i, w in enumerate(words):
            tok = self.peek(i)
            if tok is None or not tok.is_word(w):
                return False
        self.pos += len(words)
        return True

    def expect_words(self, *words: str) -> None:
        if not self.accept_words(*words):
            tok = self.peek()
            raise UnsupportedSqlError('SQL parse error: expected %s, found %s in %r'
                                      % (' '.join(words), tok.text if tok else 'the end',
                                         self.sql.strip()))

    def expect(self, symbol: str) -> None:
        tok = self.next()
        if tok.kind != 'symbol' or tok.text != symbol:
            raise UnsupportedSqlError('SQL parse error: expected %r, found %r at offset %d'
                                      % (symbol, tok.text, tok.start))

    def identifier(self) -> str:
        tok = self.next()
        if tok.kind not in ('word', 'quoted'):
            raise UnsupportedSqlError('SQL parse error: expected a name, found %r at offset %d'
                                      % (tok.text, tok.start))
        return tok.text

    def qualified_name(self) -> str:
        parts = [self.identifier()]
        while self.at('.'):
            self.next()
            parts.append(self.identifier())
        return '.'.join(parts)

    def string(self) -> str:
        tok = self.next()
        if tok.kind != 'string':
            raise UnsupportedSqlError('SQL parse error: expected a string literal, found %r'
                                      % tok.text)
        return tok.text

    def name_list(self) -> Tuple[str, ...]:
        self.expect('(')
        names = [self.identifier()]
        while self.at(','):
            self.next()
            names.append(self.identifier())
        self.expect(')')
        return tuple(names)

    def rest_text(self) -> str:
        tok = self.peek()
        if tok is None:
            raise UnsupportedSqlError('SQL parse error: a query is missing: %r'
                                      % self.sql.strip())
        end = self.tokens[-1].end
        return self.sql[tok.start:end]

    def expression_text(self) -> str:
        """The source text of an expression that ends at ',' or ')' at depth 0 (a computed
        column, a watermark)."""
        depth, start = 0, self.peek()
        if start is None:
            raise UnsupportedSqlError('SQL parse error: an expression is missing')
        last = None
        while True:
            tok = self.peek()
            if tok is None:
                break
            if tok.kind == 'symbol' and tok.text in ',)' and depth == 0:
                break
            if depth == 0 and tok.is_word('COMMENT'):
                break
            if tok.kind == 'symbol' and tok.text == '(':
                depth += 1
            elif tok.kind == 'symbol' and tok.text == ')':
                depth -= 1
            last = self.next()
        if last is None:
            raise UnsupportedSqlError('SQL parse error: an expression is missing at offset %d'
                                      % start.start)
        return self.sql[start.start:last.end]

    def done(self) -> None:
        tok = self.peek()
        if tok is not None:
            raise UnsupportedSqlError('SQL parse error: unexpected %r at offset %d in %r'
                                      % (tok.text, tok.start, self.sql.strip()))

    # -- statements
    def statement(self):
        head = self.peek()
        if head is None:
            raise UnsupportedSqlError('SQL parse error: the statement is empty')
        if head.is_word('SELECT', 'WITH', 'VALUES') or (head.kind == 'symbol'
                                                         and head.text == '('):
            return Query(self.rest_text())
        if head.is_word('CREATE'):
            return self.create()
        if head.is_word('DROP'):
            return self.drop()
        if head.is_word('INSERT'):
            return self.insert()
        if head.kind == 'word' and head.text.upper() in _UNSUPPORTED_HEADS:
            raise UnsupportedSqlError('The Flink SQL statement %s is not supported by '
                                      'pyflink_on_spark' % self._name_words(2))
        raise UnsupportedSqlError('SQL parse error: a statement cannot begin with %r'
                                  % head.text)

    def _name_words(self, count: int) -> str:
        """The statement's leading keywords (ALTER TABLE, SHOW TABLES, FUNCTION, ...)."""
        words = []
        for i in range(count):
            tok = self.peek(i)
            if tok is None or tok.kind != 'word':
                break
            words.append(tok.text.upper())
        return ' '.join(words)

    def create(self):
        self.expect_words('CREATE')
        temporary = self.accept_words('TEMPORARY')
        if self.accept_words('TABLE'):
            return self.create_table(temporary)
        if self.accept_words('VIEW'):
            return self.create_view(temporary)
        raise UnsupportedSqlError('The Flink SQL statement CREATE %s%s is not supported by '
                                  'pyflink_on_spark' % ('TEMPORARY ' if temporary else '',
                                                        self._name_words(1)))

    def if_not_exists(self) -> bool:
        return self.accept_words('IF', 'NOT', 'EXISTS')

    def create_view(self, temporary: bool) -> CreateView:
        ine = self.if_not_exists()
        name = self.qualified_name()
        columns: Tuple[str, ...] = ()
        if self.at('('):
            columns = self.name_list()
        if self.at_word('COMMENT'):
            self.next()
            self.string()
        self.expect_words('AS')
        return CreateView(name, self.rest_text(), temporary, ine, columns)

    def create_table(self, temporary: bool) -> CreateTable:
        ine = self.if_not_exists()
        name = self.qualified_name()
        if not self.at('(') and any(t.is_word('AS') for t in self.tokens[self.pos:]):
            raise UnsupportedSqlError('CREATE TABLE ... AS SELECT (CTAS) is not supported by '
                                      'pyflink_on_spark: create the table, then INSERT INTO it')
        self.expect('(')
        columns: List[Column] = []
        watermark, watermark_at = None, 0
        primary_key: Tuple[str, ...] = ()
        key_positions: Tuple[int, ...] = ()
        while True:
            if self.at_word('WATERMARK'):
                if watermark is not None:
                    raise SqlValidationError('Multiple WATERMARK statements is not supported '
                                             'yet.')
                watermark, watermark_at = self.watermark()
            elif self.at_word('PRIMARY', 'CONSTRAINT'):
                if primary_key:
                    raise SqlValidationError('Duplicate primary key definition')
                primary_key, key_positions = self.table_primary_key()
            elif self.at_word('LIKE'):
                raise UnsupportedSqlError('CREATE TABLE ... LIKE is not supported by '
                                          'pyflink_on_spark')
            else:
                column, pk = self.column()
                columns.append(column)
                if pk:
                    if primary_key:
                        raise SqlValidationError('Duplicate primary key definition')
                    primary_key = (column.name,)
                    key_positions = (0,)
            if self.at(','):
                self.next()
                continue
            self.expect(')')
            break
        comment = None
        partition_keys: Tuple[str, ...] = ()
        options = {}
        while self.peek() is not None:
            if self.accept_words('COMMENT'):
                comment = self.string()
            elif self.accept_words('PARTITIONED', 'BY'):
                partition_keys = self.name_list()
            elif self.accept_words('WITH'):
                options = self.options()
            elif self.at_word('LIKE'):
                raise UnsupportedSqlError('CREATE TABLE ... LIKE is not supported by '
                                          'pyflink_on_spark')
            elif self.at_word('DISTRIBUTED'):
                raise UnsupportedSqlError('CREATE TABLE ... DISTRIBUTED BY is not supported '
                                          'by pyflink_on_spark')
            elif self.at_word('AS'):
                raise UnsupportedSqlError('CREATE TABLE ... AS SELECT (CTAS) is not supported '
                                          'by pyflink_on_spark: create the table, then '
                                          'INSERT INTO it')
            else:
                self.done()
        self.check_columns(columns, watermark, watermark_at, primary_key, key_positions)
        return CreateTable(name, tuple(columns), watermark, primary_key, options, temporary,
                           ine, partition_keys, comment)

    def position(self, offset: int) -> str:
        """'line L, column C' of an offset, as Flink's messages place things."""
        line = self.sql.count('\n', 0, offset) + 1
        return 'line %d, column %d' % (line, offset - (self.sql.rfind('\n', 0, offset) + 1) + 1)

    def check_columns(self, columns: List[Column], watermark: Optional[Watermark],
                      watermark_at: int, primary_key: Tuple[str, ...],
                      key_positions: Tuple[int, ...]) -> None:
        names = [c.name for c in columns]
        seen = set()
        for c in columns:
            if c.name in seen:
                # Flink's words for a physical column (others: seen only for those)
                raise SqlValidationError("A regular Column named '%s' already exists in the "
                                         "table." % c.name if c.is_physical else
                                         "A column named '%s' already exists in the table."
                                         % c.name)
            seen.add(c.name)
        if watermark is not None and watermark.column not in names:
            raise SqlValidationError(
                "The rowtime attribute field '%s' is not defined in the table schema, at %s"
                % (watermark.column, self.position(watermark_at)))
        for k, at in zip(primary_key, key_positions):
            if k not in names:
                raise SqlValidationError("Primary key column '%s' is not defined in the schema "
                                         "at %s" % (k, self.position(at)))

    def column(self) -> Tuple[Column, bool]:
        name = self.identifier()
        if self.accept_words('AS'):
            expression = self.expression_text()
            return Column(name, None, expression, None, self.comment()), False
        dt, self.pos = parse_type_tokens(self.tokens, self.pos, self.sql)
        type_string = flink_type_string(dt)
        metadata = None
        primary = False
        while True:
            if self.accept_words('METADATA'):
                key = None
                if self.accept_words('FROM'):
                    key = self.string()
                metadata = Metadata(key, self.accept_words('VIRTUAL'))
            elif self.at_word('PRIMARY', 'CONSTRAINT'):
                if self.accept_words('CONSTRAINT'):
                    self.identifier()
                self.expect_words('PRIMARY', 'KEY')
                self.not_enforced()
                primary = True
            else:
                break
        if primary and not type_string.endswith(' NOT NULL'):
            type_string += ' NOT NULL'     # Flink makes primary key columns NOT NULL
        return Column(name, type_string, None, metadata, self.comment()), primary

    def comment(self) -> Optional[str]:
        if self.accept_words('COMMENT'):
            return self.string()
        return None

    def not_enforced(self) -> None:
        if not self.accept_words('NOT', 'ENFORCED'):
            raise SqlValidationError(
                'Flink doesn\'t support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT '
                'ENFORCED controls if the constraint checks are performed on the incoming/'
                'outgoing data. Flink does not own the data therefore the only supported mode '
                'is the NOT ENFORCED mode')

    def table_primary_key(self) -> Tuple[Tuple[str, ...], Tuple[int, ...]]:
        if self.accept_words('CONSTRAINT'):
            self.identifier()
        self.expect_words('PRIMARY', 'KEY')
        first = self.pos + 1
        keys = self.name_list()
        positions = tuple(self.tokens[first + 2 * i].start for i in range(len(keys)))
        self.not_enforced()
        return keys, positions

    def watermark(self) -> Tuple[Watermark, int]:
        self.expect_words('WATERMARK', 'FOR')
        at = self.peek().start if self.peek() is not None else 0
        column = self.qualified_name()
        self.expect_words('AS')
        return Watermark(column, self.expression_text()), at

    def options(self) -> dict:
        self.expect('(')
        options = {}
        if self.at(')'):
            self.next()
            return options
        while True:
            key = self.string()
            self.expect('=')
            options[key] = self.string()
            if self.at(','):
                self.next()
                continue
            self.expect(')')
            return options

    def drop(self):
        self.expect_words('DROP')
        temporary = self.accept_words('TEMPORARY')
        if self.accept_words('TABLE'):
            kind = DropTable
        elif self.accept_words('VIEW'):
            kind = DropView
        else:
            raise UnsupportedSqlError('The Flink SQL statement DROP %s%s is not supported by '
                                      'pyflink_on_spark' % ('TEMPORARY ' if temporary else '',
                                                            self._name_words(1)))
        if_exists = self.accept_words('IF', 'EXISTS')
        name = self.qualified_name()
        self.done()
        return kind(name, temporary, if_exists)

    def insert(self) -> Insert:
        self.expect_words('INSERT')
        if self.accept_words('OVERWRITE'):
            overwrite = True
        else:
            self.expect_words('INTO')
            overwrite = False
        target = self.qualified_name()
        if self.at_word('PARTITION'):
            raise UnsupportedSqlError('INSERT ... PARTITION (...) is not supported by '
                                      'pyflink_on_spark')
        columns: Tuple[str, ...] = ()
        if self.at('('):
            columns = self.name_list()
        return Insert(target, self.rest_text(), overwrite, columns)


def parse_statement(sql: str):
    """One Flink SQL statement as CreateTable, CreateView, DropTable, DropView, Insert or
    Query; UnsupportedSqlError naming the statement for anything else."""
    return _Parser(sql).statement()
