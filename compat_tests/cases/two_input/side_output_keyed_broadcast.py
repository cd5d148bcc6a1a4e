"""Side outputs of a KeyedBroadcastProcessFunction with a keyed ReducingState
(test_keyed_co_broadcast_side_output)."""
from pyflink.common import Types
from pyflink.datastream import OutputTag, StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedBroadcastProcessFunction, RuntimeContext
from pyflink.datastream.state import MapStateDescriptor, ReducingStateDescriptor

tag = OutputTag("side", Types.INT())


class Both(KeyedBroadcastProcessFunction):
    def open(self, context: RuntimeContext):
        self.total = context.get_reducing_state(
            ReducingStateDescriptor("reduce", lambda i, j: i + j, Types.INT()))

    def process_element(self, value, ctx):
        self.total.add(value[1])
        yield value[0]
        yield tag, self.total.get()

    def process_broadcast_element(self, value, ctx):
        yield value[1]
        yield tag, value[0]


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds = env.from_collection([('a', 0), ('b', 1), ('a', 2), ('b', 3)],
                         type_info=Types.ROW([Types.STRING(), Types.INT()]))
rules = env.from_collection([(5, 'c'), (6, 'd')], type_info=Types.ROW([Types.INT(), Types.STRING()]))
desc = MapStateDescriptor("dummy", key_type_info=Types.INT(), value_type_info=Types.STRING())
out = ds.key_by(lambda e: e[0]).connect(rules.broadcast(desc)) \
    .process(Both(), output_type=Types.STRING())
both = out.map(lambda v: "main %s" % (v,), Types.STRING()) \
    .union(out.get_side_output(tag).map(lambda v: "side %s" % v, Types.STRING()))
print(sorted(both.execute_and_collect()))
