"""Element access, map values, ROW fields and CARDINALITY, typed and named as Flink's SQL
does (seen on PyFlink 1.20.5: compat_tests/cases/table/nested_columns.py)."""
import pytest

from pyflink_on_spark.table.sql import translate_query
from pyflink_on_spark.table.sql.errors import SqlValidationError

TABLES = {"t": [("k", "STRING"), ("b", "ARRAY<INT>"), ("q", "ARRAY<INT NOT NULL>"),
                ("a", "MAP<INT NOT NULL, DOUBLE>"), ("g", "ROW<`p` INT, `q` ARRAY<INT NOT NULL>>")]}


def _columns(query):
    return [(name, sql) for name, sql in translate_query(query, TABLES).columns]


def test_elements_and_map_values_are_nullable_and_counted_from_one():
    assert _columns("SELECT b[1], q[2], a[1], g.q[1] + 1 AS n FROM t") == [
        ("EXPR$0", "INT"), ("EXPR$1", "INT"), ("EXPR$2", "DOUBLE"), ("n", "INT")]
    sql = translate_query("SELECT b[1] FROM t", TABLES).sql
    assert "TRY_ELEMENT_AT(`b`, 1)" in sql


def test_a_row_columns_field_keeps_its_name():
    assert _columns("SELECT g.p, g.q, k FROM t") == [
        ("p", "INT"), ("q", "ARRAY<INT NOT NULL>"), ("k", "STRING")]


def test_cardinality_is_null_of_null_not_sparks_minus_one():
    assert _columns("SELECT CARDINALITY(b), CARDINALITY(a) FROM t") == [
        ("EXPR$0", "INT"), ("EXPR$1", "INT")]
    sql = translate_query("SELECT CARDINALITY(b) FROM t", TABLES).sql.upper()
    assert "IS NULL THEN NULL" in sql and "SIZE(" in sql


@pytest.mark.parametrize("index", ["0", "-1"])
def test_an_index_below_one_is_flinks_error(index):
    with pytest.raises(SqlValidationError, match="Array element access needs an index "
                                                 "starting at 1 but was %s." % index):
        translate_query("SELECT b[%s] FROM t" % index, TABLES)
