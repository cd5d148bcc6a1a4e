"""Which views a translated query reads (spark/table_feeds.read_inputs), without Spark: a
group window's `window(...)` call in GROUP BY, which sqlglot takes for a WINDOW clause, must
not hide the query's tables."""
from pyflink_on_spark.spark.table_feeds import read_inputs
from pyflink_on_spark.specs.tables import QueryTable


def _read(sql):
    inputs = (("t", "view of t"), ("other", "view of other"))
    return [name for name, _ in read_inputs(QueryTable(sql, inputs))]


def test_a_query_reads_only_the_views_it_names():
    assert _read("SELECT a FROM `t` WHERE a > 1") == ["t"]


def test_a_group_window_alone_in_group_by_still_tells_the_tables():
    assert _read("SELECT CAST(window(`ts`, '5000 milliseconds').end AS TIMESTAMP_NTZ) AS e, "
                 "MAX(`price`) AS m FROM `t` GROUP BY window(`ts`, '5000 milliseconds')") == ["t"]
    assert _read("SELECT name FROM `t` GROUP BY name, WINDOW(`ts`, '5 seconds')") == ["t"]
