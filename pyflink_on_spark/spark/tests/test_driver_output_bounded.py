"""Results that reach the driver (print, execute_and_collect) come in slices of at most
DRIVER_SLICE_ROWS boundary rows, partition by partition in order: the driver's memory does
not grow with the job's output (a 10M-record print at parallelism 2 used to run the driver
out of memory and hang). Sized for CI: a small slice makes a modest output span many."""
import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.common.watermark_strategy import WatermarkStrategy
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.number_seq import NumberSequenceSource
from pyflink_on_spark.spark import executor

N = 60_000


def _collect(parallelism: int):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(parallelism)
    numbers = env.from_source(NumberSequenceSource(0, N - 1), WatermarkStrategy.no_watermarks(),
                              "numbers").map(lambda v: v * 2, output_type=Types.LONG())
    with numbers.execute_and_collect() as results:
        return list(results)


def test_collected_output_comes_in_bounded_slices_complete_and_in_order(spark, monkeypatch):
    slices = []
    run_job = type(spark.sparkContext).runJob

    def counting_run_job(context, rdd, function, partitions=None, *args):
        rows = run_job(context, rdd, function, partitions, *args)
        slices.append(len(rows))
        return rows

    monkeypatch.setattr(executor, "DRIVER_SLICE_ROWS", 3)
    monkeypatch.setattr(type(spark.sparkContext), "runJob", counting_run_job)
    values = _collect(parallelism=2)
    assert sorted(values) == [2 * v for v in range(N)]
    # each subtask's values arrive in its own order (its range of the sequence, ascending)
    first_half = [v for v in values if v < N]
    assert first_half == sorted(first_half)
    assert max(slices) <= 3 and len(slices) >= N // 2048 // 3


def test_print_of_a_job_spanning_many_slices_prints_every_record(spark, monkeypatch, capsys):
    monkeypatch.setattr(executor, "DRIVER_SLICE_ROWS", 2)
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.from_source(NumberSequenceSource(0, 9_999), WatermarkStrategy.no_watermarks(),
                    "numbers").print()
    env.execute("print many slices")
    lines = capsys.readouterr().out.splitlines()
    assert lines == [str(v) for v in range(10_000)]
