"""Both runners implement the exchange contract (direct/exchange.py): a sample of compat cases
across basic / state / window / two_input / partitioning must print exactly the same on the
direct runner as on Spark (and what real PyFlink printed)."""
from pathlib import Path

import pytest

from pyflink_on_spark.cli.script_runner import run_script_captured
from pyflink_on_spark.compat.cases import case_for_program, to_bytes
from pyflink_on_spark.direct import runner as direct_runner

CASES_ROOT = Path(__file__).resolve().parents[3] / "compat_tests" / "cases"
SAMPLE = [
    "basic/batch_parallel_aggregates", "basic/keyed_subtask_assignment",
    "basic/user_exception", "basic/execute_and_collect_variants",
    "state/event_time_timers", "state/timers_parallel", "state/side_outputs",
    "state/state_backends",
    "window/keyed_windows_parallel", "window/event_time_session_process",
    "window/side_output_late_data",
    "two_input/keyed_co_process_parallel", "two_input/broadcast_every_instance",
    "two_input/batch_mode_two_inputs_p1",
    "partitioning/partitioning_subtasks", "partitioning/union_many",
]


def _run(program: Path) -> bytes:
    stdout, exc = run_script_captured(str(program), [])
    assert exc is None, "%s raised %r" % (program.name, exc)
    return to_bytes(stdout)


@pytest.fixture
def direct(monkeypatch):
    """env.execute() / execute_and_collect() run on the direct runner instead of Spark;
    returns the list of stage counts of the jobs the direct runner ran."""
    from pyflink_on_spark.spark import executor
    ran = []
    real_run_stages = direct_runner.run_stages

    def run_stages(job, work_dir=None):
        ran.append(len(job.stages))
        return real_run_stages(job, work_dir)

    monkeypatch.setattr(direct_runner, "run_stages", run_stages)
    monkeypatch.setattr(executor, "execute_job", direct_runner.execute_job)
    monkeypatch.setattr(executor, "execute_collect", direct_runner.execute_collect)
    return ran


@pytest.mark.parametrize("name", SAMPLE)
def test_direct_runner_prints_what_spark_prints(name, spark, request):
    case = case_for_program(CASES_ROOT / (name + ".py"), CASES_ROOT)
    on_spark = _run(case.program)
    ran = request.getfixturevalue("direct")
    on_direct = _run(case.program)
    assert ran, "the case's jobs did not run on the direct runner"
    assert on_direct == on_spark
    assert on_direct == case.read_expected()
