"""A Python worker killed mid-job (SIGKILL, as an OOM killer or a lost machine would) is a
task failure Spark retries; the job's output is identical to an undisturbed run. Needs a
master that retries tasks: the default (local[*,4], spark/session.py) does, as a cluster
does; plain local[N] fails the job at the first lost task."""
import os
import signal

import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.number_seq import NumberSequenceSource
from pyflink_on_spark.common.watermark_strategy import WatermarkStrategy

N = 20_000


def kill_once(marker: str, at: int):
    """A function that kills the Python worker running it when it sees record `at`, once
    (the marker file remembers). A closure, so it ships by value to the workers."""
    def kill(value):
        if value == at and not os.path.exists(marker):
            open(marker, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
        return value
    return kill


def _job(kill_before_shuffle=None, kill_after_shuffle=None):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    numbers = env.from_source(NumberSequenceSource(0, N - 1), WatermarkStrategy.no_watermarks(),
                              "numbers")
    if kill_before_shuffle:
        numbers = numbers.map(kill_before_shuffle, output_type=Types.LONG())
    keyed = numbers.map(lambda v: (v % 7, v), output_type=Types.TUPLE(
        [Types.LONG(), Types.LONG()])).key_by(lambda t: t[0]).reduce(
        lambda a, b: (a[0], a[1] + b[1]))
    if kill_after_shuffle:
        keyed = keyed.map(lambda t: (kill_after_shuffle(t[1] % N), t)[1],
                          output_type=Types.TUPLE([Types.LONG(), Types.LONG()]))
    with keyed.execute_and_collect() as results:
        return sorted(results)


@pytest.fixture(scope="module")
def undisturbed(spark):
    return _job()


@pytest.mark.parametrize("where, at", [("source stage", 0), ("source stage", N // 2),
                                       ("source stage", N - 1), ("after the shuffle", 3)])
def test_a_killed_worker_is_retried_and_the_output_is_identical(spark, undisturbed, tmp_path,
                                                                 where, at):
    marker = str(tmp_path / "killed")
    killer = kill_once(marker, at)
    if where == "source stage":
        result = _job(kill_before_shuffle=killer)
    else:
        result = _job(kill_after_shuffle=killer)
    assert os.path.exists(marker), "the worker was not killed"
    assert result == undisturbed
