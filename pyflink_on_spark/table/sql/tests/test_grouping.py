"""A grouping query split into its per-row query and its per-group aggregates
(table/sql/grouping.py)."""
import pytest

from pyflink_on_spark.table.sql import UnsupportedSqlError
from pyflink_on_spark.table.sql.grouping import AGGREGATE, KEY, split_grouping


def test_keys_and_aggregate_arguments_become_the_per_row_query():
    grouping = split_grouping(
        "SELECT COUNT(*) AS n, UPPER(name) AS fruit, SUM(qty + 1), MAX(qty) FROM fruits "
        "WHERE name <> 'x' GROUP BY UPPER(name)")
    assert grouping.per_row == ("SELECT UPPER(name) AS `__k0`, qty + 1 AS `__a0`, qty AS "
                                "`__a1` FROM fruits WHERE name <> 'x'")
    assert grouping.keys == 1
    assert grouping.items == ((AGGREGATE, ("COUNT", None)), (KEY, 0),
                              (AGGREGATE, ("SUM", 0)), (AGGREGATE, ("MAX", 1)))


def test_select_distinct_groups_by_every_item_and_no_group_by_is_one_group():
    assert split_grouping("SELECT DISTINCT a, b FROM t").items == ((KEY, 0), (KEY, 1))
    alone = split_grouping("SELECT COUNT(*) FROM t")
    assert alone.keys == 0 and alone.items == ((AGGREGATE, ("COUNT", None)),)


@pytest.mark.parametrize("query, named", [
    ("SELECT a, SUM(b) + 1 FROM t GROUP BY a", "the select item SUM(b) + 1"),
    ("SELECT a, COUNT(DISTINCT b) FROM t GROUP BY a", "a DISTINCT aggregate"),
    ("SELECT a FROM t GROUP BY a HAVING COUNT(*) > 1", "HAVING"),
    ("SELECT t.a, COUNT(*) FROM t JOIN u ON t.a = u.a GROUP BY t.a", "a JOIN"),
    ("SELECT a, COUNT(*) FROM (SELECT a FROM t) GROUP BY a", "a subquery as the input"),
])
def test_other_shapes_are_refused_naming_the_construct(query, named):
    with pytest.raises(UnsupportedSqlError, match="^" + named.replace("(", r"\(")
                       .replace(")", r"\)").replace("+", r"\+")):
        split_grouping(query)


def test_a_projection_prunes_the_grouping_columns_it_does_not_read():
    # as Flink prunes unread aggregate calls (seen on PyFlink 1.20.5: `SELECT k FROM (SELECT
    # k, COUNT(*) ...)` is +I per key, nothing after): the changes are the kept aggregates'
    keys_only = split_grouping("SELECT k AS a FROM (SELECT k, COUNT(*) AS c FROM v GROUP BY k) "
                               "AS g")
    assert keys_only.items == (("key", 0),) and keys_only.projection == "k AS a"
    count = split_grouping("SELECT c + 1 FROM (SELECT k, MAX(x) AS m, COUNT(*) AS c FROM v "
                           "GROUP BY k) AS g")
    assert count.keys == 1 and count.items == (("aggregate", ("COUNT", None)),)
    star = split_grouping("SELECT * FROM (SELECT k, COUNT(*) AS c FROM v GROUP BY k) AS g")
    assert star.items == (("key", 0), ("aggregate", ("COUNT", None)))
