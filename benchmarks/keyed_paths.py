"""Does a keyed operator's row path pay for records with timestamps? One KeyedProcessOperator
(a ValueState count per key, 1000 keys, every record stamped, as a Kafka source's or an
assigner's records are) driven directly through the operator harness two ways:
- rows: the task's way, 200 records a call (process_keyed_stamped_many);
- per record (process_keyed), as the task took stamped records before.
CPU seconds of this process, best of 5.

    PYTHONPATH=$PWD python benchmarks/keyed_paths.py [--records N]
"""
from __future__ import annotations

import argparse
import time

from pyflink_on_spark.datastream.functions import KeyedProcessFunction, wrap_key_selector
from pyflink_on_spark.datastream.state import ValueStateDescriptor
from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
from pyflink_on_spark.runtime.testing import OperatorHarness

ROW = 200


class Count(KeyedProcessFunction):
    def open(self, runtime_context):
        self.count = runtime_context.get_state(ValueStateDescriptor("count", None))

    def process_element(self, value, ctx):
        count = (self.count.value() or 0) + 1
        self.count.update(count)
        if count % 100 == 0:
            yield value[0], count


def run(records: int, rows: bool) -> tuple:
    """(best CPU seconds of 5, the number of results)."""
    best = float("inf")
    for _ in range(5):
        harness = OperatorHarness(KeyedProcessOperator(Count(), wrap_key_selector(
            lambda v: v[0])), name="count")
        operator = harness.operator
        many, one = operator.process_keyed_stamped_many, operator.process_keyed
        start = time.process_time()
        for row in range(0, records, ROW):
            numbers = range(row, min(records, row + ROW))
            keys, values = [i % 1000 for i in numbers], [(i % 1000, i) for i in numbers]
            if rows:
                many(keys, values, list(numbers))
            else:
                for key, value, stamp in zip(keys, values, numbers):
                    one(key, value, stamp)
        best = min(best, time.process_time() - start)
    return best, len(harness.out)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=500_000)
    records = parser.parse_args().records
    (rows, out), (one, out_one) = run(records, True), run(records, False)
    assert out == out_one, (out, out_one)
    print("keyed process, %d stamped records (CPU s, best of 5, the rows' keys and records "
          "made in the timed loop)" % records)
    print("  rows (process_keyed_stamped_many)  %.3f s  %8.0f rec/s" % (rows, records / rows))
    print("  per record (process_keyed)         %.3f s  %8.0f rec/s  %.2fx the rows' time"
          % (one, records / one, one / rows))


if __name__ == "__main__":
    main()
