"""KeyedProcessOperator's per-record path, without Spark."""
import random

import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.output_tag import OutputTag
from pyflink_on_spark.runtime.errors import UserFunctionError
from pyflink_on_spark.datastream.functions import (
    KeyedProcessFunction, KeySelector, wrap_key_selector)
from pyflink_on_spark.datastream.state import ValueStateDescriptor
from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
from pyflink_on_spark.runtime.testing import OperatorHarness


class Count(KeyedProcessFunction):
    def open(self, runtime_context):
        self.count = runtime_context.get_state(ValueStateDescriptor("n", None))

    def process_element(self, value, ctx):
        n = (self.count.value() or 0) + 1
        self.count.update(n)
        if n > 1:  # the first record of a key yields nothing (a generator that ends at once)
            yield ctx.get_current_key(), n


class FirstLetter(KeySelector):
    def get_key(self, value):
        return value[0]


def _run(key_selector, values):
    harness = OperatorHarness(KeyedProcessOperator(Count(), key_selector), name="k")
    harness.elements((value, None) for value in values).close()
    return harness.values()


def test_key_selector_class_and_plain_function_key_the_same_way():
    values = ["apple", "avocado", "banana", "apricot", "blueberry"]
    expected = [("a", 2), ("a", 3), ("b", 2)]
    assert _run(FirstLetter(), values) == expected
    assert _run(wrap_key_selector(lambda v: v[0]), values) == expected


def test_a_function_returning_none_or_a_list_emits_accordingly():
    class ListOrNone(KeyedProcessFunction):
        def process_element(self, value, ctx):
            return [value, value * 10] if value % 2 else None

    harness = OperatorHarness(
        KeyedProcessOperator(ListOrNone(), wrap_key_selector(lambda v: v % 3)), name="k")
    harness.elements([(1, 5), (2, None), (3, 7)])
    assert harness.out == [(1, 5), (10, 5), (3, 7), (30, 7)]


# -- a row's stamped records in one call (process_keyed_stamped_many) ---------------------------

ODD = OutputTag("odd", Types.PICKLED_BYTE_ARRAY())


class StampsTimersSides(KeyedProcessFunction):
    """Sees ctx.timestamp(), counts per key, sets an event-time timer 3 ms on, sends odd
    values to a side output; fails on the value 13."""

    def open(self, runtime_context):
        self.count = runtime_context.get_state(ValueStateDescriptor("n", None))

    def process_element(self, value, ctx):
        if value[1] == 13:
            raise ValueError("thirteen")
        n = (self.count.value() or 0) + 1
        self.count.update(n)
        if ctx.timestamp() is not None:
            ctx.timer_service().register_event_time_timer(ctx.timestamp() + 3)
        if value[1] % 2:
            yield ODD, (ctx.get_current_key(), value[1])
        yield ctx.get_current_key(), n, ctx.timestamp()

    def on_timer(self, timestamp, ctx):
        yield "timer", ctx.get_current_key(), timestamp, self.count.value()


def _stamped_rows(seed: int):
    rng = random.Random(seed)
    rows, now = [], 0
    for _ in range(10):
        row = []
        for _ in range(rng.randint(1, 30)):
            now += rng.randint(0, 3)
            key = rng.choice(["a", "b", 3, ("t", 1), 2.5])
            stamp = None if rng.random() < 0.1 else now
            row.append((key, (key, rng.randint(0, 12)), stamp))
        rows.append((row, now - rng.randint(0, 5)))
    return rows


def _keyed_run(rows, in_one_call: bool, **harness):
    h = OperatorHarness(KeyedProcessOperator(StampsTimersSides(), wrap_key_selector(
        lambda v: v[0])), name="k", side_tags=[ODD.tag_id], **harness)
    operator = h.operator
    for row, watermark in rows:
        if in_one_call:
            operator.process_keyed_stamped_many([r[0] for r in row], [r[1] for r in row],
                                                [r[2] for r in row])
        else:
            for key, value, stamp in row:
                operator.process_keyed(key, value, stamp)
        h.watermark(watermark)
    h.end()
    return h.out, h.side[ODD.tag_id]


@pytest.mark.parametrize("seed", range(5))
def test_a_rows_stamped_records_in_one_call_give_what_they_give_one_by_one(seed):
    rows = _stamped_rows(seed)
    expected = _keyed_run(rows, False)
    assert any(v[0] == "timer" for v, _ in expected[0]) and expected[1]
    assert _keyed_run(rows, True) == expected


def test_on_rocksdb_too(tmp_path):
    rows = _stamped_rows(7)
    assert _keyed_run(rows, True, state_backend="rocksdb", work_dir=str(tmp_path)) == \
        _keyed_run(rows, False)


def test_an_error_in_a_stamped_row_names_the_operator_with_the_users_frame():
    h = OperatorHarness(KeyedProcessOperator(StampsTimersSides(), wrap_key_selector(
        lambda v: v[0])), name="k", side_tags=[ODD.tag_id])
    with pytest.raises(UserFunctionError) as info:
        h.operator.process_keyed_stamped_many(["a", "b"], [("a", 2), ("b", 13)], [1, 2])
    assert info.value.operator_name == "k"
    assert "thirteen" in str(info.value) and "in process_element" in \
        info.value.user_traceback
    assert h.values() == [("a", 1, 1)]   # the record before went on


def test_batch_mode_takes_stamped_records_one_by_one():
    from pyflink_on_spark.runtime.batch_order import batch_key_order
    operator = KeyedProcessOperator(StampsTimersSides(), wrap_key_selector(lambda v: v[0]),
                                    batch_key_order(None))
    OperatorHarness(operator, name="k", runtime_mode="BATCH")
    assert operator.process_keyed_stamped_many is None
