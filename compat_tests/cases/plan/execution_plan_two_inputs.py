"""get_execution_plan() with union (edges straight from every input), connect + co-map,
a keyed connect (a key_by map per input) and a side output (PyFlink maps a side output to
its tag's type: a "Map" that chains with the next Python operator; an operator read by a
side output and by a sink chains with nothing)."""
from pyflink.common import Types
from pyflink.datastream import (CoMapFunction, KeyedCoProcessFunction, OutputTag,
                                ProcessFunction, StreamExecutionEnvironment)

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(3)
a = env.from_collection([1, 2], type_info=Types.INT())
b = env.from_collection([3], type_info=Types.INT())
c = env.from_collection(["x"], type_info=Types.STRING())


class ToText(CoMapFunction):
    def map1(self, value):
        return str(value)

    def map2(self, value):
        return value


class Both(KeyedCoProcessFunction):
    def process_element1(self, value, ctx):
        yield str(value)

    def process_element2(self, value, ctx):
        yield value


a.union(b).connect(c).map(ToText(), output_type=Types.STRING()).print()
a.connect(c).key_by(lambda x: str(x), lambda y: y).process(Both(), Types.STRING()) \
    .map(lambda s: s + "!", Types.STRING()).print()

odd = OutputTag("odd", Types.INT())


class Split(ProcessFunction):
    def process_element(self, value, ctx):
        if value % 2:
            yield odd, value
        else:
            yield value


split = b.process(Split(), output_type=Types.INT())
split.get_side_output(odd).map(lambda x: x * 10, output_type=Types.INT()).print()
split.print()
print(env.get_execution_plan())
