"""Which views a translated query reads (spark/table_feeds.read_inputs), without Spark: a
group window's `window(...)` call in GROUP BY, which sqlglot takes for a WINDOW clause, must
not hide the query's tables; a query sqlglot cannot parse reads the views its text names
(one Spark test: a view it does not name cannot break it)."""
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


def test_a_query_sqlglot_cannot_parse_reads_the_views_its_text_names():
    # sqlglot's Spark reader does not know BYTES: the views named in the text as whole words
    # (not `other`, nor `t` inside another word), not every view of the environment
    assert _read("SELECT CAST(`s` AS BYTES) AS `b` FROM `t`") == ["t"]
    assert _read("SELECT CAST(`s` AS BYTES) AS `t_b` FROM t") == ["t"]
    assert _read("SELECT CAST(`s` AS BYTES) AS `b` FROM `tt`") == []
    assert _read("SELECT CAST(`s` AS BYTES) FROM `t` JOIN `other` ON TRUE") == ["t", "other"]


def test_a_view_the_unparsed_query_does_not_name_is_not_read(spark):
    """A view that cannot be read (here a description no frame is made of) does not break a
    query that does not name it; the query's own failure is Spark's, naming the type."""
    import pytest
    from pyflink_on_spark.spark.table_frames import table_frame
    from pyflink_on_spark.specs.tables import RowsTable, TableColumn
    rows = RowsTable((TableColumn("s", "BYTES"),), ((b"x",),))
    query = QueryTable("SELECT `s` AS `b` FROM `t` WHERE CAST(`s` AS BYTES) IS NOT NULL",
                       (("t", rows), ("other", object())), (TableColumn("b", "BYTES"),))
    with pytest.raises(Exception, match="BYTES") as failure:
        table_frame(query, spark).collect()
    assert "unknown table description" not in str(failure.value)
