"""50 tiny jobs in one pytest run: the shim (on Spark, and on the direct runner) vs the same
50 tests on real PyFlink. Each test builds a small keyed job (from_collection -> map ->
key_by -> reduce) and checks its exact collected output.

    python benchmarks/pytest_many_jobs.py [--jobs 50] [--reference /opt/venvs/flink/bin/python]

The reference interpreter needs pytest (`/opt/venvs/flink/bin/pip install pytest`). Each
run is one whole `python -m pytest` process (interpreter start, Spark or the Flink
mini-cluster start, all tests), timed from outside; one run each, ratios from this run.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TESTS = '''
import pytest
from pyflink.common import Types


@pytest.mark.parametrize("job", range({jobs}))
def test_tiny_job(env, job):
    pairs = [(i % 3, i + job) for i in range(20)]
    summed = env.from_collection(pairs, type_info=Types.TUPLE([Types.INT(), Types.INT()])) \\
        .map(lambda p: (p[0], p[1] * 2), output_type=Types.TUPLE([Types.INT(), Types.INT()])) \\
        .key_by(lambda p: p[0]) \\
        .reduce(lambda a, b: (a[0], a[1] + b[1]))
    with summed.execute_and_collect() as results:
        final = {{}}
        for key, total in results:
            final[key] = total
    assert final == {{k: sum(2 * v for kk, v in pairs if kk == k) for k in range(3)}}
'''

SHIM_CONFTEST = '''
import pytest

pytest_plugins = ["pyflink_on_spark.testing.plugin"]


@pytest.fixture
def env({fixture}):
    return {fixture}
'''

PYFLINK_CONFTEST = '''
import pytest
from pyflink.datastream import StreamExecutionEnvironment


@pytest.fixture
def env():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    return env
'''


def _run(python: str, conftest: str, jobs: int, extra_env: dict) -> float:
    with tempfile.TemporaryDirectory() as directory:
        with open(os.path.join(directory, "conftest.py"), "w") as handle:
            handle.write(conftest)
        with open(os.path.join(directory, "test_tiny_jobs.py"), "w") as handle:
            handle.write(TESTS.format(jobs=jobs))
        env = dict(os.environ, **extra_env)
        start = time.perf_counter()
        done = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               "--rootdir", directory, directory],
                              cwd=directory, env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - start
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    if done.returncode != 0 or "%d passed" % jobs not in summary:
        sys.exit("pytest failed (%s):\n%s\n%s" % (python, done.stdout[-3000:],
                                                  done.stderr[-3000:]))
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=50)
    parser.add_argument("--reference", help="real PyFlink's python (with pytest installed)")
    args = parser.parse_args()
    shim_env = {"PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    print("%d tiny jobs in one pytest run (whole process, one run each)" % args.jobs,
          flush=True)
    rows = []

    def report(label: str, seconds: float) -> None:
        rows.append((label, seconds))
        print("  %-36s %7.1f s  %6.2f s/job" % (label, seconds, seconds / args.jobs),
              flush=True)
    if args.reference:
        reference_bin = os.path.dirname(args.reference)
        report("real PyFlink 1.20", _run(
            args.reference, PYFLINK_CONFTEST, args.jobs,
            {"PATH": reference_bin + os.pathsep + os.environ["PATH"]}))
    for label, fixture in (("shim, flink_direct_env (no Spark)", "flink_direct_env"),
                           ("shim, flink_env (Spark)", "flink_env")):
        report(label, _run(sys.executable, SHIM_CONFTEST.format(fixture=fixture),
                           args.jobs, shim_env))
    if args.reference:
        for label, seconds in rows[1:]:
            print("  %s / real PyFlink: %.3f" % (label, seconds / rows[0][1]))


if __name__ == "__main__":
    main()
