"""PyFlink routes `yield tag, value` to a side output only when some side output of the
operator is consumed; otherwise the (OutputTag, value) tuple is an ordinary record."""
from pyflink.common import Types
from pyflink.datastream import OutputTag, StreamExecutionEnvironment
from pyflink.datastream.functions import ProcessFunction

tag = OutputTag("side", Types.INT())
other = OutputTag("other", Types.STRING())


class Emit(ProcessFunction):
    def process_element(self, value, ctx):
        yield value
        yield tag, value * 10
        yield other, "o%d" % value


def describe(v):
    if isinstance(v, tuple):
        return "tuple of %s with %r" % (type(v[0]).__name__, v[1])
    return repr(v)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
print("no consumer", env.from_collection([1, 2], type_info=Types.INT()).process(Emit())
      .map(describe, Types.STRING()).execute_and_collect(limit=10))
main = env.from_collection([1, 2], type_info=Types.INT()).process(Emit())
print("one consumed", main.get_side_output(other).execute_and_collect(limit=10))
