"""from_changelog_stream and ChangelogMode (table/changelog_streams.py): the rows, aggregates
and errors seen on PyFlink 1.20.5 at parallelism 1 in STREAMING mode (compat case
table/from_changelog); the keyed functions driven here without Spark, one key at a time."""
import pytest

from pyflink_on_spark.common.types import Row, RowKind
from pyflink_on_spark.table.changelog_streams import (ChangelogNormalize,
                                                       RetractingGroupAggregate)
from pyflink_on_spark.table.group_aggregates import Aggregate

I, UB, UA, D = RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE


class _State:
    def __init__(self):
        self.held = None

    def value(self):
        return self.held

    def update(self, value):
        self.held = value

    def clear(self):
        self.held = None


class _Context:
    def __init__(self):
        self.states = {}

    def get_state(self, descriptor):
        return self.states.setdefault(descriptor.name, _State())


def _changes(function, rows):
    function.open(_Context())
    out = []
    for kind, *values in rows:
        row = Row(*values)
        row.set_row_kind(kind)
        for change in function.process_element(row, None) or ():
            out.append((str(change.get_row_kind()), *change) if isinstance(change, Row)
                       else change)
    return out


def _aggregate(*calls):
    """GROUP BY the row's first value: (function, argument index or None) calls."""
    items = [("key", 0)] + [("aggregate", Aggregate(f, a, "INT" if a is not None else "BIGINT"))
                            for f, a in calls]
    return RetractingGroupAggregate(["k"] + ["a%d" % i for i in range(len(calls))], items)


def test_a_group_whose_rows_are_all_retracted_is_deleted_and_starts_again():
    # seen on PyFlink 1.20.5: SUM / COUNT(*) GROUP BY f0 over +I, -U, +U of one key
    assert _changes(_aggregate(("SUM", 1), ("COUNT", None)), [
        (I, "Alice", 12), (UB, "Alice", 12), (UA, "Alice", 100)]) == [
        ("+I", "Alice", 12, 1), ("-D", "Alice", 12, 1), ("+I", "Alice", 100, 1)]
    # a retraction of a group without rows is dropped
    assert _changes(_aggregate(("SUM", 1)), [
        (D, "a", 1), (I, "a", 2), (UB, "a", 2), (UA, "a", 3), (I, "a", 5), (D, "a", 3)]) == [
        ("+I", "a", 2), ("-D", "a", 2), ("+I", "a", 3), ("-U", "a", 3), ("+U", "a", 8),
        ("-U", "a", 8), ("+U", "a", 5)]


def test_retractions_of_sum_count_min_max_as_flink():
    # SUM of no non-NULL values left is NULL, COUNT(x) counts the non-NULL ones
    assert _changes(_aggregate(("SUM", 1), ("COUNT", 1)), [
        (I, "a", 1), (I, "a", None), (D, "a", 1)]) == [
        ("+I", "a", 1, 1), ("-U", "a", 1, 1), ("+U", "a", None, 0)]
    # MIN / MAX over the values left
    assert _changes(_aggregate(("MIN", 1), ("MAX", 1)), [
        (I, "a", 1), (I, "a", 5), (I, "a", 3), (D, "a", 1), (D, "a", 5), (I, "a", 3),
        (D, "a", 3)]) == [
        ("+I", "a", 1, 1), ("-U", "a", 1, 1), ("+U", "a", 1, 5), ("-U", "a", 1, 5),
        ("+U", "a", 3, 5), ("-U", "a", 3, 5), ("+U", "a", 3, 3)]
    # AVG of integers: the sum over the count, truncated
    assert _changes(_aggregate(("AVG", 1)), [(I, "a", 1), (I, "a", 4), (D, "a", 4)]) == [
        ("+I", "a", 1), ("-U", "a", 1), ("+U", "a", 2), ("-U", "a", 2), ("+U", "a", 1)]


def test_changelog_normalize_keeps_each_keys_last_row():
    # seen on PyFlink 1.20.5 (upsert mode, primary key f0), one key at a time: +U of a known
    # key is -U / +U (equal rows too), a -D / -U carries the key's last row
    assert _changes(ChangelogNormalize(), [
        (I, "Alice", 12), (UA, "Alice", 100), (UA, "Alice", 100), (UB, "Alice", 1)]) == [
        ("Alice", 12, 0), ("Alice", 12, 1), ("Alice", 100, 2), ("Alice", 100, 1),
        ("Alice", 100, 2), ("Alice", 100, 3)]
    assert _changes(ChangelogNormalize(), [(UA, "Dan", 1), (D, "Dan", 0), (D, "Dan", 0)]) == [
        ("Dan", 1, 0), ("Dan", 1, 3)]


# -- the Table API over a changelog stream (Spark) ---------------------------------------------

_RETRACT = [(I, "Alice", 12), (I, "Bob", 5), (UB, "Alice", 12), (UA, "Alice", 100),
            (D, "Bob", 5), (I, "Carl", 7)]


def _env(batch=False):
    from pyflink_on_spark.datastream import RuntimeExecutionMode
    from pyflink_on_spark.datastream.stream_execution_environment import \
        StreamExecutionEnvironment
    from pyflink_on_spark.table import StreamTableEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.set_runtime_mode(RuntimeExecutionMode.BATCH if batch
                         else RuntimeExecutionMode.STREAMING)
    return env, StreamTableEnvironment.create(env)


def _stream(env, spec):
    from pyflink_on_spark.common.typeinfo import Types
    return env.from_collection([Row.of_kind(kind, *values) for kind, *values in spec],
                               type_info=Types.ROW([Types.STRING(), Types.INT()]))


def _collected(table):
    with table.execute().collect() as rows:
        return [(str(r.get_row_kind()), *r) for r in rows]


def test_a_changelog_table_its_queries_and_upsert_mode(spark, capsys):
    from pyflink_on_spark.table import ChangelogMode, Schema
    from pyflink_on_spark.table.expressions import col
    env, t_env = _env()
    table = t_env.from_changelog_stream(_stream(env, _RETRACT))
    as_given = [(str(k), *v) for k, *v in _RETRACT]
    assert _collected(table) == as_given
    with t_env.to_changelog_stream(table).execute_and_collect() as rows:
        assert [(str(r.get_row_kind()), *r) for r in rows] == as_given
    t_env.create_temporary_view("t", table)
    assert _collected(t_env.sql_query(
        "SELECT f0, SUM(f1) AS s, COUNT(*) AS c FROM t GROUP BY f0")) == [
        ("+I", "Alice", 12, 1), ("+I", "Bob", 5, 1), ("-D", "Alice", 12, 1),
        ("+I", "Alice", 100, 1), ("-D", "Bob", 5, 1), ("+I", "Carl", 7, 1)]
    assert _collected(t_env.sql_query("SELECT COUNT(*) AS c, SUM(f1) AS s FROM t")) == [
        ("+I", 1, 12), ("-U", 1, 12), ("+U", 2, 17), ("-U", 2, 17), ("+U", 1, 5),
        ("-U", 1, 5), ("+U", 2, 105), ("-U", 2, 105), ("+U", 1, 100), ("-U", 1, 100),
        ("+U", 2, 107)]
    # a projection / filter: each change on its own, its kind kept
    assert _collected(t_env.sql_query("SELECT f0, f1 + 1 AS g FROM t WHERE f1 > 6")) == [
        ("+I", "Alice", 13), ("-U", "Alice", 13), ("+U", "Alice", 101), ("+I", "Carl", 8)]
    assert _collected(table.select(col("f1"))) == [(k, v) for k, _, v in as_given]
    assert _collected(t_env.sql_query(
        "SELECT f0, SUM(f1) AS s FROM t GROUP BY f0 HAVING SUM(f1) > 6")) == [
        ("+I", "Alice", 12), ("-D", "Alice", 12), ("+I", "Alice", 100), ("+I", "Carl", 7)]
    assert table.to_pandas().to_dict("list") == {"f0": ["Alice", "Carl"], "f1": [100, 7]}
    # upsert mode with a primary key: Flink's ChangelogNormalize
    upsert = t_env.from_changelog_stream(_stream(env, [
        (I, "Alice", 12), (I, "Bob", 5), (UA, "Alice", 100), (UA, "Dan", 1), (D, "Bob", 0),
        (D, "Zed", 3)]), Schema.new_builder().primary_key("f0").build(),
        ChangelogMode.upsert())
    upsert.print_schema()
    assert capsys.readouterr().out == (
        "(\n  `f0` STRING NOT NULL,\n  `f1` INT,\n  CONSTRAINT `PK_f0` PRIMARY KEY (`f0`) "
        "NOT ENFORCED\n)\n")
    assert _collected(upsert) == [
        ("+I", "Alice", 12), ("+I", "Bob", 5), ("-U", "Alice", 12), ("+U", "Alice", 100),
        ("+I", "Dan", 1), ("-D", "Bob", 5)]
    t_env.create_temporary_view("u", upsert)
    # Flink removes a SUM / MIN / MAX grouping by the key: the normalized rows (seen)
    assert _collected(t_env.sql_query("SELECT f0, SUM(f1) FROM u GROUP BY f0")) == \
        _collected(upsert)
    with pytest.raises(NotImplementedError, match="HAVING or a query over a GROUP BY of the "
                                                  "primary key"):
        t_env.sql_query("SELECT f0, SUM(f1) AS s FROM u GROUP BY f0 HAVING SUM(f1) > 10")
    assert _collected(t_env.sql_query(
        "SELECT f0, COUNT(*) AS c FROM u GROUP BY f0"))[:4] == [
        ("+I", "Alice", 1), ("+I", "Bob", 1), ("-D", "Alice", 1), ("+I", "Alice", 1)]


def test_errors_as_pyflink(spark):
    from pyflink_on_spark.table import Schema
    from pyflink_on_spark.table.sql.errors import SqlValidationError
    from pyflink_on_spark.util.exceptions import TableException
    env, t_env = _env()
    with pytest.raises(SqlValidationError, match="Invalid primary key 'PK_zz'. Column 'zz' "
                                                 "does not exist."):
        t_env.from_changelog_stream(_stream(env, _RETRACT),
                                    Schema.new_builder().primary_key("zz").build())
    env, t_env = _env(batch=True)
    table = t_env.from_changelog_stream(_stream(env, _RETRACT))
    t_env.create_temporary_view("b", table)
    for run in (lambda: table.execute(), lambda: t_env.sql_query("SELECT * FROM b")):
        with pytest.raises(TableException, match="Querying a table in batch mode is "
                                                 "currently only possible for INSERT-only"):
            run()


def test_queries_over_views_and_aliases_of_a_changelog_table(spark):
    # seen on PyFlink 1.20.5 (parallelism 1): a grouping over a view of a projection /
    # filter of it, a query over that view, an alias's filter, Table.group_by's MAX
    from pyflink_on_spark.common.typeinfo import Types
    from pyflink_on_spark.table.expressions import col
    env, t_env = _env()
    table = t_env.from_changelog_stream(env.from_collection(
        [Row.of_kind(kind, *values) for kind, *values in [
            (I, "a", 1), (I, "b", 2), (UB, "a", 1), (UA, "a", 3), (D, "b", 2), (I, "a", 4)]],
        type_info=Types.ROW_NAMED(["k", "v"], [Types.STRING(), Types.INT()])))
    t_env.create_temporary_view("t", table)
    t_env.create_temporary_view("v", t_env.sql_query("SELECT k, v * 2 AS g FROM t WHERE v > 1"))
    assert _collected(t_env.sql_query("SELECT k, SUM(g) AS s, COUNT(*) AS c FROM v GROUP BY k")
                      ) == [("+I", "b", 4, 1), ("+I", "a", 6, 1), ("-D", "b", 4, 1),
                            ("-U", "a", 6, 1), ("+U", "a", 14, 2)]
    assert _collected(t_env.sql_query("SELECT g + 1 AS h FROM v")) == [
        ("+I", 5), ("+U", 7), ("-D", 5), ("+I", 9)]
    assert _collected(table.alias("x", "y").where(col("y") > 1)) == [
        ("+I", "b", 2), ("+U", "a", 3), ("-D", "b", 2), ("+I", "a", 4)]
    assert _collected(table.group_by(col("k")).select(col("k"), col("v").max.alias("m"))) == [
        ("+I", "a", 1), ("+I", "b", 2), ("-D", "a", 1), ("+I", "a", 3), ("-D", "b", 2),
        ("-U", "a", 3), ("+U", "a", 4)]
