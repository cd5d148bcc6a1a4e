"""Does the window operator's event-time fast path pay? One WindowOperator (10 s tumbling
event-time windows, AggregateFunction, 1000 keys, a watermark every 200 records) driven
directly through the operator harness, once on its fast path (_process_event_time: non-merging
event-time windows with the default trigger) and once forced onto the general path (_process:
any assigner, any trigger). CPU seconds of this process, best of 5.

    PYTHONPATH=$PWD python benchmarks/window_paths.py [--records N]
"""
from __future__ import annotations

import argparse
import time

from pyflink_on_spark.common.time import Time
from pyflink_on_spark.datastream.functions import AggregateFunction
from pyflink_on_spark.datastream.window import TumblingEventTimeWindows
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK
from pyflink_on_spark.runtime.window.tests.window_harness import Harness, aggregate_op


class CountMinMax(AggregateFunction):
    def create_accumulator(self):
        return 0, None, None

    def add(self, value, accumulator):
        count, low, high = accumulator
        n = value[1]
        return (count + 1, n if low is None or n < low else low,
                n if high is None or n > high else high)

    def get_result(self, accumulator):
        return accumulator

    def merge(self, acc_a, acc_b):
        return acc_a


def run(records: int, general: bool) -> float:
    best = float("inf")
    for _ in range(5):
        harness = Harness(aggregate_op(TumblingEventTimeWindows.of(Time.seconds(10)),
                                       CountMinMax()))
        operator = harness.operator
        if general:
            operator._element_logic = operator._process
        element, watermark = operator.process_element, operator.process_watermark
        start = time.process_time()
        for i in range(records):
            element((i % 1000, i), i)
            if i % 200 == 0:
                watermark(i - 1)
        watermark(MAX_WATERMARK)
        best = min(best, time.process_time() - start)
        assert len(harness.out) == records // 10_000 * 1000
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=300_000)
    records = parser.parse_args().records
    fast, general = run(records, False), run(records, True)
    print("window per-element paths, %d records (CPU s, best of 5)" % records)
    print("  fast path (_process_event_time)  %.3f s  %8.0f rec/s" % (fast, records / fast))
    print("  general path (_process)          %.3f s  %8.0f rec/s  %.2fx the fast path's time"
          % (general, records / general, general / fast))


if __name__ == "__main__":
    main()
