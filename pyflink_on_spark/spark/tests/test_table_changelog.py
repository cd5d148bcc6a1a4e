"""Flink's changelog of a grouping query (spark/table_changelog.py), without Spark: the query
rewritten as running aggregates, and the +I / -U / +U rows one task emits from them."""
import pyarrow as pa
import pytest

from pyflink_on_spark.spark.table_changelog import _changes, is_updating, running_query


def test_group_by_becomes_running_aggregates_over_arrival_order():
    sql, names, keys = running_query("SELECT `k` AS `k`, MAX(`v`) AS `m` FROM t WHERE `v` > 1 "
                                     "GROUP BY `k`")
    assert names == ["k", "m"] and keys == 1
    assert "MAX(`v`) OVER (PARTITION BY `k` ORDER BY __pyflink_seq" in sql
    assert "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW" in sql
    assert sql.endswith("FROM t WHERE `v` > 1") and "GROUP BY" not in sql
    _, names, keys = running_query("SELECT DISTINCT `k` AS `k` FROM t")
    assert names == ["k"] and keys == 1


def test_a_stateless_subquerys_rows_carry_the_inputs_arrival_order():
    # the subqueries select the input's SEQ, which orders the running aggregates
    sql, names, keys = running_query(
        "SELECT `id`, SUM(`d`) AS `s` FROM (SELECT `k` AS `id`, `d` FROM (SELECT `id` % 2 AS "
        "`k`, `data` AS `d` FROM src WHERE `data` > 4)) WHERE `id` > 1 GROUP BY `id`")
    assert names == ["id", "s"] and keys == 1
    assert sql.count("__pyflink_seq") == 4      # two subqueries, the order, the result's
    assert "SUM(`d`) OVER (PARTITION BY `id` ORDER BY __pyflink_seq" in sql
    star, _, _ = running_query("SELECT k, COUNT(*) AS c FROM (SELECT * FROM t WHERE v > 1) "
                               "GROUP BY k")
    assert "(SELECT * FROM t WHERE v > 1)" in star


@pytest.mark.parametrize("sql, named", [
    ("SELECT k, COUNT(*) FROM t GROUP BY k HAVING COUNT(*) > 1", "HAVING"),
    ("SELECT COUNT(DISTINCT v) FROM t", "DISTINCT aggregate"),
    ("SELECT a.k, COUNT(*) FROM t AS a JOIN u AS b ON a.k = b.k GROUP BY a.k", "JOIN"),
    ("SELECT k, COUNT(*) FROM (SELECT k, MAX(v) AS m FROM t GROUP BY k) GROUP BY k",
     "a subquery with GROUP BY"),
    ("SELECT k, COUNT(*) FROM (SELECT * FROM t ORDER BY k LIMIT 2) GROUP BY k",
     "ORDER BY"),
])
def test_what_cannot_be_rewritten_is_refused_by_name(sql, named):
    with pytest.raises(NotImplementedError, match=named):
        running_query(sql)


def test_windowed_aggregates_and_plain_selects_do_not_update():
    assert is_updating("SELECT k, COUNT(*) FROM t GROUP BY k")
    assert not is_updating("SELECT k, v * 2 FROM t WHERE v > 1")
    # an inner / cross join of insert-only inputs gives +I rows only (PyFlink 1.20.5);
    # an outer join retracts its NULL-padded rows
    assert not is_updating("SELECT * FROM t JOIN u ON t.k = u.k")
    assert not is_updating("SELECT * FROM t CROSS JOIN u")
    assert is_updating("SELECT * FROM t LEFT JOIN u ON t.k = u.k")
    assert is_updating("SELECT * FROM t FULL OUTER JOIN u ON t.k = u.k")
    # as the SQL translator writes a group window (table/sql)
    assert not is_updating("SELECT window(`ts`, '5000 milliseconds').start AS `s`, COUNT(*) "
                           "FROM t GROUP BY window(`ts`, '5000 milliseconds')")


def test_changes_emit_insert_then_update_pairs_and_nothing_when_unchanged():
    # running MAX per key, in arrival order: (result k, m, key, seq)
    batch = pa.RecordBatch.from_pydict({
        "k": ["a", "b", "a", "a", "a"], "m": [3, 1, 3, 5, 5],
        "key": ["a", "b", "a", "a", "a"], "seq": [0, 1, 2, 3, 4]})
    out = pa.Table.from_batches(list(_changes(2, 1)(iter([batch])))).to_pylist()
    assert [(r["k"], r["m"], r["__pyflink_kind"]) for r in out] == [
        ("a", 3, 0), ("b", 1, 0), ("a", 3, 1), ("a", 5, 2)]


def test_a_changelog_materializes_in_the_order_of_last_change():
    from pyflink_on_spark.spark.table_frames import materialized
    from pyflink_on_spark.specs.tables import TableColumn
    changes = [("a", 3, 0), ("b", 1, 0), ("a", 3, 1), ("a", 5, 2)]
    pdf = materialized(changes, (TableColumn("k", "STRING"), TableColumn("s", "INT")))
    assert pdf.to_dict("list") == {"k": ["b", "a"], "s": [1, 5]}
    assert str(pdf.dtypes["s"]) == "int32"


def test_keyed_changelog_records_decode_to_columns_and_kinds():
    # the keyed aggregate's Rows (their RowKinds) as the table's columns and KIND
    from pyflink_on_spark.common.types import Row, RowKind
    from pyflink_on_spark.runtime.boundary import dumps_records
    from pyflink_on_spark.spark.table_changelog import KIND, _changelog_decoder
    rows = []
    for values, kind in ((("a", 1), RowKind.INSERT), (("a", 1), RowKind.UPDATE_BEFORE),
                         (("a", 3), RowKind.UPDATE_AFTER)):
        row = Row(*values)
        row.set_row_kind(kind)
        rows.append(row)
    schema = pa.schema([pa.field("k", pa.string()), pa.field("n", pa.int64())])
    chunks = pa.RecordBatch.from_arrays([pa.array([dumps_records((rows, None))], pa.binary())],
                                        names=["payload"])
    out, = list(_changelog_decoder(schema)(iter([chunks])))
    assert out.schema.names == ["k", "n", KIND]
    assert out.to_pylist() == [{"k": "a", "n": 1, KIND: 0}, {"k": "a", "n": 1, KIND: 1},
                               {"k": "a", "n": 3, KIND: 2}]
