"""Event-time timers: registered per key, deduplicated by timestamp, deletable, fired in
timestamp order when the end of the bounded input sends the maximum watermark; on_timer sees
the key, its state, the timer timestamp as ctx.timestamp(), the time domain, and may register
a new timer, which fires too."""
from pyflink.common import Types
from pyflink.datastream import KeyedProcessFunction, StreamExecutionEnvironment, TimeDomain
from pyflink.datastream.state import ValueStateDescriptor


class Timers(KeyedProcessFunction):
    def open(self, runtime_context):
        self.seen = runtime_context.get_state(ValueStateDescriptor("seen", Types.STRING()))

    def process_element(self, value, ctx):
        key, ts, op = value
        timers = ctx.timer_service()
        if op == "reg":
            timers.register_event_time_timer(ts)
        elif op == "reg2":
            timers.register_event_time_timer(ts)
            timers.register_event_time_timer(ts)
        elif op == "del":
            timers.delete_event_time_timer(ts)
        elif op == "del_missing":
            timers.delete_event_time_timer(ts + 12345)
        self.seen.update((self.seen.value() or "") + "%s%d;" % (op, ts))
        yield "element %s %s %d wm=%d" % (key, op, ts, timers.current_watermark())

    def on_timer(self, timestamp, ctx):
        domain = "event" if ctx.time_domain() == TimeDomain.EVENT_TIME else "processing"
        yield "timer %s at %d ts=%d %s wm=%d seen=%s" % (
            ctx.get_current_key(), timestamp, ctx.timestamp(), domain,
            ctx.timer_service().current_watermark(), self.seen.value())
        if timestamp == 30:
            ctx.timer_service().register_event_time_timer(35)
            ctx.timer_service().register_event_time_timer(5)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
data = [("a", 50, "reg"), ("b", 20, "reg2"), ("a", 10, "reg"), ("a", 40, "reg"),
        ("a", 40, "del"), ("b", 30, "reg"), ("a", 10, "reg"), ("b", 60, "del_missing"),
        ("b", 70, "reg"), ("a", 70, "reg"), ("b", 70, "del"), ("b", 70, "reg")]
(env.from_collection(data, type_info=Types.TUPLE([Types.STRING(), Types.LONG(), Types.STRING()]))
    .key_by(lambda v: v[0], key_type=Types.STRING())
    .process(Timers(), output_type=Types.STRING())
    .print())
env.execute("event-time timers")
