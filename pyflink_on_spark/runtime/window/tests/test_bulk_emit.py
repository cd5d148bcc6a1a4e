"""A round's window results held and sent on in one call (output.py takes_stamped_in_bulk):
where the window operator's one target is an exit that runs no user function, the results
are the same records, in the same order, with the same timestamps as one by one; where
the target runs user functions (a key selector, an operator), they still go one by one, so
the user functions' calls interleave as before."""
from __future__ import annotations

import pytest

from pyflink_on_spark.common import Duration, Types, WatermarkStrategy
from pyflink_on_spark.common.time import Time
from pyflink_on_spark.common.watermark_strategy import TimestampAssigner
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.functions import (
    AggregateFunction, KeyedProcessFunction, ProcessFunction)
from pyflink_on_spark.datastream.window import (
    EventTimeSessionWindows, TumblingEventTimeWindows)
from pyflink_on_spark.graph.transformations import SinkTransformation
from pyflink_on_spark.runtime.output import Output
from pyflink_on_spark.runtime.tests.engine_harness import compile_sinks, run_job
from pyflink_on_spark.specs.sinks import CollectSinkSpec


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class CountMax(AggregateFunction):
    """(key, count, largest time); prints each result it makes when `loud`."""

    def __init__(self, loud: bool = False) -> None:
        self.loud = loud

    def create_accumulator(self):
        return None, 0, None

    def add(self, value, accumulator):
        _, count, high = accumulator
        return value[0], count + 1, value[1] if high is None else max(high, value[1])

    def get_result(self, accumulator):
        if self.loud:
            print("result", accumulator[0], accumulator[2])
        return accumulator

    def merge(self, a, b):
        return a[0], a[1] + b[1], max(a[2], b[2])


class WithTimestamp(ProcessFunction):
    def process_element(self, value, ctx):
        yield value + (ctx.timestamp(),)


class KeyedWithTimestamp(KeyedProcessFunction):
    def process_element(self, value, ctx):
        yield value + (ctx.timestamp(),)


RECORDS = [("k%d" % (i % 7), i * 130 + (i % 3) * 2000) for i in range(300)]


def _windows(sessions: bool, after, parallelism: int = 1):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(parallelism)
    strategy = WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(3)) \
        .with_timestamp_assigner(SecondField())
    assigner = EventTimeSessionWindows.with_gap(Time.seconds(1)) if sessions \
        else TumblingEventTimeWindows.of(Time.seconds(5))
    results = env.from_collection(RECORDS) \
        .assign_timestamps_and_watermarks(strategy) \
        .key_by(lambda record: record[0]) \
        .window(assigner) \
        .aggregate(CountMax(loud=after == "loud key_by"),
                   output_type=Types.TUPLE([Types.STRING(), Types.INT(), Types.LONG()]))
    if after == "rebalance, then timestamps":
        results = results.rebalance().process(WithTimestamp())
    elif after == "loud key_by":
        def loud_key(result):
            print("key", result[0], result[2])
            return result[0]
        results = results.key_by(loud_key).process(KeyedWithTimestamp())
    sink = SinkTransformation(name="Collect", input=results._transformation,
                              spec=CollectSinkSpec())
    sink.parallelism = 1
    return compile_sinks([sink], parallelism=parallelism), sink


def _run(sessions, after, parallelism=1, bulk=True, monkeypatch=None):
    calls = []
    original = Output.takes_stamped_in_bulk

    def spy(self):
        taken = original(self) if bulk else False
        calls.append(taken)
        return taken

    monkeypatch.setattr(Output, "takes_stamped_in_bulk", spy)
    job, sink = _windows(sessions, after, parallelism)
    return run_job(job)[sink.id], calls


@pytest.mark.parametrize("sessions", [False, True])
@pytest.mark.parametrize("after", ["collect", "rebalance, then timestamps"])
@pytest.mark.parametrize("parallelism", [1, 2])
def test_results_held_for_a_round_leave_as_one_by_one(monkeypatch, sessions, after,
                                                      parallelism):
    held, calls = _run(sessions, after, parallelism, monkeypatch=monkeypatch)
    assert any(calls)   # the rounds' results were held
    one_by_one, calls = _run(sessions, after, parallelism, bulk=False,
                             monkeypatch=monkeypatch)
    assert not any(calls)
    assert held == one_by_one
    assert sum(count for _, count, _, *rest in held) == len(RECORDS)
    if after != "collect":   # the window's results keep their windows' max timestamps
        assert all(stamp % 1000 == 999 for *_, high, stamp in held if not sessions)
        assert all(stamp >= high for *_, high, stamp in held)


@pytest.mark.parametrize("sessions", [False, True])
def test_a_key_selector_after_the_window_sees_each_result_as_it_is_made(
        monkeypatch, capsys, sessions):
    """The keyed exit after the window runs the user's key selector: the window's results
    go one by one, each one's get_result then its key, as PyFlink calls them."""
    results, calls = _run(sessions, "loud key_by", monkeypatch=monkeypatch)
    assert calls and not any(calls)
    lines = [line for line in capsys.readouterr().out.splitlines()
             if line.startswith(("result", "key"))]
    made = [line for line in lines if line.startswith("result")]
    assert len(made) == len(results) > 3
    # the source stage's window calls get_result then the key selector, result by result
    pairs = lines[:2 * len(made)]
    assert pairs[0::2] == made and [line.split(" ", 1)[1] for line in pairs[1::2]] == \
        [line.split(" ", 1)[1] for line in made]


def test_only_an_exit_without_user_functions_takes_results_in_bulk():
    output = Output()
    assert not output.takes_stamped_in_bulk()   # nothing connected
    output.add_main_target(lambda value, timestamp: None, lambda watermark: None)
    assert not output.takes_stamped_in_bulk()   # an operator's input: it may run user code
    pure = Output()
    pure.add_main_target(lambda value, timestamp: None, lambda watermark: None,
                         runs_user_code=lambda: False)
    assert pure.takes_stamped_in_bulk()
    pure.add_side_target("late", lambda value, timestamp: None, lambda watermark: None)
    assert not pure.takes_stamped_in_bulk()   # (tag, value) results are routed one by one
    keyed = Output()
    keyed.add_main_target(lambda value, timestamp: None, lambda watermark: None,
                          runs_user_code=lambda: True)
    assert not keyed.takes_stamped_in_bulk()
    two = Output()
    for _ in range(2):
        two.add_main_target(lambda value, timestamp: None, lambda watermark: None,
                            runs_user_code=lambda: False)
    assert not two.takes_stamped_in_bulk()
