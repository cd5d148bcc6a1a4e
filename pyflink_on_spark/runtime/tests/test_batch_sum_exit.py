"""BATCH mode into a rolling aggregation over a tuple index (sum, min, max, min_by, max_by):
only each key's final result leaves it, so the key-sorted exit before it sends a partial
result of the records it holds (a combiner). The results are those of the record-by-record
path, every other record kind folded as it was."""
import pytest

from pyflink_on_spark.common import Row
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.execution_mode import RuntimeExecutionMode
from pyflink_on_spark.graph import compile as compile_module
from pyflink_on_spark.graph.transformations import SinkTransformation
from pyflink_on_spark.runtime.exits import KeySortedExitCollector
from pyflink_on_spark.runtime.boundary import KIND_KEY_RUN, KIND_RECORDS, loads_records
from pyflink_on_spark.runtime.key_runs import row_groups
from pyflink_on_spark.runtime.tests.engine_harness import (
    compile_sinks, run_job, source_stage_rows)
from pyflink_on_spark.specs.sinks import CollectSinkSpec


def _summed(values, position=1, parallelism=1, mode="BATCH", type_info=None,
            aggregation="sum"):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(parallelism)
    env.set_runtime_mode(RuntimeExecutionMode.BATCH if mode == "BATCH"
                         else RuntimeExecutionMode.STREAMING)
    ds = env.from_collection(values, type_info=type_info) \
        .map(lambda v: v, type_info).set_parallelism(parallelism) \
        .key_by(lambda v: v[0])
    ds = getattr(ds, aggregation)(position)
    sink = SinkTransformation(name="Collect", input=ds._transformation, spec=CollectSinkSpec())
    sink.parallelism = 1
    job = compile_sinks([sink], parallelism=parallelism, mode=mode)
    return job, sink


def _run_both(monkeypatch, *args, **kwargs):
    """(with partial sums, record by record): the job's results both ways."""
    job, sink = _summed(*args, **kwargs)
    combined = run_job(job)[sink.id]
    monkeypatch.setattr(compile_module, "_partial_aggregation", lambda edge: None)
    job, sink = _summed(*args, **kwargs)
    return combined, run_job(job)[sink.id]


def test_the_exit_into_a_batch_sum_sends_one_partial_sum_per_key():
    values = [("a", 1, "first a"), ("b", 2, "first b"), ("a", 3, "x"), ("a", 4, "y")]
    job, sink = _summed(values)
    assert [e.partial_aggregation for st in job.stages for e in st.spec.exits
            if not e.to_driver] == [("SUM", 1, False)]
    groups = [group for r in source_stage_rows(job.stages[0])
              if r[4] in (KIND_RECORDS, KIND_KEY_RUN) for group in row_groups(r)]
    assert sorted(group[1] for group in groups) == [[("a", 8, "first a")],
                                                    [("b", 2, "first b")]]
    assert run_job(job)[sink.id] == [("a", 8, "first a"), ("b", 2, "first b")]


def test_streaming_mode_sends_every_record():
    job, _ = _summed([("a", 1)], mode="STREAMING")
    assert not any(e.partial_aggregation is not None
                   for st in job.stages for e in st.spec.exits)


@pytest.mark.parametrize("values", [
    # words counted by two upstream subtasks
    [("w%d" % (i % 7), 1) for i in range(100)],
    # floats and ints: the same additions in the same order (two upstream subtasks: only
    # subtask 0 sums floats, (1e16 + 1.0) + 1.0 is not 1e16 + (1.0 + 1.0))
    [("k", 0.1), ("k", 0.2), ("k", 3), ("j", 1e16), ("j", 1.0), ("j", -1e16)],
    [("j", 1e16)] + [("j", 1.0)] * 20,
    # a bool field, a str field, a list record: they stop a key's partial sum, and what
    # follows waits as it is
    [("a", 1), ("a", 2), ("a", True), ("a", 5), ("b", "x"), ("b", "y")],
    [("a", 1), ["a", 2], ("a", 3)],
    # ties and NaN: the first extreme is kept; a NaN stops the key's partial result (its
    # comparisons depend on the order of folding)
    [("a", 3, "first"), ("a", 1, "second"), ("a", 1, "third"), ("a", 3, "fourth"),
     ("b", 2.0, "x"), ("b", float("nan"), "y"), ("b", 1.0, "z"), ("b", 5, "w")],
])
@pytest.mark.parametrize("parallelism", [1, 2])
@pytest.mark.parametrize("aggregation", ["sum", "min", "max", "min_by", "max_by"])
def test_partial_results_give_what_the_record_by_record_fold_gives(monkeypatch, values,
                                                                   parallelism, aggregation):
    if aggregation != "sum" and any(type(v[1]) is str for v in values):
        values = [v for v in values if type(v[1]) is not str]
    combined, one_by_one = _run_both(monkeypatch, values, parallelism=parallelism,
                                     aggregation=aggregation)
    assert repr(combined) == repr(one_by_one)   # repr: a NaN result equals itself
    assert [type(v) for v in combined] == [type(v) for v in one_by_one]


def test_rows_are_not_combined_and_keep_their_fields(monkeypatch):
    values = [Row(k="a", n=1), Row(k="a", n=2)]
    row_type = Types.ROW_NAMED(["k", "n"], [Types.STRING(), Types.INT()])
    combined, one_by_one = _run_both(monkeypatch, values, type_info=row_type)
    assert combined == one_by_one == [Row(k="a", n=3)]


def test_a_record_without_the_summed_field_still_fails_in_the_sum(monkeypatch):
    from pyflink_on_spark.runtime.errors import UserFunctionError
    job, _ = _summed([("a", 1), ("a",)], position=1)
    with pytest.raises(UserFunctionError) as failure:
        run_job(job)
    assert "the aggregation's field 1 is not in the record ('a',)" in str(failure.value)


@pytest.mark.parametrize("aggregation, expected", [
    ("min", [("a", 1, "first")]), ("max", [("a", 5, "first")]),
    ("min_by", [("a", 1, "second")]), ("max_by", [("a", 5, "third")]),
])
def test_the_exit_into_a_batch_min_or_max_sends_one_partial_result_per_key(aggregation,
                                                                            expected):
    values = [("a", 3, "first"), ("a", 1, "second"), ("a", 5, "third"), ("a", 1, "fourth"),
              ("a", 5, "fifth")]
    job, sink = _summed(values, aggregation=aggregation)
    rows = [r for r in source_stage_rows(job.stages[0]) if r[4] == KIND_RECORDS]
    assert [loads_records(r[5])[0] for r in rows] == [expected]
    assert run_job(job)[sink.id] == expected


@pytest.mark.parametrize("aggregation, type_info, every_subtask", [
    ("sum", None, False),
    ("sum", Types.TUPLE([Types.STRING(), Types.DOUBLE()]), False),
    ("sum", Types.TUPLE([Types.STRING(), Types.LONG()]), True),
    ("sum", Types.TUPLE([Types.STRING(), Types.INT()]), True),
    ("min", None, True), ("max_by", Types.TUPLE([Types.STRING(), Types.DOUBLE()]), True),
])
def test_a_sum_is_partial_on_every_subtask_only_over_a_declared_integral_field(
        monkeypatch, aggregation, type_info, every_subtask):
    values = [("k%d" % (i % 3), i) for i in range(60)] if type_info is None or \
        type_info.get_field_types()[1] != Types.DOUBLE() else \
        [("k%d" % (i % 3), i / 7) for i in range(60)]
    job, _ = _summed(values, parallelism=2, type_info=type_info, aggregation=aggregation)
    exit_spec, = [e for st in job.stages for e in st.spec.exits if e.sort_by_key]
    assert exit_spec.partial_aggregation[2] is every_subtask
    sent = []
    for subtask in (0, 1):   # what each upstream subtask's exit sends of the same records
        rows = []
        collector = KeySortedExitCollector(exit_spec, subtask, 2, rows, lambda e: e)
        collector.process_many(values, None)
        collector.flush()
        sent.append(sum(len(group[1]) for r in rows if r[4] in (KIND_RECORDS, KIND_KEY_RUN)
                        for group in row_groups(r)))
    assert sent == [3, 3 if every_subtask else 60]
    combined, one_by_one = _run_both(monkeypatch, values, parallelism=2, type_info=type_info,
                                     aggregation=aggregation)
    assert combined == one_by_one
