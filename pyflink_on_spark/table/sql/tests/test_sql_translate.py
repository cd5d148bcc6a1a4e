"""to_spark_sql / translate_query: Flink SQL in, Spark SQL text out. Each rule here is a
difference between the engines seen on PyFlink 1.20.5 and on Spark 4 (the translated text was
also run on Spark against the same rows as the PyFlink probes; see docs/table_sql.md)."""
import pytest

from pyflink_on_spark.table.sql import (
    SqlValidationError, UnsupportedSqlError, parse_statement, to_spark_sql, translate_query)

TABLES = {
    't': [('k', 'INT'), ('i', 'INT'), ('s', 'STRING'), ('d', 'DOUBLE'), ('ts', 'TIMESTAMP(3)'),
          ('lts', 'TIMESTAMP_LTZ(3)'), ('dm', 'DECIMAL(5, 2)'), ('b', 'BIGINT')],
    'u': [('k', 'INT'), ('name', 'STRING')],
}


def sql(query: str) -> str:
    return to_spark_sql(query, TABLES)


def columns(query: str):
    return translate_query(query, TABLES).columns


def test_projection_filter_order_limit():
    assert sql("SELECT k, UPPER(s) AS u FROM t WHERE s LIKE 'a%' AND k IN (1, 2) "
               "ORDER BY u DESC LIMIT 3") == (
        "SELECT `k` AS `k`, UPPER(`s`) AS `u` FROM t WHERE `s` LIKE 'a%' AND `k` IN (1, 2) "
        "ORDER BY `u` DESC LIMIT 3")


def test_unnamed_expressions_are_named_as_flink_names_them():
    assert columns('SELECT k, k + 1, UPPER(s) AS u, COUNT(*) FROM t GROUP BY k, s') == (
        ('k', 'INT'), ('EXPR$1', 'INT'), ('u', 'STRING'), ('EXPR$3', 'BIGINT NOT NULL'))


def test_integer_division_truncates_as_in_flink():
    # Flink: -7 / 2 = -3 (INT); Spark's '/' would give -3.5
    assert sql('SELECT i / 2, b / 2 FROM t') == (
        'SELECT CAST((`i`) DIV (2) AS INT) AS `EXPR$0`, CAST((`b`) DIV (2) AS BIGINT) AS '
        '`EXPR$1` FROM t')
    assert sql('SELECT d / 2 FROM t') == 'SELECT `d` / 2 AS `EXPR$0` FROM t'


def test_avg_and_sum_of_integers_keep_flinks_integer_type():
    # Flink: AVG of an INT column is an INT (sum / count, truncated); SUM of INT is INT
    # (-7 + -2) / 2 is -4 on PyFlink: the sum divided by the count, truncated
    assert sql('SELECT AVG(i), COUNT(*), COUNT(DISTINCT s), MIN(s), MAX(d) FROM t') == (
        'SELECT CAST(SUM(CAST(`i` AS BIGINT)) DIV NULLIF(COUNT(`i`), 0) AS INT) AS `EXPR$0`, '
        'COUNT(*) AS `EXPR$1`, COUNT(DISTINCT `s`) AS `EXPR$2`, MIN(`s`) AS `EXPR$3`, '
        'MAX(`d`) AS `EXPR$4` FROM t')
    # SUM(INT) wraps in INT on PyFlink: 2147483647 + 1 is -2147483648; SUM(BIGINT) in BIGINT
    assert sql('SELECT SUM(i), SUM(b) FROM t') == (
        'SELECT CAST(PMOD(SUM(CAST(`i` AS BIGINT)) + 2147483648, 4294967296) - 2147483648 AS '
        'INT) AS `EXPR$0`, CAST(PMOD(PMOD(SUM(CAST(`b` AS DECIMAL(38, 0))), '
        '18446744073709551616) + 9223372036854775808, 18446744073709551616) - '
        '9223372036854775808 AS BIGINT) AS `EXPR$1` FROM t')
    assert columns('SELECT AVG(i), SUM(b), AVG(d), COUNT(*) FROM t') == (
        ('EXPR$0', 'INT'), ('EXPR$1', 'BIGINT'), ('EXPR$2', 'DOUBLE'),
        ('EXPR$3', 'BIGINT NOT NULL'))


def test_sum_of_decimal_is_decimal_38():
    assert sql('SELECT SUM(dm) FROM t') == \
        'SELECT CAST(SUM(`dm`) AS DECIMAL(38, 2)) AS `EXPR$0` FROM t'
    # AVG of a DECIMAL(p, s): DECIMAL(38, max(6, s)), the DECIMAL(38, s) sum over the count
    # rounded half up (PyFlink 1.20.5: AVG of 1, 1, 0 as DECIMAL(3, 0) is 0.666667)
    assert sql('SELECT AVG(dm) FROM t') == (
        'SELECT CAST(CAST(SUM(`dm`) AS DECIMAL(38, 2)) / NULLIF(COUNT(`dm`), 0) AS '
        'DECIMAL(38, 6)) AS `EXPR$0` FROM t')
    assert columns('SELECT AVG(dm) FROM t') == (('EXPR$0', 'DECIMAL(38, 6)'),)


def test_casts_to_bounded_strings_trim_and_pad_as_flink_does():
    assert sql('SELECT CAST(s AS VARCHAR(3)), CAST(k AS CHAR(3)), CAST(s AS INT), '
               'TRY_CAST(s AS INT) FROM t') == (
        "SELECT SUBSTRING(CAST(`s` AS STRING), 1, 3) AS `EXPR$0`, RPAD(CAST(`k` AS STRING), 3, "
        "' ') AS `EXPR$1`, CAST(`s` AS INT) AS `EXPR$2`, TRY_CAST(`s` AS INT) AS `EXPR$3` "
        "FROM t")


def test_functions_with_renamed_or_retyped_equivalents():
    assert sql("SELECT CHAR_LENGTH(s), SUBSTRING(s FROM 2 FOR 3), SUBSTRING(s, 2), "
               "CONCAT_WS('-', s, 'x'), s || 'x', CONCAT(s, 'y'), MOD(i, 3), POWER(i, 2), "
               "ROUND(d, 1), FLOOR(d), COALESCE(s, 'n'), IF(k > 1, 'a', 'b') FROM t") == (
        "SELECT CHAR_LENGTH(`s`) AS `EXPR$0`, SUBSTRING(`s`, 2, 3) AS `EXPR$1`, "
        "SUBSTRING(`s`, 2) AS `EXPR$2`, CONCAT_WS('-', `s`, 'x') AS `EXPR$3`, `s` || 'x' AS "
        "`EXPR$4`, CONCAT(`s`, 'y') AS `EXPR$5`, (`i`) % (3) AS `EXPR$6`, POWER(`i`, 2) AS "
        "`EXPR$7`, ROUND(`d`, 1) AS `EXPR$8`, CAST(FLOOR(`d`) AS DOUBLE) AS `EXPR$9`, "
        "COALESCE(`s`, 'n') AS `EXPR$10`, IF(`k` > 1, 'a', 'b') AS `EXPR$11` FROM t")


def test_time_functions():
    assert sql("SELECT DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm'), TO_TIMESTAMP(s), "
               "TO_TIMESTAMP(s, 'yyyy/MM/dd'), FROM_UNIXTIME(b), UNIX_TIMESTAMP(s), "
               "TO_TIMESTAMP_LTZ(b, 3), CURRENT_TIMESTAMP FROM t") == (
        "SELECT DATE_FORMAT(`ts`, 'yyyy-MM-dd HH:mm') AS `EXPR$0`, "
        "TRY_CAST(`s` AS TIMESTAMP_NTZ) AS `EXPR$1`, "
        "CAST(TRY_TO_TIMESTAMP(`s`, 'yyyy/MM/dd') AS TIMESTAMP_NTZ) AS `EXPR$2`, "
        "FROM_UNIXTIME(`b`) AS `EXPR$3`, IF(`s` IS NULL, NULL, COALESCE(UNIX_TIMESTAMP("
        "TRY_TO_TIMESTAMP(`s`, 'yyyy-MM-dd HH:mm:ss')), -9223372036854775808)) AS `EXPR$4`, "
        "TIMESTAMP_MILLIS(`b`) AS `EXPR$5`, "
        "CURRENT_TIMESTAMP() AS `EXPR$6` FROM t")
    assert columns('SELECT TO_TIMESTAMP(s), CURRENT_TIMESTAMP, LOCALTIMESTAMP FROM t') == (
        ('EXPR$0', 'TIMESTAMP(3)'), ('EXPR$1', 'TIMESTAMP_LTZ(3) NOT NULL'),
        ('EXPR$2', 'TIMESTAMP(3) NOT NULL'))


def test_time_rules_seen_on_pyflink():
    # DATE_FORMAT of text that is no timestamp is NULL; HOUR is a BIGINT
    assert sql("SELECT DATE_FORMAT(s, 'HH:mm'), HOUR(ts) FROM t") == (
        "SELECT DATE_FORMAT(TRY_CAST(`s` AS TIMESTAMP_NTZ), 'HH:mm') AS `EXPR$0`, "
        "CAST(HOUR(`ts`) AS BIGINT) AS `EXPR$1` FROM t")
    assert columns("SELECT HOUR(ts), EXTRACT(YEAR FROM ts), s IS DISTINCT FROM 'x' FROM t") == (
        ('EXPR$0', 'BIGINT'), ('EXPR$1', 'BIGINT'), ('EXPR$2', 'BOOLEAN NOT NULL'))


def test_more_functions_seen_on_pyflink():
    # REGEXP_EXTRACT: NULL without a match on PyFlink ('' on Spark); date parts and
    # TIMESTAMPDIFF are BIGINT / INT on PyFlink
    assert sql("SELECT POSITION('b' IN s), REGEXP_EXTRACT(s, '(z+)', 1), YEAR(ts), "
               "TIMESTAMPDIFF(DAY, ts, ts), TIMESTAMPADD(HOUR, 2, ts) FROM t") == (
        "SELECT LOCATE('b', `s`) AS `EXPR$0`, IF(`s` RLIKE '(z+)', REGEXP_EXTRACT(`s`, '(z+)', "
        "1), NULL) AS `EXPR$1`, CAST(YEAR(`ts`) AS BIGINT) AS `EXPR$2`, "
        "CAST(TIMESTAMPDIFF(DAY, `ts`, `ts`) AS INT) AS `EXPR$3`, TIMESTAMPADD(HOUR, 2, `ts`) "
        "AS `EXPR$4` FROM t")
    with pytest.raises(UnsupportedSqlError, match='REGEXP_EXTRACT'):
        sql("SELECT REGEXP_EXTRACT(s, 'a') FROM t")


def test_join_using_yields_its_columns_once_and_first():
    assert sql('SELECT * FROM t JOIN u USING (k)') == 'SELECT * FROM t JOIN u USING (k)'
    assert [n for n, _ in columns('SELECT * FROM u JOIN t USING (k)')] == [
        'k', 'name', 'i', 's', 'd', 'ts', 'lts', 'dm', 'b']
    assert columns('SELECT k, name FROM t JOIN u USING (k)') == (
        ('k', 'INT'), ('name', 'STRING'))


def test_greatest_and_least_are_null_when_any_argument_is():
    # PyFlink: GREATEST(2, NULL) is NULL; Spark's GREATEST skips the NULL
    assert sql('SELECT GREATEST(k, i), LEAST(k, i) FROM t') == (
        'SELECT IF(`k` IS NULL OR `i` IS NULL, NULL, GREATEST(`k`, `i`)) AS `EXPR$0`, '
        'IF(`k` IS NULL OR `i` IS NULL, NULL, LEAST(`k`, `i`)) AS `EXPR$1` FROM t')


def test_case_join_union():
    assert sql("SELECT CASE WHEN k = 1 THEN 'one' ELSE 'many' END FROM t") == \
        "SELECT CASE WHEN `k` = 1 THEN 'one' ELSE 'many' END AS `EXPR$0` FROM t"
    assert sql('SELECT t.k, u.name FROM t LEFT JOIN u ON t.k = u.k') == (
        'SELECT `t`.`k` AS `k`, `u`.`name` AS `name` FROM t LEFT JOIN u ON `t`.`k` = `u`.`k`')
    assert sql('SELECT k FROM t UNION ALL SELECT k FROM u') == \
        'SELECT `k` AS `k` FROM t UNION ALL SELECT `k` AS `k` FROM u'
    assert sql('SELECT k FROM t UNION SELECT k FROM u') == \
        'SELECT `k` AS `k` FROM t UNION SELECT `k` AS `k` FROM u'


def test_except_and_intersect_keep_their_meaning():
    # Table.minus / intersect [_all] write these (seen on PyFlink 1.20.5: set semantics)
    assert sql('SELECT k FROM t EXCEPT SELECT k FROM u') == \
        'SELECT `k` AS `k` FROM t EXCEPT SELECT `k` AS `k` FROM u'
    assert sql('SELECT k FROM t INTERSECT ALL SELECT k FROM u').endswith(
        'INTERSECT ALL SELECT `k` AS `k` FROM u')
    with pytest.raises(SqlValidationError, match='Column count mismatch in EXCEPT'):
        sql('SELECT k, s FROM t EXCEPT SELECT k FROM u')


def test_nullability_of_case_coalesce_and_mod_as_flink_types_them():
    # seen on PyFlink 1.20.5: CASE ... 'big' ELSE 'small' END VARCHAR(5) NOT NULL,
    # CASE ... THEN 1 ELSE 0 END INT NOT NULL (the Table API's then(1, 0), a CASE),
    # COALESCE(i, 0) INT NOT NULL, i % 2 INT
    # (i nullable), CASE without ELSE INT, IF(i > 2, s, 'x') STRING
    assert columns("SELECT CASE WHEN i > 2 THEN 'big' ELSE 'small' END, "
                   "CASE WHEN i > 2 THEN 1 ELSE 0 END, COALESCE(i, 0), i % 2, "
                   "CASE WHEN i > 2 THEN 1 END, IF(i > 2, s, 'x') FROM t") == (
        ('EXPR$0', 'VARCHAR(5) NOT NULL'), ('EXPR$1', 'INT NOT NULL'),
        ('EXPR$2', 'INT NOT NULL'), ('EXPR$3', 'INT'), ('EXPR$4', 'INT'),
        ('EXPR$5', 'STRING'))


def test_tumble_and_hop_window_tvfs():
    assert sql("SELECT window_start, window_end, COUNT(*) FROM TABLE(TUMBLE(TABLE t, "
               "DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end") == (
        "SELECT `window_start` AS `window_start`, `window_end` AS `window_end`, COUNT(*) AS "
        "`EXPR$2` FROM (SELECT `k`, `i`, `s`, `d`, `ts`, `lts`, `dm`, `b`, `$w`.start AS "
        "window_start, `$w`.end AS window_end, `$w`.end - INTERVAL '0.001' SECOND AS "
        "window_time FROM (SELECT *, window(`ts`, '10000 milliseconds') AS `$w` FROM `t`)) "
        "GROUP BY `window_start`, `window_end`")
    hop = sql("SELECT window_start, SUM(i) FROM TABLE(HOP(TABLE t, DESCRIPTOR(lts), "
              "INTERVAL '5' SECOND, INTERVAL '1' MINUTE)) GROUP BY window_start")
    # Flink's HOP takes (slide, size), Spark's window() (size, slide); LTZ windows start at
    # wall-clock times
    assert "window(`lts`, '60000 milliseconds', '5000 milliseconds')" in hop
    assert 'CAST(`$w`.start AS TIMESTAMP_NTZ) AS window_start' in hop
    assert columns("SELECT * FROM TABLE(TUMBLE(TABLE u2, DESCRIPTOR(ts), INTERVAL '1' "
                   "MINUTE))".replace('u2', 't'))[-3:] == (
        ('window_start', 'TIMESTAMP(3) NOT NULL'), ('window_end', 'TIMESTAMP(3) NOT NULL'),
        ('window_time', 'TIMESTAMP(3)'))


def test_cumulate_window_tvf():
    cumulate = sql("SELECT window_start, window_end, COUNT(*) FROM TABLE(CUMULATE(TABLE t, "
                   "DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)) "
                   "GROUP BY window_start, window_end")
    assert ("(SELECT *, window(`ts`, '10000 milliseconds').start AS `$ws` FROM `t`) LATERAL "
            "VIEW explode(sequence(1, 2)) `$kv` AS `$k` WHERE `ts` < (`$ws` + `$k` * "
            "INTERVAL '5' SECOND)") in cumulate
    with pytest.raises(SqlValidationError, match='integral multiple'):
        sql("SELECT * FROM TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '3' SECOND, "
            "INTERVAL '10' SECOND))")


def test_session_window_tvf_groups_by_session_window():
    assert sql("SELECT k, window_start, window_end, COUNT(*) FROM TABLE(SESSION(TABLE t "
               "PARTITION BY k, DESCRIPTOR(ts), INTERVAL '2' SECOND)) "
               "GROUP BY k, window_start, window_end") == (
        "SELECT `k` AS `k`, session_window(`ts`, '2000 milliseconds').start AS `window_start`, "
        "session_window(`ts`, '2000 milliseconds').end AS `window_end`, COUNT(*) AS `EXPR$3` "
        "FROM `t` GROUP BY session_window(`ts`, '2000 milliseconds'), `k`")
    assert columns("SELECT window_start, window_time, COUNT(*) FROM TABLE(SESSION(TABLE t, "
                   "DESCRIPTOR(lts), INTERVAL '2' SECOND)) GROUP BY window_start, window_end, "
                   "window_time") == (
        ('window_start', 'TIMESTAMP(3) NOT NULL'), ('window_time', 'TIMESTAMP_LTZ(3) NOT NULL'),
        ('EXPR$2', 'BIGINT NOT NULL'))


def test_group_windows():
    assert sql("SELECT k, TUMBLE_START(ts, INTERVAL '10' SECOND), TUMBLE_ROWTIME(ts, "
               "INTERVAL '10' SECOND), COUNT(*) FROM t GROUP BY TUMBLE(ts, INTERVAL '10' "
               "SECOND), k") == (
        "SELECT `k` AS `k`, window(`ts`, '10000 milliseconds').start AS `EXPR$1`, "
        "(window(`ts`, '10000 milliseconds').end - INTERVAL '0.001' SECOND) AS `EXPR$2`, "
        "COUNT(*) AS `EXPR$3` FROM t GROUP BY window(`ts`, '10000 milliseconds'), `k`")
    assert "GROUP BY session_window(`ts`, '5000 milliseconds')" in sql(
        "SELECT SESSION_END(ts, INTERVAL '5' SECOND), COUNT(*) FROM t "
        "GROUP BY SESSION(ts, INTERVAL '5' SECOND)")
    assert "window(`ts`, '10000 milliseconds', '5000 milliseconds').start" in sql(
        "SELECT HOP_START(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND) FROM t "
        "GROUP BY HOP(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND)")


def test_ddl_columns_serve_as_the_table_description():
    table = parse_statement("CREATE TABLE src (id INT, name STRING) WITH ('connector' = "
                            "'datagen')")
    assert to_spark_sql('SELECT id / 2 FROM src', {'src': table.columns}) == \
        'SELECT CAST((`id`) DIV (2) AS INT) AS `EXPR$0` FROM src'


@pytest.mark.parametrize('query, named', [
    ('SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts MEASURES A.k AS x PATTERN (A) '
     'DEFINE A AS A.k > 1)', 'MATCH_RECOGNIZE'),
    ('SELECT * FROM t JOIN u FOR SYSTEM_TIME AS OF t.ts ON t.k = u.k', 'FOR SYSTEM_TIME'),
    ('SELECT k, NTILE(2) OVER (PARTITION BY k ORDER BY ts) FROM t', 'NTILE'),
    ('SELECT NOPE_FN(k) FROM t', 'NOPE_FN'),
    ("SELECT SPLIT_INDEX(s, ',', 1) FROM t", 'SPLIT_INDEX'),
    ("SELECT * FROM TABLE(SESSION(TABLE t, DESCRIPTOR(ts), INTERVAL '5' SECOND))",
     'SESSION'),
    # without PARTITION BY, Flink's sessions span all rows even when grouped by k
    ("SELECT k, window_start, window_end, COUNT(*) FROM TABLE(SESSION(TABLE t, "
     "DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY k, window_start, window_end", 'SESSION'),
    ("SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '10' SECOND, "
     "INTERVAL '3' SECOND))", 'offset'),
    ('SELECT * FROM t, LATERAL (SELECT k)', 'LATERAL'),
    ("SELECT COUNT(*) FROM t GROUP BY TUMBLE(ts, INTERVAL '1:30' MINUTE TO SECOND)",
     'interval'),
])
def test_constructs_without_a_faithful_mapping_are_refused_by_name(query, named):
    with pytest.raises(UnsupportedSqlError, match=named):
        sql(query)


@pytest.mark.parametrize('query, message', [
    ('SELECT nope FROM t', "Column 'nope' not found in any table"),
    ('SELECT k FROM missing', "Object 'missing' not found"),
    ("SELECT TUMBLE_START(ts, INTERVAL '10' SECOND) FROM t", 'only allowed in GROUP BY'),
    ('SELECT k FROM t JOIN u ON t.k = u.k', "Column 'k' is ambiguous"),
])
def test_invalid_queries(query, message):
    with pytest.raises(SqlValidationError, match=message):
        sql(query)


def test_a_table_name_spark_would_not_read_bare_is_quoted_and_a_plain_one_is_not():
    # UnnamedTable$0: the view Table.__str__ registers (as PyFlink's TableImpl.toString)
    assert to_spark_sql("SELECT f0 FROM UnnamedTable$0", {"UnnamedTable$0": [("f0", "INT")]}) \
        == "SELECT `f0` AS `f0` FROM `UnnamedTable$0`"
    assert to_spark_sql("SELECT f0 FROM v", {"v": [("f0", "INT")]}) == \
        "SELECT `f0` AS `f0` FROM v"


def test_a_cast_to_timestamp_ltz_is_typed_as_flink_types_it():
    # sqlglot writes the type back as TIMESTAMPLTZ(p); the cast failed with "The Flink SQL
    # type TIMESTAMPLTZ is not supported"
    assert columns("SELECT CAST(ts AS TIMESTAMP_LTZ(6)) AS a, "
                   "CAST(ts AS TIMESTAMP(3) WITH LOCAL TIME ZONE) AS b FROM t") == (
        ('a', 'TIMESTAMP_LTZ(6)'), ('b', 'TIMESTAMP_LTZ(3)'))
