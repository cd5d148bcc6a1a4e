"""Flink SQL's reserved words, which its parser refuses as bare (unquoted) identifiers: a
column reference, an alias, a qualified column, a table or view name. Quoted (`value`) they are
plain names.

Seen on PyFlink 1.20.5 (tests/reference/reserved_words_probe.py, its output
reserved_words_observed.json): of the 688 words of Flink's documented keyword list, these 390
fail `SELECT x AS <word> FROM t` with `SQL parse failed.`; the other 298 (A, DATA, NAME, KEY,
TYPE...) are accepted anywhere, so the documented list cannot be used as it is. The words of
REFERENCE_ONLY are functions without parentheses or literals (CURRENT_DATE, TRUE, USER...):
accepted as a bare reference, refused as an alias or after a qualifier.

The error names the first such word in the text, as Calcite's parser words it (seen):
`Encountered "value" at line 1, column 13.`; `Incorrect syntax near the keyword 'VALUE'` when
written in upper case as the keyword is; after a qualifier `Encountered ". value"` at the
dot."""
from __future__ import annotations

from typing import List

from sqlglot import exp

from pyflink_on_spark.table.sql.errors import SqlValidationError
from pyflink_on_spark.table.sql.tokens import tokenize

__all__ = ['RESERVED', 'REFERENCE_ONLY', 'refuse_reserved_identifiers']

_UNIT_FUNCTIONS = ('TIMESTAMPDIFF', 'TIMESTAMPADD')

RESERVED = frozenset("""
    ABS ALL ALLOCATE ALLOW ALTER AND ANY ARE ARRAY ARRAY_CONCAT_AGG ARRAY_MAX_CARDINALITY AS
    ASENSITIVE ASYMMETRIC AT ATOMIC AUTHORIZATION AVG BEGIN BEGIN_FRAME BEGIN_PARTITION
    BETWEEN BIGINT BINARY BIT BLOB BOOLEAN BOTH BUCKETS BY BYTES CALL CALLED CARDINALITY
    CASCADED CASE CAST CATALOGS CEIL CEILING CHAR CHARACTER CHARACTER_LENGTH CHAR_LENGTH
    CHECK CLASSIFIER CLOB CLOSE COALESCE COLLATE COLLECT COLUMN COMMENT COMMIT CONDITION
    CONNECT CONSTRAINT CONTAINS CONVERT CORR CORRESPONDING COUNT COVAR_POP COVAR_SAMP CREATE
    CROSS CUBE CUME_DIST CURRENT CURRENT_CATALOG CURRENT_DATE
    CURRENT_DEFAULT_TRANSFORM_GROUP CURRENT_PATH CURRENT_ROLE CURRENT_ROW CURRENT_SCHEMA
    CURRENT_TIME CURRENT_TIMESTAMP CURRENT_TRANSFORM_GROUP_FOR_TYPE CURRENT_USER CURSOR
    CYCLE DATABASES DATE DAY DEALLOCATE DEC DECIMAL DECLARE DEFAULT DEFINE DELETE DENSE_RANK
    DEREF DESCRIBE DETERMINISTIC DISALLOW DISCONNECT DISTINCT DISTRIBUTED DISTRIBUTION
    DOUBLE DROP DYNAMIC EACH ELEMENT ELSE EMPTY END END_FRAME END_PARTITION EQUALS ESCAPE
    EVERY EXCEPT EXEC EXECUTE EXISTS EXP EXPLAIN EXTEND EXTENDED EXTERNAL EXTRACT FALSE
    FETCH FILTER FIRST_VALUE FLOAT FLOOR FOR FOREIGN FRAME_ROW FREE FRESHNESS FROM FULL
    FUNCTION FUNCTIONS FUSION GET GLOBAL GRANT GROUP GROUPING GROUPS HAVING HOLD HOUR
    IDENTITY IMPORT IN INDICATOR INITIAL INNER INOUT INSENSITIVE INSERT INT INTEGER
    INTERSECT INTERSECTION INTERVAL INTO IS JOIN JSON_ARRAY JSON_ARRAYAGG JSON_EXISTS
    JSON_OBJECT JSON_OBJECTAGG JSON_QUERY JSON_VALUE LAG LANGUAGE LARGE LAST_VALUE LATERAL
    LEAD LEADING LEFT LIKE LIKE_REGEX LIMIT LN LOCAL LOCALTIME LOCALTIMESTAMP LOWER MATCH
    MATCHES MATCH_NUMBER MATCH_RECOGNIZE MATERIALIZED MAX MEASURES MEMBER MERGE METHOD MIN
    MINUS MINUTE MOD MODEL MODELS MODIFIES MODULE MODULES MONTH MULTISET NATIONAL NATURAL
    NCHAR NCLOB NEW NEXT NO NONE NORMALIZE NOT NTH_VALUE NTILE NULL NULLIF NUMERIC
    OCCURRENCES_REGEX OCTET_LENGTH OF OFFSET OLD OMIT ON ONE ONLY OPEN OR ORDER OUT OUTER
    OVER OVERLAPS OVERLAY PARAMETER PARTITION PATTERN PER PERCENT PERCENTILE_CONT
    PERCENTILE_DISC PERCENT_RANK PERIOD PERMUTE PIVOT PORTION POSITION POSITION_REGEX POWER
    PRECEDES PRECISION PREPARE PREV PRIMARY PROCEDURE RANGE RANK RAW READS REAL RECURSIVE
    REF REFERENCES REFERENCING REFRESH REGR_AVGX REGR_AVGY REGR_COUNT REGR_INTERCEPT REGR_R2
    REGR_SLOPE REGR_SXX REGR_SXY REGR_SYY RELEASE RENAME RESET RESULT RETURN RETURNS REVOKE
    RIGHT ROLLBACK ROLLUP ROW ROWS ROW_NUMBER RUNNING SAVEPOINT SCALA SCOPE SCROLL SEARCH
    SECOND SEEK SELECT SENSITIVE SESSION_USER SET SHOW SIMILAR SKIP SMALLINT SOME SPECIFIC
    SPECIFICTYPE SQL SQLEXCEPTION SQLSTATE SQLWARNING SQRT START STATEMENT STATIC STDDEV_POP
    STDDEV_SAMP STREAM STRING SUBMULTISET SUBSET SUBSTRING SUBSTRING_REGEX SUCCEEDS SUM
    SYMMETRIC SYSTEM SYSTEM_TIME SYSTEM_USER TABLE TABLES TABLESAMPLE THEN TIME TIMESTAMP
    TIMESTAMP_LTZ TIMEZONE_HOUR TIMEZONE_MINUTE TINYINT TO TRAILING TRANSLATE
    TRANSLATE_REGEX TRANSLATION TREAT TRIGGER TRIM TRIM_ARRAY TRUE TRUNCATE UESCAPE UNION
    UNIQUE UNKNOWN UNNEST UNPIVOT UPDATE UPPER UPSERT USE USER USING VALUE VALUES VALUE_OF
    VARBINARY VARCHAR VARYING VAR_POP VAR_SAMP VERSIONING VIEWS WATERMARK WATERMARKS WHEN
    WHENEVER WHERE WIDTH_BUCKET WINDOW WITH WITHIN WITHOUT YEAR
""".split())

REFERENCE_ONLY = frozenset("""
    CURRENT_CATALOG CURRENT_DATE CURRENT_DEFAULT_TRANSFORM_GROUP CURRENT_PATH CURRENT_ROLE
    CURRENT_SCHEMA CURRENT_TIME CURRENT_TIMESTAMP CURRENT_USER FALSE LOCALTIME
    LOCALTIMESTAMP SESSION_USER SYSTEM_USER TRUE UNKNOWN USER
""".split())


def refuse_reserved_identifiers(original: str, rewritten: str, tree: exp.Expression) -> None:
    """Raises PyFlink's parse error for the first reserved word the query uses as a bare
    identifier. `tree` is sqlglot's parse of `rewritten`, the query after the translator's
    rewrites of `original` (the user's text, whose lines and columns the error gives)."""
    found = []
    for identifier in tree.find_all(exp.Identifier):
        word = identifier.name.upper()
        if identifier.args.get("quoted") or word not in RESERVED:
            continue
        column = identifier.parent if isinstance(identifier.parent, exp.Column) else None
        qualified = column is not None and identifier.arg_key == "this" and \
            column.args.get("table") is not None
        if word in REFERENCE_ONLY and column is not None and identifier.arg_key == "this" \
                and not qualified:
            continue
        if column is not None and _is_time_unit_argument(column):
            continue
        found.append((identifier.meta.get("start", 0), identifier.name, qualified))
    if not found:
        return
    start, name, qualified = min(found)
    tokens = tokenize(original)
    index = _original_token(tokens, tokenize(rewritten), start, name)
    if qualified and index > 0 and tokens[index - 1].text == ".":
        what, offset = 'Encountered ". %s"' % name, tokens[index - 1].start
    elif name == name.upper():
        what, offset = "Incorrect syntax near the keyword '%s'" % name, tokens[index].start
    else:
        what, offset = 'Encountered "%s"' % name, tokens[index].start
    line = original.count("\n", 0, offset) + 1
    column_number = offset - (original.rfind("\n", 0, offset) + 1) + 1
    raise SqlValidationError("org.apache.flink.table.api.SqlParserException: SQL parse "
                             "failed. %s at line %d, column %d." % (what, line, column_number))


def _is_time_unit_argument(column: exp.Column) -> bool:
    """TIMESTAMPDIFF(DAY, a, b) / TIMESTAMPADD(DAY, n, ts): the unit, which sqlglot reads as a
    column, is the keyword there."""
    call = column.parent
    return isinstance(call, exp.Anonymous) and call.name.upper() in _UNIT_FUNCTIONS and \
        call.expressions and call.expressions[0] is column


def _original_token(original: List, rewritten: List, start: int, name: str) -> int:
    """The index in the original's tokens of the word at `start` in the rewritten text: the
    same occurrence of the same word (the rewrites change calls, not the user's names)."""
    same = [t for t in rewritten if t.kind == "word" and t.text == name]
    occurrence = next((i for i, t in enumerate(same) if t.start == start), 0)
    in_original = [i for i, t in enumerate(original) if t.kind == "word" and t.text == name]
    return in_original[min(occurrence, len(in_original) - 1)]
