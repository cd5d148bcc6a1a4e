"""ARRAY[...] / MAP[...] constructors and collection functions: Flink's result types and
errors (each seen on PyFlink 1.20.5: compat_tests/cases/table/collection_functions.py and the
probes named in docs/table.md), and the Spark SQL written where Spark's function means
something else. Translation only: no Spark."""
import pytest

from pyflink_on_spark.table.sql import translate_query
from pyflink_on_spark.table.sql.errors import SqlValidationError, UnsupportedSqlError

# b and q as a Row's BASIC_ARRAY(INT) / PRIMITIVE_ARRAY(INT) fields, a a MAP(INT, DOUBLE)
TABLES = {"t": [("k", "STRING"), ("n", "INT"), ("b", "ARRAY<INT>"), ("q", "ARRAY<INT NOT NULL>"),
                ("a", "MAP<INT NOT NULL, DOUBLE>"), ("c", "ARRAY<STRING>")]}


def _type(expression):
    return translate_query("SELECT %s AS x FROM t" % expression, TABLES).columns[0][1]


def _sql(expression):
    return translate_query("SELECT %s AS x FROM t" % expression, TABLES).sql


@pytest.mark.parametrize("expression, flink_type", [
    ("ARRAY[1, 2]", "ARRAY<INT NOT NULL> NOT NULL"),
    ("ARRAY[1, n]", "ARRAY<INT> NOT NULL"),
    ("ARRAY[NULL, 1]", "ARRAY<INT> NOT NULL"),
    ("ARRAY['a', 'b']", "ARRAY<CHAR(1) NOT NULL> NOT NULL"),
    ("ARRAY['a', 'bb']", "ARRAY<VARCHAR(2) NOT NULL> NOT NULL"),
    ("ARRAY[CAST('x' AS VARCHAR(3)), 'ab']", "ARRAY<VARCHAR(3) NOT NULL> NOT NULL"),
    ("ARRAY[k, 'x']", "ARRAY<STRING> NOT NULL"),
    ("ARRAY[1, 2.5]", "ARRAY<DECIMAL(11, 1) NOT NULL> NOT NULL"),
    ("ARRAY[1.5, 22.25]", "ARRAY<DECIMAL(4, 2) NOT NULL> NOT NULL"),
    ("ARRAY[CAST(1 AS FLOAT), 2e0]", "ARRAY<FLOAT NOT NULL> NOT NULL"),
    ("ARRAY[2e0, CAST(1 AS FLOAT)]", "ARRAY<DOUBLE NOT NULL> NOT NULL"),
    ("ARRAY[CAST(1 AS TINYINT), 300]", "ARRAY<INT NOT NULL> NOT NULL"),
    ("ARRAY[b, b]", "ARRAY<ARRAY<INT>> NOT NULL"),
    ("ARRAY[ARRAY[1], ARRAY[n]]", "ARRAY<ARRAY<INT> NOT NULL> NOT NULL"),
    ("MAP[1, 'a']", "MAP<INT NOT NULL, CHAR(1) NOT NULL> NOT NULL"),
    ("MAP['a', 1, 'bb', 2]", "MAP<VARCHAR(2) NOT NULL, INT NOT NULL> NOT NULL"),
    ("MAP[k, n]", "MAP<STRING, INT> NOT NULL"),
    ("MAP[1, 2.5, 2, 3]", "MAP<INT NOT NULL, DECIMAL(11, 1) NOT NULL> NOT NULL"),
    ("ARRAY[1][1]", "INT"),
    ("MAP['a', 1]['a']", "INT"),
    ("CARDINALITY(ARRAY[1])", "INT NOT NULL"),
])
def test_constructors_are_typed_as_calcite_types_them(expression, flink_type):
    assert _type(expression) == flink_type


@pytest.mark.parametrize("expression, flink_type", [
    ("ELEMENT(b)", "INT"),
    ("ELEMENT(q)", "INT NOT NULL"),      # Flink's type, though an empty array gives NULL
    ("ARRAY_CONTAINS(b, 1)", "BOOLEAN"),
    ("ARRAY_CONTAINS(ARRAY[1], n)", "BOOLEAN NOT NULL"),
    ("ARRAY_CONTAINS(b, NULL)", "BOOLEAN"),
    ("ARRAY_CONTAINS(ARRAY[CAST(1 AS BIGINT)], 1)", "BOOLEAN NOT NULL"),
    ("ARRAY_POSITION(ARRAY[1], 1)", "INT NOT NULL"),
    ("ARRAY_POSITION(ARRAY[1], n)", "INT"),
    ("ARRAY_DISTINCT(q)", "ARRAY<INT NOT NULL>"),
    ("ARRAY_REMOVE(ARRAY[1], CAST(NULL AS INT))", "ARRAY<INT NOT NULL> NOT NULL"),
    ("ARRAY_REVERSE(b)", "ARRAY<INT>"),
    ("ARRAY_CONCAT(b, q)", "ARRAY<INT>"),
    ("ARRAY_CONCAT(ARRAY[1], ARRAY[2])", "ARRAY<INT NOT NULL> NOT NULL"),
    ("ARRAY_CONCAT(ARRAY[1], ARRAY[n])", "ARRAY<INT> NOT NULL"),
    ("ARRAY_CONCAT(b, ARRAY[CAST(1 AS BIGINT)])", "ARRAY<BIGINT>"),
    ("ARRAY_CONCAT(ARRAY['a'], ARRAY['bb'])", "ARRAY<VARCHAR(2) NOT NULL> NOT NULL"),
    ("ARRAY_CONCAT(b)", "ARRAY<INT>"),
    ("ARRAY_JOIN(c, ',', 'N')", "STRING"),
    ("ARRAY_JOIN(ARRAY['a'], ',')", "STRING NOT NULL"),
    ("ARRAY_SLICE(q, 1)", "ARRAY<INT NOT NULL>"),
    ("ARRAY_SLICE(ARRAY[1], n)", "ARRAY<INT NOT NULL>"),
    ("ARRAY_SLICE(b, CAST(1 AS TINYINT))", "ARRAY<INT>"),
    ("ARRAY_MAX(ARRAY[1])", "INT"),
    ("ARRAY_MIN(q)", "INT"),
    ("ARRAY_MAX(c)", "STRING"),
    ("MAP_KEYS(a)", "ARRAY<INT NOT NULL>"),
    ("MAP_VALUES(a)", "ARRAY<DOUBLE>"),
    ("MAP_ENTRIES(a)", "ARRAY<ROW<`key` INT NOT NULL, `value` DOUBLE>>"),
    ("MAP_ENTRIES(MAP[1, 'a'])", "ARRAY<ROW<`key` INT NOT NULL, `value` CHAR(1) NOT NULL>> NOT NULL"),
    ("MAP_FROM_ARRAYS(b, c)", "MAP<INT, STRING>"),
    ("MAP_FROM_ARRAYS(ARRAY[1], ARRAY['a'])", "MAP<INT NOT NULL, CHAR(1) NOT NULL> NOT NULL"),
])
def test_collection_functions_have_flinks_result_types(expression, flink_type):
    assert _type(expression) == flink_type


@pytest.mark.parametrize("expression, message", [
    ("ARRAY[1, 'a']", "Parameters must be of the same type"),
    ("ARRAY[n, k]", "Parameters must be of the same type"),
    ("MAP['a']", "Map requires an even number of arguments"),
    ("MAP[1, 'a', 'b', 2]", "Parameters must be of the same type"),
    ("ARRAY_CONTAINS(b, 'x')", "Invalid input arguments."),
    ("ARRAY_CONTAINS(b, CAST(1 AS BIGINT))", "Invalid input arguments."),
    ("ARRAY_POSITION(b, CAST(1 AS BIGINT))", "Invalid input arguments."),
    ("ARRAY_CONTAINS(k, 1)", "Invalid input arguments."),
    ("ARRAY_JOIN(b, ',')", "Invalid input arguments."),
    ("ARRAY_JOIN(ARRAY['a'], 1)", "Invalid input arguments."),
    ("ARRAY_SLICE(b, CAST(1 AS BIGINT))", "Invalid input arguments."),
    ("ARRAY_SLICE(b, 1.5)", "Invalid input arguments."),
    ("MAP_KEYS(b)", "Invalid input arguments."),
    ("ARRAY_DISTINCT(a)", "Invalid input arguments."),
    ("ARRAY_MAX(k)", "The argument requires to be an ARRAY type"),
    ("ARRAY_MAX(ARRAY[MAP[1, 2]])", "Type 'MAP<INT NOT NULL, INT NOT NULL> NOT NULL' should "
                                    "support both 'EQUALS' and 'ORDER' comparison with itself."),
    ("ELEMENT(a)", "Cannot apply 'ELEMENT' to arguments of type 'ELEMENT(<(INTEGER, DOUBLE) "
                   "MAP>)'. Supported form(s): 'ELEMENT(<MULTISET>)'\n'ELEMENT(<ARRAY>)'"),
    ("ELEMENT(k)", "'ELEMENT(<VARCHAR(2147483647)>)'"),
    ("ARRAY_CONCAT(ARRAY[1], ARRAY['a'])", "Could not find a common type for arguments: "
                                           "[ARRAY<INT NOT NULL> NOT NULL, "
                                           "ARRAY<CHAR(1) NOT NULL> NOT NULL]"),
    ("ARRAY_JOIN(c)", "No match found for function signature ARRAY_JOIN(<VARCHAR(2147483647) "
                      "ARRAY>)."),
])
def test_refused_calls_fail_with_flinks_text(expression, message):
    with pytest.raises(SqlValidationError) as error:
        _sql(expression)
    assert message in str(error.value)


def test_contains_and_remove_compare_null_safely_where_sparks_functions_give_null():
    # PyFlink 1.20.5: ARRAY_CONTAINS(ARRAY[1, CAST(NULL AS INT)], CAST(NULL AS INT)) is TRUE,
    # ARRAY_REMOVE(b, CAST(NULL AS INT)) of [1, NULL, 2, 1] is [1, 2, 1]
    contains = _sql("ARRAY_CONTAINS(b, NULL)")
    assert "ARRAY_CONTAINS(TRANSFORM(`b`, __e -> __e IS NOT DISTINCT FROM CAST(NULL AS INT))" \
           ", TRUE)" in contains.replace("<=>", "IS NOT DISTINCT FROM")
    remove = _sql("ARRAY_REMOVE(b, n)")
    assert "FILTER(`b`, __e -> NOT (__e IS NOT DISTINCT FROM `n`))" in \
        remove.replace("<=>", "IS NOT DISTINCT FROM")


def test_position_is_sparks_as_an_int():
    assert "CAST(ARRAY_POSITION(`b`, 1) AS INT)" in _sql("ARRAY_POSITION(b, 1)")


def test_a_literal_key_given_twice_keeps_its_last_value():
    sql = _sql("MAP['x', 1, 'y', 3, 'x', 2]")
    assert "MAP('x', 2, 'y', 3)" in sql


def test_constructor_elements_are_cast_to_the_element_type():
    assert "ARRAY(CAST(1 AS DECIMAL(11, 1)), CAST(2.5 AS DECIMAL(11, 1)))" in \
        _sql("ARRAY[1, 2.5]")
    assert "ARRAY(CAST(NULL AS INT), 1)" in _sql("ARRAY[NULL, 1]")


def test_runtime_errors_are_flinks():
    assert "RAISE_ERROR('Array has more than one element.')" in _sql("ELEMENT(b)")
    sql = _sql("MAP_FROM_ARRAYS(b, c)")
    assert "The length of the keys array " in sql and \
        " is not equal to the length of the values array " in sql


def test_slice_and_join_are_null_of_a_null_argument():
    # greatest() / least() skip a NULL offset and Spark's array_join takes a NULL replacement
    # for none; Flink's results are NULL (seen)
    assert "WHEN `n` IS NULL THEN NULL" in _sql("ARRAY_SLICE(b, n)")
    assert "WHEN `k` IS NULL THEN NULL" in _sql("ARRAY_JOIN(c, ',', k)")


@pytest.mark.parametrize("expression, flink_type", [
    ("ARRAY_APPEND(b, 1)", "ARRAY<INT>"),
    ("ARRAY_APPEND(ARRAY[1], 2)", "ARRAY<INT NOT NULL> NOT NULL"),
    ("ARRAY_PREPEND(ARRAY[1], n)", "ARRAY<INT>"),
    ("ARRAY_APPEND(q, 1)", "ARRAY<INT NOT NULL>"),
    ("ARRAY_APPEND(q, n)", "ARRAY<INT>"),
    ("ARRAY_APPEND(b, CAST(1 AS TINYINT))", "ARRAY<INT>"),
    ("ARRAY_APPEND(b, NULL)", "ARRAY<INT>"),
    ("ARRAY_SORT(ARRAY[1])", "ARRAY<INT NOT NULL> NOT NULL"),
    ("ARRAY_SORT(ARRAY[1], TRUE, FALSE)", "ARRAY<INT NOT NULL> NOT NULL"),
    ("ARRAY_SORT(q)", "ARRAY<INT NOT NULL>"),
    ("ARRAY_SORT(b, TRUE, TRUE)", "ARRAY<INT>"),
    ("ARRAY_SORT(ARRAY[1], n > 0)", "ARRAY<INT NOT NULL>"),
])
def test_append_prepend_and_sort_have_flinks_types(expression, flink_type):
    assert _type(expression) == flink_type


@pytest.mark.parametrize("expression", [
    "ARRAY_APPEND(b, CAST(1 AS BIGINT))", "ARRAY_APPEND(b, 'x')", "ARRAY_SORT(k)",
    "ARRAY_SORT(ARRAY[MAP[1, 2]])", "ARRAY_SORT(b, 1)"])
def test_append_and_sort_refuse_what_flink_refuses(expression):
    with pytest.raises(SqlValidationError, match="Invalid input arguments."):
        _sql(expression)


def test_sort_places_nulls_itself_and_is_null_of_a_null_flag():
    # Spark's sort_array takes a literal order only and places NULLs as Flink's default does
    sql = _sql("ARRAY_SORT(b, n > 0, TRUE)")
    assert "WHEN (`n` > 0) IS NULL THEN NULL" in sql
    assert "SORT_ARRAY(FILTER(`b`, __e -> NOT __e IS NULL), TRUE)" in sql
    assert "CONCAT(FILTER(`b`, __e -> __e IS NULL), CASE" in sql


@pytest.mark.parametrize("expression, flink_type", [
    ("ARRAY_UNION(ARRAY[1], ARRAY[2])", "ARRAY<INT NOT NULL> NOT NULL"),
    ("ARRAY_UNION(ARRAY[1], ARRAY[n])", "ARRAY<INT> NOT NULL"),
    ("ARRAY_UNION(ARRAY[1], b)", "ARRAY<INT>"),
    ("ARRAY_UNION(q, q)", "ARRAY<INT NOT NULL>"),
    ("ARRAY_UNION(b, ARRAY[CAST(1 AS BIGINT)])", "ARRAY<BIGINT>"),
    ("ARRAY_UNION(ARRAY['a'], ARRAY['bb'])", "ARRAY<VARCHAR(2) NOT NULL> NOT NULL"),
    ("ARRAY_EXCEPT(q, b)", "ARRAY<INT>"),
    ("ARRAY_EXCEPT(ARRAY[1], ARRAY[n])", "ARRAY<INT> NOT NULL"),
    ("ARRAY_INTERSECT(ARRAY[1], ARRAY[2])", "ARRAY<INT NOT NULL> NOT NULL"),
    ("ARRAY_INTERSECT(q, b)", "ARRAY<INT>"),
    ("SPLIT(k, '.')", "ARRAY<STRING>"),
    ("SPLIT('a', 'b')", "ARRAY<STRING> NOT NULL"),
    ("SPLIT(k, CAST(NULL AS STRING))", "ARRAY<STRING>"),
])
def test_set_functions_and_split_have_flinks_types(expression, flink_type):
    assert _type(expression) == flink_type


def test_set_functions_cast_to_one_element_type_and_refuse_types_that_do_not_mix():
    assert "ARRAY_UNION(CAST(`b` AS ARRAY<BIGINT>), ARRAY(CAST(1 AS BIGINT)))" in \
        _sql("ARRAY_UNION(b, ARRAY[CAST(1 AS BIGINT)])")
    with pytest.raises(SqlValidationError, match="Could not find a common type for arguments"):
        _sql("ARRAY_UNION(ARRAY[1], ARRAY['a'])")


def test_split_takes_its_delimiter_as_text():
    # PyFlink 1.20.5: SPLIT('a.b|c', '|') is [a.b, c]; Spark's split takes a pattern
    sql = _sql("SPLIT(k, '|')")
    assert "SPLIT(`k`, CONCAT('\\\\Q', REPLACE('|', '\\\\E', " in sql and ", -1)" in sql


def test_map_union_stays_refused_by_name():
    with pytest.raises(UnsupportedSqlError, match="MAP_UNION"):
        _sql("MAP_UNION(a, a)")
