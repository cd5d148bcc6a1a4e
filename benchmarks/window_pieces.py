"""What the pieces of a window path cost, in instructions (issue 41): plain-Python copies of a
loop with pieces taken out, and the timer queue alone, each run once so that callgrind's
count of N records less the count of 0, over N, is the piece's cost a record.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/window_pieces.py count VARIANT --records N [--unwrapped]
        (count windows' row loop as _count_rows had it before 8d011f3, 1000 keys, rows of 200
        built as window_paths.py builds them: VARIANT whole; without_trigger_count (no
        trigger table); reduce_only (the lists and one reduce a record); loop_only (the
        lists and the bare loop). --unwrapped: the user's function called itself, not
        through the API's ReduceFunctionWrapper)
    PYTHONPATH=$PWD valgrind ... python benchmarks/window_pieces.py timers MODE --records N
        (TimerQueue in window_aggregate's pattern: 10 s tumbling windows, record i at i ms,
        key i % 1000, one register per new (key, window), a round of pops every 200
        records with MODE all; MODE register: registers only; register_noop: the same loop
        without them; register_nogc: registers with the garbage collector off)
"""
from __future__ import annotations

import argparse
import gc
from itertools import repeat

ROW = 200


class CountWindow(tuple):
    __slots__ = ()

    def __new__(cls, id):
        return tuple.__new__(cls, (id,))


class Wrapper:
    """As datastream/functions.py's ReduceFunctionWrapper."""

    def __init__(self, func):
        self._func = func

    def reduce(self, a, b):
        return self._func(a, b)


def add(a, b):
    return a[0], a[1] + b[1]


class Holder:
    pass


def whole(op, keys, values, counts, tables, fired_tables, windows, reduce, size, fire_at,
          as_is, backend, trigger_count=True):
    for key, value, timestamp in zip(keys, values, repeat(None)):
        if value is None:
            continue
        op.current_key = key
        if key.__class__ in as_is:
            backend._key = stored_key = key
        else:
            stored_key = key
        count = counts.get(stored_key) or 0
        counts[stored_key] = count + 1
        number = count // size
        window = windows.get(number)
        if window is None or window.__class__ is not CountWindow:
            window = CountWindow(number)
            windows[number] = window
        table = tables.get(window)
        if table is None:
            table = tables[window] = {}
        current = table.get(stored_key)
        if current is not None:
            current = reduce(current, value)
            if current is None:
                del table[stored_key]
            else:
                table[stored_key] = current
        else:
            table[stored_key] = value
        if not trigger_count:
            continue
        fired_table = fired_tables.get(window)
        if fired_table is None:
            fired_table = fired_tables[window] = {}
        number = fired_table.get(stored_key)
        number = 1 if number is None else number + 1
        if number < fire_at:
            fired_table[stored_key] = number
            continue
        fired_table.pop(stored_key, None)


def without_trigger_count(*args):
    whole(*args, trigger_count=False)


def loop_only(op, keys, values, *rest):
    for key, value, timestamp in zip(keys, values, repeat(None)):
        if value is None:
            continue


def reduce_only(op, keys, values, counts, tables, fired_tables, windows, reduce, *rest):
    for key, value in zip(keys, values):
        reduce(value, value)


COUNT_VARIANTS = {"whole": whole, "without_trigger_count": without_trigger_count,
                  "loop_only": loop_only, "reduce_only": reduce_only}


def run_count(variant: str, records: int, unwrapped: bool) -> None:
    loop = COUNT_VARIANTS[variant]
    op, backend = Holder(), Holder()
    reduce = add if unwrapped else Wrapper(add).reduce
    counts, tables, fired, windows = {}, {}, {}, {}
    as_is = frozenset((int, str))
    for row in range(0, records, ROW):
        numbers = range(row, min(records, row + ROW))
        loop(op, [i % 1000 for i in numbers], [(i % 1000, i) for i in numbers], counts,
             tables, fired, windows, reduce, 100, 100, as_is, backend)


def run_timers(mode: str, records: int) -> None:
    from pyflink_on_spark.datastream.window import TimeWindow
    from pyflink_on_spark.runtime.timers import TimerQueue
    if mode == "register_nogc":
        gc.disable()
    queue = TimerQueue()
    register = (lambda *a: None) if mode == "register_noop" else queue.register
    registered = set()
    windows = {}
    for row in range(0, records, ROW):
        for i in range(row, row + ROW):
            start = i - i % 10000
            window = windows.get(start)
            if window is None:
                window = windows[start] = TimeWindow(start, start + 10000)
            key = i % 1000
            if (key, start) not in registered:
                registered.add((key, start))
                register(key, window, start + 9999)
        if mode == "all":
            queue.pop_all_due(row + ROW - 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["count", "timers"])
    parser.add_argument("variant")
    parser.add_argument("--records", type=int, default=50_000)
    parser.add_argument("--unwrapped", action="store_true")
    args = parser.parse_args()
    if args.what == "count":
        run_count(args.variant, args.records, args.unwrapped)
    else:
        run_timers(args.variant, args.records)


if __name__ == "__main__":
    main()
