"""What a user function raises fails the job (PyFlink: execute() raises with the Python
traceback inside ~20 KB of Java trace; compat cases basic/user_exception and
basic/user_function_lifecycle_errors); here the message starts with the user's error, the
user's frame and the operator the user wrote. One job per code path (docs/faults.md):
flat_map, filter and process fail through the same Operator.call_user as map."""
import sys

import cloudpickle
import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.common.watermark_strategy import TimestampAssigner, WatermarkStrategy
from pyflink_on_spark.datastream import (BroadcastProcessFunction, CoMapFunction,
                                         KeyedProcessFunction, ProcessFunction,
                                         ProcessWindowFunction, StreamExecutionEnvironment)
from pyflink_on_spark.datastream.state import MapStateDescriptor
from pyflink_on_spark.runtime.errors import JobExecutionError


# the functions below ship by value: Spark's workers cannot import this test module
cloudpickle.register_pickle_by_value(sys.modules[__name__])


class Boom(Exception):
    pass


def _numbers():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    return env, env.from_collection([1, 2, 3], type_info=Types.INT())


def map_fails(x):
    raise Boom("map_boom %d" % x)


def flat_map_fails(x):
    raise Boom("flat_map_boom")


def filter_fails(x):
    raise Boom("filter_boom")


def key_fails(x):
    raise Boom("key_boom")


def reduce_fails(a, b):
    raise Boom("reduce_boom")


class ProcessFails(ProcessFunction):
    def process_element(self, value, ctx):
        raise Boom("process_boom")


class KeyedProcessFails(KeyedProcessFunction):
    def process_element(self, value, ctx):
        raise Boom("keyed_process_boom")


class WindowFails(ProcessWindowFunction):
    def process(self, key, context, elements):
        raise Boom("window_boom")


class CoMapFails(CoMapFunction):
    def map1(self, value):
        raise Boom("co_map_boom")

    def map2(self, value):
        return value


class BroadcastFails(BroadcastProcessFunction):
    def process_element(self, value, ctx):
        return [value]

    def process_broadcast_element(self, value, ctx):
        raise Boom("broadcast_boom")


class AssignerFails(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        raise Boom("timestamp_boom")


def _build(kind, env, ds):
    if kind == "map":
        return ds.map(map_fails)
    if kind == "flat_map":
        return ds.flat_map(flat_map_fails)
    if kind == "filter":
        return ds.filter(filter_fails)
    if kind == "key_by":
        return ds.key_by(key_fails).map(lambda x: x)
    if kind == "reduce":
        return ds.key_by(lambda x: 0).reduce(reduce_fails)
    if kind == "process":
        return ds.process(ProcessFails())
    if kind == "keyed_process":
        return ds.key_by(lambda x: x).process(KeyedProcessFails())
    if kind == "window":
        return ds.key_by(lambda x: 0).count_window(2).process(WindowFails())
    if kind == "co_map":
        return ds.connect(env.from_collection([9], type_info=Types.INT())).map(CoMapFails())
    if kind == "broadcast":
        rules = env.from_collection([7], type_info=Types.INT()).broadcast(
            MapStateDescriptor("rules", Types.INT(), Types.INT()))
        return ds.connect(rules).process(BroadcastFails())
    if kind == "timestamps":
        return ds.assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(
                AssignerFails()))
    if kind == "sum_bad_index":
        return ds.map(lambda x: (x, x), output_type=Types.TUPLE([Types.INT(), Types.INT()])) \
            .key_by(lambda t: 0).sum(5)
    raise ValueError(kind)


@pytest.mark.parametrize("kind, names", [
    ("map", ["map_fails", "map_boom 1"]),
    ("key_by", ["operator 'key_by(key_fails)'", "key_boom"]),
    ("reduce", ["reduce_fails", "reduce_boom"]),
    ("keyed_process", ["operator 'KEYED PROCESS'", "in process_element",
                       "keyed_process_boom"]),
    ("window", ["operator 'CountTumblingWindowAssigner'", "in process\n", "window_boom"]),
    ("co_map", ["operator 'Co-Map'", "in map1", "co_map_boom"]),
    ("broadcast", ["operator 'Co-Process-Broadcast'", "in process_broadcast_element",
                   "broadcast_boom"]),
    ("timestamps", ["operator 'Timestamps/Watermarks'", "in extract_timestamp",
                    "timestamp_boom"]),
    ("sum_bad_index", ["IndexError", "field 5 is not in the record (1, 1) (2 fields)"]),
])
def test_a_user_error_fails_the_job_naming_the_cause_and_the_users_code(spark, kind, names):
    env, ds = _numbers()
    _build(kind, env, ds).print()
    with pytest.raises(JobExecutionError) as raised:
        env.execute("fails in %s" % kind)
    message = str(raised.value)
    assert message.startswith("Job execution failed: ")
    for name in names:
        assert name in message
    assert "Py4J" not in message and "\tat org.apache" not in message
    assert "Source: Collection Source" not in message.splitlines()[0] or kind == "map"


def test_a_failing_function_s_side_effects_happen_once(spark, tmp_path):
    # Spark would retry the failed task (the default master tries a task up to 4 times), so
    # what the function did before raising would happen again; the driver stops the job at
    # the first user error instead, as PyFlink fails the job (no restart strategy): every
    # record's side effect happened exactly once
    log = str(tmp_path / "side_effects.txt")

    def record_then_fail_on_5(x):
        with open(log, "a") as f:
            f.write("%d\n" % x)
        if x == 5:
            raise Boom("five")
        return x

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.from_collection(list(range(10)), type_info=Types.INT()) \
        .map(record_then_fail_on_5, output_type=Types.INT()).print()
    with pytest.raises(JobExecutionError, match="five"):
        env.execute()
    assert open(log).read().split() == ["0", "1", "2", "3", "4", "5"]
