"""Side outputs of a BroadcastProcessFunction (test_co_broadcast_side_output): each of the
2 instances processes every broadcast element, so its main and side outputs appear twice."""
from pyflink.common import Types
from pyflink.datastream import OutputTag, StreamExecutionEnvironment
from pyflink.datastream.functions import BroadcastProcessFunction
from pyflink.datastream.state import MapStateDescriptor

tag = OutputTag("side", Types.INT())


class Both(BroadcastProcessFunction):
    def process_element(self, value, ctx):
        yield value[0]
        yield tag, value[1]

    def process_broadcast_element(self, value, ctx):
        yield value[1]
        yield tag, value[0]


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds = env.from_collection([('a', 0), ('b', 1), ('c', 2)],
                         type_info=Types.ROW([Types.STRING(), Types.INT()]))
rules = env.from_collection([(3, 'd'), (4, 'f')], type_info=Types.ROW([Types.INT(), Types.STRING()]))
desc = MapStateDescriptor("dummy", key_type_info=Types.INT(), value_type_info=Types.STRING())
out = ds.connect(rules.broadcast(desc)).process(Both(), output_type=Types.STRING())
both = out.map(lambda v: "main %s" % (v,), Types.STRING()) \
    .union(out.get_side_output(tag).map(lambda v: "side %s" % v, Types.STRING()))
print(sorted(both.execute_and_collect()))
