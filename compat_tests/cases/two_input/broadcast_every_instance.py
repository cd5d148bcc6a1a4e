"""Every parallel instance receives every broadcast element: each of 3 subtasks reports the
rules it holds at the end (a keyed event per subtask fires a timer), and how many broadcast
elements it processed."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import BroadcastProcessFunction, KeyedBroadcastProcessFunction
from pyflink.datastream.state import MapStateDescriptor

RULES = MapStateDescriptor("rules", Types.INT(), Types.STRING())


class CountRules(BroadcastProcessFunction):
    def open(self, runtime_context):
        self.index = runtime_context.get_index_of_this_subtask()

    def process_element(self, value, ctx):
        return []

    def process_broadcast_element(self, value, ctx):
        ctx.get_broadcast_state(RULES)[value] = "r%d" % value
        yield "subtask %d got rule %d" % (self.index, value)


class Report(KeyedBroadcastProcessFunction):
    def open(self, runtime_context):
        self.index = runtime_context.get_index_of_this_subtask()

    def process_element(self, value, ctx):
        ctx.timer_service().register_event_time_timer(1)

    def process_broadcast_element(self, value, ctx):
        ctx.get_broadcast_state(RULES)[value] = "r%d" % value

    def on_timer(self, timestamp, ctx):
        yield "key %s at subtask %d sees %s" % (
            ctx.get_current_key(), self.index, sorted(ctx.get_broadcast_state(RULES).values()))


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(3)
rules = env.from_collection([1, 2, 3], type_info=Types.INT())
events = env.from_collection([10, 11, 12, 13], type_info=Types.INT())
for line in sorted(events.connect(rules.broadcast(RULES)).process(CountRules(), Types.STRING())
                   .execute_and_collect()):
    print(line)
out = events.key_by(lambda x: x, key_type=Types.INT()).connect(rules.broadcast(RULES)) \
    .process(Report(), Types.STRING())
for line in sorted(out.execute_and_collect()):
    print(line)
