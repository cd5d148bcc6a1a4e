"""Fixtures of the Spark tests beside the session-wide ones of the root conftest.py."""
import json
import sys
from dataclasses import dataclass
from typing import Tuple

import pytest

# Runs job scripts one after another in one process, each as `python script args` would (as
# its own __main__, its arguments in sys.argv), and says which finished. The first is a Kafka
# job: its session starts with Spark's Kafka connector. `run` starts the session early, while
# a script loads, unless the script names Kafka (spark/prestart.py), so the runner does: a
# session started without the connector is stopped and started again in a new JVM, which on
# the cluster was a second application (the client's driver, its executors and their Python).
_RUNNER = '''
# runs a Kafka job first
import json
import runpy
import sys

for name, script, args in json.loads(sys.argv[1]):
    sys.argv = [script] + args
    runpy.run_path(script, run_name="__main__")
    print("finished: %s" % name, flush=True)
'''


@dataclass(frozen=True)
class ClientRun:
    code: int
    out: str
    err: str
    kafka_topics: Tuple[str, str, str]     # the Kafka job's input, at-least-once, exactly-once

    def finished(self, name: str) -> bool:
        return "finished: %s" % name in self.out.splitlines()


@pytest.fixture(scope="session")
def connector_jobs_on_the_cluster(standalone_cluster, kafka_broker, mariadb, postgres,
                                  tmp_path_factory) -> ClientRun:
    """One client application on the standalone cluster (`pyflink-on-spark run`) that runs the
    Kafka job of test_kafka_on_a_cluster.py, then the JDBC job of test_jdbc_on_a_cluster.py:
    each cluster application costs a driver JVM and its executors' start (~20 s), and the two
    jobs write to different stores. Each test asserts its job's output and that its job
    finished."""
    from pyflink_on_spark.spark.tests.test_jdbc_on_a_cluster import prepare_jdbc_job
    from pyflink_on_spark.spark.tests.test_kafka_on_a_cluster import prepare_kafka_job
    from pyflink_on_spark.spark.tests.test_runs_on_any_spark import CHECKOUT
    tmp = tmp_path_factory.mktemp("connectors-on-a-cluster")
    kafka_script, kafka_args, topics = prepare_kafka_job(kafka_broker, tmp)
    jdbc_script, jdbc_args = prepare_jdbc_job(mariadb, postgres, tmp)
    runner = tmp / "kafka_then_jdbc.py"
    runner.write_text(_RUNNER)
    jobs = [("kafka", kafka_script, kafka_args), ("jdbc", jdbc_script, jdbc_args)]
    code, out, err = standalone_cluster.run_client(
        [sys.executable, "-m", "pyflink_on_spark.cli.main", "run", str(runner),
         json.dumps(jobs)], str(tmp), cwd=CHECKOUT)
    return ClientRun(code, out, err, topics)
