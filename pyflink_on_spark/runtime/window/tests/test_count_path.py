"""Count windows' own path (WindowOperator._process_count_tumbling) against the general one
(_process with the assigner and the trigger called): the same outputs and the same state
left (as a checkpoint takes it), for random records of a few keys, every window function
kind, a CountTrigger of another size than the windows', both state backends; checkpoints
taken and restored along the way, also of counts out of step with the trigger's; and where
the path is not taken."""
import random
from types import SimpleNamespace

import pytest

from pyflink_on_spark.datastream.functions import AggregateFunction, ProcessWindowFunction
from pyflink_on_spark.datastream.window import (
    CountSlidingWindowAssigner, CountTrigger, CountTumblingWindowAssigner, CountWindow,
    PurgingTrigger)
from pyflink_on_spark.runtime.window.tests.window_harness import (
    Harness, aggregate_op, process_op, reduce_op)


class Sequence(AggregateFunction):
    def create_accumulator(self):
        return ()

    def add(self, value, accumulator):
        return accumulator + (value[1],)

    def get_result(self, accumulator):
        return list(accumulator)

    def merge(self, acc_a, acc_b):
        return acc_a + acc_b


class Elements(ProcessWindowFunction):
    def process(self, key, context, elements):
        yield key, repr(context.window()), [e[1] for e in elements]


def _concat(a, b):
    return a[0], "%s+%s" % (a[1], b[1])


def _operator(kind, size, **kw):
    assigner = CountTumblingWindowAssigner.of(size)
    if kind == "reduce":
        return reduce_op(assigner, _concat, **kw)
    if kind == "aggregate":
        return aggregate_op(assigner, Sequence(), **kw)
    return process_op(assigner, Elements(), **kw)


def _context(keep=None):
    return SimpleNamespace(store=None, version=1, state_id="window", subtask=0, keep=keep)


def _checkpoint(operator):
    """The operator's snapshot_state on the heap backend (its tables as a checkpoint takes
    them), else None."""
    if not hasattr(operator.backend, "export_tables"):
        return None
    return operator.snapshot_state(_context())


def _feed(h, rng, records, general):
    operator = h.operator
    at = 0
    while at < len(records):
        row = records[at:at + rng.randint(1, 9)]
        at += len(row)
        keys, values, stamps = [v[0] for v, _ in row], [v for v, _ in row], \
            [t for _, t in row]
        if general or rng.random() < 0.2:
            h.elements(row)
        elif all(t is None for t in stamps) and rng.random() < 0.5:
            operator.process_keyed_many(keys, values)
        else:
            operator.process_keyed_stamped_many(keys, values, stamps)


def _run(kind, size, seed, general, **kw):
    """Random records one by one (general: through _process), or in rows of 1-9 records
    through the task's calls (process_keyed_many without timestamps, else
    process_keyed_stamped_many) and some one by one (_process_count_tumbling)."""
    rng = random.Random(seed)
    h = Harness(_operator(kind, size, **kw.pop("op", {})), **kw)
    operator = h.operator
    if general:
        operator._element_logic = operator._process
    else:
        assert operator._element_logic == operator._process_count_tumbling
    records = [((rng.choice("abc"), step), rng.choice([None, step])) for step in range(80)]
    _feed(h, rng, records, general)
    tables = _checkpoint(operator)
    h.end()
    return h.out, tables


@pytest.mark.parametrize("kind", ["reduce", "aggregate", "process"])
@pytest.mark.parametrize("size,trigger_size", [(1, None), (3, None), (4, 2), (3, 1)])
def test_the_count_path_leaves_what_the_general_path_leaves(kind, size, trigger_size):
    op = {} if trigger_size is None else {"trigger": CountTrigger.of(trigger_size)}
    fired = 0
    for seed in range(5):
        fast = _run(kind, size, seed, False, op=op)
        assert fast == _run(kind, size, seed, True, op=op)
        fired += len(fast[0])
    assert fired > 20


def test_the_count_path_on_rocksdb(tmp_path):
    fast = _run("reduce", 3, 7, False, state_backend="rocksdb", work_dir=str(tmp_path / "a"))
    assert fast[0] and fast == _run("reduce", 3, 7, True, state_backend="rocksdb",
                                    work_dir=str(tmp_path / "b"))


def _restored(kind, size, snapshot, general, **kw):
    h = Harness(_operator(kind, size, **kw))
    if general:
        h.operator._element_logic = h.operator._process
    h.operator.restore_state([(0, snapshot)], _context())
    return h


@pytest.mark.parametrize("kind", ["reduce", "aggregate", "process"])
@pytest.mark.parametrize("size,then", [(3, 3), (3, 4), (4, 3), (2, 5)])
def test_checkpoints_along_the_way_and_a_restore_of_another_size(kind, size, then):
    """A checkpoint in the middle of a run is the general path's, and the run goes on
    after it as before; its restore into windows of size `then` (another size: the
    restored trigger counts out of step with the assigner's, which the count path then
    follows as PyFlink's CountTrigger does) fires as the general path does."""
    fired = 0
    for seed in range(6):
        outcomes = []
        for general in (False, True):
            rng = random.Random(seed)
            records = [((rng.choice("abc"), step), rng.choice([None, step, step]))
                       for step in range(90)]
            h = Harness(_operator(kind, size))
            if general:
                h.operator._element_logic = h.operator._process
            _feed(h, random.Random(seed), records[:40], general)
            middle = _checkpoint(h.operator)
            _feed(h, random.Random(seed + 1), records[40:], general)
            end = _checkpoint(h.operator)
            restored = _restored(kind, then, middle, general)
            _feed(restored, random.Random(seed + 2), records[40:], general)
            outcomes.append((middle, h.out, end, restored.out, _checkpoint(restored.operator)))
        assert outcomes[0] == outcomes[1]
        fired += len(outcomes[0][3])
    assert fired > 20


def test_the_trigger_count_is_left_to_the_assigners_only_in_step():
    """count_window(n)'s CountTrigger(n) fires at the assigner's count (no trigger count
    written a record); a restore out of step, or another trigger size, keeps the trigger's
    own count."""
    h = Harness(_operator("reduce", 3))
    h.operator.process_keyed_many(["a", "a", "b", "a", "a"],
                                  [("a", 1), ("a", 2), ("b", 3), ("a", 4), ("a", 5)])
    assert h.operator._trigger_counts_derived is True
    assert h.values() == [("a", "1+2+4")]
    assert _checkpoint(h.operator)["keyed"]["data"]["count"] == {
        CountWindow(1): {"a": 1}, CountWindow(0): {"b": 1}}
    out_of_step = _restored("reduce", 2, _checkpoint(h.operator), False)
    out_of_step.operator.process_keyed_many(["a", "b"], [("a", 6), ("b", 7)])
    assert out_of_step.operator._trigger_counts_derived is False
    # a: count 5 -> window 2 of size 2, its trigger count new; b: its restored count 1
    # in window 0 reaches 2
    assert out_of_step.values() == [("b", "3+7")]
    other = Harness(_operator("reduce", 3, trigger=CountTrigger.of(2)))
    other.operator.process_keyed_many(["a"], [("a", 1)])
    assert other.operator._trigger_counts_derived is False


def test_count_windows_fire_at_their_size_with_the_elements_timestamp():
    h = Harness(_operator("process", 2))
    h.elements([(("a", 1), 10), (("b", 2), None), (("a", 3), 30), (("a", 4), 40),
                (("b", 5), 50)])
    assert h.out == [(("a", "CountWindow(id=0)", [1, 3]), 30),
                     (("b", "CountWindow(id=0)", [2, 5]), 50)]


@pytest.mark.parametrize("op", [
    process_op(CountSlidingWindowAssigner.of(3, 1), Elements()),
    process_op(CountTumblingWindowAssigner.of(3), Elements(),
               trigger=PurgingTrigger.of(CountTrigger.of(3)))])
def test_other_count_windows_take_the_general_path(op):
    h = Harness(op)
    assert h.operator._element_logic == h.operator._process
