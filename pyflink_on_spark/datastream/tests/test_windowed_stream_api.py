"""WindowedStream / AllWindowedStream: the graph they build, and jobs run on the engine
(no Spark) through the same compile step the Spark layer uses."""
import pytest

from pyflink_on_spark.common.time import Time
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.common.watermark_strategy import TimestampAssigner, WatermarkStrategy
from pyflink_on_spark.datastream import (
    CountWindow, GlobalWindow, MergingWindowAssigner, StreamExecutionEnvironment, TimeWindow,
    Trigger, TriggerResult, Window, WindowAssigner, WindowedStream)
from pyflink_on_spark.datastream.data_stream import AllWindowedStream
from pyflink_on_spark.datastream.functions import (
    AggregateFunction, ProcessAllWindowFunction, ProcessFunction, ProcessWindowFunction)
from pyflink_on_spark.datastream.window import (
    CountTrigger, CountTumblingWindowAssigner, EventTimeSessionWindows, NeverTrigger,
    TumblingEventTimeWindows)
from pyflink_on_spark.graph.transformations import SinkTransformation
from pyflink_on_spark.direct import run_job
from pyflink_on_spark.runtime.tests.engine_harness import compile_sinks
from pyflink_on_spark.specs.operators import WindowSpec
from pyflink_on_spark.specs.sinks import CollectSinkSpec

PAIR = Types.TUPLE([Types.STRING(), Types.INT()])


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


def _timed(env, data):
    strategy = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(
        SecondField())
    return env.from_collection(data, type_info=PAIR).assign_timestamps_and_watermarks(strategy)


def _run(env, stream, parallelism=1, mode="STREAMING"):
    sink = SinkTransformation(name="Collect", input=stream._transformation, 
                              spec=CollectSinkSpec())
    sink.parallelism = 1
    job = compile_sinks([sink], parallelism=parallelism, mode=mode)
    return run_job(job)[sink.id]


class Where(ProcessWindowFunction):
    def open(self, runtime_context):
        self.where = "%d/%d" % (runtime_context.get_index_of_this_subtask(),
                                runtime_context.get_number_of_parallel_subtasks())

    def process(self, key, context, elements):
        yield "%s %s %s@%s" % (key, context.window(), sorted(e[1] for e in elements), self.where)


class AllWhere(ProcessAllWindowFunction):
    def open(self, runtime_context):
        self.where = "%d/%d" % (runtime_context.get_index_of_this_subtask(),
                                runtime_context.get_number_of_parallel_subtasks())

    def process(self, context, elements):
        yield "%s %s@%s" % (context.window(), sorted(e[1] for e in elements), self.where)


def test_exports_match_pyflink():
    assert issubclass(TimeWindow, Window) and issubclass(CountWindow, Window)
    assert issubclass(GlobalWindow, Window) and issubclass(MergingWindowAssigner,
                                                            WindowAssigner)
    assert TriggerResult.FIRE.is_fire() and issubclass(NeverTrigger, Trigger)


def test_window_node_name_description_and_types():
    env = StreamExecutionEnvironment.get_execution_environment()
    keyed = _timed(env, [("a", 1)]).key_by(lambda v: v[0], key_type=Types.STRING())
    windowed = keyed.window(TumblingEventTimeWindows.of(Time.milliseconds(5)))
    assert isinstance(windowed, WindowedStream)
    assert windowed.get_input_type() == PAIR
    assert windowed.get_execution_environment() is env
    reduced = windowed.reduce(lambda a, b: a)
    node = reduced._transformation
    assert isinstance(node.spec, WindowSpec) and node.name == "TumblingEventTimeWindows"
    assert node.description == "Window(TumblingEventTimeWindows(5, 0), EventTimeTrigger, " \
                               "function)"
    assert reduced.get_type() == PAIR      # reduce without window function keeps the type
    processed = keyed.count_window(2).process(Where(), Types.STRING())
    assert processed._transformation.name == "CountTumblingWindowAssigner"
    assert processed._transformation.description == \
        "Window(CountTumblingWindowAssigner(2), CountTrigger, Where)"
    assert processed.get_type() == Types.STRING()


def test_aggregate_accumulator_type_list_becomes_a_row_type():
    class Agg(AggregateFunction):
        def create_accumulator(self):
            return 0

        def add(self, value, accumulator):
            return accumulator + 1

        def get_result(self, accumulator):
            return accumulator

        def merge(self, a, b):
            return a + b

    env = StreamExecutionEnvironment.get_execution_environment()
    stream = _timed(env, [("a", 1)]).key_by(lambda v: v[0]).count_window(1).aggregate(
        Agg(), accumulator_type=[Types.INT()], output_type=Types.INT())
    state = stream._transformation.spec.operation.window_state_descriptor
    assert type(state.type_info).__name__ == "RowTypeInfo"
    assert stream.get_type() == Types.INT()


def test_all_windowed_stream_refuses_non_merging_trigger_for_sessions():
    env = StreamExecutionEnvironment.get_execution_environment()
    windowed = _timed(env, [("a", 1)]).window_all(
        EventTimeSessionWindows.with_gap(Time.milliseconds(3)))
    assert isinstance(windowed, AllWindowedStream)
    with pytest.raises(TypeError, match="A merging window assigner cannot be used with a "
                                        "trigger that does not support merging."):
        windowed.trigger(NeverTrigger())
    windowed.trigger(CountTrigger.of(2))      # mergeable: accepted


def test_window_function_type_is_checked():
    env = StreamExecutionEnvironment.get_execution_environment()
    keyed = _timed(env, [("a", 1)]).key_by(lambda v: v[0])
    with pytest.raises(TypeError, match="window_function should be a WindowFunction or "
                                        "ProcessWindowFunction"):
        keyed.count_window(2).reduce(lambda a, b: a, window_function=AllWhere())


def test_keyed_windows_run_on_each_keys_subtask():
    env = StreamExecutionEnvironment.get_execution_environment()
    data = [("k0", 1), ("k2", 2), ("k0", 6), ("k2", 3)]
    stream = _timed(env, data).key_by(lambda v: v[0], key_type=Types.STRING()) \
        .window(TumblingEventTimeWindows.of(Time.milliseconds(5))) \
        .process(Where(), Types.STRING())
    # STRING keys "k0" -> subtask 0 and "k2" -> subtask 1 at parallelism 2 (observed on PyFlink)
    assert sorted(_run(env, stream, parallelism=2)) == [
        "k0 TimeWindow(start=0, end=5) [1]@0/2", "k0 TimeWindow(start=5, end=10) [6]@0/2",
        "k2 TimeWindow(start=0, end=5) [2, 3]@1/2"]


def test_window_all_runs_at_the_environment_parallelism_on_one_subtask():
    # as PyFlink: window_all keys by a constant 0, so one subtask (0 here) gets everything
    env = StreamExecutionEnvironment.get_execution_environment()
    data = [("a", 1), ("b", 2), ("a", 6), ("c", 7), ("b", 12)]
    stream = _timed(env, data).window_all(TumblingEventTimeWindows.of(Time.milliseconds(5))) \
        .process(AllWhere(), Types.STRING())
    assert _run(env, stream, parallelism=2) == [
        "TimeWindow(start=0, end=5) [1, 2]@0/2", "TimeWindow(start=5, end=10) [6, 7]@0/2",
        "TimeWindow(start=10, end=15) [12]@0/2"]


def test_window_output_timestamps_reach_downstream_functions():
    class ShowTimestamp(ProcessFunction):
        def process_element(self, value, ctx):
            yield "%s ts=%s" % (value, ctx.timestamp())

    env = StreamExecutionEnvironment.get_execution_environment()
    data = [("a", 0), ("a", 4), ("a", 2), ("a", 10)]
    keyed = _timed(env, data).key_by(lambda v: v[0], key_type=Types.STRING())
    by_time = keyed.window(TumblingEventTimeWindows.of(Time.milliseconds(5))) \
        .reduce(lambda a, b: (a[0], a[1] + b[1])).process(ShowTimestamp(), Types.STRING())
    by_count = keyed.count_window(2).reduce(lambda a, b: (a[0], a[1] + b[1])) \
        .process(ShowTimestamp(), Types.STRING())
    # printed by PyFlink 1.20: the window's max timestamp for event-time firings, the
    # firing element's timestamp for element-triggered ones
    assert _run(env, by_time) == ["('a', 6) ts=4", "('a', 10) ts=14"]
    assert _run(env, by_count) == ["('a', 4) ts=4", "('a', 12) ts=10"]


def test_count_window_all_is_a_count_window_over_everything():
    env = StreamExecutionEnvironment.get_execution_environment()
    stream = _timed(env, [("a", 1), ("b", 2), ("c", 3)]).count_window_all(2) \
        .reduce(lambda a, b: (a[0] + b[0], a[1] + b[1]))
    assert isinstance(stream._transformation.spec.operation.assigner, CountTumblingWindowAssigner)
    assert _run(env, stream) == [("ab", 3)]


def test_batch_mode_windows_fire_per_key_in_key_order():
    env = StreamExecutionEnvironment.get_execution_environment()
    data = [("b", 1), ("a", 2), ("b", 6), ("a", 7), ("c", 3), ("a", 1)]
    stream = _timed(env, data).key_by(lambda v: v[0], key_type=Types.STRING()) \
        .window(TumblingEventTimeWindows.of(Time.milliseconds(5))) \
        .reduce(lambda a, b: (a[0], a[1] + b[1]))
    # recorded on PyFlink 1.20 (BATCH): (a,3) (a,7) (b,1) (b,6) (c,3)
    assert _run(env, stream, mode="BATCH") == [("a", 3), ("a", 7), ("b", 1), ("b", 6),
                                               ("c", 3)]


def test_all_window_function_kinds():
    from pyflink_on_spark.datastream.functions import AllWindowFunction

    class Show(AllWindowFunction):
        def apply(self, window, inputs):
            yield "%s %s" % (window, list(inputs))

    class Total(AggregateFunction):
        def create_accumulator(self):
            return 0

        def add(self, value, accumulator):
            return accumulator + value[1]

        def get_result(self, accumulator):
            return accumulator

        def merge(self, a, b):
            return a + b

    env = StreamExecutionEnvironment.get_execution_environment()
    data = [("a", 1), ("b", 2), ("a", 6)]
    windows = TumblingEventTimeWindows.of(Time.milliseconds(5))
    assert _run(env, _timed(env, data).window_all(windows).apply(Show(), Types.STRING())) == [
        "TimeWindow(start=0, end=5) [('a', 1), ('b', 2)]",
        "TimeWindow(start=5, end=10) [('a', 6)]"]
    assert _run(env, _timed(env, data).window_all(windows).aggregate(
        Total(), window_function=Show(), output_type=Types.STRING())) == [
        "TimeWindow(start=0, end=5) [3]", "TimeWindow(start=5, end=10) [6]"]
    assert _run(env, _timed(env, data).window_all(windows).aggregate(Total())) == [3, 6]
    assert _run(env, _timed(env, data).window_all(windows).reduce(
        lambda a, b: (a[0] + b[0], a[1] + b[1]), window_function=AllWhere(),
        output_type=Types.STRING())) == ["TimeWindow(start=0, end=5) [3]@0/1",
                                         "TimeWindow(start=5, end=10) [6]@0/1"]
