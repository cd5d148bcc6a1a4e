"""Every compatibility case, run on the shim in this process (one SparkSession for all), must
print byte for byte what real PyFlink 1.20 printed (the recorded .expected file)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pyflink_on_spark.compat.cases import discover_cases
from pyflink_on_spark.compat.report import detail_lines
from pyflink_on_spark.compat.shim import run_shim
from pyflink_on_spark.spark.tests.kafka_broker import BOOTSTRAP_ENV as KAFKA_ENV

CASES_ROOT = Path(__file__).parent / "cases"
CASES = discover_cases(CASES_ROOT)


def test_every_case_has_an_expected_output_recorded_from_pyflink():
    missing = [c.name for c in CASES if not c.has_expected]
    assert CASES and not missing, "cases without a recorded .expected: %s" % missing


# cases that read a test server's address from the environment: the fixture that starts it
SERVER_FIXTURES = {"PYFLINK_ON_SPARK_TEST_POSTGRES_URL": "postgres",
                   "PYFLINK_ON_SPARK_TEST_MARIADB_URL": "mariadb",
                   "PYFLINK_ON_SPARK_TEST_CASSANDRA": "cassandra",
                   "PYFLINK_ON_SPARK_TEST_RABBITMQ": "rabbitmq"}
# Kafka cases request the broker in their own test function: the shared `spark` fixture adds
# Spark's Kafka connector when a collected test names `kafka_broker` (conftest.py), and
# packages are read only when the session starts
SERVER_FIXTURES["PYFLINK_ON_SPARK_TEST_ELASTICSEARCH_URL"] = "elasticsearch"


def _reads(case, variable: str) -> bool:
    return variable in case.program.read_text()


RECORDED = [c for c in CASES if c.has_expected]
KAFKA_CASES = [c for c in RECORDED if _reads(c, KAFKA_ENV)]


def _check(case):
    result = run_shim(case)
    assert result.passed, "\n".join(detail_lines(result))


def _servers(case) -> list:
    return [fixture for variable, fixture in SERVER_FIXTURES.items() if _reads(case, variable)]


def _with_its_servers(case):
    # the mark keeps a case that needs a server in the xdist worker that runs the servers
    # (conftest.py): another worker would start a second one
    return pytest.param(case, marks=pytest.mark.uses_servers(*_servers(case)), id=case.name)


@pytest.mark.parametrize("case", [_with_its_servers(c) for c in RECORDED
                                  if c not in KAFKA_CASES])
def test_case_matches_pyflink(case, spark, request):
    for fixture in _servers(case):
        request.getfixturevalue(fixture)
    _check(case)


@pytest.mark.parametrize("case", KAFKA_CASES, ids=lambda c: c.name)
def test_kafka_case_matches_pyflink(case, kafka_broker, spark):
    _check(case)


def test_drop_in_runner_runs_an_unmodified_script_in_a_fresh_process(tmp_path):
    script = tmp_path / "job.py"
    script.write_text(
        "from pyflink.common import Types\n"
        "from pyflink.datastream import StreamExecutionEnvironment, MapFunction\n"
        "class Twice(MapFunction):\n"
        "    def map(self, value):\n"
        "        return value * 2\n"
        "env = StreamExecutionEnvironment.get_execution_environment()\n"
        "env.set_parallelism(1)\n"
        "env.from_collection([1, 2, 3], type_info=Types.INT()).map(Twice(), Types.INT())"
        ".print()\n"
        "env.execute('job')\n")
    proc = subprocess.run([sys.executable, "-m", "pyflink_on_spark.cli.main", "run",
                           str(script)], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout == "2\n4\n6\n"
