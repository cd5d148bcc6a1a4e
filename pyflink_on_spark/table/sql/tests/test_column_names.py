"""Result column names made unique as Flink's SQL makes them (table/sql/column_names.py);
the cases are PyFlink 1.20.5's (seen)."""
from pyflink_on_spark.table.sql.column_names import uniquified


def test_a_later_equal_name_takes_the_first_free_numbered_suffix():
    assert uniquified(["k", "k"]) == ["k", "k0"]
    assert uniquified(["k", "k", "k", "k"]) == ["k", "k0", "k1", "k2"]
    assert uniquified(["k", "k1", "k", "k"]) == ["k", "k1", "k0", "k2"]
    assert uniquified(["k", "k0", "k"]) == ["k", "k0", "k1"]
    assert uniquified(["k", "k", "k0"]) == ["k", "k0", "k00"]
    assert uniquified(["k", "v", "v"]) == ["k", "v", "v0"]
    assert uniquified(["EXPR$1", "EXPR$1", "k"]) == ["EXPR$1", "EXPR$10", "k"]


def test_names_differing_in_case_are_two_names():
    assert uniquified(["k", "K"]) == ["k", "K"]
    assert uniquified(["k", "v"]) == ["k", "v"]


def _names(query):
    from pyflink_on_spark.table.sql import translate_query
    tables = {"t": [("k", "STRING"), ("v", "INT")]}
    return [name for name, _ in translate_query(query, tables).columns]


def test_a_querys_result_names_are_made_unique_stars_and_joins_too():
    assert _names("SELECT k, * FROM t") == ["k", "k0", "v"]
    assert _names("SELECT v AS k, k FROM t") == ["k", "k0"]
    assert _names("SELECT *, v + 1 AS v FROM t") == ["k", "v", "v0"]
    assert _names("SELECT * FROM t t1 JOIN t t2 ON t1.k = t2.k") == ["k", "v", "k0", "v0"]
    assert _names("SELECT t2.*, t1.* FROM t t1 JOIN t t2 ON t1.k = t2.k") == \
        ["k", "v", "k0", "v0"]
    assert _names("SELECT k, k, k0 FROM (SELECT k, v AS k0 FROM t)") == ["k", "k0", "k00"]
    assert _names("SELECT k, k FROM t UNION ALL SELECT k, k FROM t") == ["k", "k0"]
    # the Spark query names its columns so: a star giving a renamed column is written out
    from pyflink_on_spark.table.sql import translate_query
    sql = translate_query("SELECT k, * FROM t", {"t": [("k", "STRING"), ("v", "INT")]}).sql
    assert "AS `k0`" in sql and "*" not in sql


def test_a_subquerys_names_stay_as_flink_keeps_them():
    # seen on PyFlink 1.20.5: SELECT k0 FROM (SELECT k, k FROM t) fails, k0 not found
    import pytest
    from pyflink_on_spark.table.sql.errors import SqlValidationError
    with pytest.raises(SqlValidationError, match="Column .k0. not found in any table"):
        _names("SELECT k0 FROM (SELECT k, k FROM t)")


def test_an_unnamed_items_ordinal_counts_columns_or_an_aggregating_selects_distinct_names():
    # seen on PyFlink 1.20.5: a star counts each of its columns; in an aggregating select
    # (GROUP BY, or an aggregate call) an item whose name came before does not count
    tables = {"t": [("k", "STRING"), ("v", "INT"), ("w", "INT")]}

    def names(query):
        from pyflink_on_spark.table.sql import translate_query
        return [name for name, _ in translate_query(query, tables).columns]
    assert names("SELECT *, UPPER(k) FROM t") == ["k", "v", "w", "EXPR$3"]
    assert names("SELECT k, *, UPPER(k) FROM t") == ["k", "k0", "v", "w", "EXPR$4"]
    assert names("SELECT k, k, v + 1 FROM t") == ["k", "k0", "EXPR$2"]
    assert names("SELECT k, k, COUNT(*) FROM t GROUP BY k") == ["k", "k0", "EXPR$1"]
    assert names("SELECT k, COUNT(*), k, SUM(v) FROM t GROUP BY k") == \
        ["k", "EXPR$1", "k0", "EXPR$2"]
    assert names("SELECT k, v AS k, COUNT(*) FROM t GROUP BY k, v") == ["k", "k0", "EXPR$1"]
    assert names("SELECT k, k AS x, COUNT(*) FROM t GROUP BY k") == ["k", "x", "EXPR$2"]
    assert names("SELECT k, k, UPPER(k) FROM t GROUP BY k") == ["k", "k0", "EXPR$1"]
    assert names("SELECT UPPER(k), UPPER(k), COUNT(*) FROM t GROUP BY k") == \
        ["EXPR$0", "EXPR$1", "EXPR$2"]
    assert names("SELECT k AS EXPR$1, COUNT(*), SUM(w) FROM t GROUP BY k") == \
        ["EXPR$1", "EXPR$10", "EXPR$11"]
    assert names("SELECT COUNT(*), SUM(w) AS EXPR$0, MAX(w) FROM t") == \
        ["EXPR$0", "EXPR$00", "EXPR$1"]


def test_order_by_a_name_the_select_list_gives_twice_is_ambiguous():
    # seen on PyFlink 1.20.5 (compat_tests/cases/table/order_by_names.py): ORDER BY names the
    # select list's items as written, before the result's renaming, a star's columns too
    import pytest
    from pyflink_on_spark.table.sql.errors import SqlValidationError
    for query in ["SELECT k, k FROM t ORDER BY k", "SELECT k, v AS k FROM t ORDER BY k",
                  "SELECT *, k FROM t ORDER BY k", "SELECT k, k FROM t ORDER BY v, k || 'x'",
                  "SELECT k, k FROM t GROUP BY k ORDER BY k",
                  "SELECT * FROM (SELECT k, k FROM t ORDER BY k)"]:
        with pytest.raises(SqlValidationError, match="Column 'k' is ambiguous"):
            _names(query)
    with pytest.raises(SqlValidationError, match="Column 'k0' not found in any table"):
        _names("SELECT k, k, v FROM t ORDER BY v, k0")
    assert _names("SELECT k, k FROM t ORDER BY 1") == ["k", "k0"]
    assert _names("SELECT k, k FROM t ORDER BY t.k") == ["k", "k0"]
    assert _names("SELECT v FROM t ORDER BY k") == ["v"]
    assert _names("SELECT v AS k, k AS v FROM t ORDER BY k, v") == ["k", "v"]
