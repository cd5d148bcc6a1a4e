"""The pytest plugin's fixtures and helpers on real jobs: exact results, side outputs,
event time driven by scripted watermarks, keyed state through the harness. Both runners."""
import pytest

from pyflink_on_spark.common import Time, Types
from pyflink_on_spark.datastream import (KeyedProcessFunction, OutputTag, ProcessFunction,
                                         RuntimeContext)
from pyflink_on_spark.datastream.state import ValueStateDescriptor
from pyflink_on_spark.datastream.window import TumblingEventTimeWindows
from pyflink_on_spark.testing import (CollectingSink, collect, collect_side_output,
                                      event_stream, keyed_process_harness, keyed_state,
                                      watermark)

SMALL = OutputTag("small", Types.INT())


class SplitSmall(ProcessFunction):
    def process_element(self, value, ctx):
        yield (SMALL, value) if value < 3 else value * 10


def test_exact_results_and_side_outputs_on_spark(flink_env):
    stream = flink_env.from_collection([1, 5, 2, 7], type_info=Types.INT()) \
        .process(SplitSmall(), output_type=Types.INT())
    main, small = collect(stream), collect_side_output(stream, SMALL)
    flink_env.execute()
    assert (main.results, small.results) == ([50, 70], [1, 2])


def test_direct_runner_gives_the_same_results(flink_direct_env):
    stream = flink_direct_env.from_collection([1, 5, 2, 7], type_info=Types.INT()) \
        .process(SplitSmall(), output_type=Types.INT())
    main, small = collect(stream), collect_side_output(stream, SMALL)
    flink_direct_env.execute()
    assert (main.results, small.results) == ([50, 70], [1, 2])


def test_a_sink_per_job_from_the_factory_fixture(flink_direct_env, collecting_sink):
    first, second = collecting_sink(), collecting_sink()
    flink_direct_env.from_collection(["x", "y"]).map(str.upper).add_sink(first)
    flink_direct_env.execute()
    flink_direct_env.from_collection(["z"]).add_sink(second)
    flink_direct_env.execute()
    assert (first.results, second.results) == (["X", "Y"], ["z"])


def _windowed_sums(env, script):
    sums = CollectingSink()
    late = OutputTag("late", Types.TUPLE([Types.STRING(), Types.INT()]))
    windowed = event_stream(env, script, Types.TUPLE([Types.STRING(), Types.INT()])) \
        .key_by(lambda r: r[0]) \
        .window(TumblingEventTimeWindows.of(Time.milliseconds(10))) \
        .side_output_late_data(late) \
        .reduce(lambda a, b: (a[0], a[1] + b[1]))
    windowed.add_sink(sums)
    late_sink = collect_side_output(windowed, late)
    env.execute()
    return sums.results, late_sink.results


@pytest.mark.parametrize("env_fixture", ["flink_direct_env", "flink_env"])
def test_scripted_watermarks_make_a_record_late(env_fixture, request):
    env = request.getfixturevalue(env_fixture)
    script = [(("a", 1), 1), (("a", 2), 5), watermark(12), (("a", 4), 7), (("a", 8), 15)]
    sums, late = _windowed_sums(env, script)
    # watermark 12 closed window [0, 10): the record at 7 arrives late
    assert sums == [("a", 3), ("a", 8)] and late == [("a", 4)]


def test_without_the_watermark_the_same_record_is_on_time(flink_direct_env):
    script = [(("a", 1), 1), (("a", 2), 5), (("a", 4), 7), (("a", 8), 15)]
    assert _windowed_sums(flink_direct_env, script) == ([("a", 7), ("a", 8)], [])


class CountPerKey(KeyedProcessFunction):
    def open(self, runtime_context: RuntimeContext):
        self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.LONG()))

    def process_element(self, value, ctx):
        self.count.update((self.count.value() or 0) + 1)
        ctx.timer_service().register_event_time_timer(ctx.timestamp() + 10)

    def on_timer(self, timestamp, ctx):
        yield ctx.get_current_key(), self.count.value()


def test_keyed_state_and_timers_step_by_step():
    harness = keyed_process_harness(CountPerKey(), lambda v: v[0])
    harness.element(("a", 1), timestamp=1).element(("a", 2), timestamp=3) \
        .element(("b", 3), timestamp=4)
    descriptor = ValueStateDescriptor("count", Types.LONG())
    assert keyed_state(harness, "a", descriptor).value() == 2
    assert keyed_state(harness, "b", descriptor).value() == 1
    harness.watermark(11)
    assert harness.take() == [("a", 2)]          # a's first timer (1 + 10) fired
    harness.end()
    assert harness.values() == [("a", 2), ("b", 1)]
