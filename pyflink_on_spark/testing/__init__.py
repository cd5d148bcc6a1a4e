"""Test your own PyFlink jobs with pytest (a pytest plugin: fixtures in plugin.py, registered
by the `pytest11` entry point, so installing pyflink-on-spark is enough).

    def test_doubles(flink_env):
        sink = CollectingSink()
        flink_env.from_collection([1, 2, 3]).map(lambda v: v * 2).add_sink(sink)
        flink_env.execute()
        assert sink.results == [2, 4, 6]

* `flink_env`: a fresh StreamExecutionEnvironment (parallelism 1) whose jobs run on the one
  SparkSession this pytest session shares; `flink_direct_env`: the same, jobs run in this
  process by the direct runner (no Spark: fastest, files and Kafka excepted).
* `CollectingSink`: a sink whose `results` list holds exactly what reached it.
* `event_stream(env, [(value, timestamp), watermark(t), ...])`: records with event times and
  watermarks exactly where the test puts them.
* `keyed_process_harness(function, key_selector)`: one keyed function driven step by step
  (elements, watermarks, processing time) with its keyed state readable (`keyed_state`).
"""
from pyflink_on_spark.testing.events import event_stream, watermark
from pyflink_on_spark.testing.harness import (
    ManualClock, OperatorHarness, keyed_process_harness, keyed_state, process_harness)
from pyflink_on_spark.testing.sinks import CollectingSink, collect, collect_side_output

__all__ = ["CollectingSink", "collect", "collect_side_output", "event_stream", "watermark",
           "OperatorHarness", "ManualClock", "keyed_process_harness", "process_harness",
           "keyed_state"]
