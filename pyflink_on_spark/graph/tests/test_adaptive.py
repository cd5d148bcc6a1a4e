"""BATCH adaptive parallelism (graph/adaptive.py, compile.py _parallelism): an operator behind
an exchange runs at ceil(bytes / 16 MiB) subtasks, at most the default. The switch points
below were measured on PyFlink 1.20.5 (the keyed operator's get_number_of_parallel_subtasks(),
environment parallelism 2): the shim must switch between the same counts."""
import pytest

from pyflink_on_spark.common import Types, WatermarkStrategy
from pyflink_on_spark.common.watermark_strategy import TimestampAssigner
from pyflink_on_spark.datastream import KeyedProcessFunction, StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.number_seq import NumberSequenceSource
from pyflink_on_spark.datastream.execution_mode import RuntimeExecutionMode


class Stamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Pass(KeyedProcessFunction):
    def process_element(self, value, ctx):
        yield value


def _keyed_parallelism(n, shape, mode=RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    env.set_runtime_mode(mode)
    ds = env.from_source(NumberSequenceSource(0, n - 1), WatermarkStrategy.no_watermarks(),
                         "numbers")
    pair = Types.TUPLE([Types.LONG(), Types.LONG()])
    if shape == "long key":
        keyed = ds.key_by(lambda v: v % 1000, key_type=Types.LONG())
    else:
        ds = ds.map(lambda v: (v % 1000, v), output_type=pair)
        if shape == "pair, timestamps":
            ds = ds.assign_timestamps_and_watermarks(
                WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp()))
        if shape == "pair, filtered":
            ds = ds.filter(lambda v: True)
        keyed = ds.key_by(lambda v: v[0],
                          key_type=None if shape == "pair, pickled key" else Types.LONG())
    processed = keyed.process(Pass(), output_type=pair)
    processed.print()
    job = env._compile(env._sinks)
    return job.stage_of(processed._transformation.id).spec.parallelism


@pytest.mark.parametrize("shape, last_at_1, first_at_2", [
    # 22 bytes a record: 5 of element, a Row of the LONG key and the LONG (1 + 8 + 8)
    ("long key", 757_000, 780_000),
    # 30 bytes: 5, then 1 + 8 + the pair's 16 (29 would give 1 at 566k, 31 2 at 552k)
    ("pair", 552_000, 566_000),
    # 38 bytes: a timestamp's 8 more (37 would give 1 at 448k, 39 2 at 435k)
    ("pair, timestamps", 435_000, 448_000),
])
def test_the_keyed_operator_switches_where_pyflink_does(shape, last_at_1, first_at_2):
    assert _keyed_parallelism(last_at_1, shape) == 1
    assert _keyed_parallelism(first_at_2, shape) == 2


@pytest.mark.parametrize("shape", ["pair, pickled key", "pair, filtered"])
def test_an_unknown_volume_falls_back_to_the_sources_size(shape):
    # 8 bytes a number at the source: 2 tasks from 2.1M numbers on
    assert _keyed_parallelism(2_000_000, shape) == 1
    assert _keyed_parallelism(2_200_000, shape) == 2


def test_streaming_mode_runs_the_default_parallelism():
    assert _keyed_parallelism(1000, "pair", RuntimeExecutionMode.STREAMING) == 2


def test_other_exchanges_keep_the_estimate_from_the_sources():
    # a rebalance of 1.5M numbers: 12 MB from the source, 1 task (its element size on PyFlink
    # was not measured, so it is not counted)
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    env.set_runtime_mode(RuntimeExecutionMode.BATCH)
    mapped = env.from_source(NumberSequenceSource(0, 1_499_999), WatermarkStrategy.no_watermarks(),
                             "numbers").rebalance().map(lambda v: v, output_type=Types.LONG())
    mapped.print()
    job = env._compile(env._sinks)
    assert job.stage_of(mapped._transformation.id).spec.parallelism == 1


@pytest.mark.parametrize("mode, numbers, expected", [
    (RuntimeExecutionMode.BATCH, 1000, 1),
    # 8 bytes a number at the stream's source: 2 tasks from 2.1M numbers on
    (RuntimeExecutionMode.BATCH, 2_200_000, 2),
    (RuntimeExecutionMode.STREAMING, 1000, 2),
])
def test_a_tables_rows_are_sized_by_the_bytes_the_table_reads(mode, numbers, expected):
    # seen on PyFlink 1.20.5: in BATCH mode to_data_stream(...).print() of a table (a scan
    # of a stream, a projection, a GROUP BY, a join) of small inputs prints without a
    # subtask prefix at default parallelism 2 (the shim printed "1>" before)
    from pyflink_on_spark.table import StreamTableEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    env.set_runtime_mode(mode)
    t_env = StreamTableEnvironment.create(env)
    ds = env.from_source(NumberSequenceSource(0, numbers - 1), WatermarkStrategy.no_watermarks(),
                         "numbers")
    t_env.create_temporary_view("t", t_env.from_data_stream(ds))
    rows = t_env.to_changelog_stream(t_env.sql_query("SELECT f0 % 3 AS k, COUNT(*) AS c "
                                                     "FROM t GROUP BY f0 % 3"))
    rows.print()
    job = env._compile(env._sinks)
    assert job.stage_of(rows._transformation.id).spec.parallelism == expected
