"""A record's key is computed once, by key_by's key selector before the exchange, and the
keyed operator takes it from there (as PyFlink's keyed operators take the key its key_by map
computed): a selector runs once per record, in every keyed operator kind and both modes."""
from collections import Counter

import pytest

from pyflink_on_spark.common.time import Time
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.common.watermark_strategy import TimestampAssigner, WatermarkStrategy
from pyflink_on_spark.datastream.functions import (
    CoMapFunction, KeyedBroadcastProcessFunction, KeyedCoProcessFunction,
    KeyedProcessFunction)
from pyflink_on_spark.datastream.state import MapStateDescriptor
from pyflink_on_spark.datastream.window import TumblingEventTimeWindows
from pyflink_on_spark.graph.transformations import SinkTransformation
from pyflink_on_spark.runtime.tests.engine_harness import compile_sinks, run_job
from pyflink_on_spark.specs.sinks import CollectSinkSpec

MODES = ["STREAMING", "BATCH"]


# selector name -> calls: the direct runner runs the job in this process, on copies of the
# job's functions, so the count lives in this module
CALLS: Counter = Counter()


@pytest.fixture(autouse=True)
def _no_calls_yet():
    CALLS.clear()


class CountingSelector:
    """key = the record's first field (and a salt); counts its calls in CALLS."""

    def __init__(self, name: str, salt: str = "") -> None:
        self.name = name
        self.salt = salt

    def __call__(self, value):
        CALLS[self.name] += 1
        return value[0] + self.salt

    @property
    def calls(self) -> int:
        return CALLS[self.name]


def _run(env, stream, mode: str, parallelism: int = 2) -> list:
    sink = SinkTransformation(name="Collect", input=stream._transformation,
                              spec=CollectSinkSpec())
    sink.parallelism = 1
    return run_job(compile_sinks([sink], parallelism=parallelism, mode=mode))[sink.id]


RECORDS = [("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5), ("a", 6)]


@pytest.mark.parametrize("mode", MODES)
def test_a_rolling_reduce_calls_the_selector_once_per_record(env, mode):
    select = CountingSelector("one")
    stream = env.from_collection(RECORDS).key_by(select).reduce(
        lambda x, y: (x[0], x[1] + y[1]))
    out = _run(env, stream, mode)
    assert select.calls == len(RECORDS)
    final = {}
    for key, total in out:
        final[key] = total
    assert final == {"a": 10, "b": 7, "c": 4}


def salted(value):
    CALLS["salted"] += 1
    return "%s#%d" % (value[0], CALLS["salted"])


class KeyEcho(KeyedProcessFunction):
    def process_element(self, value, ctx):
        yield ctx.get_current_key(), value[1]


@pytest.mark.parametrize("mode", MODES)
def test_the_current_key_is_the_one_the_selector_returned(env, mode):
    # a selector whose result is not a function of the record alone (a salted key, as
    # hot-key splitting does): the operator's key is the one that routed the record
    stream = env.from_collection(RECORDS).key_by(salted).process(KeyEcho())
    out = _run(env, stream, mode)
    assert CALLS["salted"] == len(RECORDS)
    assert sorted(out) == sorted(("%s#%d" % (v[0], i + 1), v[1]) for i, v in enumerate(RECORDS))


class Stamps(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1] * 1000


@pytest.mark.parametrize("mode", MODES)
def test_a_window_calls_the_selector_once_per_record(env, mode):
    select = CountingSelector("one")
    stream = env.from_collection(RECORDS).assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamps())) \
        .key_by(select).window(TumblingEventTimeWindows.of(Time.seconds(10))) \
        .reduce(lambda x, y: (x[0], x[1] + y[1]))
    out = _run(env, stream, mode)
    assert select.calls == len(RECORDS)
    assert sorted(out) == [("a", 10), ("b", 7), ("c", 4)]


def _count_stamped_rows(monkeypatch, operator_class) -> Counter:
    """Counts the calls of operator_class.process_keyed_stamped_many (as calls["many"])."""
    calls = Counter()
    many = operator_class.process_keyed_stamped_many

    def counted_many(self, keys, values, stamps):
        calls["many"] += 1
        return many(self, keys, values, stamps)
    monkeypatch.setattr(operator_class, "process_keyed_stamped_many", counted_many)
    return calls


def test_a_streaming_window_takes_a_rows_stamped_records_in_one_call(env, monkeypatch):
    """STREAMING: the task hands a row's keys, records and timestamps to the window's
    process_keyed_stamped_many, one call per row."""
    from pyflink_on_spark.runtime.window.operator import WindowOperator
    calls = _count_stamped_rows(monkeypatch, WindowOperator)
    stream = env.from_collection(RECORDS).assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamps())) \
        .key_by(lambda v: v[0]).window(TumblingEventTimeWindows.of(Time.seconds(2))) \
        .reduce(lambda x, y: (x[0], x[1] + y[1]))
    out = _run(env, stream, "STREAMING", parallelism=1)
    assert sorted(out) == [("a", 1), ("a", 3), ("a", 6), ("b", 2), ("b", 5), ("c", 4)]
    assert calls == {"many": 1}


class EchoStamp(KeyedProcessFunction):
    def process_element(self, value, ctx):
        yield ctx.get_current_key(), value[1], ctx.timestamp()


def test_a_streaming_keyed_input_takes_a_rows_stamped_records_in_one_call(env, monkeypatch):
    """STREAMING: records with timestamps (an assigner's, a Kafka source's) reach a keyed
    process function through process_keyed_stamped_many, one call per row."""
    from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
    calls = _count_stamped_rows(monkeypatch, KeyedProcessOperator)
    stream = env.from_collection(RECORDS).assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamps())) \
        .key_by(lambda v: v[0]).process(EchoStamp())
    out = _run(env, stream, "STREAMING", parallelism=1)
    assert sorted(out) == sorted((k, n, n * 1000) for k, n in RECORDS)
    assert calls == {"many": 1}


class Pair(KeyedCoProcessFunction):
    def process_element1(self, value, ctx):
        yield "1", ctx.get_current_key(), value[1]

    def process_element2(self, value, ctx):
        yield "2", ctx.get_current_key(), value[1]


@pytest.mark.parametrize("mode", MODES)
def test_a_keyed_co_process_calls_each_selector_once_per_record(env, mode):
    select1, select2 = CountingSelector("one"), CountingSelector("two")
    first = env.from_collection(RECORDS).key_by(select1)
    second = env.from_collection([("a", 7), ("c", 8)]).key_by(select2)
    out = _run(env, first.connect(second).process(Pair()), mode)
    assert (select1.calls, select2.calls) == (len(RECORDS), 2)
    assert sorted(out) == sorted([("1", k, v) for k, v in RECORDS] +
                                 [("2", "a", 7), ("2", "c", 8)])


@pytest.mark.parametrize("mode", MODES)
def test_a_keyed_co_process_with_two_key_types_calls_each_selector_once(env, mode):
    # BATCH: inputs keyed with different key types are grouped in memory, not sorted
    select1, select2 = CountingSelector("one"), CountingSelector("two")
    first = env.from_collection(RECORDS).key_by(select1, key_type=Types.STRING())
    second = env.from_collection([("a", 7), ("c", 8)]).key_by(select2)
    out = _run(env, first.connect(second).process(Pair()), mode)
    assert (select1.calls, select2.calls) == (len(RECORDS), 2)
    assert len(out) == len(RECORDS) + 2


RULES = MapStateDescriptor("rules", Types.STRING(), Types.INT())


class Enrich(KeyedBroadcastProcessFunction):
    def process_element(self, value, ctx):
        yield ctx.get_current_key(), value[1]

    def process_broadcast_element(self, value, ctx):
        ctx.get_broadcast_state(RULES).put(value, 1)


@pytest.mark.parametrize("mode", MODES)
def test_a_keyed_broadcast_process_calls_the_selector_once_per_record(env, mode):
    select = CountingSelector("one")
    rules = env.from_collection(["r"], type_info=Types.STRING()).broadcast(RULES)
    stream = env.from_collection(RECORDS).key_by(select).connect(rules).process(Enrich())
    out = _run(env, stream, mode)
    assert select.calls == len(RECORDS)
    assert sorted(out) == sorted(RECORDS)


class Tag(CoMapFunction):
    def map1(self, value):
        return "keyed", tuple(value)

    def map2(self, value):
        return "plain", value


def test_a_keyed_stream_connected_to_a_plain_one_gets_its_key_rows_from_the_exchange(env):
    # PyFlink hands the keyed side Row(key, value); its key is the one the selector returned
    select = CountingSelector("one", "!")
    keyed = env.from_collection(RECORDS[:2]).key_by(select)
    plain = env.from_collection([9])
    out = _run(env, keyed.connect(plain).map(Tag()), "STREAMING", parallelism=1)
    assert select.calls == 2
    assert sorted(out, key=str) == sorted(
        [("keyed", ("a!", ("a", 1))), ("keyed", ("b!", ("b", 2))), ("plain", 9)], key=str)


class CountPerKey(KeyedProcessFunction):
    """(repr of the key, how many records of the key so far) per record, in ValueState."""

    def open(self, runtime_context):
        from pyflink_on_spark.datastream.state import ValueStateDescriptor
        self.seen = runtime_context.get_state(ValueStateDescriptor("seen", Types.INT()))

    def process_element(self, value, ctx):
        seen = (self.seen.value() or 0) + 1
        self.seen.update(seen)
        yield repr(ctx.get_current_key()), seen


def test_a_streaming_keyed_input_takes_a_rows_records_in_one_call(env, monkeypatch):
    """STREAMING: the task hands a row's keys and records to process_keyed_many, one call
    per row, with the state of each record's key."""
    from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
    calls = Counter()
    one, many = KeyedProcessOperator.process_keyed, KeyedProcessOperator.process_keyed_many

    def counted_one(self, key, value, timestamp):
        calls["one"] += 1
        return one(self, key, value, timestamp)

    def counted_many(self, keys, values):
        calls["many"] += 1
        return many(self, keys, values)
    monkeypatch.setattr(KeyedProcessOperator, "process_keyed", counted_one)
    monkeypatch.setattr(KeyedProcessOperator, "process_keyed_many", counted_many)

    for mode in MODES:
        calls.clear()
        stream = env.from_collection(RECORDS).key_by(lambda v: v[0]).process(CountPerKey())
        out = _run(env, stream, mode, parallelism=1)
        assert sorted(out) == [("'a'", 1), ("'a'", 2), ("'a'", 3), ("'b'", 1), ("'b'", 2),
                               ("'c'", 1)]
        # BATCH: the input is key-sorted, each row one key's run (process_key_run)
        assert calls == ({"many": 1} if mode == "STREAMING" else {})


def test_an_error_in_a_row_of_keyed_records_names_the_operator_with_the_users_frame(env):
    from pyflink_on_spark.runtime.errors import UserFunctionError

    class FailsOnC(KeyedProcessFunction):
        def process_element(self, value, ctx):
            if ctx.get_current_key() == "c":
                raise KeyError("no c, got %r" % (value,))
            yield value

    stream = env.from_collection(RECORDS).key_by(lambda v: v[0]).process(FailsOnC())
    with pytest.raises(UserFunctionError) as failure:
        _run(env, stream, "STREAMING", parallelism=1)
    assert "no c, got ('c', 4)" in str(failure.value)
    assert "in process_element" in failure.value.user_traceback
    assert failure.value.operator_name == "KEYED PROCESS"


def test_a_row_of_keys_of_every_kind_finds_each_keys_state(env):
    """process_keyed_many stores the usual keys (str, int...) into the heap backend itself
    and sets the others (tuples, unhashable lists, floats) through set_current_key: each
    record sees its own key's state."""

    keys = ["a", 1, ("t", 1), ["l"], 2.5, None, b"b", "a", 1, ("t", 1), ["l"], True]
    stream = env.from_collection([(k,) for k in keys]).key_by(lambda v: v[0]) \
        .process(CountPerKey())
    out = _run(env, stream, "STREAMING", parallelism=1)
    # True is the key 1 (they share state; so did PyFlink 1.20's, with 1.0 too)
    assert out == [(repr(k), n) for k, n in zip(keys, [1] * 7 + [2] * 4 + [3])]
