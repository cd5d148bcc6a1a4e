"""BATCH mode into a keyed two-input operator: both inputs arrive sorted by key (as Flink's
sort-based batch runtime sorts them), the operator holds one key's records of both inputs
at a time and merges them as the buffered path did; the inputs' record counts, which decide
the first tie, arrive before the first key."""
import cloudpickle

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.functions import CoMapFunction, KeyedCoProcessFunction
from pyflink_on_spark.datastream.state import ValueStateDescriptor
from pyflink_on_spark.direct.exchange import route
from pyflink_on_spark.graph.transformations import SinkTransformation
from pyflink_on_spark.runtime.batch_order import ORDER_BEFORE_RECORDS
from pyflink_on_spark.runtime.boundary import KIND_RECORD_COUNT, loads_records, row_order
from pyflink_on_spark.runtime.task import StreamTask
from pyflink_on_spark.runtime.tests.engine_harness import (
    compile_sinks, run_job, source_stage_rows)
from pyflink_on_spark.specs.sinks import CollectSinkSpec


class Tag(CoMapFunction):
    def map1(self, value):
        return "L" + value

    def map2(self, value):
        return "R" + value


def _job(ds, parallelism=1):
    sink = SinkTransformation(name="Collect", input=ds._transformation, spec=CollectSinkSpec())
    sink.parallelism = parallelism
    return compile_sinks([sink], parallelism=parallelism, mode="BATCH"), sink


def _connected(env, left, right, key_type=Types.STRING(), key_type2="same"):
    a = env.from_collection(left, type_info=Types.STRING())
    b = env.from_collection(right, type_info=Types.STRING())
    if key_type2 == "same":
        return a.connect(b).key_by(lambda x: x[0], lambda x: x[0], key_type=key_type)
    return a.key_by(lambda x: x[0], key_type=key_type).connect(
        b.key_by(lambda x: x[0], key_type=key_type2))


def test_both_inputs_of_a_keyed_two_input_operator_are_key_sorted_with_counts(env):
    job, _ = _job(_connected(env, ["a1"], ["a2"]).map(Tag(), Types.STRING()))
    exits = [e for st in job.stages for e in st.spec.exits if not e.to_driver]
    assert [(e.sort_by_key, e.counts_records) for e in exits] == [(True, True), (True, True)]
    assert [i.sorted_by_key for st in job.stages for i in st.spec.inputs] == [True, True]


def test_inputs_keyed_by_other_key_types_keep_the_buffered_path(env):
    # the key orders of the two inputs would differ: the operator groups them itself
    ds = _connected(env, ["a1", "b1"], ["b2", "a2"], Types.STRING(), None).map(Tag())
    job, sink = _job(ds)
    assert not any(e.sort_by_key for st in job.stages for e in st.spec.exits)
    assert run_job(job)[sink.id] == ["La1", "Ra2", "Lb1", "Rb2"]


def test_a_sorted_exit_into_two_inputs_sends_each_destination_its_record_count(env):
    job, _ = _job(_connected(env, ["a1", "b1", "a2"], ["c1"]).map(Tag()))
    source_stage = [st for st in job.stages if st.source is not None][0]
    rows = source_stage_rows(source_stage)
    counts = [r for r in rows if r[4] == KIND_RECORD_COUNT]
    assert len(counts) == 1 and row_order(counts[0]) == ORDER_BEFORE_RECORDS
    assert cloudpickle.loads(counts[0][5]) in (3, 1)   # this source's input
    # the count row is the first the consumer reads, before every record row
    assert route(rows, 1)[0][0][4] == KIND_RECORD_COUNT


def test_the_counts_of_every_upstream_subtask_decide_the_first_tie(env, monkeypatch):
    # input 1 has 5 records and input 2 has 4, each sent by two subtasks (3 + 2 and 2 + 2):
    # only the sums say that input 2 is the shorter, which wins the first tie
    from pyflink_on_spark.graph import compile as compile_module

    def run():
        a = env.from_collection(["a1", "b1", "a2", "b2", "a3"], type_info=Types.STRING()) \
            .map(lambda x: x, Types.STRING()).set_parallelism(2)
        b = env.from_collection(["a9", "b9", "a8", "b8"], type_info=Types.STRING()) \
            .map(lambda x: x, Types.STRING()).set_parallelism(2)
        ds = a.connect(b).key_by(lambda x: x[0], lambda x: x[0], key_type=Types.STRING()) \
            .map(Tag(), Types.STRING())
        job, sink = _job(ds)
        return run_job(job)[sink.id]

    out = run()
    assert out[0] == "Ra9" and len(out) == 9
    monkeypatch.setattr(compile_module, "_keyed_two_input_sorts", lambda *args: False)
    assert run() == out


class HeldKeys(KeyedCoProcessFunction):
    """Counts per key in state and reports how many keys the backend holds as it runs."""

    def open(self, ctx):
        self.count = ctx.get_state(ValueStateDescriptor("n", Types.INT()))

    def _count(self, value, ctx):
        self.count.update((self.count.value() or 0) + 1)
        yield "%s %d" % (value, self.count.value())

    def process_element1(self, value, ctx):
        yield from self._count(value, ctx)

    def process_element2(self, value, ctx):
        yield from self._count(value, ctx)


def test_one_key_of_both_inputs_is_held_at_a_time(env):
    left = ["%s%d" % (k, i) for i in range(3) for k in "abcd"]
    right = ["%s9" % k for k in "dcba"]
    job, _ = _job(_connected(env, left, right).process(HeldKeys(), Types.STRING()))
    source_stages = [st for st in job.stages if st.source is not None]
    keyed_stage = [st for st in job.stages if st.source is None][0]
    rows = [row for stage in source_stages for row in source_stage_rows(stage)]
    consumer = StreamTask(keyed_stage.spec, 0)
    consumer.open()
    head = consumer.head
    held_keys, held_records = [], []
    for row in route(rows, 1)[0]:
        consumer.process_rows([row[0]], [row[2]], [row[4]], [row[5]], [row_order(row)])
        held_keys.append(len(set(head.backend.keys_for_state("n"))))
        held_records.append(sum(map(len, head._key_inputs)))
    consumer.finish()
    # the records of one key (3 + 1) wait for the key's end; the state of ended keys is gone
    assert max(held_records) == 4 and max(held_keys) <= 1
    out = [v for r in consumer.take_rows() for v in loads_records(r[5])[0]]
    # key by key; the shorter input (2) wins the first tie, and after input 1's tail the
    # turn is input 2's again, key after key
    assert out == ["%s%s %d" % (k, i, n + 1) for k in "abcd"
                   for n, i in enumerate("9012")]


def test_the_sorted_path_gives_what_the_buffered_path_gives(env, monkeypatch):
    from pyflink_on_spark.common.watermark_strategy import TimestampAssigner, WatermarkStrategy
    from pyflink_on_spark.graph import compile as compile_module

    class Stamp(TimestampAssigner):
        def extract_timestamp(self, value, record_timestamp):
            return int(value[1:]) % 4

    def stamped(values):
        return env.from_collection(values, type_info=Types.STRING()) \
            .assign_timestamps_and_watermarks(
                WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp()))

    def run():
        left = stamped(["%s%d" % (k, i) for i in range(7) for k in "xyz"])
        right = stamped(["%s%d" % (k, i) for i in range(5, 0, -1) for k in "zyx"])
        ds = left.connect(right).key_by(lambda v: v[0], lambda v: v[0]) \
            .process(HeldKeys(), Types.STRING())
        job, sink = _job(ds)
        return job, run_job(job)[sink.id]

    sorted_job, sorted_out = run()
    monkeypatch.setattr(compile_module, "_keyed_two_input_sorts", lambda *args: False)
    buffered_job, buffered_out = run()
    assert any(e.sort_by_key for st in sorted_job.stages for e in st.spec.exits)
    assert not any(e.sort_by_key for st in buffered_job.stages for e in st.spec.exits)
    assert sorted_out == buffered_out and len(sorted_out) == 36
