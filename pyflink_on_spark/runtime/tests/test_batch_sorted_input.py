"""BATCH mode, key-sorted exchanges (Flink's sort-based batch input): the exit groups records
by (key, timestamp) into rows ordered by the key's batch order, the runner sorts by it, and
the keyed head processes one key at a time, dropping a key's state when the next begins.
Results equal the grouped-in-memory path's (test_batch_keyed_order.py and the BATCH compat
cases run the same semantics)."""

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.functions import (
    KeyedProcessFunction, wrap_key_selector, wrap_reduce)
from pyflink_on_spark.datastream.state import ValueStateDescriptor
from pyflink_on_spark.direct.exchange import route
from pyflink_on_spark.graph.sources import collection_source
from pyflink_on_spark.graph.transformations import (
    OneInputTransformation, PartitionTransformation, SinkTransformation, SourceTransformation)
from pyflink_on_spark.runtime.batch_order import (
    batch_key_order, key_of_order, sorted_record_order)
from pyflink_on_spark.runtime.boundary import (
    KIND_KEY_RUN, KIND_RECORDS, loads_records, row_order)
from pyflink_on_spark.runtime.key_runs import merged_groups, row_groups
from pyflink_on_spark.runtime.exits import KeySortedExitCollector
from pyflink_on_spark.runtime.tests.engine_harness import (
    compile_sinks, run_job, source_stage_rows)
from pyflink_on_spark.specs.operators import KeyedProcessSpec, ReduceSpec
from pyflink_on_spark.specs.partitioning import KeyedPartitioning
from pyflink_on_spark.specs.sinks import CollectSinkSpec
from pyflink_on_spark.specs.stage import ExitSpec


def _keyed_job(values, spec_of, mode="BATCH", parallelism=1, key_type=None):
    src = SourceTransformation(name="Source", source=collection_source(values))
    src.parallelism = 1
    selector = wrap_key_selector(lambda x: x[0])
    keyed = PartitionTransformation(name="Keyed", input=src, partitioning=KeyedPartitioning(
        selector, key_type))
    op = OneInputTransformation(name="op", input=keyed, spec=spec_of(selector))
    op.parallelism = parallelism
    sink = SinkTransformation(name="Collect", input=op, spec=CollectSinkSpec())
    sink.parallelism = parallelism
    return compile_sinks([sink], parallelism=parallelism, mode=mode), sink


class CountAndTime(KeyedProcessFunction):
    """Counts per key in ValueState, fires an event-time timer per key, and reports how many
    keys the state backend holds while it runs."""

    def open(self, ctx):
        self.count = ctx.get_state(ValueStateDescriptor("count", Types.INT()))

    def process_element(self, value, ctx):
        self.count.update((self.count.value() or 0) + 1)
        ctx.timer_service().register_event_time_timer(10)
        yield "%s:%d" % (value[0], self.count.value())

    def on_timer(self, timestamp, ctx):
        yield "timer %s count=%d" % (ctx.get_current_key(), self.count.value())


def test_batch_keyed_exchanges_are_key_sorted_and_streaming_ones_are_not():
    values = [("b", 1), ("a", 2)]
    batch, _ = _keyed_job(values, lambda s: KeyedProcessSpec(CountAndTime(), s))
    streaming, _ = _keyed_job(values, lambda s: KeyedProcessSpec(CountAndTime(), s),
                              mode="STREAMING")
    assert [e.sort_by_key for st in batch.stages for e in st.spec.exits if not e.to_driver] \
        == [True]
    assert [i.sorted_by_key for st in batch.stages for i in st.spec.inputs] == [True]
    assert not any(e.sort_by_key for st in streaming.stages for e in st.spec.exits)


def test_keys_are_processed_one_after_another_in_batch_order_with_their_timers():
    job, sink = _keyed_job([("b", 1), ("a", 2), ("b", 3), ("cc", 4), ("a", 5)],
                           lambda s: KeyedProcessSpec(CountAndTime(), s))
    # untyped keys sort by their pickled bytes, length first: "a", "b", then "cc"
    assert run_job(job)[sink.id] == [
        "a:1", "a:2", "timer a count=2", "b:1", "b:2", "timer b count=2",
        "cc:1", "timer cc count=1"]


def test_batch_reduce_emits_each_keys_final_value_in_key_order():
    job, sink = _keyed_job([("b", 1), ("a", 2), ("b", 3), ("a", 4)],
                           lambda s: ReduceSpec(wrap_reduce(lambda x, y: (x[0], x[1] + y[1])),
                                                s), key_type=Types.STRING())
    assert run_job(job)[sink.id] == [("a", 6), ("b", 4)]


def _collector(key_type=None, parallelism=1):
    spec = ExitSpec(edge_id=3, source=1, side_tag=None,
                    partitioning=KeyedPartitioning(wrap_key_selector(lambda x: x[0]), key_type),
                    target_parallelism=parallelism, target_max_parallelism=128,
                    sort_by_key=True)
    rows = []
    return KeySortedExitCollector(spec, 0, 1, rows, lambda e: e), rows


def test_the_exit_writes_one_group_per_key_sorted_by_timestamp():
    collector, rows = _collector(Types.STRING())
    for value, ts in [(("b", 1), 5), (("a", 2), 7), (("b", 3), 5), (("a", 4), 6)]:
        collector.process_element(value, ts)
    collector.flush()
    # two small groups: one key run, its order its first group's, a group's order its
    # first record's key and timestamp
    assert len(rows) == 1 and rows[0][4] == KIND_KEY_RUN
    groups = [group for _, group in merged_groups(route(rows, 1)[0])]
    assert row_order(rows[0]) == groups[0][0] == sorted_record_order(
        batch_key_order(Types.STRING())("a"), 6)
    # each group carries its records' one key, as the key selector computed it
    assert [tuple(g[1:]) for g in groups] == [
        ([("a", 4), ("a", 2)], [6, 7], "a"), ([("b", 1), ("b", 3)], [5, 5], "b")]
    key = batch_key_order(Types.STRING())
    assert [key_of_order(g[0]) for g in groups] == [key("a"), key("b")]


def test_rows_without_timestamps_come_before_timestamped_ones_of_the_key():
    collector, rows = _collector()
    collector.process_element(("k", 1), 3)
    collector.process_element(("k", 2), None)
    collector.flush()
    assert [group[1] for _, group in merged_groups(route(rows, 1)[0])] == [
        [("k", 2)], [("k", 1)]]


def test_state_of_ended_keys_is_dropped_so_one_key_is_held_at_a_time():
    held = []

    class Holds(KeyedProcessFunction):
        def open(self, ctx):
            self.state = ctx.get_state(ValueStateDescriptor("v", Types.INT()))

        def process_element(self, value, ctx):
            self.state.update(value[1])
            yield value

    from pyflink_on_spark.runtime.task import StreamTask
    job, _ = _keyed_job([(k, i) for i, k in enumerate("abcdefabc")],
                        lambda s: KeyedProcessSpec(Holds(), s))
    source_stage, keyed_stage = job.stages
    rows = route(source_stage_rows(source_stage), 1)[0]
    consumer = StreamTask(keyed_stage.spec, 0)
    consumer.open()
    backend = consumer.head.backend
    for row in rows:
        consumer.process_rows([row[0]], [row[2]], [row[4]], [row[5]], [row_order(row)],
                              [row[3]])
        held.append(len(set(backend.keys_for_state("v"))))
    consumer.finish()
    assert max(held) == 1
    # one group per key (the source chunk held all nine records), in one key run
    assert [len(row_groups(row)) for row in rows] == [6]


def test_a_sorted_exit_sends_no_watermark_and_holds_its_records_past_one():
    # the reading task drops a sorted input's watermarks; a flush at each would cut a
    # key's records into pieces
    collector, rows = _collector(Types.STRING())
    collector.process_element(("b", 1), 5)
    collector.process_watermark(7)
    assert rows == []
    collector.process_element(("b", 2), 9)
    collector.flush()
    assert [(r[4], loads_records(r[5])[:2]) for r in route(rows, 1)[0]] == [
        (KIND_RECORDS, ([("b", 1), ("b", 2)], [5, 9]))]


def test_a_full_exit_sends_its_largest_keys_and_keeps_the_rare_ones_waiting(monkeypatch):
    from pyflink_on_spark.runtime.exits import key_sorted
    monkeypatch.setattr(key_sorted, "SORTED_RECORDS_HELD", 8)
    monkeypatch.setattr(key_sorted, "MARSHALLED_BYTES_HELD", 0)   # no room past the count
    collector, rows = _collector(Types.STRING())
    for value in [("a", 1), ("a", 2), ("a", 3), ("a", 4), ("a", 5), ("b", 1), ("a", 6)]:
        collector.process_element(value, None)
    assert rows == []
    collector.process_element(("c", 1), None)       # the eighth record: the exit is full
    assert [loads_records(r[5])[0] for r in rows] == [[("a", i) for i in range(1, 7)]]
    for value in [("b", 2), ("a", 7), ("a", 8)]:
        collector.process_element(value, None)
    collector.flush()
    assert [group[1] for _, group in merged_groups(route(rows, 1)[0])] == [
        [("a", i) for i in range(1, 7)], [("a", 7), ("a", 8)], [("b", 1), ("b", 2)],
        [("c", 1)]]


def test_a_bundle_end_sends_chunk_rows_but_not_key_sorted_ones():
    collector, rows = _collector(Types.STRING())
    collector.process_element(("a", 1), None)
    collector.end_bundle()          # the next stage cannot start before the input ends
    assert rows == []
    collector.flush()
    assert len(rows) == 1
    spec = ExitSpec(edge_id=3, source=1, side_tag=None,
                    partitioning=KeyedPartitioning(wrap_key_selector(lambda x: x[0]), None),
                    target_parallelism=1, target_max_parallelism=128)
    from pyflink_on_spark.runtime.exits import ExitCollector
    chunk_rows = []
    chunked = ExitCollector(spec, 0, 1, chunk_rows, lambda e: e)
    chunked.process_element(("a", 1), None)
    chunked.end_bundle()
    assert len(chunk_rows) == 1


def _reduce_job(values, reduce):
    return _keyed_job(values, lambda s: ReduceSpec(wrap_reduce(reduce), s),
                      key_type=Types.STRING())


def test_a_batch_reduce_folds_each_rows_run_in_one_call(monkeypatch):
    from pyflink_on_spark.runtime.adapters import ReduceAdapter
    calls = {"per record": 0, "runs": []}
    one_by_one, fold = ReduceAdapter.process_element, ReduceAdapter.fold_values

    def counted(self, value, ctx):
        calls["per record"] += 1
        return one_by_one(self, value, ctx)

    def counted_fold(self, current, values):
        calls["runs"].append(list(values))
        return fold(self, current, values)

    monkeypatch.setattr(ReduceAdapter, "process_element", counted)
    monkeypatch.setattr(ReduceAdapter, "fold_values", counted_fold)
    # the records themselves, not the source's fold of them (test_batch_reduce_leading_fold)
    from pyflink_on_spark.graph import compile as compile_module
    monkeypatch.setattr(compile_module, "_leading_fold", lambda edge, edges: None)
    job, sink = _reduce_job([("b", 1), ("a", 2), ("b", 3), ("a", 4), ("a", 5)],
                            lambda x, y: (x[0], x[1] + y[1]))
    assert run_job(job)[sink.id] == [("a", 11), ("b", 4)]
    # one row per key (the source's chunk held every record), each folded in one call
    assert calls == {"per record": 0, "runs": [[("a", 2), ("a", 4), ("a", 5)],
                                               [("b", 1), ("b", 3)]]}


def test_a_reduce_returning_none_starts_again_as_one_by_one_does():
    # one record at a time, a None result leaves no value: the next record starts afresh
    def add_unless_three(x, y):
        total = x[1] + y[1]
        return None if total == 3 else (x[0], total)

    job, sink = _reduce_job([("a", 1), ("a", 2), ("a", 3), ("a", 4), ("b", 1), ("b", 2)],
                            add_unless_three)
    assert run_job(job)[sink.id] == [("a", 7)]


def test_a_reduce_that_raises_in_a_run_names_the_users_error():
    def fails(x, y):
        raise ValueError("reduce broke")

    job, _ = _reduce_job([("a", 1), ("a", 2)], fails)
    try:
        run_job(job)
    except Exception as e:    # the engine's user-error wrapper, the user's error as cause
        assert "reduce broke" in "%s %r" % (e, e.__cause__)
    else:
        raise AssertionError("the reduce's error was lost")


def test_only_the_plain_keyed_operator_takes_rows_as_runs():
    from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
    from pyflink_on_spark.runtime.window.operator import WindowOperator
    plain = KeyedProcessOperator(CountAndTime(), wrap_key_selector(lambda x: x[0]),
                                 batch_key_order=batch_key_order(None))
    plain.use_sorted_input()
    assert plain.process_key_run is not None
    assert WindowOperator.process_keyed is not KeyedProcessOperator.process_keyed
    window = WindowOperator.__new__(WindowOperator)
    window._batch_key_order = batch_key_order(None)
    window._element_logic = window._process    # prepare()'s general path
    window.use_sorted_input()
    assert window.process_key_run is None


def test_equal_keys_of_different_types_wait_in_slots_of_their_own():
    # 1, True and b"1"/"1" are different keys (1 == True in Python): each its own group
    collector, rows = _collector()
    for key in (1, True, "1", b"1", 1, True):
        collector.process_element((key, 0), None)
    collector.flush()
    keyed_rows = [group[1] for row in rows for group in row_groups(row)]
    assert sorted(map(len, keyed_rows)) == [1, 1, 2, 2]
    assert all(len({type(v[0]) for v in row}) == 1 for row in keyed_rows)


def _stamped_reduce_job(values, reduce):
    from pyflink_on_spark.common import WatermarkStrategy
    from pyflink_on_spark.common.watermark_strategy import TimestampAssigner
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.datastream.execution_mode import RuntimeExecutionMode

    class Stamps(TimestampAssigner):
        def extract_timestamp(self, value, record_timestamp):
            return value[2]
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.set_runtime_mode(RuntimeExecutionMode.BATCH)
    ds = env.from_collection(values).assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamps()))
    ds = ds.key_by(lambda v: v[0]).reduce(reduce)
    sink = SinkTransformation(name="Collect", input=ds._transformation, spec=CollectSinkSpec())
    sink.parallelism = 1
    return compile_sinks([sink], parallelism=1, mode="BATCH"), sink


def test_a_batch_reduce_folds_stamped_records_by_timestamp_and_restarts_after_none():
    # the key's value is folded in a local, record by record for stamped records
    # (KeyedProcessOperator._fold_keyed); a reduce returning None starts the key again
    def reduce(a, b):
        if b[1] == 0:
            return None
        return (a[0], a[1] * 3 - b[1], b[2])
    values = [("b", 1, 5), ("a", 2, 9), ("b", 3, 2), ("a", 4, 1), ("a", 5, 4), ("c", 7, 1),
              ("c", 0, 3), ("d", 1, 1), ("d", 0, 2), ("d", 6, 3)]
    job, sink = _stamped_reduce_job(values, reduce)

    def expected(key):
        current = None
        for value in sorted((v for v in values if v[0] == key), key=lambda v: v[2]):
            current = value if current is None else reduce(current, value)
        return current
    assert run_job(job)[sink.id] == [expected(k) for k in "abd"]   # c's value is None
    assert expected("a") == ("a", (4 * 3 - 5) * 3 - 2, 9)
