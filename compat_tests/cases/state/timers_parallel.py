"""Keyed state and event-time timers at parallelism 2 with INT keys on both subtasks: each
subtask fires its own keys' timers at the end of input, reading and clearing the key's
state. Collected and sorted."""
from pyflink.common import Types
from pyflink.datastream import KeyedProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.state import ListStateDescriptor


class Session(KeyedProcessFunction):
    def open(self, runtime_context):
        self.index = runtime_context.get_index_of_this_subtask()
        self.events = runtime_context.get_list_state(ListStateDescriptor("e", Types.INT()))

    def process_element(self, value, ctx):
        key, t = value
        self.events.add(t)
        ctx.timer_service().register_event_time_timer(max(self.events.get()) + 100)
        ctx.timer_service().delete_event_time_timer(t - 1)
        yield "subtask %d key %d got %d" % (self.index, key, t)

    def on_timer(self, timestamp, ctx):
        events = list(self.events.get())
        self.events.clear()
        yield "subtask %d key %d timer %d events %s" % (self.index, ctx.get_current_key(),
                                                        timestamp, events)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
data = [(k, t) for t in (10, 40, 20) for k in range(6)]
out = (env.from_collection(data, type_info=Types.TUPLE([Types.INT(), Types.INT()]))
       .key_by(lambda v: v[0], key_type=Types.INT())
       .process(Session(), output_type=Types.STRING())
       .execute_and_collect())
for line in sorted(out):
    print(line)
