"""A KeyedProcessFunction with state and timers in STREAMING and BATCH mode. BATCH
processes the input key by key (keys in serialized order) with a watermark of
Long.MIN_VALUE during elements and Long.MAX_VALUE in timers, and fires both event-time and
processing-time timers at the end of each key; STREAMING fires event-time timers at the end
of input and drops pending processing-time timers. PyFlink interleaves BATCH timer output
with the next key's elements, so the BATCH lines are printed sorted (see
docs/compatibility.md)."""
from pyflink.common import Types
from pyflink.datastream import (KeyedProcessFunction, RuntimeExecutionMode,
                                StreamExecutionEnvironment, TimeDomain)
from pyflink.datastream.state import ValueStateDescriptor


class CountAndTimers(KeyedProcessFunction):
    def open(self, runtime_context):
        self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.INT()))

    def process_element(self, value, ctx):
        count = (self.count.value() or 0) + 1
        self.count.update(count)
        timers = ctx.timer_service()
        timers.register_event_time_timer(100 + value)
        timers.register_processing_time_timer(timers.current_processing_time() + 3_600_000 + value)
        yield "element %d key=%d count=%d wm=%d" % (value, ctx.get_current_key(), count,
                                                    timers.current_watermark())

    def on_timer(self, timestamp, ctx):
        domain = "event" if ctx.time_domain() == TimeDomain.EVENT_TIME else "processing"
        shown = timestamp if domain == "event" else "(now + 1 h)"
        yield "%s timer %s key=%d count=%d wm=%d" % (
            domain, shown, ctx.get_current_key(), self.count.value(),
            ctx.timer_service().current_watermark())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
data = [5, 2, 4, 1, 3, 6, 8]
for mode in [RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH]:
    env.set_runtime_mode(mode)
    print("--", "STREAMING" if mode == RuntimeExecutionMode.STREAMING else "BATCH", flush=True)
    out = (env.from_collection(data, type_info=Types.INT())
           .key_by(lambda v: v % 3, key_type=Types.INT())
           .process(CountAndTimers(), output_type=Types.STRING())
           .execute_and_collect())
    lines = list(out)
    for line in (lines if mode == RuntimeExecutionMode.STREAMING else sorted(lines)):
        print(line)
