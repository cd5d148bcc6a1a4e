"""Results that reach the driver (print, execute_and_collect) come through the driver channel
while the job runs (spark/driver_channel.py): complete, in stream order (subtask by
subtask), the streams that are not at the front waiting on disk, so the driver's memory does
not grow with the job's output (a 10M-record print at parallelism 2 used to run the driver
out of memory and hang). The ordering and spilling are unit-tested in test_driver_channel.py."""
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.common.watermark_strategy import WatermarkStrategy
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.number_seq import NumberSequenceSource

N = 60_000


def test_collected_output_is_complete_and_in_subtask_order(spark):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    numbers = env.from_source(NumberSequenceSource(0, N - 1), WatermarkStrategy.no_watermarks(),
                              "numbers").map(lambda v: v * 2, output_type=Types.LONG())
    with numbers.execute_and_collect() as results:
        values = list(results)
    # subtask 0 reads the first half of the sequence, subtask 1 the second
    assert values == [2 * v for v in range(N)]


def test_print_of_many_chunks_prints_every_record_in_order(spark, capsys):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.from_source(NumberSequenceSource(0, 9_999), WatermarkStrategy.no_watermarks(),
                    "numbers").print()
    env.execute("print many chunks")
    lines = capsys.readouterr().out.splitlines()
    assert lines == [str(v) for v in range(10_000)]


def test_a_collect_sink_in_its_input_stage_gives_the_order_its_own_stage_gave(spark):
    # execute_and_collect's sink runs in its input's stage (graph/compile.py): the values
    # come subtask by subtask as they came through the sink's single subtask; a chosen
    # partitioning (rebalance) keeps the sink's own stage, and the same order
    from pyflink_on_spark.datastream import RuntimeExecutionMode

    for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
        got = []
        for chosen in (False, True):
            env = StreamExecutionEnvironment.get_execution_environment()
            env.set_parallelism(2)
            env.set_runtime_mode(mode)
            mapped = env.from_collection(list(range(10)), type_info=Types.INT()) \
                .map(lambda v: v * 10, output_type=Types.INT()).set_parallelism(2)
            with (mapped.rebalance() if chosen else mapped).execute_and_collect() as results:
                got.append(list(results))
        # the source (parallelism 1) deals its records round robin from subtask 0 (the map's
        # parallelism set: BATCH would choose 1 for so little data)
        assert got[0] == got[1] == [0, 20, 40, 60, 80, 10, 30, 50, 70, 90], mode


def _endless(env):
    """A bounded source no run could finish (10^10 records): practically endless."""
    return env.from_source(NumberSequenceSource(0, 10 ** 10), WatermarkStrategy.no_watermarks(),
                           "numbers").map(lambda v: v * 2, output_type=Types.LONG())


def test_collect_with_a_limit_returns_at_the_limit_and_ends_a_practically_endless_job(spark):
    """As PyFlink: the n-th record ends the job. Before, the driver stopped reading and the
    job's end waited for room in the channel's full queue: the call never returned."""
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    assert _endless(env).execute_and_collect(limit=3) == [0, 2, 4]
    # the session is free again: the next job runs
    assert env.from_collection([1, 2]).execute_and_collect(limit=5) == [1, 2]


def test_closing_the_iterator_early_ends_a_practically_endless_job(spark):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    with _endless(env).execute_and_collect() as results:
        first = [next(results) for _ in range(5)]
    assert first == [0, 2, 4, 6, 8]
    assert env.from_collection([7]).execute_and_collect(limit=1) == [7]
