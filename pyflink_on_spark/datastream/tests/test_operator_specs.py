"""The API describes each operation as a typed spec on its graph node (specs.operators,
specs.partitioning): what runs, with the stream's key selector and key type where keyed."""
from pyflink_on_spark.common import Types
from pyflink_on_spark.datastream import (
    BroadcastProcessFunction, CoMapFunction, CoProcessFunction, KeyedBroadcastProcessFunction,
    KeyedProcessFunction, ProcessFunction, StreamExecutionEnvironment)
from pyflink_on_spark.datastream.state import MapStateDescriptor
from pyflink_on_spark.datastream.window import TumblingEventTimeWindows
from pyflink_on_spark.common.time import Time
from pyflink_on_spark.specs import operators as op
from pyflink_on_spark.specs import partitioning as part

RULES = MapStateDescriptor("rules", Types.STRING(), Types.STRING())


class Both(CoMapFunction):
    def map1(self, value):
        return value

    def map2(self, value):
        return value


class Co(CoProcessFunction):
    def process_element1(self, value, ctx):
        yield value

    def process_element2(self, value, ctx):
        yield value


class Rules(BroadcastProcessFunction):
    def process_element(self, value, ctx):
        yield value

    def process_broadcast_element(self, value, ctx):
        yield value


class KeyedRules(KeyedBroadcastProcessFunction):
    def process_element(self, value, ctx):
        yield value

    def process_broadcast_element(self, value, ctx):
        yield value


class Pass(ProcessFunction):
    def process_element(self, value, ctx):
        yield value


class KeyedPass(KeyedProcessFunction):
    def process_element(self, value, ctx):
        yield value


def _ints():
    env = StreamExecutionEnvironment.get_execution_environment()
    return env.from_collection([1, 2, 3], type_info=Types.INT())


def _spec(stream):
    return stream._transformation.spec


def test_one_input_operations_hold_their_function_in_their_spec():
    ds = _ints()
    assert type(_spec(ds.map(lambda v: v))) is op.MapSpec
    assert type(_spec(ds.flat_map(lambda v: [v]))) is op.FlatMapSpec
    assert type(_spec(ds.filter(lambda v: True))) is op.FilterSpec
    process = Pass()
    assert _spec(ds.process(process)) == op.ProcessSpec(process)
    assert type(_spec(ds.assign_timestamps_and_watermarks(None))) is op.TimestampsSpec
    assert _spec(ds.map(lambda v: v + 1)).function.map(1) == 2


def test_keyed_operations_carry_the_key_selector_and_key_type():
    keyed = _ints().key_by(lambda v: v % 2, key_type=Types.INT())
    for stream, spec_class in [(keyed.map(lambda v: v), op.KeyedMapSpec),
                               (keyed.flat_map(lambda v: [v]), op.KeyedFlatMapSpec),
                               (keyed.filter(lambda v: True), op.KeyedFilterSpec),
                               (keyed.process(KeyedPass()), op.KeyedProcessSpec),
                               (keyed.reduce(lambda a, b: a), op.ReduceSpec)]:
        spec = _spec(stream)
        assert type(spec) is spec_class
        assert spec.key_selector.get_key(3) == 1 and spec.key_type == Types.INT()
    total = _spec(keyed.sum(0))
    assert (total.aggregation, total.position, total.key_type) == (
        op.Aggregation.SUM, 0, Types.INT())
    assert _spec(keyed.max_by("f1")).aggregation is op.Aggregation.MAX_BY
    window = _spec(keyed.window(TumblingEventTimeWindows.of(Time.milliseconds(5)))
                   .reduce(lambda a, b: a))
    assert type(window) is op.WindowSpec and window.key_type == Types.INT()
    assert isinstance(window.operation.assigner, TumblingEventTimeWindows)


def test_partitionings_are_one_class_each():
    ds = _ints()
    for stream, cls in [(ds.shuffle(), part.ShufflePartitioning),
                        (ds.rebalance(), part.RebalancePartitioning),
                        (ds.rescale(), part.RescalePartitioning),
                        (ds.forward(), part.ForwardPartitioning),
                        (ds.broadcast(), part.BroadcastPartitioning)]:
        node = stream._transformation
        assert type(node.partitioning) is cls and node.name == cls.label
    custom = ds.partition_custom(lambda key, n: key % n, lambda v: v)._transformation
    assert custom.partitioning.partitioner.partition(5, 2) == 1
    assert custom.partitioning.key_selector.get_key(7) == 7
    keyed = ds.key_by(lambda v: -v, key_type=Types.INT())._transformation.partitioning
    assert type(keyed) is part.KeyedPartitioning
    assert keyed.key_selector.get_key(2) == -2 and keyed.key_type == Types.INT()


def test_connected_streams_are_keyed_only_when_both_inputs_are():
    a, b = _ints(), _ints()
    assert type(_spec(a.connect(b).map(Both()))) is op.CoMapSpec
    assert _spec(a.connect(b).process(Co())).input_key_selectors == (None, None)
    mixed = _spec(a.key_by(lambda v: v).connect(b).process(Co()))
    assert type(mixed) is op.CoProcessSpec
    assert mixed.input_key_selectors[0].get_key(4) == 4 and mixed.input_key_selectors[1] is None
    keyed = _spec(a.connect(b).key_by(lambda v: v, lambda v: -v, key_type=Types.INT())
                  .map(Both()))
    assert type(keyed) is op.KeyedCoMapSpec
    assert (keyed.key_selector1.get_key(1), keyed.key_selector2.get_key(1)) == (1, -1)
    assert keyed.key_type == Types.INT()


def test_broadcast_connections_pick_the_keyed_or_non_keyed_spec():
    a, rules = _ints(), _ints().broadcast(RULES)
    function = Rules()
    assert _spec(a.connect(rules).process(function)) == op.BroadcastProcessSpec(function)
    keyed = _spec(a.key_by(lambda v: v, key_type=Types.INT()).connect(rules)
                  .process(KeyedRules()))
    assert type(keyed) is op.KeyedBroadcastProcessSpec and keyed.key_type == Types.INT()
