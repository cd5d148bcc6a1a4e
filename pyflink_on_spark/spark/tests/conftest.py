"""Fixtures of the Spark tests beside the session-wide ones of the root conftest.py."""
import json
import sys
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

import pytest

# Runs jobs one after another in one process: a script as `python script args` would (as its
# own __main__, its arguments in sys.argv), or the `pyflink-on-spark` command's main() with
# its arguments (its exit code kept); each job's output is framed by lines naming it.
_RUNNER = '''
import json
import runpy
import sys

for name, kind, target, args in json.loads(sys.argv[1]):
    print("started: %s" % name, flush=True)
    code = 0
    if kind == "script":
        sys.argv = [target] + args
        runpy.run_path(target, run_name="__main__")
    else:
        from pyflink_on_spark.cli.main import main
        code = main(args)
    print("finished: %s" % name, flush=True)
    print("exit code: %s %d" % (name, code), flush=True)
'''

# job -> the test module whose test asserts it: a job runs when a test of its module that
# asks for client_jobs_on_the_cluster is collected, so that a run of one of these files
# starts only the servers its job needs
_JOB_TESTS = {"kafka": "test_kafka_on_a_cluster.py", "jdbc": "test_jdbc_on_a_cluster.py",
              "compat": "test_runs_on_any_spark.py"}


@dataclass(frozen=True)
class ClientRun:
    code: int
    out: str
    err: str
    # the Kafka job's input, at-least-once and exactly-once topics (None: no Kafka job)
    kafka_topics: Optional[Tuple[str, str, str]]

    def finished(self, name: str) -> bool:
        return "finished: %s" % name in self.out.splitlines()

    def output_of(self, name: str) -> str:
        """What the job printed to stdout (between its started / finished lines)."""
        lines = self.out.splitlines()
        if "started: %s" % name not in lines:
            return ""
        start = lines.index("started: %s" % name) + 1
        end = lines.index("finished: %s" % name) if self.finished(name) else len(lines)
        return "\n".join(lines[start:end]) + "\n"

    def exit_code(self, name: str) -> Optional[int]:
        """The exit code of a `pyflink-on-spark` command job, None if it did not return."""
        prefix = "exit code: %s " % name
        codes = [int(line[len(prefix):]) for line in self.out.splitlines()
                 if line.startswith(prefix)]
        return codes[-1] if codes else None


def _collected_jobs(session) -> Dict[str, None]:
    modules = {item.path.name for item in session.items
               if "client_jobs_on_the_cluster" in getattr(item, "fixturenames", ())}
    return {job: None for job, module in _JOB_TESTS.items() if module in modules}


@pytest.fixture(scope="session")
def client_jobs_on_the_cluster(standalone_cluster, request, tmp_path_factory) -> ClientRun:
    """One client application on the standalone cluster that runs, of the jobs whose tests
    are collected, the Kafka job of test_kafka_on_a_cluster.py, then the JDBC job of
    test_jdbc_on_a_cluster.py (`pyflink-on-spark run` of each script), then the compat cases
    of test_runs_on_any_spark.py (`pyflink-on-spark compat`): each cluster application costs
    a driver JVM and its executors' start (~15-20 s), and the jobs write to different
    stores. Each test asserts its job's output and that its job finished."""
    from pyflink_on_spark.spark.tests.standalone_cluster import CLIENT_TIMEOUT_S
    from pyflink_on_spark.spark.tests.test_runs_on_any_spark import (CHECKOUT,
                                                                     compat_arguments)
    wanted = _collected_jobs(request.session) or dict.fromkeys(_JOB_TESTS)
    tmp = tmp_path_factory.mktemp("client-jobs-on-a-cluster")
    jobs, topics = [], None
    if "kafka" in wanted:
        from pyflink_on_spark.spark.tests.test_kafka_on_a_cluster import prepare_kafka_job
        script, args, topics = prepare_kafka_job(request.getfixturevalue("kafka_broker"), tmp)
        jobs.append(("kafka", "script", script, args))
    if "jdbc" in wanted:
        from pyflink_on_spark.spark.tests.test_jdbc_on_a_cluster import prepare_jdbc_job
        script, args = prepare_jdbc_job(request.getfixturevalue("mariadb"),
                                        request.getfixturevalue("postgres"), tmp)
        jobs.append(("jdbc", "script", script, args))
    if "compat" in wanted:
        jobs.append(("compat", "command", "pyflink-on-spark", compat_arguments()))
    runner = tmp / "client_jobs.py"
    # `run` starts the session early, while a script loads, unless the script names Kafka
    # (spark/prestart.py): a Kafka job's session must start with Spark's Kafka connector, and
    # one started without it is stopped and started again in a new JVM, a second cluster
    # application. The runner names it when it runs the Kafka job (first: its session is
    # the one the later jobs use).
    runner.write_text(("# runs a Kafka job first\n" if "kafka" in wanted else "") + _RUNNER)
    # each job had a client process of its own, and its timeout
    code, out, err = standalone_cluster.run_client(
        [sys.executable, "-m", "pyflink_on_spark.cli.main", "run", str(runner),
         json.dumps(jobs)], str(tmp), cwd=CHECKOUT, timeout_s=CLIENT_TIMEOUT_S * len(jobs))
    return ClientRun(code, out, err, topics)
