"""JDBC statements -> a DB-API driver's parameter style.

JDBC marks parameters with `?`. The rewrite walks the SQL text as PostgreSQL's and SQLite's
lexers do, so a `?` inside a string literal ('...', E'...'), a quoted identifier ("..."), a
dollar-quoted string ($tag$...$tag$) or a comment (-- ..., /* ... */) stays text. `??` is
PgJDBC's escape for a literal `?` (PostgreSQL's jsonb operators).

MySQL / MariaDB statements (dialect MYSQL) are walked as MySQL's lexer does: '...' and "..."
strings with backslash escapes, `...` identifiers, comments `# ...`, `-- ...` (a space after
the dashes) and /* ... */ (not nested); no dollar quotes, and `??` is two parameters."""
from __future__ import annotations

import re
from typing import List, Tuple

_DOLLAR_TAG = re.compile(r"\$([A-Za-z_][A-Za-z_0-9]*)?\$")

QMARK = "qmark"                    # ?          (sqlite3)
NUMERIC_DOLLAR = "numeric_dollar"  # $1, $2 ... (PostgreSQL's own, psycopg's RawCursor)
FORMAT = "format"                  # %s         (PyMySQL, psycopg's Cursor)

POSTGRESQL = "postgresql"          # lexers: PostgreSQL's (also right for SQLite's statements)
MYSQL = "mysql"                    # MySQL's and MariaDB's


def _skip_quoted(sql: str, i: int, quote: str, backslash: bool) -> int:
    """Index just past the literal starting at sql[i] (a doubled quote is one quote)."""
    n = len(sql)
    i += 1
    while i < n:
        c = sql[i]
        if backslash and c == "\\":
            i += 2
            continue
        if c == quote:
            if i + 1 < n and sql[i + 1] == quote:
                i += 2
                continue
            return i + 1
        i += 1
    return n


def _segments(sql: str) -> List[Tuple[bool, str]]:
    """The SQL text cut into (is_code, text): code may hold placeholders, the rest never."""
    out: List[Tuple[bool, str]] = []
    n = len(sql)
    start = i = 0

    def emit_text(end: int) -> None:
        nonlocal start
        if start < i:
            out.append((True, sql[start:i]))
        out.append((False, sql[i:end]))
        start = end

    while i < n:
        c = sql[i]
        if c == "'":
            escaped = i > 0 and sql[i - 1] in "eE" and (i < 2 or not (sql[i - 2].isalnum()
                                                                     or sql[i - 2] == "_"))
            emit_text(_skip_quoted(sql, i, "'", escaped))
            i = start
        elif c == '"':
            emit_text(_skip_quoted(sql, i, '"', False))
            i = start
        elif c == "-" and sql.startswith("--", i):
            end = sql.find("\n", i)
            emit_text(n if end < 0 else end)
            i = start
        elif c == "/" and sql.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:        # PostgreSQL's block comments nest
                if sql.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif sql.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            emit_text(j)
            i = start
        elif c == "$" and (i == 0 or not (sql[i - 1].isalnum() or sql[i - 1] == "_")):
            tag = _DOLLAR_TAG.match(sql, i)
            if tag is None:
                i += 1
                continue
            end = sql.find(tag.group(0), tag.end())
            emit_text(n if end < 0 else end + len(tag.group(0)))
            i = start
        else:
            i += 1
    if start < n:
        out.append((True, sql[start:]))
    return out


def _mysql_segments(sql: str) -> List[Tuple[bool, str]]:
    """As _segments, for MySQL's lexer."""
    out: List[Tuple[bool, str]] = []
    n = len(sql)
    start = i = 0
    while i < n:
        c = sql[i]
        end = -1
        if c in "'\"":
            end = _skip_quoted(sql, i, c, True)
        elif c == "`":
            end = _skip_quoted(sql, i, c, False)
        elif c == "#" or (c == "-" and sql.startswith("--", i)
                          and (i + 2 >= n or sql[i + 2] in " \t\r\n\f\v")):
            end = sql.find("\n", i)
            end = n if end < 0 else end
        elif c == "/" and sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            end = n if end < 0 else end + 2
        if end < 0:
            i += 1
            continue
        if start < i:
            out.append((True, sql[start:i]))
        out.append((False, sql[i:end]))
        start = i = end
    if start < n:
        out.append((True, sql[start:]))
    return out


def convert_placeholders(sql: str, paramstyle: str,
                         dialect: str = POSTGRESQL) -> Tuple[str, int]:
    """(the statement in `paramstyle`, how many parameters it takes), read with the lexer of
    `dialect`."""
    parts: List[str] = []
    count = 0
    segments = _mysql_segments(sql) if dialect == MYSQL else _segments(sql)
    for is_code, text in segments:
        if not is_code:
            parts.append(text.replace("%", "%%") if paramstyle == FORMAT else text)
            continue
        i, n = 0, len(text)
        while i < n:
            c = text[i]
            if c == "?":
                if dialect == POSTGRESQL and text.startswith("??", i):
                    parts.append("?")          # PgJDBC's escaped `?`: an operator, not a parameter
                    i += 2
                    continue
                count += 1
                parts.append({QMARK: "?", NUMERIC_DOLLAR: "$%d" % count,
                              FORMAT: "%s"}[paramstyle])
            elif c == "%" and paramstyle == FORMAT:
                parts.append("%%")
            else:
                parts.append(c)
            i += 1
    return "".join(parts), count
