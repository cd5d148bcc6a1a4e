"""Side outputs from both inputs of a CoProcessFunction (test_co_process_side_output)."""
from pyflink.common import Types
from pyflink.datastream import OutputTag, StreamExecutionEnvironment
from pyflink.datastream.functions import CoProcessFunction

tag = OutputTag("side", Types.INT())


class Both(CoProcessFunction):
    def process_element1(self, value, ctx):
        yield value[0]
        yield tag, value[1]

    def process_element2(self, value, ctx):
        yield value[1]
        yield tag, value[0]


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds1 = env.from_collection([('a', 0), ('b', 1), ('c', 2)],
                          type_info=Types.ROW([Types.STRING(), Types.INT()]))
ds2 = env.from_collection([(3, 'c'), (1, 'a'), (0, 'd')],
                          type_info=Types.ROW([Types.INT(), Types.STRING()]))
ds3 = ds1.connect(ds2).process(Both(), output_type=Types.STRING())
both = ds3.map(lambda v: "main %s" % (v,), Types.STRING()) \
    .union(ds3.get_side_output(tag).map(lambda v: "side %s" % v, Types.STRING()))
print(sorted(both.execute_and_collect()))
