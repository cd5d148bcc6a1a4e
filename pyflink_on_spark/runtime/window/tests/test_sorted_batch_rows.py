"""BATCH's key-sorted input into a window operator (use_sorted_input): a key's stamped records
in one call take STREAMING's row loops (tumbling, sliding, static-gap sessions, count
windows) and leave what the same records one by one leave, key after key."""
import random

import pytest

from pyflink_on_spark.common.time import Time
from pyflink_on_spark.datastream.functions import AggregateFunction
from pyflink_on_spark.datastream.window import (
    EventTimeSessionWindows, SlidingEventTimeWindows, TumblingEventTimeWindows)
from pyflink_on_spark.runtime.window.tests.window_harness import (
    Harness, aggregate_op, reduce_op)


class Sequence(AggregateFunction):
    """Keeps every value in arrival order: an order change shows."""

    def create_accumulator(self):
        return ()

    def add(self, value, accumulator):
        return accumulator + (value[1],)

    def get_result(self, accumulator):
        return accumulator

    def merge(self, acc_a, acc_b):
        return acc_a + acc_b


def _count_op():
    from pyflink_on_spark.datastream.window import CountTumblingWindowAssigner
    return reduce_op(CountTumblingWindowAssigner.of(3), lambda a, b: (a[0], a[1] + b[1]))


OPERATORS = {
    "tumbling": lambda: aggregate_op(TumblingEventTimeWindows.of(Time.seconds(1)), Sequence()),
    "sliding": lambda: reduce_op(SlidingEventTimeWindows.of(Time.seconds(2), Time.seconds(1)),
                                 lambda a, b: (a[0], a[1] + b[1])),
    "session": lambda: aggregate_op(EventTimeSessionWindows.with_gap(Time.milliseconds(300)),
                                    Sequence()),
    "count": _count_op,
}


def _sorted_input(seed):
    """Key -> its records (value, timestamp) in timestamp order, as the exchange gives them."""
    rng = random.Random(seed)
    by_key = {}
    for i in range(300):
        key = rng.randrange(5)
        by_key.setdefault(key, []).append(((key, i), rng.randrange(0, 5000)))
    return {k: sorted(v, key=lambda r: r[1]) for k, v in sorted(by_key.items())}


def _run(kind, seed, rows: bool):
    harness = Harness(OPERATORS[kind](), batch=True)
    operator = harness.operator
    operator.use_sorted_input()
    if rows:
        assert operator.process_keyed_stamped_many is not None
    for key, records in _sorted_input(seed).items():
        if rows:
            operator.process_keyed_stamped_many([key] * len(records),
                                                [v for v, _ in records],
                                                [t for _, t in records])
        else:
            for value, timestamp in records:
                operator.process_keyed(key, value, timestamp)
        operator.end_sorted_key()
    return harness.out


@pytest.mark.parametrize("kind", sorted(OPERATORS))
@pytest.mark.parametrize("seed", [1, 2])
def test_a_keys_row_leaves_what_its_records_one_by_one_leave(kind, seed):
    expected = _run(kind, seed, rows=False)
    assert expected     # windows fired
    assert _run(kind, seed, rows=True) == expected
