"""How close can a keyed window job get to its floor? (issue 41)

Every keyed window job runs a source stage (map, timestamps, key, route), a keyed exchange
and a keyed stage; the window operator is one part of the last. jobs/keyed_exchange.py is
that plan with no window: a filter that keeps one record a key stands where the window
is. Its time is a lower bound on any window job of the same plan; set against a window
job's floor (benchmarks/run.py's plain loop of the same user functions), it says what ratio
is left for the window operator itself. This times, in turn in one process (one
SparkSession, warmed up): the plan without a window (with timestamps, as window_aggregate
and window_session; without, as window_count), the three window jobs, and their floors.

    python benchmarks/window_bound.py [--records 1000000] [--keys 1000] [--repeat 5]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import run  # noqa: E402  (benchmarks/run.py: the floors and the result line's parser)

# the window jobs, the floor of each, and which plan without a window matches it (stamped)
WINDOW_JOBS = (("window_aggregate", run.floor_window_aggregate, True),
               ("window_session", run.floor_window_session, True),
               ("window_count", run.floor_window_count, False))


def shim_seconds(job: str, argv: list) -> float:
    from pyflink_on_spark.cli.script_runner import run_script_captured
    out, error = run_script_captured(os.path.join(HERE, "jobs", job + ".py"), argv)
    if error is not None:
        raise error
    return run._parse(out)[1]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=1000)
    parser.add_argument("--parallelism", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    from pyflink_on_spark.spark.session import get_session
    get_session()

    def job_argv(records: int, stamped: bool = True) -> list:
        # the sixth argument: keyed_exchange's STAMPED; window_aggregate's slide (0: tumbling)
        return [str(records), str(args.keys), str(args.parallelism), "hashmap", "STREAMING",
                "1" if stamped else "0"]

    for job, _, _ in WINDOW_JOBS:   # warm-up: the first run of each pays the workers' imports
        shim_seconds(job, job_argv(1000, stamped=False))
    shim_seconds("keyed_exchange", job_argv(1000))
    times = {}
    for _ in range(args.repeat):
        for stamped in (True, False):
            times.setdefault(("keyed_exchange", stamped), []).append(
                shim_seconds("keyed_exchange", job_argv(args.records, stamped)))
        for job, floor, _ in WINDOW_JOBS:
            times.setdefault((job, "shim"), []).append(
                shim_seconds(job, job_argv(args.records, stamped=False)))
            times.setdefault((job, "floor"), []).append(floor(args.records, args.keys))
    median = {name: statistics.median(values) for name, values in times.items()}
    print("%d records, %d keys, parallelism %d, medians of %d runs in turn (s):"
          % (args.records, args.keys, args.parallelism, args.repeat))
    for stamped in (True, False):
        print("  no window (keyed_exchange, %s timestamps): %.2f  (runs %s)" % (
            "with" if stamped else "without", median[("keyed_exchange", stamped)],
            " ".join("%.2f" % t for t in times[("keyed_exchange", stamped)])))
    print("  %-17s %6s %6s %8s %10s %12s" % ("job", "floor", "shim", "shim/fl",
                                             "no window", "no win./fl"))
    for job, _, stamped in WINDOW_JOBS:
        floor, shim = median[(job, "floor")], median[(job, "shim")]
        bound = median[("keyed_exchange", stamped)]
        print("  %-17s %6.2f %6.2f %7.2fx %10.2f %11.2fx" % (
            job, floor, shim, shim / floor, bound, bound / floor))
    return 0


if __name__ == "__main__":
    sys.exit(main())
