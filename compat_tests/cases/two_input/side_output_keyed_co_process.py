"""Side outputs of a KeyedCoProcessFunction whose ReducingState counts a key's records over
both inputs (test_keyed_co_process_side_output). The count one record sees depends on how the
inputs interleave; the sorted counts do not."""
from pyflink.common import Types
from pyflink.datastream import OutputTag, StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedCoProcessFunction, RuntimeContext
from pyflink.datastream.state import ReducingStateDescriptor

tag = OutputTag("side", Types.INT())


class Count(KeyedCoProcessFunction):
    def open(self, context: RuntimeContext):
        self.count = context.get_reducing_state(
            ReducingStateDescriptor("reduce", lambda i, j: i + j, Types.INT()))

    def process_element1(self, value, ctx):
        yield ctx.get_current_key(), value[1]
        self.count.add(1)
        yield tag, self.count.get()

    def process_element2(self, value, ctx):
        yield ctx.get_current_key(), value[0]
        self.count.add(1)
        yield tag, self.count.get()


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds1 = env.from_collection([('a', 1), ('b', 2), ('a', 3), ('b', 4)],
                          type_info=Types.ROW([Types.STRING(), Types.INT()]))
ds2 = env.from_collection([(8, 'a'), (7, 'b'), (6, 'a'), (5, 'b')],
                          type_info=Types.ROW([Types.INT(), Types.STRING()]))
ds3 = ds1.key_by(lambda e: e[0]).connect(ds2.key_by(lambda e: e[1])) \
    .process(Count(), output_type=Types.TUPLE([Types.STRING(), Types.INT()]))
both = ds3.map(lambda v: "main %s" % (v,), Types.STRING()) \
    .union(ds3.get_side_output(tag).map(lambda v: "side %s" % v, Types.STRING()))
print(sorted(both.execute_and_collect()))
