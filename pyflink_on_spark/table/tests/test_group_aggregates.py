"""The changelog of a grouping query over an unbounded table (table/group_aggregates.py): the
keyed aggregate's rows and values as PyFlink 1.20.5 gives them (compat case
table/unbounded_group_by), driven here without Spark, one group's state at a time."""
from decimal import Decimal

import pytest

from pyflink_on_spark.common.types import RowKind
from pyflink_on_spark.table.group_aggregates import Aggregate, GroupAggregate


class _State:
    def __init__(self):
        self.held = None

    def value(self):
        return self.held

    def update(self, value):
        self.held = value


class _Context:
    def __init__(self):
        self.states = {}

    def get_state(self, descriptor):
        return self.states.setdefault(descriptor.name, _State())


def _changes(function, rows):
    """Each row's changes, with a state per group (the first column)."""
    states = {}
    out = []
    for row in rows:
        context = states.setdefault(row[0], _Context())
        function.open(context)
        out.extend((str(r.get_row_kind()), tuple(r))
                   for r in function.process_element(row, None) or ())
    return out


def test_a_group_emits_insert_then_update_pairs_and_nothing_when_its_aggregates_hold():
    function = GroupAggregate(["k", "top", "n"], [
        ("key", 0), ("aggregate", Aggregate("MAX", 1, "INT")),
        ("aggregate", Aggregate("COUNT", 1, "INT"))])
    assert _changes(function, [("a", 3), ("b", 1), ("a", 2), ("a", None), ("a", 5)]) == [
        ("+I", ("a", 3, 1)), ("+I", ("b", 1, 1)),
        ("-U", ("a", 3, 1)), ("+U", ("a", 3, 2)),
        ("-U", ("a", 3, 2)), ("+U", ("a", 5, 3))]   # ("a", None) changed neither


def test_the_rows_carry_the_result_names_and_their_kind():
    function = GroupAggregate(["n", "k"], [("aggregate", Aggregate("COUNT", None, "BIGINT")),
                                           ("key", 0)])
    context = _Context()
    function.open(context)
    (row,) = function.process_element(("a",), None)
    assert row.get_row_kind() == RowKind.INSERT and row.as_dict() == {"n": 1, "k": "a"}


@pytest.mark.parametrize("function, arg_type, values, result", [
    ("SUM", "INT", [2147483647, 1], -2147483648),        # Flink sums in INT and wraps
    ("SUM", "TINYINT", [120, 10], -126),
    ("SUM", "BIGINT", [9223372036854775807, 1], -9223372036854775808),
    ("SUM", "DOUBLE", [0.5, None, 0.25], 0.75),
    ("SUM", "DECIMAL(10, 2)", [Decimal("1.10"), Decimal("2.05")], Decimal("3.15")),
    ("SUM", "INT", [None, None], None),
    ("AVG", "INT", [-7, -2], -4),                        # the sum over the count, truncated
    ("AVG", "INT", [2147483647, 1], 1073741824),
    ("AVG", "DOUBLE", [1.0, 2.0], 1.5),
    ("AVG", "INT", [None], None),
    ("MIN", "STRING", ["b", None, "a"], "a"),
    ("MAX", "INT", [None, -3, -5], -3),
    ("COUNT", "INT", [None, 1, None], 1),
])
def test_aggregates_compute_as_flink(function, arg_type, values, result):
    aggregate = Aggregate(function, 0, arg_type)
    acc = aggregate.initial()
    for value in values:
        acc = aggregate.add(acc, (value,))
    assert aggregate.result(acc) == result


@pytest.mark.parametrize("arg_type, values, result", [
    # seen on PyFlink 1.20.5 (compat case table/avg_types): AVG's sum is a BIGINT for every
    # integer type, and wraps
    ("BIGINT", [9223372036854775807, 10], -4611686018427387899),
    ("BIGINT", [9223372036854775807, 10, 1], -3074457345618258599),
    ("TINYINT", [127, 127, 1], 85),
    ("SMALLINT", [-1, -2], -1),                    # truncated toward zero
    # a FLOAT's sum is a DOUBLE, the mean a FLOAT
    ("FLOAT", [16777216.0, 1.0, 1.0], 5592406.0),
    # a DECIMAL(p, s)'s is DECIMAL(38, max(6, s)), rounded half up
    ("DECIMAL(10, 2)", [Decimal("1.00"), Decimal("1.00"), Decimal("0.00")],
     Decimal("0.666667")),
    ("DECIMAL(12, 8)", [Decimal("-1.00000001"), Decimal("0.50000000"), None],
     Decimal("-0.25000001")),
    ("DECIMAL(5, 0)", [Decimal("7"), Decimal("-2")], Decimal("2.500000")),
    # past Python's 28-digit default context: (10^29 + 1) / 2
    ("DECIMAL(30, 0)", [Decimal("9" * 29), Decimal("2")], Decimal("5" + "0" * 28 + ".500000")),
])
def test_avg_sums_and_divides_as_flink(arg_type, values, result):
    aggregate = Aggregate("AVG", 0, arg_type)
    acc = aggregate.initial()
    for value in values:
        acc = aggregate.add(acc, (value,))
    value = aggregate.result(acc)
    assert value == result and str(value) == str(result)   # the decimal's scale too


def test_avg_accumulators_merge_as_they_add():
    """merge (session windows) keeps AVG's sum as add does: a BIGINT's wraps."""
    aggregate = Aggregate("AVG", 0, "BIGINT")
    left = aggregate.add(aggregate.initial(), (9223372036854775807,))
    right = aggregate.add(aggregate.initial(), (10,))
    assert aggregate.result(aggregate.merge(left, right)) == -4611686018427387899


def test_float_sums_in_single_precision():
    aggregate = Aggregate("SUM", 0, "FLOAT")
    acc = aggregate.add(aggregate.add(aggregate.initial(), (0.1,)), (0.2,))
    assert aggregate.result(acc) == pytest.approx(0.3, abs=1e-7) and \
        aggregate.result(acc) != 0.1 + 0.2


def test_a_bounded_grouping_changelog_is_the_keyed_aggregate_too():
    """to_changelog_stream of a bounded stream's grouping query (STREAMING mode) spreads its
    groups over the keyed subtasks; compat case table/streaming_changelog holds its rows."""
    from pyflink_on_spark.common import Types
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.spark.entry import capture_jobs
    from pyflink_on_spark.specs.partitioning import KeyedPartitioning
    from pyflink_on_spark.table import StreamTableEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    t_env = StreamTableEnvironment.create(env)
    pairs = env.from_collection([("a", 1), ("b", 2)],
                                type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    t_env.create_temporary_view("t", t_env.from_data_stream(pairs))
    t_env.to_changelog_stream(t_env.sql_query("SELECT f0, SUM(f1) AS s FROM t GROUP BY f0")) \
        .print()
    with capture_jobs() as jobs:
        env.execute("keyed changelog")
    (captured,) = jobs
    exits = [e for stage in captured.job.stages for e in stage.spec.exits]
    assert any(isinstance(e.partitioning, KeyedPartitioning) for e in exits)
    process = [op for stage in captured.job.stages for op in stage.spec.operators
               if "GroupAggregate" in repr(op.op)]
    assert process and all(op.parallelism == 2 for op in process)


@pytest.mark.parametrize("function, arg_type", [
    ("COUNT", "INT"), ("SUM", "INT"), ("SUM", "TINYINT"), ("SUM", "BIGINT"), ("SUM", "DOUBLE"),
    ("SUM", "FLOAT"), ("SUM", "DECIMAL(10, 2)"), ("MIN", "INT"), ("MAX", "STRING"),
    ("AVG", "INT"), ("AVG", "DOUBLE"), ("AVG", "FLOAT"), ("AVG", "DECIMAL(10, 2)")])
def test_the_per_row_adder_adds_as_add(function, arg_type):
    """Aggregate.adder (the keyed aggregate's per-row path) against add, over values that
    wrap, repeat and skip NULLs."""
    values = {"STRING": ["b", None, "a", "c", "a"],
              "DECIMAL(10, 2)": [Decimal("1.10"), None, Decimal("-2.05")],
              "DOUBLE": [0.1, None, -2.5, float("nan"), 3.0],
              "FLOAT": [0.1, None, 0.2, 0.7]}.get(
        arg_type, [2147483647, 1, None, -5, 120, 9223372036854775807, -2147483648])
    for argument in ((0, None) if function == "COUNT" else (0,)):
        aggregate = Aggregate(function, argument, arg_type)
        add = aggregate.adder()
        slow = fast = aggregate.initial()
        for value in values:
            slow, fast = aggregate.add(slow, (value,)), add(fast, (value,))
            assert repr(fast) == repr(slow)


def test_plain_changes_are_tuples_with_the_kind_last_and_keys_in_select_order():
    function = GroupAggregate(["n", "k2", "k1"], [
        ("aggregate", Aggregate("COUNT", None, "BIGINT")), ("key", 1), ("key", 0)],
        plain=True)
    context = _Context()
    function.open(context)
    assert function.process_element(("a", "x"), None) == ((1, "x", "a", 0),)
    assert function.process_element(("a", "x"), None) == ((1, "x", "a", 1), (2, "x", "a", 2))


def test_the_key_selector_takes_the_first_values_of_a_row():
    from pyflink_on_spark.common.types import Row
    from pyflink_on_spark.table.group_aggregates import key_selector
    assert key_selector(2)(Row(k="a", j=1, v=3)) == ("a", 1)
    assert key_selector(0)(("a", 1)) == ()


def test_the_decoder_reads_plain_changes_and_rows():
    import pyarrow as pa
    from pyflink_on_spark.common.types import Row
    from pyflink_on_spark.runtime.boundary import dumps_records
    from pyflink_on_spark.spark.table_changelog import _changelog_decoder
    row = Row(k="b", n=5)
    row.set_row_kind(RowKind.UPDATE_AFTER)
    payloads = [dumps_records(([("a", 1, 0), ("a", 1, 1), ("a", 2, 2)], None)),
                dumps_records(([row], None))]
    schema = pa.schema([pa.field("k", pa.string()), pa.field("n", pa.int64())])
    (batch,) = _changelog_decoder(schema)(iter([pa.RecordBatch.from_arrays(
        [pa.array(payloads, pa.binary())], names=["payload"])]))
    assert [c.to_pylist() for c in batch.columns] == [
        ["a", "a", "a", "b"], [1, 1, 2, 5], [0, 1, 2, 2]]


@pytest.mark.parametrize("function, expected", [("MIN", (1, 0)), ("MAX", (2, 500))])
def test_min_and_max_of_timestamp_ltz_instants_compare_their_time(function, expected):
    # PyFlink's Instant has no order of its own: a window aggregate over an unbounded
    # table's TIMESTAMP_LTZ column failed with "'>' not supported between instances of
    # 'Instant'" before (an unbounded datagen table's MAX(ts))
    from pyflink_on_spark.common.time import Instant
    call = Aggregate(function, 0, "TIMESTAMP_LTZ(3)")
    values = [Instant(1, 500), Instant(2, 500), None, Instant(1, 0), Instant(2, 0)]
    acc, fast = call.initial(), call.initial()
    add = call.adder()
    for value in values:
        acc, fast = call.add(acc, (value,)), add(fast, (value,))
    assert (acc.seconds, acc.nanos) == expected == (fast.seconds, fast.nanos)
    halves = call.add(call.initial(), (values[0],)), call.add(call.initial(), (values[1],))
    merged = call.merge(*halves)
    assert (merged.seconds, merged.nanos) == ((1, 500) if function == "MIN" else (2, 500))
