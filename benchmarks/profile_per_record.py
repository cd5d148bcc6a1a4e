"""Per-record cost breakdown of a benchmark job inside the engine, without Spark (issue 14).

    python benchmarks/profile_per_record.py keyed_value_state [--records 200000] [--top 25]
    python benchmarks/profile_per_record.py map_keyby_reduce

The job script (benchmarks/jobs/JOB.py, unmodified) builds its graph as usual; its
execute_and_collect() is answered here instead of by Spark: every stage runs through the very
function a Spark task runs (spark/stage_task.py make_stage_function: Arrow batches in, Arrow
batches out), fed with Arrow batches of the stage's input rows as Spark's mapInArrow hands
them over (up to 10,000 rows a batch), one subtask after another, in this one process
(one core). cProfile measures it; each function's own time (tottime) is put in one bucket
by where the function lives, and the table gives microseconds per input record and shares.
What this cannot show is Spark's side (JVM shuffle, sort, Arrow transfer between JVM and
Python): compare with benchmarks/run.py on the same job for that share.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

SPARK_ARROW_BATCH_ROWS = 10_000  # spark.sql.execution.arrow.maxRecordsPerBatch's default

# (bucket, test on (file, function name)); the first match wins, so order matters.
BUCKETS = [
    ("Arrow decode / encode (to_pylist, rows_to_batch)",
     lambda f, n: "pyarrow" in f or "batch_schema.py" in f or "to_pylist" in n
     or "from_arrays" in n or "pyarrow" in n or n.startswith("<built-in method pyarrow")),
    ("deserialize input chunks (pickle.loads)",
     lambda f, n: "_pickle.loads" in n or "pickle.loads" in n),
    ("serialize output chunks (cloudpickle.dumps)",
     lambda f, n: "cloudpickle" in f or "_pickle.Pickler" in n or "Pickler" in n
     or "_pickle.dumps" in n),
    ("source: reading the splits (NumberSequenceSource)",
     lambda f, n: "operators" + os.sep + "source.py" in f or "connectors" in f),
    ("user functions (job script) + their API wrappers (datastream/functions.py)",
     lambda f, n: f.endswith(os.sep + "jobs" + os.sep + JOB + ".py")
     or "functions.py" in f and n in ("map", "reduce", "flat_map", "filter")),
    ("key extraction + key -> subtask / key group",
     lambda f, n: "key_groups.py" in f or "_key_hash.py" in f or "_java_text.py" in f
     or "typeinfo.py" in f or "key_selector" in f or "functions.py" in f and "get_key" in n),
    ("keyed state access (runtime/state)", lambda f, n: os.sep + "state" + os.sep in f),
    # an exit's compiled loop (runtime/exits/loops.py: "<exit loop N>") does the exit's
    # per-record work inline: the fused map's and key selector's calls are theirs, the rest
    # (the tests, the slots, a fold's bookkeeping, marshal) is the exit's
    ("output routing + chunking (runtime/exits/, output.py, exit loops)",
     lambda f, n: os.sep + "exits" + os.sep in f or "output.py" in f or f.startswith("<exit loop")),
    ("operator / task framework (runtime/operators, task.py, context, batch_order)",
     lambda f, n: os.sep + "runtime" + os.sep in f or "stage_task.py" in f),
]
OTHER = "the rest (driver side, stdlib)"
JOB = ""


def bucket_of(filename: str, name: str) -> str:
    for bucket, matches in BUCKETS:
        if matches(filename, name):
            return bucket
    return OTHER


def run_through_stage_functions(job, collect_sink_id: int, stage_seconds: dict = None):
    """What the Spark executor does, in-process: each stage's tasks through the Spark task
    function on Arrow batches; returns the collected values. stage_seconds, when given,
    gets each stage's time per task, as a list (tasks in turn, Arrow batches made beforehand
    excluded)."""
    import cloudpickle
    from pyflink_on_spark.direct.exchange import route, source_split_rows, upstream_rows
    from pyflink_on_spark.direct.runner import sink_rows
    from pyflink_on_spark.spark.batch_schema import rows_to_batch
    from pyflink_on_spark.spark.stage_task import make_stage_function

    outputs = {}
    for stage in job.stages:
        spec = stage.spec
        rows = (source_split_rows(stage.source.splits) if stage.source is not None
                else upstream_rows(stage.upstream, outputs))
        run_stage = make_stage_function(cloudpickle.dumps(spec), False)
        produced = []
        spent = []
        for mine in route(rows, spec.parallelism):
            if not mine:
                continue
            batches = [rows_to_batch(mine[i:i + SPARK_ARROW_BATCH_ROWS])
                       for i in range(0, len(mine), SPARK_ARROW_BATCH_ROWS)]
            start = time.perf_counter()
            out_batches = list(run_stage(iter(batches)))
            spent.append(time.perf_counter() - start)
            for batch in out_batches:
                produced.extend(zip(*(batch.column(i).to_pylist() for i in range(7))))
        outputs[spec.stage_id] = produced
        if stage_seconds is not None:
            stage_seconds[spec.stage_id] = spent
    values = []
    for sink, chunk in sink_rows(job, outputs):
        if sink.node_id == collect_sink_id:
            values.extend(chunk)
    return values


def run_job(job: str, records: int, args) -> str:
    """Runs the unmodified job script; returns what it printed."""
    import runpy
    sys.argv = [job, str(records), str(args.keys), str(args.parallelism)]
    if args.mode != "STREAMING":   # the jobs that read MODE take it as argv[5]
        sys.argv += ["hashmap", args.mode]
    out = io.StringIO()
    real_stdout, sys.stdout = sys.stdout, out
    try:
        runpy.run_path(os.path.join(HERE, "jobs", job + ".py"), run_name="__main__")
    finally:
        sys.stdout = real_stdout
    return out.getvalue().strip()


class MergingProfile(cProfile.Profile):
    """cProfile.Profile whose stats add up functions of the same file, line and name. Each
    subtask unpickles the job's functions anew, so one user function is several code objects;
    cProfile's own snapshot keeps only the last one's figures (a 1M-record job showed 500,000
    calls of a map that ran 1,000,000 times)."""

    def snapshot_stats(self) -> None:
        entries = self.getstats()
        self.stats = {}
        callers_of = {}   # label -> {caller label: (nc, cc, tt, ct)}
        for entry in entries:
            func = cProfile.label(entry.code)
            nc = entry.callcount
            cc = nc - entry.reccallcount
            before = self.stats.get(func)
            if before is not None:
                self.stats[func] = (before[0] + cc, before[1] + nc,
                                    before[2] + entry.inlinetime, before[3] + entry.totaltime,
                                    before[4])
            else:
                callers_of[func] = {}
                self.stats[func] = cc, nc, entry.inlinetime, entry.totaltime, callers_of[func]
        for entry in entries:
            func = cProfile.label(entry.code)
            for sub in entry.calls or ():
                callers = callers_of.get(cProfile.label(sub.code))
                if callers is None:
                    continue
                figures = (sub.callcount, sub.callcount - sub.reccallcount, sub.inlinetime,
                           sub.totaltime)
                before = callers.get(func)
                callers[func] = figures if before is None else tuple(
                    a + b for a, b in zip(before, figures))


def bucket_totals(stats: pstats.Stats) -> dict:
    """Own time per bucket. A builtin (dict.get, list.append, ...) that no bucket claims by
    its name is charged to its callers' buckets, in proportion to the time each call site
    spent in it."""
    totals = {}
    for (filename, _line, name), (_cc, _nc, tottime, _ct, callers) in stats.stats.items():
        bucket = bucket_of(filename, name)
        if bucket == OTHER and filename == "~" and callers:
            for (c_file, _c_line, c_name), caller_times in callers.items():
                c_bucket = bucket_of(c_file, c_name)
                totals[c_bucket] = totals.get(c_bucket, 0.0) + caller_times[2]
            continue
        totals[bucket] = totals.get(bucket, 0.0) + tottime
    return totals


def main(argv=None) -> int:
    global JOB
    parser = argparse.ArgumentParser()
    parser.add_argument("job", nargs="?", default="keyed_value_state")
    parser.add_argument("--records", type=int, default=200_000)
    parser.add_argument("--keys", type=int, default=1000)
    parser.add_argument("--parallelism", type=int, default=2)
    parser.add_argument("--mode", default="STREAMING", choices=["STREAMING", "BATCH"])
    parser.add_argument("--top", type=int, default=0, help="also print the N costliest functions")
    parser.add_argument("--repeat", type=int, default=1,
                        help="unprofiled runs; the fastest is reported (the machine is noisy)")
    args = parser.parse_args(argv)
    JOB = args.job

    from pyflink_on_spark.aliasing import install_pyflink_alias
    from pyflink_on_spark.spark import entry
    install_pyflink_alias()
    profile = None
    wall = {}

    def execute_and_collect(sinks, collect_sink_id, settings):
        job = entry.compile_job(sinks, settings)
        start = time.perf_counter()
        if profile is None:  # the warm-up run and the unprofiled timings
            stages = {}
            values = run_through_stage_functions(job, collect_sink_id, stages)
            seconds = time.perf_counter() - start
            if seconds < wall.get("plain", float("inf")):
                wall["plain"], wall["stages"] = seconds, stages
            return iter(values)
        profile.enable()
        try:
            values = run_through_stage_functions(job, collect_sink_id)
        finally:
            profile.disable()
        wall["s"] = time.perf_counter() - start
        return iter(values)

    entry.execute_and_collect = execute_and_collect
    run_job(args.job, 2000, args)  # warm-up: imports and first-use costs, not profiled
    wall.clear()
    for _ in range(max(1, args.repeat)):  # the engine's time without the profiler
        run_job(args.job, args.records, args)
    profile = MergingProfile()
    result = run_job(args.job, args.records, args)

    totals = bucket_totals(pstats.Stats(profile))
    profiled = sum(totals.values())
    n = args.records
    print("%s: %d records, %d keys, parallelism %d (subtasks run in turn, one process)"
          % (args.job, n, args.keys, args.parallelism))
    print("  job's own line: %s" % result)
    print("  engine alone, no profiler: %.2f s (%.2f us/record); compare with the job's "
          "seconds in benchmarks/run.py for Spark's share" % (wall["plain"],
                                                            wall["plain"] / n * 1e6))
    print("  per stage (tasks in turn): %s" % ", ".join(
        "stage %s %.3f s (%.2f us/record; tasks %s)"
        % (stage_id, sum(tasks), sum(tasks) / n * 1e6, " + ".join("%.3f" % t for t in tasks))
        for stage_id, tasks in sorted(wall["stages"].items())))
    print("  wall time under cProfile %.2f s (%.2f us/record); profiler overhead inflates "
          "Python calls, so read shares, not absolute values" % (wall["s"], wall["s"] / n * 1e6))
    plain_us = wall["plain"] / n * 1e6
    print("  %-78s %9s %9s %6s" % ("item", "prof us", "us/rec", "%"))
    for bucket in [b for b, _ in BUCKETS] + [OTHER]:
        seconds = totals.get(bucket, 0.0)
        share = seconds / profiled
        print("  %-78s %9.2f %9.2f %5.1f%%" % (bucket, seconds / n * 1e6, share * plain_us,
                                              100 * share))
    print("  %-78s %9.2f %9.2f %5.1f%%" % ("total", profiled / n * 1e6, plain_us, 100.0))
    print("  (prof us: own time under cProfile per record; us/rec: the share times the "
          "unprofiled time per record)")
    if args.top:
        text = io.StringIO()
        pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(args.top)
        print(text.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
