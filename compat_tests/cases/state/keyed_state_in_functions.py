"""Keyed state used from the functions of KeyedStream.map / flat_map / filter / reduce
(PyFlink runs them as keyed process functions, so get_state works in their open())."""
from pyflink.common import Types
from pyflink.datastream import (FilterFunction, FlatMapFunction, MapFunction, ReduceFunction,
                                StreamExecutionEnvironment)
from pyflink.datastream.state import ListStateDescriptor, ValueStateDescriptor


class Numbered(MapFunction):
    def open(self, runtime_context):
        self.n = runtime_context.get_state(ValueStateDescriptor("n", Types.INT()))

    def map(self, value):
        n = (self.n.value() or 0) + 1
        self.n.update(n)
        return "%s#%d" % (value[0], n)


class History(FlatMapFunction):
    def open(self, runtime_context):
        self.h = runtime_context.get_list_state(ListStateDescriptor("h", Types.INT()))

    def flat_map(self, value):
        self.h.add(value[1])
        yield "%s:%s" % (value[0], list(self.h.get()))


class FirstTwo(FilterFunction):
    def open(self, runtime_context):
        self.seen = runtime_context.get_state(ValueStateDescriptor("seen", Types.INT()))

    def filter(self, value):
        seen = (self.seen.value() or 0) + 1
        self.seen.update(seen)
        return seen <= 2


class CountingSum(ReduceFunction):
    def open(self, runtime_context):
        self.calls = runtime_context.get_state(ValueStateDescriptor("calls", Types.INT()))

    def reduce(self, a, b):
        calls = (self.calls.value() or 0) + 1
        self.calls.update(calls)
        return (a[0], a[1] + b[1] * 10 ** calls)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
data = [("a", 1), ("b", 2), ("a", 3), ("a", 4), ("b", 5), ("c", 6), ("a", 7)]
tup = Types.TUPLE([Types.STRING(), Types.INT()])


def keyed():
    return env.from_collection(data, type_info=tup).key_by(lambda v: v[0],
                                                           key_type=Types.STRING())


keyed().map(Numbered(), output_type=Types.STRING()).print()
env.execute("map")
keyed().flat_map(History(), output_type=Types.STRING()).print()
env.execute("flat_map")
keyed().filter(FirstTwo()).print()
env.execute("filter")
keyed().reduce(CountingSum()).print()
env.execute("reduce")
