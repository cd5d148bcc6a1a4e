"""Testing your own PyFlink job with pytest on pyflink-on-spark (the plugin is registered on
install: `pip install pyflink-on-spark`, then `pytest examples/test_my_job.py`).

The job code imports `pyflink` as it does in production; without apache-flink installed,
the plugin resolves those imports to the shim. Jobs of `flink_env` run on one SparkSession
shared by the whole pytest session; `flink_direct_env` runs them in this process, no Spark.
"""
from pyflink.common import Time, Types
from pyflink.datastream import KeyedProcessFunction, OutputTag, ProcessFunction
from pyflink.datastream.state import ValueStateDescriptor
from pyflink.datastream.window import TumblingEventTimeWindows

from pyflink_on_spark.testing import (collect, collect_side_output, event_stream,
                                      keyed_process_harness, keyed_state, watermark)

INVALID = OutputTag("invalid", Types.STRING())
READING = Types.TUPLE([Types.STRING(), Types.INT()])


# ---- the job under test (normally imported from your code) -------------------------------
class Validate(ProcessFunction):
    def process_element(self, value, ctx):
        if value[1] < 0:
            yield INVALID, "bad reading from %s" % value[0]
        else:
            yield value


def max_per_window(readings):
    valid = readings.process(Validate(), output_type=READING)
    maxima = valid.key_by(lambda r: r[0]) \
        .window(TumblingEventTimeWindows.of(Time.milliseconds(10))) \
        .reduce(lambda a, b: a if a[1] >= b[1] else b)
    return maxima, valid


class CountReadings(KeyedProcessFunction):
    def open(self, runtime_context):
        self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.INT()))

    def process_element(self, value, ctx):
        self.count.update((self.count.value() or 0) + 1)
        yield value[0], self.count.value()


# ---- the tests --------------------------------------------------------------------------
def test_exact_results_and_the_side_output(flink_env):
    readings = flink_env.from_collection([("a", 3), ("a", -1), ("b", 5), ("a", 4)],
                                         type_info=READING)
    valid = readings.process(Validate(), output_type=READING)
    results, invalid = collect(valid), collect_side_output(valid, INVALID)
    flink_env.execute()
    assert results.results == [("a", 3), ("b", 5), ("a", 4)]
    assert invalid.results == ["bad reading from a"]


def test_event_time_step_by_step(flink_direct_env):
    script = [(("a", 3), 1), (("a", 7), 4), watermark(10),   # closes window [0, 10)
              (("a", 9), 12), (("b", 1), 15)]
    maxima, _ = max_per_window(event_stream(flink_direct_env, script, READING))
    results = collect(maxima)
    flink_direct_env.execute()
    assert results.results == [("a", 7), ("a", 9), ("b", 1)]


def test_keyed_state_after_the_records():
    harness = keyed_process_harness(CountReadings(), lambda r: r[0])
    harness.element(("a", 1)).element(("b", 2)).element(("a", 3))
    assert harness.values() == [("a", 1), ("b", 1), ("a", 2)]
    assert keyed_state(harness, "a", ValueStateDescriptor("count", Types.INT())).value() == 2
