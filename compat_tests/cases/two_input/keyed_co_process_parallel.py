"""Keyed co-process at parallelism 2: both inputs of a key meet in the subtask the key hashes
to; each key's final count (both inputs) and the keyed state seen by its timer."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedCoProcessFunction
from pyflink.datastream.state import ListStateDescriptor


class Gather(KeyedCoProcessFunction):
    def open(self, runtime_context):
        self.seen = runtime_context.get_list_state(ListStateDescriptor("seen", Types.STRING()))
        self.index = runtime_context.get_index_of_this_subtask()

    def process_element1(self, value, ctx):
        self.seen.add("L%d" % value[1])
        ctx.timer_service().register_event_time_timer(10)

    def process_element2(self, value, ctx):
        self.seen.add("R%d" % value[1])
        ctx.timer_service().register_event_time_timer(10)

    def on_timer(self, timestamp, ctx):
        yield "%s@%d %s" % (ctx.get_current_key(), self.index, sorted(self.seen.get()))


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
tt = Types.TUPLE([Types.STRING(), Types.INT()])
left = env.from_collection([("k%d" % (i % 5), i) for i in range(10)], type_info=tt)
right = env.from_collection([("k%d" % (i % 4), 100 + i) for i in range(8)], type_info=tt)
out = left.connect(right).key_by(lambda t: t[0], lambda t: t[0], key_type=Types.STRING()) \
    .process(Gather(), output_type=Types.STRING())
for line in sorted(out.execute_and_collect()):
    print(line)
