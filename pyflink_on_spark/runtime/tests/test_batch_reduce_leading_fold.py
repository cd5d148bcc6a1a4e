"""BATCH mode into a keyed reduce: the reduce reads a key's rows from upstream subtask 0
first, so subtask 0's exit sends the left fold of the key's records it saw, one record
instead of all (graph/compile.py _leading_fold, runtime/exits/key_sorted.py). The results are those
of the reduce folding every record itself, for any reduce function: the order of the fold
is the same."""
import pytest

from pyflink_on_spark.common import Row
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import ReduceFunction, StreamExecutionEnvironment
from pyflink_on_spark.datastream.execution_mode import RuntimeExecutionMode
from pyflink_on_spark.direct.exchange import source_split_rows
from pyflink_on_spark.graph import compile as compile_module
from pyflink_on_spark.graph.transformations import SinkTransformation
from pyflink_on_spark.runtime.exits import key_sorted
from pyflink_on_spark.runtime.boundary import KIND_KEY_RUN, KIND_RECORDS, loads_records, row_order
from pyflink_on_spark.runtime.key_runs import merged_groups, row_groups
from pyflink_on_spark.runtime.errors import UserFunctionError
from pyflink_on_spark.runtime.task import StreamTask
from pyflink_on_spark.runtime.tests.engine_harness import compile_sinks, run_job
from pyflink_on_spark.specs.sinks import CollectSinkSpec


def not_associative(a, b):
    return (a[0], a[1] * 3 - b[1])


def _reduced(values, reduce=not_associative, parallelism=2, mode="BATCH", key=None,
             type_info=None, union=False, timestamps=None, collection_type=True,
             parallel_source=False):
    """parallel_source: the values come from a number sequence read by `parallelism`
    subtasks (from_collection's one subtask leaves the map behind it at 1 in BATCH mode:
    adaptive parallelism of a small input), so the reduce has as many upstream subtasks."""
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(parallelism)
    env.set_runtime_mode(RuntimeExecutionMode.BATCH if mode == "BATCH"
                         else RuntimeExecutionMode.STREAMING)
    if parallel_source:
        from pyflink_on_spark.common import WatermarkStrategy
        from pyflink_on_spark.datastream.connectors.number_seq import NumberSequenceSource
        ds = env.from_source(NumberSequenceSource(0, len(values) - 1),
                             WatermarkStrategy.no_watermarks(), "numbers") \
            .map(lambda i: values[i], type_info)
    else:
        ds = env.from_collection(values, type_info=type_info if collection_type else None)
    if timestamps is not None:
        from pyflink_on_spark.common import WatermarkStrategy
        from pyflink_on_spark.common.watermark_strategy import TimestampAssigner

        class Stamps(TimestampAssigner):
            def extract_timestamp(self, value, record_timestamp):
                return timestamps(value)
        ds = ds.assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamps()))
    ds = ds.map(lambda v: v, type_info)
    if union:
        ds = ds.union(env.from_collection(values[:3], type_info=type_info).map(lambda v: v,
                                                                                type_info))
    ds = ds.key_by(key or (lambda v: v[0])).reduce(reduce)
    sink = SinkTransformation(name="Collect", input=ds._transformation, spec=CollectSinkSpec())
    sink.parallelism = 1
    return compile_sinks([sink], parallelism=parallelism, mode=mode), sink


def _run_both(monkeypatch, *args, **kwargs):
    """(with the fold, without it): the job's results both ways."""
    job, sink = _reduced(*args, **kwargs)
    if kwargs.get("parallel_source"):   # as many upstream subtasks as asked for
        assert job.stages[0].spec.parallelism == kwargs.get(
            "parallelism", args[2] if len(args) > 2 else 2)
    assert any(e.leading_fold is not None for st in job.stages for e in st.spec.exits)
    folded = run_job(job).get(sink.id, [])     # (a sink given nothing is not there)
    monkeypatch.setattr(compile_module, "_leading_fold", lambda edge, edges: None)
    job, sink = _reduced(*args, **kwargs)
    return folded, run_job(job).get(sink.id, [])


def _exit_records(job, subtask):
    """What upstream `subtask` of the first stage sends on: its records, group by group
    (a group: one key's records in a row, or in a key run)."""
    stage = job.stages[0]
    task = StreamTask(stage.spec, subtask)
    task.open()
    splits = source_split_rows(stage.source.splits)
    task.process_rows([r[0] for r in splits], [r[2] for r in splits], [r[4] for r in splits],
                      [r[5] for r in splits], [row_order(r) for r in splits])
    task.finish()
    return [group[1] for row in task.take_rows() if row[4] in (KIND_RECORDS, KIND_KEY_RUN)
            for group in row_groups(row)]


def test_upstream_subtask_0_sends_one_folded_record_per_key_and_the_others_every_record():
    values = [("a", 1), ("b", 2), ("a", 3), ("a", 4), ("b", 5)]
    job, sink = _reduced(values, parallelism=1)
    assert sorted(_exit_records(job, 0)) == [[("a", (1 * 3 - 3) * 3 - 4)], [("b", 1)]]
    assert sorted(run_job(job)[sink.id]) == [("a", -4), ("b", 1)]
    job, _ = _reduced(values)
    assert sorted(v for row in _exit_records(job, 1) for v in row) == sorted(values)


@pytest.mark.parametrize("values, key, type_info", [
    # str keys from two upstream subtasks, many records each
    ([("w%d" % (i % 7), i) for i in range(200)], None, None),
    # int keys, a declared type (the marshalled path of the other subtasks)
    ([(i % 5, i) for i in range(100)], None, Types.TUPLE([Types.LONG(), Types.LONG()])),
    # flat tuple keys are folded too, (1, "x") and (True, "x") apart; nested ones are not
    ([((i % 3, "x"), i) for i in range(30)], None, None),
    ([((i % 2, "x"), i) for i in range(20)] + [((True, "x"), 7), ((1.0, "x"), 8),
                                              (((1,), "x"), 9), (((True,), "x"), 10)] * 3,
     None, None),
    ([(True, 1), (1, 2), (True, 3), (1, 4), (False, 5)], None, None),
    # values that are not marshal-safe
    ([("k", [i]) for i in range(20)], None, None),
])
@pytest.mark.parametrize("parallelism", [1, 2])
@pytest.mark.parametrize("parallel_source", [False, True])
def test_results_are_those_of_the_reduce_folding_every_record(monkeypatch, values, key,
                                                              type_info, parallelism,
                                                              parallel_source):
    def reduce(a, b):
        if isinstance(a[1], list):
            return (a[0], a[1] + b[1])
        return (a[0], a[1] * 3 - b[1])
    folded, one_by_one = _run_both(monkeypatch, values, reduce, parallelism, key=key,
                                   type_info=type_info, parallel_source=parallel_source)
    assert repr(sorted(folded, key=repr)) == repr(sorted(one_by_one, key=repr))
    assert len(folded) == len({repr(v[0]) for v in values})   # (1, "x") and (True, "x") too


def _add_third(a, b):
    return (a[0], a[1], a[2] * 3 - b[2])


def test_tuple_keys_are_folded_by_subtask_0():
    values = [(i % 4, "r%d" % (i % 2), i) for i in range(40)]
    type_info = Types.TUPLE([Types.LONG(), Types.STRING(), Types.LONG()])
    job, _ = _reduced(values, _add_third, parallelism=1, key=lambda v: (v[0], v[1]),
                      type_info=type_info)
    assert [len(row) for row in _exit_records(job, 0)] == [1, 1, 1, 1]   # one fold a key


@pytest.mark.parametrize("parallelism", [1, 2])
def test_tuple_keys_of_a_declared_type_are_folded_and_marshalled(monkeypatch, parallelism):
    # (id, region) keys over (id, region, amount) records of a declared type: subtask 0
    # folds, the other subtask's exact records wait marshalled
    values = [(i % 4, "r%d" % (i % 2), i) for i in range(80)]
    type_info = Types.TUPLE([Types.LONG(), Types.STRING(), Types.LONG()])
    folded, one_by_one = _run_both(monkeypatch, values, _add_third, parallelism,
                                   key=lambda v: (v[0], v[1]), type_info=type_info)
    assert sorted(folded, key=repr) == sorted(one_by_one, key=repr)
    assert len(folded) == 4


def test_a_reduce_returning_none_starts_the_key_again(monkeypatch):
    def reset_on_three(a, b):
        return None if b[1] == 3 else (a[0], a[1] - b[1])
    values = [("a", i) for i in range(1, 9)] + [("b", 3), ("b", 4)]
    folded, one_by_one = _run_both(monkeypatch, values, reset_on_three, 1)
    assert folded == one_by_one == [("a", 4 - 5 - 6 - 7 - 8), ("b", 3 - 4)]


def test_records_with_timestamps_long_min_value_among_them(monkeypatch):
    # Long.MIN_VALUE sorts with the records without timestamp: the fold leaves before them
    values = [("a", 1, 5), ("a", 2, -(1 << 63)), ("a", 3, 7), ("b", 4, 1), ("a", 5, 2)]
    no_stamps = run_job(_reduced([v[:2] for v in values], parallelism=1)[0])
    folded, one_by_one = _run_both(monkeypatch, values, parallelism=1,
                                   timestamps=lambda v: v[2])
    assert folded == one_by_one
    assert list(no_stamps.values())[0] != folded    # the timestamps did order the records


def test_tuple_keys_with_timestamps_long_min_value_among_them(monkeypatch):
    values = [(("a", 1), 1, 5), (("a", 1), 2, -(1 << 63)), (("a", 1), 3, 7), (("b", 1), 4, 1),
              (("a", 1), 5, 2), ((True, 1), 6, 3), ((1, 1), 7, -(1 << 63))]
    folded, one_by_one = _run_both(monkeypatch, values, parallelism=1,
                                   timestamps=lambda v: v[2])
    assert folded == one_by_one


def test_a_full_exit_closes_folding_and_the_results_stay(monkeypatch):
    monkeypatch.setattr(key_sorted, "SORTED_RECORDS_HELD", 8)
    # four keys fold five records each; ten other keys fill the exit, whose folds leave;
    # the four keys' next records must not start a second fold (it would be reduced
    # with the first)
    values = [("k%d" % (i % 4), i) for i in range(20)] + [("d%d" % i, i) for i in range(10)] \
        + [("k%d" % (i % 4), i) for i in range(20, 40)]
    job, _ = _reduced(values, parallelism=1)
    rows = _exit_records(job, 0)
    first, *later = [row for row in rows if row[0][0] == "k0"]
    assert first == [("k0", (((0 * 3 - 4) * 3 - 8) * 3 - 12) * 3 - 16)]
    assert [v for row in later for v in row] == [("k0", i) for i in range(20, 40, 4)]
    folded, one_by_one = _run_both(monkeypatch, values, parallelism=1)
    assert sorted(folded) == sorted(one_by_one)


def test_only_a_batch_reduce_with_one_input_and_no_open_of_its_own_is_folded():
    def leading(job):
        return [e.leading_fold for st in job.stages for e in st.spec.exits if not e.to_driver]
    values = [("a", 1), ("a", 2)]
    assert all(f is None for f in leading(_reduced(values, mode="STREAMING")[0]))
    assert all(f is None for f in leading(_reduced(values, union=True)[0]))

    class Opened(ReduceFunction):
        def open(self, runtime_context):
            self.factor = 3

        def reduce(self, a, b):
            return (a[0], a[1] * self.factor - b[1])
    assert leading(_reduced(values, Opened())[0]) == [None]

    class Plain(ReduceFunction):
        def reduce(self, a, b):
            return (a[0], a[1] - b[1])
    fold, = leading(_reduced(values, Plain())[0])
    assert fold.operator_name == "Reduce"


def test_an_error_in_the_folded_reduce_names_the_reduce_with_the_users_frame():
    def fails_on_three(a, b):
        if b[1] == 3:
            raise ValueError("no threes here")
        return (a[0], a[1] + b[1])
    job, _ = _reduced([("a", 1), ("a", 2), ("a", 3)], fails_on_three, parallelism=1)
    with pytest.raises(UserFunctionError) as failure:
        run_job(job)
    assert failure.value.operator_name == "Reduce"
    assert "no threes here" in str(failure.value)
    assert "fails_on_three" in failure.value.user_traceback


def test_a_record_stamped_long_min_value_makes_its_keys_fold_leave_before_it():
    from pyflink_on_spark.datastream.functions import wrap_key_selector, wrap_reduce
    from pyflink_on_spark.direct.exchange import route
    from pyflink_on_spark.specs.partitioning import KeyedPartitioning
    from pyflink_on_spark.specs.stage import ExitSpec, LeadingFold
    spec = ExitSpec(edge_id=3, source=1, side_tag=None,
                    partitioning=KeyedPartitioning(wrap_key_selector(lambda v: v[0]),
                                                   Types.STRING()),
                    target_parallelism=1, target_max_parallelism=128, sort_by_key=True,
                    leading_fold=LeadingFold(wrap_reduce(not_associative), "Reduce"))
    rows = []
    collector = key_sorted.KeySortedExitCollector(spec, 0, 1, rows, lambda e: e)
    collector.process_many([("a", 1), ("a", 5), ("b", 3)], None)
    assert set(collector._folds) == {"a", "b"} and not rows
    collector.process_many([("a", 4)], key_sorted.LONG_MIN)
    # a's fold left at once, before the record's row (which an early flush could send
    # before the fold); no new fold starts
    assert [loads_records(r[5]) for r in rows] == [([("a", 1 * 3 - 5)], None, "a")]
    collector.process_many([("a", 6), ("c", 7)], None)
    assert set(collector._folds) == {"b"}
    collector.flush()
    # the order the reduce reads (a flush sends the records without timestamp first)
    read = [tuple(group[1:]) for _, group in merged_groups(route(rows, 1)[0])]
    assert read == [([("a", -2)], None, "a"), ([("a", 6)], None, "a"),
                    ([("a", 4)], [key_sorted.LONG_MIN], "a"), ([("b", 3)], None, "b"),
                    ([("c", 7)], None, "c")]


# Associative reduces (graph/associativity.py): every upstream subtask sends its fold

def _add(a, b):
    return (a[0], a[1] + b[1])


STR_LONG = Types.TUPLE([Types.STRING(), Types.LONG()])
STR_STR = Types.TUPLE([Types.STRING(), Types.STRING()])


def test_every_upstream_subtask_sends_one_fold_per_key_of_an_associative_reduce():
    values = [("w%d" % (i % 5), i) for i in range(60)]
    job, sink = _reduced(values, _add, type_info=STR_LONG)
    folds = [e.leading_fold for st in job.stages for e in st.spec.exits if not e.to_driver]
    assert [f.every_subtask for f in folds] == [True]
    for subtask in (0, 1):
        sent = _exit_records(job, subtask)
        assert sorted(len(group) for group in sent) == [1] * 5
    # the reduce folds the two subtasks' folds: the sums of all records
    assert sorted(run_job(job)[sink.id]) == sorted(
        ("w%d" % k, sum(i for i in range(60) if i % 5 == k)) for k in range(5))


def test_a_reduce_not_proved_associative_keeps_the_other_subtasks_records():
    values = [("w%d" % (i % 5), i) for i in range(60)]
    for reduce, type_info in ((not_associative, STR_LONG), (_add, None)):
        job, _ = _reduced(values, reduce, type_info=type_info)
        fold, = [e.leading_fold for st in job.stages for e in st.spec.exits if not e.to_driver]
        assert not fold.every_subtask
        assert sorted(len(group) for group in _exit_records(job, 0)) == [1] * 5
        # (_exit_records runs every split through the one subtask)
        assert sum(len(group) for group in _exit_records(job, 1)) == 60


@pytest.mark.parametrize("values, reduce, type_info, key", [
    ([("w%d" % (i % 7), i) for i in range(300)], _add, STR_LONG, None),
    # a concatenation is associative, not commutative: the order of the fold shows
    ([("k%d" % (i % 3), "s%d" % i) for i in range(90)], _add, STR_STR, None),
    ([("k%d" % (i % 3), "s%d" % i) for i in range(90)],
     lambda a, b: (a[0], b[1] + a[1]), STR_STR, None),
    ([(i % 4, i * 7 % 13) for i in range(120)],
     lambda a, b: (b[0], max(a[1], b[1])), Types.TUPLE([Types.LONG(), Types.LONG()]), None),
    # keep the last record
    ([("k%d" % (i % 3), i, "s%d" % i) for i in range(50)], lambda a, b: b,
     Types.TUPLE([Types.STRING(), Types.LONG(), Types.STRING()]), None),
    # the first or the last extreme record: ties show which
    ([("k%d" % (i % 3), i * 7 % 5, "t%d" % i) for i in range(90)],
     lambda a, b: a if a[1] >= b[1] else b,
     Types.TUPLE([Types.STRING(), Types.LONG(), Types.STRING()]), None),
    ([("k%d" % (i % 3), i * 7 % 5, "t%d" % i) for i in range(90)],
     lambda a, b: b if a[1] > b[1] else a,
     Types.TUPLE([Types.STRING(), Types.LONG(), Types.STRING()]), None),
    # PyFlink's Row, by name and by position
    ([Row(user="u%d" % (i % 4), amount=i) for i in range(80)],
     lambda a, b: Row(user=a.user, amount=a.amount + b.amount),
     Types.ROW_NAMED(["user", "amount"], [Types.STRING(), Types.LONG()]), None),
    ([Row("u%d" % (i % 4), "s%d" % i) for i in range(80)],
     lambda a, b: Row(a[0], b[1] + a[1]), Types.ROW([Types.STRING(), Types.STRING()]), None),
    # flat tuple keys
    ([(i % 4, "r%d" % (i % 2), i) for i in range(80)],
     lambda a, b: (a[0], a[1], a[2] + b[2]),
     Types.TUPLE([Types.LONG(), Types.STRING(), Types.LONG()]), lambda v: (v[0], v[1])),
])
@pytest.mark.parametrize("parallelism", [2, 3])
def test_folds_of_every_subtask_give_the_results_of_the_reduce_folding_every_record(
        monkeypatch, values, reduce, type_info, key, parallelism):
    job, _ = _reduced(values, reduce, parallelism, key=key, type_info=type_info,
                      parallel_source=True)
    fold, = [e.leading_fold for st in job.stages for e in st.spec.exits if e.sort_by_key]
    assert fold.every_subtask
    folded, one_by_one = _run_both(monkeypatch, values, reduce, parallelism, key=key,
                                   type_info=type_info, parallel_source=True)
    assert sorted(folded, key=repr) == sorted(one_by_one, key=repr)


def test_every_subtask_folds_with_timestamps_long_min_value_among_the_records(monkeypatch):
    values = [("a", "x%d" % i, [5, -(1 << 63), 7, 2][i % 4]) for i in range(40)] \
        + [("b", "y%d" % i, 1) for i in range(10)]
    type_info = Types.TUPLE([Types.STRING(), Types.STRING(), Types.LONG()])
    folded, one_by_one = _run_both(monkeypatch, values, lambda a, b: (a[0], a[1] + b[1], b[2]),
                                   2, type_info=type_info, timestamps=lambda v: v[2],
                                   parallel_source=True)
    assert folded == one_by_one


def test_an_error_in_another_subtask_s_fold_names_the_reduce_with_the_users_frame():
    # a ROW's field may be None (a record may not be)
    def add_amounts(a, b):
        return Row(user=a.user, amount=a.amount + b.amount)
    values = [Row(user="u", amount=1), Row(user="u", amount=None), Row(user="u", amount=3)]
    job, _ = _reduced(values, add_amounts, key=lambda r: r.user,
                      type_info=Types.ROW_NAMED(["user", "amount"],
                                                [Types.STRING(), Types.LONG()]))
    with pytest.raises(UserFunctionError) as failure:
        _exit_records(job, 1)
    assert failure.value.operator_name == "Reduce"
    assert "NoneType" in str(failure.value)
    assert "add_amounts" in failure.value.user_traceback


@pytest.mark.parametrize("values, reduce, type_info", [
    # keep the last: subtask 1's records end with None, so the key's value is None and it
    # leaves nothing; a fold of subtask 1 (None) left out would have left subtask 0's last
    (["x%d" % i for i in range(9)] + [None], lambda a, b: b, None),
    # a concatenation meeting a None record fails as the reduce does one by one; subtask
    # 1's fold, starting at its None, would have gone on without a call (as after a reduce
    # that returned None) and nothing would have failed
    (["x0", "x1", "x2", None, "y", "z"], lambda a, b: a + b, Types.STRING()),
])
def test_records_that_may_be_none_are_not_folded_by_the_other_subtasks(
        monkeypatch, values, reduce, type_info):
    def outcome():
        """The job's results, or that it failed on the None record."""
        job, sink = _reduced(values, reduce, key=lambda v: "k", type_info=type_info,
                             parallel_source=True)
        try:
            return run_job(job).get(sink.id, [])
        except UserFunctionError as failure:
            assert "NoneType" in str(failure)
            return "failed"
    job, _ = _reduced(values, reduce, key=lambda v: "k", type_info=type_info,
                      parallel_source=True)
    fold, = [e.leading_fold for st in job.stages for e in st.spec.exits if e.sort_by_key]
    assert not fold.every_subtask
    folded = outcome()
    monkeypatch.setattr(compile_module, "_leading_fold", lambda edge, edges: None)
    assert folded == outcome()
