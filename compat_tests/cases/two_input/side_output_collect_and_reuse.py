"""execute_and_collect on a side output (test_side_output_stream_execute_and_collect) and one
OutputTag used by two process operators (test_side_output_tag_reusing)."""
from pyflink.common import Types
from pyflink.datastream import OutputTag, StreamExecutionEnvironment
from pyflink.datastream.functions import ProcessFunction

tag = OutputTag("side", Types.INT())


class Double(ProcessFunction):
    def process_element(self, value, ctx):
        yield value
        yield tag, value * 2


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds = env.from_collection([1, 2, 3], Types.INT()).process(Double())
print("collected side", sorted(ds.get_side_output(tag).execute_and_collect()))

first = env.from_collection([1, 2, 3], Types.INT()).process(Double())
second = first.map(lambda i: i * 2).process(Double())
tagged = first.get_side_output(tag).map(lambda v: "first %d" % v, Types.STRING()) \
    .union(second.get_side_output(tag).map(lambda v: "second %d" % v, Types.STRING()))
print(sorted(tagged.execute_and_collect()))
