"""Co-process, keyed co-process and broadcast operators end to end on compiled graphs, without
Spark (the engine harness emulates the exchanges exactly as the Spark layer does)."""
import pytest

from pyflink_on_spark.common import Row, Types
from pyflink_on_spark.datastream import (
    BroadcastProcessFunction, CoFlatMapFunction, CoMapFunction, CoProcessFunction,
    KeyedBroadcastProcessFunction, KeyedCoProcessFunction, OutputTag, ProcessFunction,
    TimeDomain)
from pyflink_on_spark.datastream.state import (
    MapStateDescriptor, ReducingStateDescriptor, ValueStateDescriptor)
from pyflink_on_spark.graph.transformations import SinkTransformation
from pyflink_on_spark.runtime.errors import UserFunctionError
from pyflink_on_spark.runtime.key_groups import KeyToSubtask
from pyflink_on_spark.direct import run_job
from pyflink_on_spark.runtime.tests.engine_harness import compile_sinks
from pyflink_on_spark.specs.sinks import CollectSinkSpec

RULES = MapStateDescriptor("rules", Types.STRING(), Types.STRING())


def _sink(ds):
    sink = SinkTransformation(name="Collect", input=ds._transformation, 
                              spec=CollectSinkSpec())
    sink.parallelism = 1
    return sink


def collect(*streams, parallelism=1, mode="STREAMING"):
    """Runs one job with a collect sink per stream; returns each sink's values in order."""
    sinks = [_sink(ds) for ds in streams]
    out = run_job(compile_sinks(sinks, parallelism=parallelism, mode=mode))
    results = [out.get(s.id, []) for s in sinks]
    return results[0] if len(results) == 1 else results


def ints(env, values):
    return env.from_collection(values, type_info=Types.INT())


class Tag(CoMapFunction):
    def map1(self, value):
        return "L%s" % value

    def map2(self, value):
        return "R%s" % value


# -- co-map / co-flat-map / co-process --------------------------------------------------------

def test_co_map_alternates_inputs_record_by_record_input_one_first(env):
    out = collect(ints(env, [0, 1]).connect(ints(env, [100, 101, 102, 103]))
                  .map(Tag(), Types.STRING()))
    assert out == ["L0", "R100", "L1", "R101", "R102", "R103"]


def test_co_map_when_second_input_is_shorter_finishes_with_the_first(env):
    out = collect(ints(env, [0, 1, 2, 3]).connect(ints(env, [100]))
                  .map(Tag(), Types.STRING()))
    assert out == ["L0", "R100", "L1", "L2", "L3"]


def test_co_map_result_none_emits_nothing_and_co_flat_map_emits_each_item(env):
    class DropOdd(CoMapFunction):
        def map1(self, value):
            return value if value % 2 == 0 else None

        def map2(self, value):
            return -value

    class Repeat(CoFlatMapFunction):
        def flat_map1(self, value):
            return [value] * value

        def flat_map2(self, value):
            yield "b%s" % value

    a, b = ints(env, [1, 2, 3, 4]), ints(env, [7, 8])
    mapped, flat = collect(a.connect(b).map(DropOdd()), a.connect(b).flat_map(Repeat()))
    assert mapped == [-7, 2, -8, 4]
    assert flat == [1, "b7", 2, 2, "b8", 3, 3, 3, 4, 4, 4, 4]


def test_co_map_names_the_operator_co_map_and_co_flat_map(env):
    a, b = ints(env, [1]), ints(env, [2])
    assert a.connect(b).map(Tag()).get_name() == "Co-Map"
    assert a.connect(b).flat_map(Repeat1()).get_name() == "Co-Flat Map"
    assert a.connect(b).process(Proc()).get_name() == "Co-Process"


class Repeat1(CoFlatMapFunction):
    def flat_map1(self, value):
        yield value

    def flat_map2(self, value):
        yield value


class Proc(CoProcessFunction):
    def process_element1(self, value, ctx):
        yield value

    def process_element2(self, value, ctx):
        yield value


def test_connected_streams_reject_functions_of_the_wrong_kind(env):
    connected = ints(env, [1]).connect(ints(env, [2]))
    with pytest.raises(TypeError, match="must be a CoMapFunction"):
        connected.map(lambda x: x)
    with pytest.raises(TypeError, match="must be a CoFlatMapFunction"):
        connected.flat_map(Tag())
    with pytest.raises(TypeError, match="CoProcessFunction or KeyedCoProcessFunction"):
        connected.process(Tag())


def test_co_process_sees_timestamps_and_emits_side_outputs_from_both_inputs(env):
    side = OutputTag("side", Types.INT())

    class Split(CoProcessFunction):
        def process_element1(self, value, ctx):
            yield "%s@%s" % (value[0], ctx.timestamp())
            yield side, value[1]

        def process_element2(self, value, ctx):
            yield value[1]
            yield side, value[0]

    from pyflink_on_spark.common.watermark_strategy import (
        TimestampAssigner, WatermarkStrategy)

    class Second(TimestampAssigner):
        def extract_timestamp(self, value, record_timestamp):
            return value[1] * 10

    row = Types.ROW([Types.STRING(), Types.INT()])
    a = env.from_collection([("a", 0), ("b", 1)], type_info=row).assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Second()))
    b = env.from_collection([(3, "c"), (1, "a")],
                            type_info=Types.ROW([Types.INT(), Types.STRING()]))
    main = a.connect(b).process(Split(), Types.STRING())
    out, sides = collect(main, main.get_side_output(side))
    assert out == ["a@0", "c", "b@10", "a"]
    assert sides == [0, 3, 1, 1]


def test_co_process_refuses_timers_on_non_keyed_inputs(env):
    class Timer(CoProcessFunction):
        def process_element1(self, value, ctx):
            ctx.timer_service().register_event_time_timer(1)

        def process_element2(self, value, ctx):
            pass

    with pytest.raises(UserFunctionError, match="only supported on a keyed stream"):
        collect(ints(env, [1]).connect(ints(env, [2])).process(Timer()))


def test_keyed_stream_connected_to_a_plain_stream_sees_pyflinks_row_of_key_and_value(env):
    class Show(CoMapFunction):
        def map1(self, value):
            return "L " + repr(value)

        def map2(self, value):
            return "R " + repr(value)

    keyed_first = ints(env, [4]).key_by(lambda x: x % 3).connect(ints(env, [7]))
    keyed_second = ints(env, [4]).connect(ints(env, [7]).key_by(lambda x: x % 2))
    first, second = collect(keyed_first.map(Show()), keyed_second.map(Show()))
    assert first == ["L Row(f0=1, f1=4)", "R 7"]
    assert second == ["L 4", "R Row(f0=1, f1=7)"]


# -- keyed co-process -------------------------------------------------------------------------

class CountPerKey(KeyedCoProcessFunction):
    """Counts a key's records over both inputs; input 1 registers an event-time timer."""

    def open(self, runtime_context):
        self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.INT()))
        self.index = runtime_context.get_index_of_this_subtask()

    def _bump(self):
        count = (self.count.value() or 0) + 1
        self.count.update(count)
        return count

    def process_element1(self, value, ctx):
        ctx.timer_service().register_event_time_timer(100 + self._bump())
        yield ("L", ctx.get_current_key(), self.count.value(), self.index)

    def process_element2(self, value, ctx):
        yield ("R", ctx.get_current_key(), self._bump(), self.index)

    def on_timer(self, timestamp, ctx):
        assert ctx.time_domain() is TimeDomain.EVENT_TIME
        yield ("T", ctx.get_current_key(), timestamp, self.count.value())


def test_keyed_co_process_shares_state_and_timers_of_a_key_across_both_inputs(env):
    a = env.from_collection(["a", "b", "a"], type_info=Types.STRING())
    b = env.from_collection(["a1", "b1"], type_info=Types.STRING())
    out = collect(a.connect(b).key_by(lambda x: x[0], lambda x: x[0], key_type=Types.STRING())
                  .process(CountPerKey()))
    assert out == [("L", "a", 1, 0), ("R", "a", 2, 0), ("L", "b", 1, 0), ("R", "b", 2, 0),
                   ("L", "a", 3, 0),
                   ("T", "a", 101, 3), ("T", "b", 101, 2), ("T", "a", 103, 3)]


def test_keyed_co_process_routes_both_inputs_by_key_group_at_parallelism_two(env):
    a = env.from_collection([("k%d" % i) for i in range(8)], type_info=Types.STRING())
    b = env.from_collection([("k%d" % i) for i in range(8)], type_info=Types.STRING())
    ds = a.connect(b).key_by(lambda x: x, lambda x: x, key_type=Types.STRING()) \
        .process(CountPerKey())
    out = collect(ds, parallelism=2)
    route = KeyToSubtask(128, 2, Types.STRING())
    records = [r for r in out if r[0] in "LR"]
    assert len(records) == 16
    assert all(index == route(key) for _, key, _, index in records)
    # both inputs of a key meet in one instance: its second record counts 2
    assert sorted(r[2] for r in records if r[0] == "R") == [2] * 8


def test_keyed_co_map_and_flat_map_open_keyed_state(env):
    class Previous(CoMapFunction):
        def open(self, runtime_context):
            self.last = runtime_context.get_state(ValueStateDescriptor("last", Types.STRING()))

        def map1(self, value):
            previous = self.last.value()
            self.last.update(value)
            return "%s<-%s" % (value, previous)

        map2 = map1

    a = env.from_collection(["x1", "y1", "x2"], type_info=Types.STRING())
    b = env.from_collection(["y2", "x3"], type_info=Types.STRING())
    ds = a.connect(b).key_by(lambda v: v[0], lambda v: v[0]).map(Previous(), Types.STRING())
    assert collect(ds) == ["x1<-None", "y2<-None", "y1<-y2", "x3<-x1", "x2<-x3"]


def test_keyed_co_process_in_batch_mode_runs_key_by_key_merging_inputs(env):
    a = env.from_collection(["b", "a", "b"], type_info=Types.STRING())
    b = env.from_collection(["a", "b"], type_info=Types.STRING())
    out = collect(a.connect(b).key_by(lambda x: x, lambda x: x, key_type=Types.STRING())
                  .process(CountPerKey()), mode="BATCH")
    # keys in serialized order; within a key the inputs take turns on equal timestamps, the
    # shorter input (2) first, the turn carrying over to the next key (as PyFlink showed);
    # the key's timers fire at the end of the key
    assert out == [("R", "a", 1, 0), ("L", "a", 2, 0), ("T", "a", 102, 2),
                   ("R", "b", 1, 0), ("L", "b", 2, 0), ("L", "b", 3, 0),
                   ("T", "b", 102, 3), ("T", "b", 103, 3)]


def test_keyed_co_process_in_batch_mode_merges_a_keys_inputs_by_timestamp(env):
    from pyflink_on_spark.common.watermark_strategy import (
        TimestampAssigner, WatermarkStrategy)

    class Stamp(TimestampAssigner):
        def extract_timestamp(self, value, record_timestamp):
            return int(value[1:])

    def stamped(values):
        return env.from_collection(values, type_info=Types.STRING()) \
            .assign_timestamps_and_watermarks(
                WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp()))

    class Show(CoMapFunction):
        def map1(self, value):
            return "L" + value

        def map2(self, value):
            return "R" + value

    out = collect(stamped(["k5", "k1", "k3"]).connect(stamped(["k2", "k3", "k9"]))
                  .key_by(lambda v: v[0], lambda v: v[0]).map(Show()), mode="BATCH")
    # sorted by timestamp per input, merged; the tie at 3 goes to input 1 (equal counts)
    assert out == ["Lk1", "Rk2", "Lk3", "Rk3", "Lk5", "Rk9"]


def test_keyed_co_process_side_outputs_and_key_from_each_input(env):
    tag = OutputTag("side", Types.INT())

    class Both(KeyedCoProcessFunction):
        def open(self, context):
            self.total = context.get_reducing_state(
                ReducingStateDescriptor("n", lambda x, y: x + y, Types.INT()))

        def process_element1(self, value, ctx):
            yield ctx.get_current_key(), value[1]
            self.total.add(1)
            yield tag, self.total.get()

        def process_element2(self, value, ctx):
            yield ctx.get_current_key(), value[0]
            self.total.add(1)
            yield tag, self.total.get()

    a = env.from_collection([("a", 1), ("b", 2), ("a", 3)],
                            type_info=Types.ROW([Types.STRING(), Types.INT()]))
    b = env.from_collection([(8, "a"), (7, "b")],
                            type_info=Types.ROW([Types.INT(), Types.STRING()]))
    ds = a.key_by(lambda e: e[0]).connect(b.key_by(lambda e: e[1])) \
        .process(Both(), Types.TUPLE([Types.STRING(), Types.INT()]))
    main, side = collect(ds, ds.get_side_output(tag))
    assert main == [("a", 1), ("a", 8), ("b", 2), ("b", 7), ("a", 3)]
    assert side == [1, 2, 1, 2, 3]


# -- broadcast ----------------------------------------------------------------------------------

class RulesThenEvents(BroadcastProcessFunction):
    def open(self, runtime_context):
        self.index = runtime_context.get_index_of_this_subtask()

    def process_element(self, value, ctx):
        yield "%d E%s %s" % (self.index, value, sorted(ctx.get_broadcast_state(RULES).items()))

    def process_broadcast_element(self, value, ctx):
        ctx.get_broadcast_state(RULES).put(value, value.upper())
        yield "%d B%s" % (self.index, value)


def test_broadcast_input_reaches_every_instance_in_order_before_any_event(env):
    env.set_parallelism(2)
    events = ints(env, [1, 2, 3, 4]).rebalance()
    rules = env.from_collection(["r1", "r2"], type_info=Types.STRING())
    out = collect(events.connect(rules.broadcast(RULES)).process(RulesThenEvents(),
                                                                   Types.STRING()),
                  parallelism=2)
    state = "[('r1', 'R1'), ('r2', 'R2')]"
    for index in (0, 1):
        mine = [line for line in out if line.startswith("%d " % index)]
        assert mine[:2] == ["%d Br1" % index, "%d Br2" % index]
        assert len(mine) == 4 and all(line.endswith(state) for line in mine[2:])


def test_parallel_broadcast_input_is_read_in_the_same_order_by_every_instance(env):
    env.set_parallelism(3)
    rules = env.from_collection(["r%d" % i for i in range(6)], type_info=Types.STRING()) \
        .rebalance().map(lambda r: r, output_type=Types.STRING())
    out = collect(ints(env, [1, 2]).rebalance().connect(rules.broadcast(RULES))
                  .process(RulesThenEvents(), Types.STRING()), parallelism=3)
    orders = [[l.split()[1] for l in out if l.startswith("%d B" % i)] for i in range(3)]
    assert orders[0] == orders[1] == orders[2]
    assert sorted(orders[0]) == ["Br%d" % i for i in range(6)]


def test_broadcast_state_is_read_only_on_the_event_side(env):
    class Writes(BroadcastProcessFunction):
        def process_element(self, value, ctx):
            ctx.get_broadcast_state(RULES).clear()

        def process_broadcast_element(self, value, ctx):
            pass

    with pytest.raises(UserFunctionError, match="read-only"):
        collect(ints(env, [1]).connect(ints(env, [2]).broadcast(RULES)).process(Writes()))


def test_broadcast_needs_map_state_descriptors_and_functions_must_match_keyedness(env):
    with pytest.raises(TypeError, match="MapStateDescriptor"):
        ints(env, [1]).broadcast(ValueStateDescriptor("v", Types.INT()))
    keyed = ints(env, [1]).key_by(lambda x: x)
    with pytest.raises(TypeError, match="non-keyed"):
        keyed.connect(ints(env, [2]).broadcast(RULES)).process(RulesThenEvents())
    with pytest.raises(TypeError, match="keyed DataStream"):
        ints(env, [1]).connect(ints(env, [2]).broadcast(RULES)).process(KeyedRules())
    with pytest.raises(TypeError, match="output_type"):
        keyed.connect(ints(env, [2]).broadcast(RULES)).process(KeyedRules(), output_type=1)


class KeyedRules(KeyedBroadcastProcessFunction):
    def open(self, runtime_context):
        self.seen = runtime_context.get_state(ValueStateDescriptor("seen", Types.INT()))

    def process_element(self, value, ctx):
        self.seen.update((self.seen.value() or 0) + 1)
        ctx.timer_service().register_event_time_timer(50)
        yield "E%s key=%s n=%s rules=%s wm=%s" % (
            value, ctx.get_current_key(), self.seen.value(),
            sorted(ctx.get_broadcast_state(RULES).keys()), ctx.current_watermark())

    def process_broadcast_element(self, value, ctx):
        ctx.get_broadcast_state(RULES)[value] = "on"
        yield "B%s" % value

    def on_timer(self, timestamp, ctx):
        yield "T%s key=%s n=%s rules=%s %s" % (
            timestamp, ctx.get_current_key(), self.seen.value(),
            sorted(ctx.get_broadcast_state(RULES).keys()), ctx.time_domain())


def test_keyed_broadcast_has_keyed_state_timers_and_broadcast_state_in_on_timer(env):
    events = env.from_collection(["a", "b", "a"], type_info=Types.STRING())
    rules = env.from_collection(["r1"], type_info=Types.STRING())
    out = collect(events.key_by(lambda x: x, key_type=Types.STRING())
                  .connect(rules.broadcast(RULES)).process(KeyedRules(), Types.STRING()))
    wm = -(2 ** 63)
    assert out == ["Br1",
                   "Ea key=a n=1 rules=['r1'] wm=%d" % wm,
                   "Eb key=b n=1 rules=['r1'] wm=%d" % wm,
                   "Ea key=a n=2 rules=['r1'] wm=%d" % wm,
                   "T50 key=a n=2 rules=['r1'] TimeDomain.EVENT_TIME",
                   "T50 key=b n=1 rules=['r1'] TimeDomain.EVENT_TIME"]


def test_keyed_broadcast_refuses_timers_on_the_broadcast_side(env):
    class BroadcastTimer(KeyedRules):
        def process_broadcast_element(self, value, ctx):
            ctx.timer_service().register_event_time_timer(1)

    with pytest.raises(UserFunctionError, match="process_broadcast_element"):
        collect(ints(env, [1]).key_by(lambda x: x)
                .connect(ints(env, [2]).broadcast(RULES)).process(BroadcastTimer()))


def test_keyed_broadcast_in_batch_mode_sees_all_rules_before_the_keys(env):
    events = env.from_collection(["b", "a"], type_info=Types.STRING())
    rules = env.from_collection(["r1", "r2"], type_info=Types.STRING())
    out = collect(events.key_by(lambda x: x, key_type=Types.STRING())
                  .connect(rules.broadcast(RULES)).process(KeyedRules(), Types.STRING()),
                  mode="BATCH")
    assert out[:2] == ["Br1", "Br2"]
    assert [line.split()[0] for line in out[2:]] == ["Ea", "T50", "Eb", "T50"]


def test_broadcast_process_takes_the_environment_parallelism_when_created(env):
    env.set_parallelism(3)
    ds = ints(env, [1]).connect(ints(env, [2]).broadcast(RULES)).process(RulesThenEvents())
    env.set_parallelism(1)
    job = compile_sinks([_sink(ds)], parallelism=1)
    assert job.operator(ds._transformation.id).parallelism == 3


# -- side outputs ---------------------------------------------------------------------------------

class Sides(ProcessFunction):
    def __init__(self, *tags):
        self.tags = tags

    def process_element(self, value, ctx):
        yield value
        for tag in self.tags:
            yield tag, value + 0.5


def test_side_output_values_take_the_tags_declared_type_chained_or_not(env):
    as_int = OutputTag("int", Types.INT())
    as_row = OutputTag("row", [Types.INT()])

    class Typed(ProcessFunction):
        def process_element(self, value, ctx):
            yield value
            yield as_int, value + 0.5
            yield as_row, Row(value)

    main = ints(env, [1, 2]).process(Typed(), Types.INT())
    chained = main.get_side_output(as_int).map(lambda v: repr(v), Types.STRING())
    shuffled = main.get_side_output(as_int).rebalance().map(lambda v: repr(v), Types.STRING())
    rows = main.get_side_output(as_row).map(lambda v: repr(v), Types.STRING())
    out = collect(chained, shuffled, rows, main.get_side_output(as_int))
    assert out == [["1", "2"], ["1", "2"], ["Row(f0=1)", "Row(f0=2)"], [1, 2]]


def test_side_outputs_without_any_consumer_are_main_records_as_in_pyflink(env):
    tag = OutputTag("unused", Types.INT())
    out = collect(ints(env, [1]).process(Sides(tag)))
    assert out == [1, (tag, 1.5)]


def test_side_output_tags_unconsumed_are_dropped_when_another_is_consumed(env):
    used, unused = OutputTag("used"), OutputTag("unused")
    main = ints(env, [1]).process(Sides(used, unused))
    assert collect(main, main.get_side_output(used)) == [[1], [1.5]]


def test_output_tag_reused_by_two_operators_names_two_side_outputs(env):
    tag = OutputTag("side", Types.INT())

    class Twice(ProcessFunction):
        def process_element(self, value, ctx):
            yield value
            yield tag, value * 2

    first = ints(env, [1, 2, 3]).process(Twice(), Types.INT())
    second = first.map(lambda i: i * 2, Types.INT()).process(Twice(), Types.INT())
    assert collect(first.get_side_output(tag), second.get_side_output(tag)) == [
        [2, 4, 6], [4, 8, 12]]


def test_side_output_feeds_a_keyed_operator_at_parallelism_two(env):
    tag = OutputTag("side", Types.TUPLE([Types.STRING(), Types.INT()]))

    class Emit(ProcessFunction):
        def process_element(self, value, ctx):
            yield tag, ("k%d" % (value % 3), value)

    side = ints(env, list(range(9))).process(Emit()).get_side_output(tag)
    out = collect(side.key_by(lambda t: t[0], key_type=Types.STRING()).reduce(
        lambda a, b: (a[0], a[1] + b[1])), parallelism=2)
    finals = {}
    for key, total in out:
        finals[key] = total
    assert finals == {"k0": 9, "k1": 12, "k2": 15}
