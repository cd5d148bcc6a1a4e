"""A keyed stream connected to a broadcast stream at parallelism 1: every rule is processed
before the first event (what PyFlink shows in small jobs, and the shim's fixed order), so each
event sees all rules; on_timer reads the broadcast state too."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedBroadcastProcessFunction
from pyflink.datastream.state import MapStateDescriptor, ValueStateDescriptor

RULES = MapStateDescriptor("rules", Types.STRING(), Types.INT())


class ApplyRules(KeyedBroadcastProcessFunction):
    def open(self, runtime_context):
        self.total = runtime_context.get_state(ValueStateDescriptor("total", Types.INT()))

    def process_element(self, value, ctx):
        rules = ctx.get_broadcast_state(RULES)
        factor = rules.get(value[0]) if rules.contains(value[0]) else 0
        self.total.update((self.total.value() or 0) + factor * value[1])
        # one timestamp per key: equal-timestamp timers of different keys fire in an order
        # Flink leaves open
        ctx.timer_service().register_event_time_timer(100 + ord(value[0]))
        yield "event %s -> %d (rules %s)" % (value, factor * value[1], sorted(rules.keys()))

    def process_broadcast_element(self, value, ctx):
        ctx.get_broadcast_state(RULES).put(value[0], value[1])
        yield "rule %s=%d" % value

    def on_timer(self, timestamp, ctx):
        rules = ctx.get_broadcast_state(RULES)
        yield "timer %s total=%d rules=%s" % (ctx.get_current_key(), self.total.value(),
                                               sorted(rules.items()))


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
tt = Types.TUPLE([Types.STRING(), Types.INT()])
events = env.from_collection([("a", 1), ("b", 2), ("a", 3), ("c", 4)], type_info=tt)
rules = env.from_collection([("a", 10), ("b", 100)], type_info=tt)
events.key_by(lambda e: e[0], key_type=Types.STRING()) \
    .connect(rules.broadcast(RULES)) \
    .process(ApplyRules(), output_type=Types.STRING()).print()
env.execute("rules first")
