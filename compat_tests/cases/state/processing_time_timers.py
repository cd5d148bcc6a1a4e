"""Processing-time timers still pending when the bounded input ends do not fire (STREAMING);
current_processing_time() is the wall clock in ms. Timers due before the end are not a compat
case: whether PyFlink fires them depends on wall-clock timing."""
import time

from pyflink.common import Types
from pyflink.datastream import KeyedProcessFunction, StreamExecutionEnvironment

START_MS = int(time.time() * 1000)


class Later(KeyedProcessFunction):
    def process_element(self, value, ctx):
        timers = ctx.timer_service()
        now = timers.current_processing_time()
        timers.register_processing_time_timer(now + 3_600_000 + value)
        if value % 2:
            timers.delete_processing_time_timer(now + 3_600_000 + value)
        yield "element %d now is int: %s, not before job start: %s, wm=%d" % (
            value, type(now) is int, now >= START_MS, timers.current_watermark())

    def on_timer(self, timestamp, ctx):
        yield "timer %d fired" % timestamp


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
(env.from_collection([1, 2, 3, 4], type_info=Types.INT())
    .key_by(lambda v: v % 2, key_type=Types.INT())
    .process(Later(), output_type=Types.STRING())
    .print())
env.execute("processing-time timers")
print("done")
