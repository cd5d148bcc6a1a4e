"""An operator on which get_side_output was never called emits what it yields as
(OutputTag, value) on its main output, unchanged (PyFlink routes tags only for operators
with side outputs); a chained map then sees the tuples. A side output read through a chained
map works on a fresh graph."""
from pyflink.common import Types
from pyflink.datastream import OutputTag, ProcessFunction, StreamExecutionEnvironment

words = OutputTag("words", Types.STRING())


class Route(ProcessFunction):
    def process_element(self, value, ctx):
        if value % 2 == 0:
            yield words, "even-%d" % value
        yield value * 100


def describe(v):
    if isinstance(v, tuple) and isinstance(v[0], OutputTag):
        return "tagged %s %s" % (v[0].tag_id, v[1])
    return "main %s" % (v,)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
nums = env.from_collection([1, 2, 3, 4], type_info=Types.INT())
untouched = nums.process(Route()).map(describe, output_type=Types.STRING())
print("no get_side_output on the operator", list(untouched.execute_and_collect()))

env2 = StreamExecutionEnvironment.get_execution_environment()
env2.set_parallelism(1)
fresh = env2.from_collection([1, 2, 3, 4], type_info=Types.INT()).process(
    Route(), output_type=Types.INT())
upper = fresh.get_side_output(words).map(lambda w: w.upper(), output_type=Types.STRING())
print("mapped side output", list(upper.execute_and_collect()))
