"""BATCH mode fires processing-time timers too, at the end of their key (after its event-time
timers), whatever their timestamp: on_timer sees ctx.timestamp() equal to the timer's
timestamp, the watermark Long.MAX_VALUE, and its output carries the timer's timestamp to the
next operator (across an exchange). Lines printed sorted (PyFlink's BATCH interleaving of
timer output is its own, see docs/compatibility.md)."""
from pyflink.common import Types
from pyflink.datastream import (KeyedProcessFunction, ProcessFunction, RuntimeExecutionMode,
                                StreamExecutionEnvironment, TimeDomain)


class Timers(KeyedProcessFunction):
    def process_element(self, value, ctx):
        ctx.timer_service().register_processing_time_timer(5 + value)
        ctx.timer_service().register_event_time_timer(1000 + value)
        if value == 2:
            ctx.timer_service().delete_processing_time_timer(5 + value)
        yield "element %d" % value

    def on_timer(self, timestamp, ctx):
        domain = "event" if ctx.time_domain() == TimeDomain.EVENT_TIME else "processing"
        if timestamp == 6:
            ctx.timer_service().register_processing_time_timer(3)
        yield "%s timer %d key=%d ts=%d wm=%d" % (domain, timestamp, ctx.get_current_key(),
                                                 ctx.timestamp(),
                                                 ctx.timer_service().current_watermark())


class Stamp(ProcessFunction):
    def process_element(self, value, ctx):
        yield "%s | downstream ts=%d" % (value, ctx.timestamp())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.set_runtime_mode(RuntimeExecutionMode.BATCH)
out = (env.from_collection([1, 2, 3, 11], type_info=Types.INT())
       .key_by(lambda v: v % 10, key_type=Types.INT())
       .process(Timers(), output_type=Types.STRING())
       .rebalance()
       .process(Stamp(), output_type=Types.STRING())
       .execute_and_collect())
for line in sorted(out):
    print(line)
