"""Where a job's engine time goes, by section, without a profiler's distortion (issue 41).

    python benchmarks/profile_sections.py window_aggregate [--records 1000000] [--repeat 3]
    python benchmarks/profile_sections.py window_aggregate --slide-seconds 5

profile_per_record.py runs the job's stages in-process through the Spark task function and
gives shares from cProfile, which inflates every Python call (a job with four user calls a
record looks like its user functions take half the time). Here the same in-process run is
timed with perf_counter at a few coarse points, called per slice of records, per row or per
timer round (collect_many also per fired window: ~0.2 us a call of its own), so the timing
costs little. Each section gets its own time (the sections nested in it are taken out);
"the rest" of a stage is what no section took: the source's read, the task's loop over its
rows, the watermark valve. Each figure is its fastest of --repeat runs (the machine
is shared: a run slowed by other work slows some sections and not others).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

LABELS = {
    "timestamps": "timestamps + watermark generator (own)",
    "fused_stamps": "map + timestamps + exit in one loop: key, route, chunk (own)",
    "exit_loop": "exit loop: key, route, chunk (collect_stamped)",
    "exit_flush": "exit: a chunk into a row, less dumps_records (_flush own)",
    "dumps_records": "exchange out: marshal a chunk (dumps_records own)",
    "marshal_exact": "exchange out: timestamps' and keys' classes checked (marshal_exact)",
    "collect_many": "collect_many: a map's / window function's results into the next",
    "loads_records": "exchange in: unmarshal rows (loads_records)",
    "window_rows": "window: records into windows (process_keyed_stamped_many)",
    "fire_rounds": "window: timers fired one by one, state, clear (_fire_rounds own)",
    "fire_windows": "window: a round's windows fired in one loop, state, clear (own)",
    "pop_due": "window: timer queue pops (pop_all_due)",
    "fire_one": "window: window function call + emit (_emit own)",
    "watermark": "window: watermark in (process_watermark own)",
}
# (name, owner path, attribute): methods timed (own time)
SECTIONS = [
    ("timestamps", "pyflink_on_spark.runtime.operators.timestamps",
     "TimestampsAndWatermarksOperator", "process_many"),
    ("fused_stamps", "pyflink_on_spark.runtime.operators.timestamps",
     "TimestampsAndWatermarksOperator", "_fused_many"),
    ("exit_flush", "pyflink_on_spark.runtime.exits.chunked", "ExitCollector", "_flush"),
    ("window_rows", "pyflink_on_spark.runtime.window.operator", "WindowOperator",
     "process_keyed_stamped_many"),
    ("fire_rounds", "pyflink_on_spark.runtime.operators.keyed_process",
     "KeyedProcessOperator", "_fire_rounds"),
    ("fire_windows", "pyflink_on_spark.runtime.window.operator", "WindowOperator",
     "_fire_windows"),
    ("pop_due", "pyflink_on_spark.runtime.timers", "TimerQueue", "pop_all_due"),
    ("fire_one", "pyflink_on_spark.runtime.window.operator", "WindowOperator", "_emit"),
    ("watermark", "pyflink_on_spark.runtime.operators.keyed_process",
     "KeyedProcessOperator", "process_watermark"),
]
FUNCTIONS = [("loads_records", "pyflink_on_spark.runtime.task", "loads_records"),
             ("dumps_records", "pyflink_on_spark.runtime.exits.chunked", "dumps_records"),
             ("marshal_exact", "pyflink_on_spark.runtime.boundary", "marshal_exact")]

spent: dict = {}    # (stage, section) -> own seconds (nested sections' time excluded)
calls: dict = {}    # (stage, section) -> calls
_stack: list = []   # [seconds of the nested sections] per open section
current_stage = [None]


def _timed(name, function):
    perf = time.perf_counter

    def timed(*args, **kwargs):
        _stack.append(0.0)
        start = perf()
        try:
            return function(*args, **kwargs)
        finally:
            elapsed = perf() - start
            inner = _stack.pop()
            slot = (current_stage[0], name)
            spent[slot] = spent.get(slot, 0.0) + elapsed - inner
            calls[slot] = calls.get(slot, 0) + 1
            if _stack:
                _stack[-1] += elapsed
    timed.__wrapped__ = function
    return timed


def install() -> None:
    import importlib
    for name, module, owner, attribute in SECTIONS:
        cls = getattr(importlib.import_module(module), owner)
        if attribute in cls.__dict__:   # (an older tree may not have it)
            setattr(cls, attribute, _timed(name, cls.__dict__[attribute]))
    for name, module, attribute in FUNCTIONS:
        mod = importlib.import_module(module)
        setattr(mod, attribute, _timed(name, getattr(mod, attribute)))
    # the exit loops the timestamps operator hands its stamped slices to
    from pyflink_on_spark.runtime import output
    rebind = output.Output._rebind

    def _rebind(self):
        rebind(self)
        if not getattr(self.collect_stamped, "_sectioned", False):
            self.collect_stamped = _timed("exit_loop", self.collect_stamped)
            self.collect_stamped._sectioned = True
        if not getattr(self.collect_many, "_sectioned", False):
            self.collect_many = _timed("collect_many", self.collect_many)
            self.collect_many._sectioned = True
    output.Output._rebind = _rebind
    # run_through_stage_functions makes one stage function per stage, in stage order
    from pyflink_on_spark.spark import stage_task
    make = stage_task.make_stage_function

    def make_stage_function(*a, **k):
        run_stage = make(*a, **k)
        stage = len(_made)
        _made.append(stage)

        def run(batches):
            current_stage[0] = stage
            yield from run_stage(batches)
        return run
    stage_task.make_stage_function = make_stage_function


_made: list = []


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("job", nargs="?", default="window_aggregate")
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=1000)
    parser.add_argument("--parallelism", type=int, default=2)
    parser.add_argument("--slide-seconds", type=int, default=0)
    parser.add_argument("--mode", default="STREAMING", choices=["STREAMING", "BATCH"])
    parser.add_argument("--repeat", type=int, default=3)
    # a task ends its bundle once BUNDLE_SECONDS of wall time passed (runtime/task.py), so
    # under valgrind the records it ends at move with the machine's load, and so do the
    # instruction counts (up to 0.75k a record of window_aggregate): a large value keeps a
    # run's bundle ends at its input's end alone, the counts the same from run to run
    parser.add_argument("--bundle-seconds", type=float, default=None)
    args = parser.parse_args(argv)
    if args.bundle_seconds is not None:
        from pyflink_on_spark.runtime import task
        task.BUNDLE_SECONDS = args.bundle_seconds

    import profile_per_record as ppr
    from pyflink_on_spark.aliasing import install_pyflink_alias
    from pyflink_on_spark.spark import entry
    install_pyflink_alias()
    install()
    runs: list = []   # (total, stage -> task seconds, section seconds, calls) per run

    def execute_and_collect(sinks, collect_sink_id, settings):
        job = entry.compile_job(sinks, settings)
        spent.clear()
        calls.clear()
        _made.clear()
        stages: dict = {}
        start = time.perf_counter()
        values = ppr.run_through_stage_functions(job, collect_sink_id, stages)
        total = time.perf_counter() - start
        runs.append((total, stages, dict(spent), dict(calls)))
        return iter(values)

    entry.execute_and_collect = execute_and_collect

    def run(records: int) -> str:
        import io
        import runpy
        sys.argv = [args.job, str(records), str(args.keys), str(args.parallelism),
                    "hashmap", args.mode, str(args.slide_seconds)]
        out = io.StringIO()
        real, sys.stdout = sys.stdout, out
        try:
            runpy.run_path(os.path.join(HERE, "jobs", args.job + ".py"), run_name="__main__")
        finally:
            sys.stdout = real
        return out.getvalue().strip()

    run(2000)
    runs.clear()
    line = ""
    for _ in range(max(1, args.repeat)):
        line = run(args.records)
    # each figure's fastest run: a run slowed by the machine's other work slows some
    # sections and not others
    best = {"total": min(r[0] for r in runs),
            "stages": {stage: min((r[1][stage] for r in runs), key=sum) for stage in runs[0][1]},
            "spent": {slot: min(r[2].get(slot, 0.0) for r in runs) for slot in runs[0][2]},
            "calls": runs[0][3]}
    n = args.records
    stages = best["stages"]
    own, counted = best["spent"], best["calls"]
    print("%s: %d records, %d keys, parallelism %d%s, engine alone (subtasks in turn, one "
          "process), fastest of %d" % (args.job, n, args.keys, args.parallelism,
                                      ", slide %d s" % args.slide_seconds
                                      if args.slide_seconds else "", args.repeat))
    print("  job's line: %s" % line)
    print("  total %.3f s (%.2f us/record)" % (best["total"], best["total"] / n * 1e6))
    print("  %-68s %8s %8s %8s" % ("stage / section (own time)", "s", "us/rec", "calls"))
    for index, stage_id in enumerate(sorted(stages)):
        total = sum(stages[stage_id])
        print("  stage %s: %.3f s, %.2f us/record (tasks %s)" % (
            stage_id, total, total / n * 1e6, " + ".join("%.3f" % t for t in stages[stage_id])))
        mine = sorted(((name, t) for (stage, name), t in own.items() if stage == index),
                      key=lambda item: -item[1])
        for name, seconds in mine:
            print("    %-66s %8.3f %8.2f %8d" % (LABELS.get(name, name), seconds,
                                                 seconds / n * 1e6, counted[(index, name)]))
        rest = total - sum(t for _, t in mine)
        print("    %-66s %8.3f %8.2f" % ("the rest (source, map, task loop, valve...)", rest,
                                         rest / n * 1e6))
    return 0


if __name__ == "__main__":
    sys.exit(main())
