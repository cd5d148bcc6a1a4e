"""Small-job latency (issue 14, target 1): one ValueState counter over a short
from_collection, from command to exit, cold and warm, shim vs real PyFlink.

    python benchmarks/small_job_latency.py [--pairs 3] [--reference /opt/venvs/flink/bin/python]

Prints a markdown table:
- whole process, paired runs in turn (shim cold as before the cold-path work, i.e. with
  the class-data-sharing archive, the early session start and the quick JIT off; shim cold
  with the full JIT; shim cold; shim warm on `serve`; PyFlink), median;
- phases inside the shim's process (imports, SparkSession, first job, a second job), cold
  (Spark started in the process) and warm (the `serve` Connect server).
The `serve` server it uses is its own (a temporary state directory), stopped at the end.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

JOB = '''
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment, KeyedProcessFunction
from pyflink.datastream.state import ValueStateDescriptor


class Count(KeyedProcessFunction):
    def open(self, ctx):
        self.count = ctx.get_state(ValueStateDescriptor("count", Types.LONG()))

    def process_element(self, value, ctx):
        n = (self.count.value() or 0) + 1
        self.count.update(n)
        yield "%s %d" % (value[0], n)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection([("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5), ("a", 6)],
                    type_info=Types.TUPLE([Types.STRING(), Types.INT()])) \\
    .key_by(lambda v: v[0], key_type=Types.STRING()) \\
    .process(Count(), output_type=Types.STRING()).print()
env.execute("counter")
'''

# run inside the shim's process: the job twice, with a timestamp after each phase
PHASES = '''
import json, runpy, sys, time
t0 = time.monotonic()
from pyflink_on_spark.aliasing import install_pyflink_alias
install_pyflink_alias()
from pyflink_on_spark.spark import session
t1 = time.monotonic()
session.get_session()
t2 = time.monotonic()
runpy.run_path(sys.argv[1], run_name="__main__")
t3 = time.monotonic()
runpy.run_path(sys.argv[1], run_name="__main__")
t4 = time.monotonic()
sys.stderr.write("PHASES " + json.dumps({"imports": t1 - t0, "session": t2 - t1,
                                         "first job": t3 - t2, "later job": t4 - t3}) + "\\n")
'''


# the cold path as it was before the class-data-sharing archive, the early session start and
# the quick JIT (spark/class_cache.py, spark/prestart.py, spark/jit.py): all three turned off
# (the start warm-up and the worker's pandas-free batches cannot be turned off)
BEFORE = {"PYFLINK_ON_SPARK_CLASS_CACHE": "0", "PYFLINK_ON_SPARK_PRESTART": "0",
          "PYFLINK_ON_SPARK_JIT": "full"}
# the cold path with only the quick JIT turned off: what C1-only buys a cold run
FULL_JIT = {"PYFLINK_ON_SPARK_JIT": "full"}


def _env(extra=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("SPARK_REMOTE", None)
    # as after a pip install, the interpreters read compiled .pyc files (a machine that sets
    # PYTHONDONTWRITEBYTECODE compiles every module of the package in every process)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update(extra or {})
    return env


def _timed(command, env) -> float:
    start = time.monotonic()
    proc = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
    elapsed = time.monotonic() - start
    if proc.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (command, proc.stderr[-3000:]))
    return elapsed


def _phases(command, env) -> dict:
    proc = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
    for line in proc.stderr.splitlines():
        if line.startswith("PHASES "):
            return json.loads(line[len("PHASES "):])
    raise RuntimeError("no phases:\n" + proc.stderr[-3000:])


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--pairs", type=int, default=3)
    p.add_argument("--reference", default="/opt/venvs/flink/bin/python")
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="small-job-latency-")
    job = os.path.join(work, "job.py")
    phases_script = os.path.join(work, "phases.py")
    open(job, "w").write(JOB)
    open(phases_script, "w").write(PHASES)
    state = {"PYFLINK_ON_SPARK_STATE_DIR": os.path.join(work, "state")}
    cli = [sys.executable, "-m", "pyflink_on_spark.cli.main"]
    serve_started = time.monotonic()
    subprocess.run(cli + ["serve"], env=_env(state), check=True, capture_output=True)
    serve_s = time.monotonic() - serve_started
    try:
        url = subprocess.run(cli + ["serve", "--status"], env=_env(state), check=True,
                             capture_output=True, text=True).stdout.strip()
        # the first run on a fresh server starts its Python workers: not "warm"
        _timed(cli + ["run", job], _env(state))
        # a first cold run writes the class-data-sharing archive as its JVM exits
        _timed(cli + ["run", "--master", "local[*,4]", job], _env())
        cold, before, full_jit, warm, flink = [], [], [], [], []
        flink_env = _env()
        flink_env["PATH"] = os.path.dirname(args.reference) + os.pathsep + flink_env["PATH"]
        flink_env.pop("PYTHONPATH")
        for _ in range(args.pairs):
            before.append(_timed(cli + ["run", "--master", "local[*,4]", job], _env(BEFORE)))
            full_jit.append(_timed(cli + ["run", "--master", "local[*,4]", job],
                                   _env(FULL_JIT)))
            cold.append(_timed(cli + ["run", "--master", "local[*,4]", job], _env()))
            warm.append(_timed(cli + ["run", job], _env(state)))
            flink.append(_timed([args.reference, job], flink_env))
        before_phases = _phases([sys.executable, phases_script, job], _env(BEFORE))
        cold_phases = _phases([sys.executable, phases_script, job], _env())
        warm_phases = _phases([sys.executable, phases_script, job],
                              _env({**state, "SPARK_REMOTE": url}))   # its token is there
    finally:
        subprocess.run(cli + ["serve", "--stop"], env=_env(state), capture_output=True)
    load = os.getloadavg()[0]
    m = statistics.median
    print("Small job (ValueState counter, 6 records), %d pairs, load average %.1f at the end"
          % (args.pairs, load))
    print()
    print("| command to exit (median) | seconds | / PyFlink |")
    print("|---|---|---|")
    print("| PyFlink 1.20.5 | %.1f | 1.00 |" % m(flink))
    print("| shim, cold, before (no class cache, no early session, full JIT) | %.1f | %.2f |"
          % (m(before), m(b / f for b, f in zip(before, flink))))
    print("| shim, cold, full JIT (PYFLINK_ON_SPARK_JIT=full) | %.1f | %.2f |"
          % (m(full_jit), m(j / f for j, f in zip(full_jit, flink))))
    print("| shim, cold (Spark started in the process) | %.1f | %.2f |"
          % (m(cold), m(c / f for c, f in zip(cold, flink))))
    print("| shim, warm (`serve` running) | %.1f | %.2f |"
          % (m(warm), m(w / f for w, f in zip(warm, flink))))
    print()
    print("`serve` itself started in %.1f s (once)." % serve_s)
    print()
    print("| phase inside the shim's process | cold, before s | cold s | warm s |")
    print("|---|---|---|---|")
    for name in ("imports", "session", "first job", "later job"):
        print("| %s | %.2f | %.2f | %.2f |" % (name, before_phases[name], cold_phases[name],
                                             warm_phases[name]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
