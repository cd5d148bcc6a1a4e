"""Do the window operator's event-time paths pay? One WindowOperator (10 s event-time windows,
tumbling or, with --slide-seconds, sliding; AggregateFunction, 1000 keys, a watermark every 200
records) driven directly through the operator harness three ways:
- rows: the task's way, 200 records a call (process_keyed_stamped_many: tumbling and sliding
  windows with the default trigger);
- per element on the event-time path (_process_event_time: non-merging event-time windows
  with the default trigger);
- per element forced onto the general path (_process: any assigner, any trigger).
CPU seconds of this process, best of 5.

    PYTHONPATH=$PWD python benchmarks/window_paths.py [--records N] [--slide-seconds S]
        [--function aggregate|reduce|process]   (the window function: an AggregateFunction,
        a reduce of (key, count), a ProcessWindowFunction over the window's records)
    PYTHONPATH=$PWD python benchmarks/window_paths.py --session-gap-ms 500 [--function F]
        (event-time session windows: rows, their element path, and the general path)
    PYTHONPATH=$PWD python benchmarks/window_paths.py --count-size 100 --function reduce
        (count_window(100): rows, its element path and the general one)
    PYTHONPATH=$PWD python benchmarks/window_paths.py --processing-time   (tumbling
        processing-time windows: _process_processing_time against _process)
    ... --rows-once --records N   (the rows path alone, once: under callgrind, instructions
        a record are the count of N records less the count of 0, over N)
"""
from __future__ import annotations

import argparse
import time

from pyflink_on_spark.common.time import Time
from pyflink_on_spark.datastream.functions import AggregateFunction, ProcessWindowFunction
from pyflink_on_spark.datastream.window import (
    CountTumblingWindowAssigner, EventTimeSessionWindows, SlidingEventTimeWindows, TumblingEventTimeWindows, TumblingProcessingTimeWindows)
from pyflink_on_spark.runtime.testing import ManualClock
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK
from pyflink_on_spark.runtime.window.tests.window_harness import (
    Harness, aggregate_op, process_op, reduce_op)


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


class CountMinMaxOfElements(ProcessWindowFunction):
    def process(self, key, context, elements):
        numbers = [element[1] for element in elements]
        yield len(numbers), min(numbers), max(numbers)


def _count(a, b):
    return a[0], a[1] + 1


OPERATORS = {
    "aggregate": lambda assigner: aggregate_op(assigner, CountMinMax()),
    "reduce": lambda assigner: reduce_op(assigner, _count),
    "process": lambda assigner: process_op(assigner, CountMinMaxOfElements()),
}

ROW = 200   # records a call on the rows path, and between two watermarks
REPEATS = 5   # runs of each path (the best one counts); --rows-once: one


def run(records: int, path: str, slide_seconds: int = 0, function: str = "aggregate") -> tuple:
    """(best CPU seconds of 5, the number of window results)."""
    best = float("inf")
    for _ in range(REPEATS):
        assigner = TumblingEventTimeWindows.of(Time.seconds(10)) if not slide_seconds else \
            SlidingEventTimeWindows.of(Time.seconds(10), Time.seconds(slide_seconds))
        harness = Harness(OPERATORS[function](assigner))
        operator = harness.operator
        if path == "general":
            operator._element_logic = operator._process
        element, watermark = operator.process_element, operator.process_watermark
        many = operator.process_keyed_stamped_many
        start = time.process_time()
        for row in range(0, records, ROW):
            numbers = range(row, min(records, row + ROW))
            if path == "rows":
                many([i % 1000 for i in numbers], [(i % 1000, i) for i in numbers],
                     list(numbers))
            else:
                for i in numbers:
                    element((i % 1000, i), i)
            watermark(numbers[-1])
        watermark(MAX_WATERMARK)
        best = min(best, time.process_time() - start)
    return best, len(harness.out)


def run_sessions(records: int, gap_ms: int, function: str, path: str = "rows",
                 grain_ms: int = 1) -> tuple:
    """Event-time session windows of `gap_ms` (record i: key i % 1000, time i ms rounded
    down to `grain_ms`: with a grain over 1, keys share session ends), ROW records a call
    (path "rows": process_keyed_stamped_many) or one element a call ("element":
    _process_session; "general": _process and _on_timer), a watermark every ROW records:
    (best CPU seconds of 5, the results)."""
    best = float("inf")
    for _ in range(REPEATS):
        harness = Harness(OPERATORS[function](
            EventTimeSessionWindows.with_gap(Time.milliseconds(gap_ms))))
        operator = harness.operator
        if path == "general":
            operator._element_logic, operator._timer_logic = operator._process, \
                operator._on_timer
        element, watermark = operator.process_element, operator.process_watermark
        many = operator.process_keyed_stamped_many
        start = time.process_time()
        for row in range(0, records, ROW):
            numbers = range(row, min(records, row + ROW))
            if path == "rows":
                many([i % 1000 for i in numbers], [(i % 1000, i) for i in numbers],
                     [i - i % grain_ms for i in numbers])
            else:
                for i in numbers:
                    element((i % 1000, i), i - i % grain_ms)
            watermark(numbers[-1] - numbers[-1] % grain_ms)
        watermark(MAX_WATERMARK)
        best = min(best, time.process_time() - start)
    return best, len(harness.out)


def run_counts(records: int, size: int, function: str, path: str) -> tuple:
    """count_window(size) (record i: key i % 1000), ROW records a call (path "rows": the
    task's process_keyed_many) or one element a call ("element": _process_count_tumbling,
    "general": _process): (best CPU seconds of 5, the number of results)."""
    best = float("inf")
    for _ in range(REPEATS):
        harness = Harness(OPERATORS[function](CountTumblingWindowAssigner.of(size)))
        operator = harness.operator
        if path == "general":
            operator._element_logic = operator._process
        element, many = operator.process_element, operator.process_keyed_many
        start = time.process_time()
        for row in range(0, records, ROW):
            numbers = range(row, min(records, row + ROW))
            if path == "rows":
                many([i % 1000 for i in numbers], [(i % 1000, i) for i in numbers])
            else:
                for i in numbers:
                    element((i % 1000, i), None)
        best = min(best, time.process_time() - start)
    return best, len(harness.out)


def run_processing_time(records: int, general: bool) -> tuple:
    """Tumbling 10 s processing-time windows, the clock at the record's number (ms), processing
    time advanced every ROW records: (best CPU seconds of 5, the number of results)."""
    best = float("inf")
    for _ in range(REPEATS):
        clock = ManualClock(now=0)
        harness = Harness(aggregate_op(TumblingProcessingTimeWindows.of(Time.seconds(10)),
                                       CountMinMax()), clock=clock)
        operator = harness.operator
        if general:
            operator._element_logic = operator._process
        element = operator.process_element
        start = time.process_time()
        for i in range(records):
            clock.now = i
            element((i % 1000, i), None)
            if i % ROW == 0:
                harness.processing_time(i)
        best = min(best, time.process_time() - start)
    return best, len(harness.out)


def main() -> None:
    global ROW
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=300_000)
    parser.add_argument("--slide-seconds", type=int, default=0,
                        help="sliding windows of 10 s every this many seconds (0: tumbling)")
    parser.add_argument("--function", default="aggregate", choices=sorted(OPERATORS),
                        help="the window function (event-time windows)")
    parser.add_argument("--processing-time", action="store_true",
                        help="tumbling processing-time windows: their element path against "
                             "the general one")
    parser.add_argument("--session-gap-ms", type=int, default=0,
                        help="event-time session windows with this gap (general path)")
    parser.add_argument("--grain-ms", type=int, default=1,
                        help="session windows: the records' times rounded down to this (keys "
                             "then share session ends)")
    parser.add_argument("--count-size", type=int, default=0,
                        help="count windows of this many elements (count_window(size))")
    parser.add_argument("--rows-once", action="store_true",
                        help="the rows path alone, once: for an instruction count, e.g. "
                             "valgrind --tool=callgrind --callgrind-out-file=/dev/null python "
                             "benchmarks/window_paths.py --session-gap-ms 3000 --rows-once "
                             "--records N, less the count of --records 0, over N")
    parser.add_argument("--row", type=int, default=ROW,
                        help="records a call on the rows path, and between two watermarks "
                             "(a task's rows hold up to 2048: exits/chunked.py)")
    args = parser.parse_args()
    records = args.records
    ROW = args.row
    if args.rows_once:
        global REPEATS
        REPEATS = 1
        if args.count_size:
            result = run_counts(records, args.count_size, args.function, "rows")
        elif args.session_gap_ms:
            result = run_sessions(records, args.session_gap_ms, args.function, "rows",
                                  args.grain_ms)
        else:
            result = run(records, "rows", args.slide_seconds, args.function)
        print("rows path once: %d records, %d results" % (records, result[1]))
        return
    if args.count_size:
        (rows, out), (fast, out_fast), (general, out_general) = (
            run_counts(records, args.count_size, args.function, path)
            for path in ("rows", "element", "general"))
        assert out == out_fast == out_general, (out, out_fast, out_general)
        print("window paths, %d records, count windows of %d, %s, %d results (CPU s, best of "
              "5)" % (records, args.count_size, args.function, out))
        print("  rows (_count_rows)                       %.3f s  %8.0f rec/s"
              % (rows, records / rows))
        print("  per element (_process_count_tumbling)    %.3f s  %8.0f rec/s  %.2fx the rows' "
              "time" % (fast, records / fast, fast / rows))
        print("  per element, general path (_process)     %.3f s  %8.0f rec/s  %.2fx the rows' "
              "time" % (general, records / general, general / rows))
        return
    if args.session_gap_ms:
        (rows, out), (fast, out_fast), (general, out_general) = (
            run_sessions(records, args.session_gap_ms, args.function, path, args.grain_ms)
            for path in ("rows", "element", "general"))
        assert out == out_fast == out_general, (out, out_fast, out_general)
        print("window paths, %d records, session windows (gap %d ms, times rounded to %d ms), "
              "%s, %d results (CPU s, best of 5)" % (records, args.session_gap_ms,
                                                      args.grain_ms, args.function, out))
        print("  rows (_session_rows)                     %.3f s  %8.0f rec/s"
              % (rows, records / rows))
        print("  per element (_process_session)           %.3f s  %8.0f rec/s  %.2fx the rows' "
              "time" % (fast, records / fast, fast / rows))
        print("  per element, general path (_process)     %.3f s  %8.0f rec/s  %.2fx the rows' "
              "time" % (general, records / general, general / rows))
        return
    if args.processing_time:
        (fast, out), (general, out_general) = (run_processing_time(records, general)
                                               for general in (False, True))
        assert out == out_general, (out, out_general)
        print("window paths, %d records, tumbling processing-time windows, %d results (CPU s, "
              "best of 5)" % (records, out))
        print("  per element (_process_processing_time)   %.3f s  %8.0f rec/s"
              % (fast, records / fast))
        print("  per element, general path (_process)     %.3f s  %8.0f rec/s  %.2fx its time"
              % (general, records / general, general / fast))
        return
    (rows, out), (fast, out_fast), (general, out_general) = (
        run(records, path, args.slide_seconds, args.function)
        for path in ("rows", "element", "general"))
    assert out == out_fast == out_general, (out, out_fast, out_general)
    print("window paths, %d records, %s windows, %s, %d results (CPU s, best of 5)"
          % (records, "sliding" if args.slide_seconds else "tumbling", args.function, out))
    print("  rows (process_keyed_stamped_many)        %.3f s  %8.0f rec/s" % (rows, records / rows))
    print("  per element (_process_event_time)        %.3f s  %8.0f rec/s  %.2fx the rows' time"
          % (fast, records / fast, fast / rows))
    print("  per element, general path (_process)     %.3f s  %8.0f rec/s  %.2fx the rows' time"
          % (general, records / general, general / rows))


if __name__ == "__main__":
    main()
