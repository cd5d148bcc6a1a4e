"""BATCH mode at parallelism 1: a keyed co-map runs key by key, alternating the inputs within
a key (the input with fewer records first); a keyed broadcast process reads every broadcast
element before the keyed input."""
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import CoMapFunction, KeyedBroadcastProcessFunction
from pyflink.datastream.state import MapStateDescriptor

SEEN = MapStateDescriptor("seen", Types.STRING(), Types.STRING())


class Tag(CoMapFunction):
    def map1(self, value):
        return "L" + value

    def map2(self, value):
        return "R" + value


class Rules(KeyedBroadcastProcessFunction):
    def process_element(self, value, ctx):
        yield "E%s %s" % (value, sorted(ctx.get_broadcast_state(SEEN).keys()))

    def process_broadcast_element(self, value, ctx):
        ctx.get_broadcast_state(SEEN).put(value, value)
        yield "B" + value


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.set_runtime_mode(RuntimeExecutionMode.BATCH)
a = env.from_collection(["b1", "a1", "b2", "a2", "b3"], type_info=Types.STRING())
b = env.from_collection(["a9", "b9", "a8"], type_info=Types.STRING())
print(list(a.connect(b).key_by(lambda x: x[0], lambda x: x[0], key_type=Types.STRING())
           .map(Tag(), Types.STRING()).execute_and_collect()))
print(list(b.connect(a).key_by(lambda x: x[0], lambda x: x[0], key_type=Types.STRING())
           .map(Tag(), Types.STRING()).execute_and_collect()))
print(list(a.key_by(lambda x: x[0], key_type=Types.STRING()).connect(b.broadcast(SEEN))
           .process(Rules(), Types.STRING()).execute_and_collect()))
